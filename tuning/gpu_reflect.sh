#!/usr/bin/env bash
# C2R's split column pass (cl/c2r_columns.h) with strips of 1, 2 or 4
# lines and windows of several heights (the knobs CLIPT_C2R_STRIP_LINES
# and CLIPT_C2R_REFLECT_HEIGHT), next to a baseline tree, on fresh
# coprime shapes: forced C2R with CLIPT_C2R_COLUMNS=split, so that every
# shape's column pass is the reflection and the walk.
#   VARIANTS  "lines:height ..." (default below); "new" this tree's own
#             choice (no knob); "base" the baseline,
#             "base:H" the baseline with windows of H pairs (its copy
#             needs CLIPT_C2R_REFLECT_HEIGHT patched in)
#   SETS      "elem:count ..." (default "4:12 8:6 2:6 16:4")
#   SEED      the lists' seed (default 2026112901; SEED+elem per size)
#   BASE_SRC  the baseline's source tree (default .base, if present)
#   DEADLINE  no variant starts after this many seconds (default 480)
#   MAXDIM    sides at most this (a quick check on PoCL: CLIPT_PLATFORM=Portable)
# Writes to $OUT (default /tmp/clipt-reflect): shapes_E.txt, E_VARIANT.csv,
# the logs, and summary.txt (printed): per size and variant, the median
# and p10 of the column pass in copies' time (pass ms / copy ms of the
# same shape, the copy counting one read and one write of the matrix) and
# of the whole plan's ratio to copy.  Every variant verifies its first
# two shapes bit-exact (verified column).
set -uo pipefail
out=${OUT:-/tmp/clipt-reflect}
mkdir -p "$out"
seed=${SEED:-2026112901}
deadline=${DEADLINE:-480}
variants=${VARIANTS:-"base 1:96 1:64 1:128 1:160 2:48 2:64 2:96 4:32 4:48"}
sets=${SETS:-"4:12 8:6 2:6 16:4"}
jobs=$(nproc)
base_src=${BASE_SRC:-.base}
build() { # source dir, build dir, log
    cmake -S "$1" -B "$2" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > "$3" 2>&1 &&
        cmake --build "$2" -j"$jobs" --target clipt_cli >> "$3" 2>&1
}
new=build-reflect/src/cli/clipt
old=
if [ -d "$base_src" ]; then
    base_build=$(mktemp -d)
    build "$base_src" "$base_build" "$out/build_base.log" & base_pid=$!
fi
build . build-reflect "$out/build_new.log" || { tail -30 "$out/build_new.log"; exit 1; }
if [ -n "${base_pid:-}" ]; then
    wait "$base_pid" && old=$base_build/src/cli/clipt ||
        tail -20 "$out/build_base.log"
fi
echo "built in ${SECONDS}s"
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA} CLIPT_C2R_COLUMNS=split
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" 2>/dev/null
cat "$out/gpu.txt" 2>/dev/null

for s in $sets; do
    elem=${s%%:*} count=${s##*:}
    python3 tuning/shapes.py coprime --count "$count" --seed $((seed + elem)) --elem "$elem" \
        --max-side "${MAXDIM:-0}" > "$out/shapes_$elem.txt"
done

status=0
. "$(dirname "$0")/bench_chunks.sh"
# tag, binary, elem, then the knobs as NAME=VALUE (none: unset): the
# list's first two shapes verified, the rest timed only
measure() {
    local tag=$1 bin=$2 elem=$3 part=$out/shapes_$3.txt
    shift 3
    head -3 "$part" > "$part.verify"
    grep -v '^#' "$part" | tail -n +3 > "$part.rest"
    (
        unset CLIPT_C2R_STRIP_LINES CLIPT_C2R_REFLECT_HEIGHT
        for knob in "$@"; do export "${knob?}"; done
        bench_chunk "$tag" 60 "$part.verify" "$bin" --elem "$elem" --algorithm c2r --repeat 3
        bench_chunk "$tag" 120 "$part.rest" "$bin" --elem "$elem" --algorithm c2r --repeat 3 \
            --no-verify
    )
}
rm -f "$out"/*.csv
for v in $variants; do
    [ "$SECONDS" -lt "$deadline" ] || { echo "deadline: stopped before $v"; break; }
    for s in $sets; do
        elem=${s%%:*}
        case $v in
        new) measure "${elem}_new" "$new" "$elem" ;; # this tree's own choice
        base) [ -z "$old" ] || measure "${elem}_base" "$old" "$elem" ;;
        base:*) # the baseline with windows of H pairs (a knob patched
            # into the copy measured, not in its tree)
            [ -z "$old" ] || measure "${elem}_base${v#base:}" "$old" "$elem" \
                CLIPT_C2R_REFLECT_HEIGHT="${v#base:}" ;;
        *) measure "${elem}_${v/:/x}" "$new" "$elem" CLIPT_C2R_STRIP_LINES="${v%%:*}" \
               CLIPT_C2R_REFLECT_HEIGHT="${v##*:}" ;;
        esac
    done
    echo "$v done at ${SECONDS}s"
done

python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, glob, os, statistics, sys
out = sys.argv[1]
def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]
rows = {}
for path in sorted(glob.glob(os.path.join(out, "[0-9]*_*.csv"))):
    tag = os.path.basename(path)[:-4]
    elem, variant = tag.split("_", 1)
    for r in csv.DictReader(open(path)):
        b = int(r["rows"]) * int(r["cols"]) * int(r["elem"])
        copy_ms = 2 * b / float(r["copy_gbs"]) / 1e6
        stages = [float(x) for x in r["stages_ms"].split(";")]
        rows.setdefault((int(elem), variant), []).append(
            (stages[-1] / copy_ms, float(r["ratio"]), r["verified"]))
print("elem variant(lines x height) shapes  column pass in copies: median p10(worst)  "
      "plan ratio: median p10  verified")
for (elem, variant), v in sorted(rows.items()):
    cp = [x[0] for x in v]; ra = [x[1] for x in v]
    ok = sum(x[2] == "yes" for x in v); checked = sum(x[2] in ("yes", "no") for x in v)
    print(f"{elem:4d} {variant:10s} {len(v):4d}  {statistics.median(cp):6.2f} "
          f"{pct(cp, 0.9):6.2f}   {100 * statistics.median(ra):5.1f} {100 * pct(ra, 0.1):5.1f}"
          f"   {ok}/{checked}")
PY
exit $status
