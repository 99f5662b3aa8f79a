#!/usr/bin/env bash
# Where C2R's passes spend their time, per kernel: this tree's kernels,
# then copies of cl/ with the reflection (c2r_reflect) or the walk
# (c2r_save_heads, c2r_walk_rows) emptied (CLIPT_KERNEL_PATH), forced C2R
# with the split column pass on fresh coprime shapes (the emptied runs do
# not verify: they time what is left); and the streamed rotation, the
# first pass of forced C2R on shapes with a common factor.
#   SETS   "elem:count ..." of coprime shapes (default "4:16 2:12")
#   VARIANTS  (default "base noreflect nowalk") each KERNELS[+VAR=VALUE...]:
#          KERNELS base (this tree's), noreflect, nowalk, or NAME=VALUE[,...]
#          (a copy of cl/ with those build options first in c2r.cl, each
#          after an #undef, so that they replace the host's -D values); each
#          +VAR=VALUE an environment variable for the run (a knob,
#          tuning/README.md)
#   CLIPT_BIN  a clipt already built (default: build one in build-parts)
#   SEED   the lists' seed (default 2026120410; SEED + elem per size;
#          tuning/shapes.py coprime and common-factor)
#   GCD_COUNT  shapes a size for the rotation (default 8; 0: none)
#   MAXDIM sides at most this (default: the general set's; a quick check
#          on PoCL, CLIPT_PLATFORM=Portable, wants a few hundred)
# Writes $OUT (default /tmp/clipt-c2r-parts): the lists, E_VARIANT.csv,
# E_rot.csv, logs, and summary.txt (printed): per size and variant the
# median (min-max) of each pass in copies' time (pass ms / copy ms of the
# same shape, the copy counting one read and one write of the matrix).
set -uo pipefail
out=${OUT:-/tmp/clipt-c2r-parts}
mkdir -p "$out"
seed=${SEED:-2026120410}
if [ -z "${CLIPT_BIN:-}" ]; then
    cmake -S . -B build-parts -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > "$out/build.log" 2>&1 &&
        cmake --build build-parts -j"$(nproc)" --target clipt_cli >> "$out/build.log" 2>&1 ||
        { tail -20 "$out/build.log"; exit 1; }
fi
b=${CLIPT_BIN:-build-parts/src/cli/clipt}
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}

# a copy of cl/ in $1 with the kernels named after it returning at once
empty() {
    local d=$1
    shift
    rm -rf "$d" && cp -r cl "$d"
    python3 - "$d/c2r_columns.h" "$@" <<'PY'
import sys
path, names = sys.argv[1], sys.argv[2:]
s = open(path).read()
for name in names:
    at = s.index(name + ")") if "WALK_KERNEL(" + name in s else s.index("void " + name + "(")
    body = s.index("\n{\n", at) + 3
    s = s[:body] + "    if (get_global_size(0)) return;\n" + s[body:]
open(path, "w").write(s)
PY
}
empty "$out/k_noreflect" c2r_reflect
empty "$out/k_nowalk" c2r_save_heads c2r_walk_rows
# a copy of cl/ in $1 with the build options $2 (NAME=VALUE,...) first in
# c2r.cl
defines() {
    rm -rf "$1" && cp -r cl "$1"
    python3 - "$1/c2r.cl" "$2" <<'PY'
import sys
path, defs = sys.argv[1], sys.argv[2]
head = "".join("#undef %s\n#define %s %s\n" % ((d.split("=", 1)[0],) + tuple(d.split("=", 1)))
               for d in defs.split(","))
body = open(path).read()
open(path, "w").write(head + body)
PY
}
variants=${VARIANTS:-base noreflect nowalk}

for s in ${SETS:-4:16 2:12}; do
    e=${s%%:*} n=${s##*:}
    python3 tuning/shapes.py coprime --count "$n" --seed $((seed + e)) --elem "$e" \
        --max-side "${MAXDIM:-0}" > "$out/coprime_$e.txt"
    python3 tuning/shapes.py common-factor --count "${GCD_COUNT:-8}" --seed $((seed + 100 + e)) \
        --elem "$e" --max-side "${MAXDIM:-0}" > "$out/gcd_$e.txt"
    grep -v '^#' "$out/coprime_$e.txt" | head -2 > "$out/verify_$e.txt"
    for v in $variants; do
        IFS=+ read -r -a part <<< "$v"
        tag=$(echo "$v" | tr '=,+' '-_.')
        k=(env)
        case ${part[0]} in
            base) ;;
            noreflect|nowalk) k+=(CLIPT_KERNEL_PATH="$out/k_${part[0]}") ;;
            *) [ -d "$out/k_$tag" ] || defines "$out/k_$tag" "${part[0]}"
               k+=(CLIPT_KERNEL_PATH="$out/k_$tag") ;;
        esac
        k+=("${part[@]:1}")
        case ${part[0]} in
            noreflect|nowalk) ;;
            *) CLIPT_C2R_COLUMNS=split timeout 100 "${k[@]}" $b bench --shapes "$out/verify_$e.txt" \
                   --elem "$e" --algorithm c2r --repeat 1 --csv "$out/verify_${e}_$tag.csv" \
                   > "$out/verify_${e}_$tag.log" 2>&1 ;;
        esac
        CLIPT_C2R_COLUMNS=split timeout 150 "${k[@]}" $b bench --shapes "$out/coprime_$e.txt" \
            --elem "$e" --algorithm c2r --repeat 3 --no-verify --csv "$out/${e}_$tag.csv" \
            > "$out/${e}_$tag.log" 2>&1 || echo "$e $v: exit $?"
    done
    [ "${GCD_COUNT:-8}" -gt 0 ] &&
        { timeout 150 $b bench --shapes "$out/gcd_$e.txt" --elem "$e" --algorithm c2r --repeat 3 \
              --csv "$out/${e}_rot.csv" > "$out/${e}_rot.log" 2>&1 || echo "rot $e: exit $?"; }
done

python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, glob, os, statistics as st, sys
o = sys.argv[1]
def passes(path):
    got = []
    for x in csv.DictReader(open(path)):
        if not x["time_ms"]:
            continue
        copy_ms = 2 * int(x["rows"]) * int(x["cols"]) * int(x["elem"]) / float(x["copy_gbs"]) / 1e6
        got.append((x, [float(t) / copy_ms for t in x["stages_ms"].split(";") if t]))
    return got
def line(tag, got):
    if not got:
        return f"{tag}: no results"
    k = max(len(p) for _, p in got)
    cols = []
    for i in range(k):
        v = [p[i] for _, p in got if len(p) > i]
        cols.append(f"pass {i + 1} {st.median(v):.2f} ({min(v):.2f}-{max(v):.2f})")
    rat = st.median(float(x["ratio"]) for x, _ in got)
    return f"{tag}: n={len(got)} plan {100 * rat:.1f} % of copy; " + "; ".join(cols)
for f in sorted(glob.glob(o + "/verify_*.csv")):
    r = list(csv.DictReader(open(f)))
    print(os.path.basename(f), "verified", sum(x["verified"] == "yes" for x in r), "of", len(r))
for v in os.environ.get("VARIANTS", "base noreflect nowalk").split() + ["rot"]:
    tag = v.translate(str.maketrans("=,+", "-_."))
    for f in sorted(glob.glob(f"{o}/*_{tag}.csv")):
        if tag == "rot" or not os.path.basename(f).startswith(("verify", "rot")):
            print(line(os.path.basename(f)[:-4], passes(f)))
PY
