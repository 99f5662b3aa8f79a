#!/usr/bin/env bash
# The automatic plan's C2R (issue 14, tuning c2r_column_bytes): the
# automatic plans of the base and of this tree, side by side in one run.
# Builds two trees on the device machine (Release, clipt_cli only, both at
# once): the base (see below) in build-c2r-base/ and this tree in
# build-c2r/, then runs `clipt bench --mode repeated --repeat REPEAT`
# (default 3) with both on three fresh sets:
#   a  COUNT_A (60) coprime fp32 shapes, rows uniform in [1000, 3000], cols
#      in [1000, 20000] (python random.Random(SEED), default 20261140, pairs
#      with gcd > 1 dropped): where the rule takes C2R (columns <= 12288
#      bytes on the H100) and just past it;
#   b  COUNT_B (20) coprime fp64 shapes, rows in [1000, 1536], cols in
#      [1000, 20000] (Random(SEED + 1)): columns of 8-12.3 KB;
#   c  COUNT_C (100) general fp32 shapes (tuning/shapes.py general --seed
#      20261141 --elem 4), the control: mostly TPDS in both trees.
# TALL=1 swaps rows and cols in sets a and b (short rows: where the rule
# takes R2C, the inverse decomposition).
# The base runs --no-verify; this tree verifies its first VERIFY (default
# 8) shapes of each set (a second bench run on them: the results of its
# C2R plans are checked against the host's transpose) and times the rest
# --no-verify.
#
# The base: BASE_SRC=dir, a source tree; else `git archive $BASE_REF` of
# this checkout (default main).  The device machine's copy of the checkout
# has no .git: there, make the base on the workstation first,
#   echo /.base/ >> .git/info/exclude; rm -rf .base; mkdir .base
#   git archive main | tar -x -C .base
# and run with carry [".base"] and BASE_SRC=.base.
#
# Writes to $OUT summary.txt and c2r_auto.tgz, which holds it with
# shapes_{a,b,c}.txt (and their verify_shapes_ / rest_shapes_ halves),
# {base,this}_{a,b,c}.csv and .log (this_: the shapes past the verified
# ones), verify_{a,b,c}.csv and .log, gpu.txt and the build logs.  The summary (also printed): per
# set the median % of copy bandwidth of both trees, the per-shape speed-up
# this / base (base ms / this ms: median, min, max, shapes above 1.05 and
# below 0.95; also apart for the shapes this tree ran with C2R and the
# others), how many shapes each tree ran with C2R (the CSV's sequence
# column: "c2r"), the verified count, and one line per shape.  Each step
# runs under its own time limit, so one that fails or hangs never stops
# the others.  About 3-4 min with the builds (estimate from
# tuning/gpu_pool.sh's runs, whose four benches of 100 general shapes took
# most of its 4 minutes).
# Usage: [SEED=S] [COUNT_A=N] [COUNT_B=N] [COUNT_C=N] [REPEAT=K] [VERIFY=N]
#        [BASE_SRC=dir] [SMALL=1] [TALL=1] tuning/gpu_c2r_auto.sh
# (SMALL=1: every side range divided by 10, for a try on PoCL with
# CLIPT_PLATFORM=Portable; set c then comes from the same generator.)
set -uo pipefail
dest=${OUT:-/tmp/clipt-c2r-auto}
out=$(mktemp -d /tmp/clipt-c2r-auto-run.XXXXXX)
mkdir -p "$dest"
finish() { cp "$out/summary.txt" "$dest/" 2>/dev/null; tar -czf "$dest/c2r_auto.tgz" -C "$out" .; }
trap finish EXIT
seed=${SEED:-20261140}
count_a=${COUNT_A:-60}
count_b=${COUNT_B:-20}
count_c=${COUNT_C:-100}
repeat=${REPEAT:-3}
verify=${VERIFY:-8}
small=${SMALL:-0}
tall=${TALL:-0}
here=$PWD
jobs=$(nproc 2>/dev/null || echo 4)
half=$(( jobs > 1 ? jobs / 2 : 1 ))
status=0
base_src=${BASE_SRC:-}
if [ -z "$base_src" ]; then
    base_src=$(mktemp -d /tmp/clipt-c2r-base.XXXXXX)
    git archive "${BASE_REF:-main}" | tar -x -C "$base_src" ||
        { echo "no base: git archive ${BASE_REF:-main} failed (set BASE_SRC)"; exit 1; }
fi
build() { # source dir, build dir, log name
    timeout 200 cmake -S "$1" -B "$2" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release \
        > "$out/$3.log" 2>&1 &&
        timeout 200 cmake --build "$2" -j"$half" --target clipt_cli >> "$out/$3.log" 2>&1
}
build "$base_src" "$here/build-c2r-base" build_base & base_pid=$!
build "$here" "$here/build-c2r" build_this & this_pid=$!
wait $base_pid || { echo "base build failed:"; tail -30 "$out/build_base.log"; exit 1; }
wait $this_pid || { echo "this tree's build failed:"; tail -30 "$out/build_this.log"; exit 1; }
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    > "$out/gpu.txt" 2>/dev/null && cat "$out/gpu.txt"
# the sets: coprime ones from random.Random, the control from shapes.py
coprime() { # count, seed, rows lo, rows hi, cols lo, cols hi, elem (TALL: swapped)
    python3 - "$@" "$tall" <<'PY'
import math, random, sys
count, seed, rlo, rhi, clo, chi, elem, tall = map(int, sys.argv[1:])
rng = random.Random(seed)
sides = "cols" if tall else "rows", "rows" if tall else "cols"
print(f"# coprime, {sides[0]} in [{rlo}, {rhi}], {sides[1]} in [{clo}, {chi}], {elem}-byte, "
      f"random.Random({seed})")
k = 0
while k < count:
    rows, cols = rng.randint(rlo, rhi), rng.randint(clo, chi)
    if math.gcd(rows, cols) == 1:
        print(*((cols, rows) if tall else (rows, cols)))
        k += 1
PY
}
d=$(( small ? 10 : 1 ))
coprime "$count_a" "$seed" $((1000 / d)) $((3000 / d)) $((1000 / d)) $((20000 / d)) 4 \
    > "$out/shapes_a.txt" || exit 1
coprime "$count_b" $((seed + 1)) $((1000 / d)) $((1536 / d)) $((1000 / d)) $((20000 / d)) 8 \
    > "$out/shapes_b.txt" || exit 1
if [ "$small" = 1 ]; then
    python3 - "$count_c" <<'PY' > "$out/shapes_c.txt" || exit 1
import random, sys
rng = random.Random(20261141)
print("# general fp32, sides in [100, 2000] (SMALL=1), random.Random(20261141)")
for _ in range(int(sys.argv[1])):
    print(rng.randint(100, 2000), rng.randint(100, 2000))
PY
else
    python3 tuning/shapes.py general --count "$count_c" --seed 20261141 --elem 4 \
        > "$out/shapes_c.txt" || exit 1
fi
bench() { # build dir, shapes file, elem, time limit, csv/log name, extra arguments
    local dir=$1 shapes=$2 elem=$3 limit=$4 name=$5
    shift 5
    echo "== $name: clipt bench --elem $elem $*"
    timeout "$limit" "$dir/src/cli/clipt" bench --shapes "$shapes" --elem "$elem" \
        --mode repeated --repeat "$repeat" --csv "$out/$name.csv" "$@" > "$out/$name.log" 2>&1 ||
        { echo "$name: exit status $? (see $name.log)"; status=1; }
    grep -E "^(median|ratio)|wrong" "$out/$name.log"
}
for set in a b c; do
    elem=4; [ $set = b ] && elem=8
    count=$(grep -vc "^#" "$out/shapes_$set.txt")
    limit=$(( 20 + count * 6 / 10 )) # seconds per bench run (gpu_pool.sh's)
    grep -v "^#" "$out/shapes_$set.txt" | head -n "$verify" > "$out/verify_shapes_$set.txt"
    grep -v "^#" "$out/shapes_$set.txt" | tail -n +"$((verify + 1))" > "$out/rest_shapes_$set.txt"
    bench "$here/build-c2r-base" "$out/shapes_$set.txt" $elem $limit "base_$set" --no-verify
    bench "$here/build-c2r" "$out/verify_shapes_$set.txt" $elem 90 "verify_$set"
    if [ -s "$out/rest_shapes_$set.txt" ]; then
        bench "$here/build-c2r" "$out/rest_shapes_$set.txt" $elem $limit "this_$set" --no-verify
    fi
done
python3 - "$out" "$verify" <<'PY' | tee "$out/summary.txt"
import csv, os, statistics, sys
out, verify = sys.argv[1], int(sys.argv[2])
def load(name):
    path = os.path.join(out, name + ".csv")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [r for r in csv.DictReader(f) if r.get("time_ms")]
def med(v):
    return statistics.median(v) if v else float("nan")
short = "cols" if os.environ.get("TALL") == "1" else "rows"
sets = {"a": f"coprime fp32, {short} 1000-3000", "b": f"coprime fp64, {short} 1000-1536",
        "c": "general fp32 (control)"}
def family(r):  # Catanzaro et al.'s decomposition, either way
    return r["sequence"] in ("c2r", "r2c")
for s, title in sets.items():
    base = {(r["rows"], r["cols"]): r for r in load(f"base_{s}")}
    # this tree: the verified first shapes, then the rest
    this_rows = load(f"verify_{s}") + load(f"this_{s}")
    this = {(r["rows"], r["cols"]): r for r in this_rows}
    keys = [k for k in this if k in base]
    print(f"== set {s}: {title}: {len(keys)} shapes measured by both "
          f"(base {len(base)}, this {len(this)})")
    if not keys:
        continue
    for tree, rows in (("base", base), ("this", this)):
        ratios = sorted(100 * float(rows[k]["ratio"]) for k in keys)
        c2r = sum(rows[k]["sequence"] == "c2r" for k in keys)
        r2c = sum(rows[k]["sequence"] == "r2c" for k in keys)
        print(f"  {tree}: median {med(ratios):5.1f} % of copy, p10 "
              f"{ratios[int(0.1 * (len(ratios) - 1))]:5.1f} %; C2R on {c2r}, R2C on {r2c} "
              f"of {len(keys)}")
    def speedups(ks):
        return sorted(float(base[k]["time_ms"]) / float(this[k]["time_ms"]) for k in ks
                      if float(this[k]["time_ms"]) > 0)
    for what, ks in (("all", keys), ("C2R or R2C here", [k for k in keys if family(this[k])]),
                     ("TPDS here", [k for k in keys if not family(this[k])])):
        v = speedups(ks)
        if v:
            print(f"  speed-up this/base, {what} ({len(v)}): median {med(v):.3f}, min "
                  f"{v[0]:.3f}, max {v[-1]:.3f}, > 1.05: {sum(x > 1.05 for x in v)}, "
                  f"< 0.95: {sum(x < 0.95 for x in v)}")
    checked = load(f"verify_{s}")
    good = sum(r["verified"] == "yes" for r in checked)
    print(f"  verified (this tree, first {verify} shapes): {good} of {len(checked)} bit-exact"
          f"{'' if good == len(checked) else '  <-- WRONG RESULTS'}")
    print("  rows x cols: base sequence ms % | this sequence ms % | this/base")
    for k in keys:
        b, t = base[k], this[k]
        print(f"  {k[0]} x {k[1]}: {b['sequence']} {float(b['time_ms']):.3f} "
              f"{100 * float(b['ratio']):.1f} | {t['sequence']} {float(t['time_ms']):.3f} "
              f"{100 * float(t['ratio']):.1f} | "
              f"{float(b['time_ms']) / float(t['time_ms']):.3f}")
PY
exit $status
