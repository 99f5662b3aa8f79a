#!/usr/bin/env bash
# C2R and R2C forced, and the automatic plan, on general coprime shapes
# (issue 14: the C2R target is stated for the coprime shapes of a general
# set; R2C is C2R's inverse on the cols x rows view, whose column passes
# run along the rows).  Builds this tree (Release, clipt_cli) and runs
# `clipt bench --mode repeated --repeat 3` with --algorithm c2r, r2c and
# auto on the same shapes, chunk by chunk (5 shapes; the three runs of a
# chunk one after the other, so that their ratios to copy compare):
#   fp32   COUNT (60) general fp32 shapes, sides in [1000, 20000],
#          gcd(rows, cols) = 1 (python random.Random(SEED), default
#          20261170), as tuning/gpu_c2r_speed.sh draws them;
#   fp64   COUNT64 (20) likewise, sides up to 15000 (Random(SEED + 1)).
# SET=skinny draws the coprime shapes of tuning/shapes.py skinny instead
# (long side in [10^4, 10^7], short side in [2, 32], both orientations),
# for fp32 and fp64 alike; ALGOS (default "c2r r2c auto") names the
# --algorithm values run (e.g. "tpds auto": the automatic plan against the
# TPDS sequences alone).
# The first 2 shapes of each set are verified bit-exact with each forced
# algorithm of ALGOS.
# A chunk whose run fails is rerun shape by shape, so one failure never
# spoils the rest; no chunk starts after DEADLINE seconds (default 200,
# the build included).
# ELEMS="1 2" runs sets of those element sizes instead (named e1, e2, ...;
# COUNT shapes each, sides up to 15000 for 8 and 16 bytes).
# Writes to $OUT: shapes_*.txt, {c2r,r2c,auto}_{fp32,fp64}.csv and logs,
# verify_*.csv, gpu.txt and summary.txt (printed): per set the median and
# p10 % of copy of C2R, R2C, the better of the two per shape (the family
# at its best, as a per-shape choice between them would get) and the
# automatic plan, and how many shapes each beats the automatic plan on.
# Usage: [SEED=S] [COUNT=N] [COUNT64=N] [DEADLINE=s] [SET=skinny] [ALGOS=...]
#        tuning/gpu_r2c.sh
# (on PoCL: CLIPT_PLATFORM=Portable MAXDIM=600 COUNT=2 COUNT64=1).
set -uo pipefail
out=${OUT:-/tmp/clipt-r2c}
mkdir -p "$out"
seed=${SEED:-20261170}
algos=${ALGOS:-c2r r2c auto}
set_kind=${SET:-general}
deadline=${DEADLINE:-200}
jobs=$(nproc 2>/dev/null || echo 4)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S . -B build-r2c -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > "$out/build.log" 2>&1 &&
    cmake --build build-r2c -j"$jobs" --target clipt_cli >> "$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; exit 1; }
bin=build-r2c/src/cli/clipt
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    > "$out/gpu.txt" 2>/dev/null && cat "$out/gpu.txt"

shapes() { # count, seed, largest side, file
    python3 - "$@" "$set_kind" <<'PY'
import math, os, random, sys
count, seed, hi, path, kind = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
top = min(hi, int(os.environ.get("MAXDIM", "0")) or hi)
lo = min(1000, (top + 1) // 2)
rng, got, k = random.Random(seed), [], 0
while len(got) < count:
    if kind == "skinny":  # as tuning/shapes.py skinny
        long_side, short_side = rng.randint(10**4, 10**7), rng.randint(2, 32)
        r, c = (long_side, short_side) if k % 2 == 0 else (short_side, long_side)
        k += 1
    else:
        r, c = rng.randint(lo, top), rng.randint(lo, top)
    if math.gcd(r, c) == 1:
        got.append((r, c))
with open(path, "w") as f:
    what = "skinny (tuning/shapes.py's)" if kind == "skinny" else f"general, sides in [{lo}, {top}]"
    f.write(f"# {what}, coprime, random.Random({seed})\n")
    f.write("".join(f"{r} {c}\n" for r, c in got))
PY
}
# the sets: name and element size, in order
sets=()
if [ -n "${ELEMS:-}" ]; then
    for e in $ELEMS; do sets+=("e$e:$e"); done
else
    sets=(fp32:4 fp64:8)
fi
k=0
for entry in "${sets[@]}"; do
    name=${entry%%:*} elem=${entry#*:}
    count=${COUNT:-60}; [ "$name" = fp64 ] && count=${COUNT64:-20}
    top=20000; [ "$elem" -ge 8 ] && top=15000
    shapes "$count" $((seed + k)) $top "$out/shapes_$name.txt" || exit 1
    k=$((k + 1))
done
elem_of() { local entry; for entry in "${sets[@]}"; do [ "${entry%%:*}" = "$1" ] && echo "${entry#*:}"; done; }

status=0
. "$(dirname "$0")/bench_chunks.sh"
bench() { # tag, algorithm, elem, shape file, extra arguments: rows to $out/$tag.csv
    local tag=$1 algo=$2 elem=$3 part=$4
    shift 4
    bench_chunk "$tag" 60 "$part" "$bin" --elem "$elem" --algorithm "$algo" --mode repeated "$@"
}
rm -f "$out"/*.csv
for entry in "${sets[@]}"; do
    set=${entry%%:*} elem=${entry#*:}
    grep -v '^#' "$out/shapes_$set.txt" | head -2 > "$work/verify_$set"
    for algo in $algos; do
        [ "$algo" = auto ] || bench "verify_${algo}_$set" "$algo" $elem "$work/verify_$set" --repeat 1
    done
    grep -v '^#' "$out/shapes_$set.txt" | split -l 5 -d -a 3 - "$work/$set-"
done
for part in $(for entry in "${sets[@]}"; do ls "$work/${entry%%:*}"-*; done); do
    case $part in *.csv) continue ;; esac
    [ "$SECONDS" -lt "$deadline" ] || { echo "deadline: stopped before $(basename "$part")"; break; }
    set=$(basename "$part" | cut -d- -f1)
    elem=$(elem_of "$set")
    for algo in $algos; do
        bench "${algo}_$set" $algo $elem "$part" --repeat 3 --no-verify
    done
done

python3 - "$out" "${sets[*]}" $algos <<'PY' | tee "$out/summary.txt"
import csv, os, statistics, sys
out, set_names, algos = sys.argv[1], [e.split(":")[0] for e in sys.argv[2].split()], sys.argv[3:]
def load(name):
    path = os.path.join(out, name + ".csv")
    if not os.path.exists(path):
        return {}
    return {(r["rows"], r["cols"]): r for r in csv.DictReader(open(path)) if r.get("time_ms")}
def stats(v):
    v = sorted(v)
    return (f"median {statistics.median(v):5.1f} %, p10 {v[int(0.1 * (len(v) - 1))]:5.1f} %"
            if v else "none")
kind = "skinny" if os.environ.get("SET") == "skinny" else "general"
for s in set_names:
    title = f"{kind} coprime {s}"
    runs = {a: load(f"{a}_{s}") for a in algos}
    keys = sorted(set.intersection(*(set(d) for d in runs.values())))
    print(f"== {title}: {len(keys)} shapes measured by all of {' '.join(algos)}")
    if not keys:
        continue
    pct = {a: {k: 100 * float(runs[a][k]["ratio"]) for k in keys} for a in runs}
    named = [(f"{a} forced" if a != "auto" else "automatic", pct[a]) for a in algos]
    if "c2r" in pct and "r2c" in pct:
        named.append(("better of C2R and R2C",
                      {k: max(pct["c2r"][k], pct["r2c"][k]) for k in keys}))
    for name, d in named:
        beats = (f"; above auto (> 2 %) on {sum(d[k] > pct['auto'][k] * 1.02 for k in keys)}"
                 if "auto" in pct else "")
        print(f"  {name:22s} {stats(list(d.values()))} of copy{beats}")
    if "auto" in runs:
        fam = sum(runs["auto"][k]["sequence"] in ("c2r", "r2c") for k in keys)
        print(f"  the automatic plan took C2R or R2C on {fam} of {len(keys)}")
    for k in keys:
        print(f"  {k[0]} x {k[1]}: " + " ".join(
            f"{a} {runs[a][k]['sequence'] + ' ' if a == 'auto' else ''}{pct[a][k]:5.1f}"
            for a in algos))
for name in sorted(f for f in os.listdir(out) if f.startswith("verify_") and f.endswith(".csv")):
    rows = list(csv.DictReader(open(os.path.join(out, name))))
    good = sum(r["verified"] == "yes" for r in rows)
    print(f"{name}: {good} of {len(rows)} verified bit-exact")
PY
exit $status
