# Sourced by the tuning/gpu_*.sh scripts: one `clipt bench` run over a
# chunk of shapes, so that one shape that fails or hangs never spoils the
# rest of a device run.
#
# bench_chunk TAG LIMIT PART BIN ARGS...
#   runs `BIN bench --shapes PART ARGS --csv ...` under `timeout LIMIT`,
#   its output appended to $out/TAG.log; when that fails, reruns PART
#   shape by shape (each under the same limit) and sets status=1; the rows
#   measured are appended to $out/TAG.csv (its header once).  Uses the
#   caller's $out and $status.
bench_chunk() {
    local tag=$1 limit=$2 part=$3 bin=$4 csv=$3.$1.csv r c
    shift 4
    rm -f "$csv"
    if ! timeout "$limit" "$bin" bench --shapes "$part" "$@" --csv "$csv" \
        >> "$out/$tag.log" 2>&1; then
        echo "$tag: $(basename "$part") failed; shape by shape" | tee -a "$out/$tag.log"
        rm -f "$csv"
        grep -v '^#' "$part" | while read -r r c; do
            echo "$r $c" > "$part.one"
            timeout "$limit" "$bin" bench --shapes "$part.one" "$@" --csv "$part.one.csv" \
                >> "$out/$tag.log" 2>&1 ||
                echo "$tag: $r x $c failed (exit $?)" | tee -a "$out/$tag.log"
            [ -f "$part.one.csv" ] || continue
            if [ -f "$csv" ]; then tail -n +2 "$part.one.csv" >> "$csv"; else cp "$part.one.csv" "$csv"; fi
            rm -f "$part.one.csv"
        done
        status=1
    fi
    [ -f "$csv" ] || return 0
    if [ -f "$out/$tag.csv" ]; then tail -n +2 "$csv" >> "$out/$tag.csv"; else cp "$csv" "$out/$tag.csv"; fi
}
