#!/usr/bin/env bash
# The context's pool of kernels and buffers (issue 13, "never below 50 %"):
# single use next to repeated use, before and after, in one run.  Builds
# two trees on the device machine (Release): the base (see below)
# in build-pool-base/ and this tree in build-pool/, then on the same fresh
# general fp32 shapes (tuning/shapes.py general --seed 20261127, COUNT of
# them, default 100):
#   clipt bench --mode repeated  base, pool   (device time, plan made once)
#   clipt bench --mode single    base, pool   (create + enqueue + wait +
#                                              release per run, host clock)
# each --repeat REPEAT (default 3) --no-verify; then --mode single with verification on the
# first VERIFY shapes (default 8) of the pool tree (its plans run on kernels
# and buffers that earlier plans gave back); clipt_plan_time --repeat 5 on
# every shape for both trees (creation alone: no plan runs, so nothing of
# the shape is pooled); then clipt_plan_time --cycle
# --repeat 5 on the first CYCLE shapes (default 40) for both trees (the
# cycle split by phase), and once more for the pool tree under
# tuning/cl_time_shim.c (time inside the OpenCL runtime, by function).
#
# The base: BASE_SRC=dir, a source tree; else `git archive $BASE_REF` of
# this checkout (default 2c3ee8f, main where the pool branch started: after
# a merge, main is the pool tree).  The device machine's copy of the
# checkout has no .git: there, make the base on the workstation first,
#   echo /.base/ >> .git/info/exclude; rm -rf .base; mkdir .base
#   git archive 2c3ee8f | tar -x -C .base          (3 MB)
# and run with carry [".base"] and BASE_SRC=.base.
#
# Writes to $OUT summary.txt and pool_run.tar.gz, which holds it with
# shapes.txt, {base,pool}_{repeated,single}.csv and .log, verify.log,
# cycle_{base,pool}.csv, plan_time_{base,pool}.csv and .log, cycle_shim.log and the build logs.  The summary
# (also printed): per shape the repeated device ms, the single host ms and
# single / repeated throughput (= repeated ms / single ms) of both trees;
# per tree the median, p10, min and the count of shapes below 50 %; the
# cycle's phases (medians) per tree.  Each step runs under its own time
# limit, so one that fails or hangs never stops the others.  About 4 min
# with the builds for COUNT=100 (estimate from gpu_oneshot.sh's runs).
# "pool" names this tree throughout (it was the pool branch when the script
# was written).  Since the segment tables are pooled by contents, the
# single runs' first run of a shape is the one whose plan lists the cycles and cuts
# its tables; the summary gives it apart (repeated / first).
# Usage: [COUNT=N] [SEED=S] [REPEAT=K] [VERIFY=N] [CYCLE=N] [BASE_SRC=dir] [SHAPES=file]
# tuning/gpu_pool.sh (SHAPES: that shape list instead, e.g. small shapes
# for a try on PoCL with CLIPT_PLATFORM=Portable).
set -uo pipefail
# the files are written to a work folder; $OUT receives summary.txt and
# all of them in pool_run.tar.gz (the device machine returns few files)
dest=${OUT:-/tmp/clipt-pool}
out=$(mktemp -d /tmp/clipt-pool-run.XXXXXX)
mkdir -p "$dest"
finish() { cp "$out/summary.txt" "$dest/" 2>/dev/null; tar -czf "$dest/pool_run.tar.gz" -C "$out" .; }
trap finish EXIT
count=${COUNT:-100}
verify=${VERIFY:-8}
ncycle=${CYCLE:-40}
seed=${SEED:-20261127}
repeat=${REPEAT:-3}
here=$PWD
jobs=$(nproc 2>/dev/null || echo 4)
status=0
base_src=${BASE_SRC:-}
if [ -z "$base_src" ]; then
    base_src=$(mktemp -d /tmp/clipt-pool-base.XXXXXX)
    git archive "${BASE_REF:-2c3ee8f}" | tar -x -C "$base_src" ||
        { echo "no base: git archive ${BASE_REF:-2c3ee8f} failed (set BASE_SRC)"; exit 1; }
fi
build() { # source dir, build dir, log name
    cmake -S "$1" -B "$2" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > "$out/$3.log" 2>&1 &&
        cmake --build "$2" -j"$jobs" --target clipt_cli clipt_plan_time clipt_cl_time_shim \
            >> "$out/$3.log" 2>&1 || { tail -30 "$out/$3.log"; exit 1; }
}
build "$base_src" "$here/build-pool-base" build_base
build "$here" "$here/build-pool" build_pool
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    > "$out/gpu.txt" 2>/dev/null && cat "$out/gpu.txt"
if [ -n "${SHAPES:-}" ]; then # a shape file instead (tests on PoCL)
    cp "$SHAPES" "$out/shapes.txt" || exit 1
else
    python3 tuning/shapes.py general --count "$count" --seed "$seed" --elem 4 \
        > "$out/shapes.txt" || exit 1
fi
limit=$(( 20 + count * 6 / 10 )) # seconds per bench run
bench() { # tree, mode, shapes file, csv/log name, extra arguments
    local tree=$1 mode=$2 shapes=$3 name=$4
    shift 4
    echo "== $tree: clipt bench --mode $mode $*"
    timeout "$limit" "$here/build-pool${tree#pool}/src/cli/clipt" bench --shapes "$shapes" \
        --elem 4 --mode "$mode" --csv "$out/$name.csv" "$@" > "$out/$name.log" 2>&1 || {
        echo "$name: exit status $? (see $name.log)"
        status=1
    }
    grep -E "^(mode|median|ratio)" "$out/$name.log"
}
# build-pool-base for the base, build-pool for the pool tree
bench pool-base repeated "$out/shapes.txt" base_repeated --repeat "$repeat" --no-verify
bench pool repeated "$out/shapes.txt" pool_repeated --repeat "$repeat" --no-verify
bench pool-base single "$out/shapes.txt" base_single --repeat "$repeat" --no-verify
bench pool single "$out/shapes.txt" pool_single --repeat "$repeat" --no-verify
grep -v "^#" "$out/shapes.txt" | head -n "$verify" > "$out/verify_shapes.txt"
bench pool single "$out/verify_shapes.txt" verify --repeat 2
all_shapes=$(awk '!/^#/ && NF >= 2 {printf "%sx%s ", $1, $2}' "$out/shapes.txt")
cycle_shapes=$(echo "$all_shapes" | cut -d' ' -f1-"$ncycle")
for tree in base pool; do # creation alone, nothing pooled for the shape (no plan runs)
    dir=$here/build-pool; [ $tree = base ] && dir=$here/build-pool-base
    echo "== $tree: clipt_plan_time --repeat 5 (every shape)"
    # shellcheck disable=SC2086 # one argument per shape
    timeout 120 "$dir/tuning/clipt_plan_time" --repeat 5 $all_shapes \
        > "$out/plan_time_$tree.csv" 2> "$out/plan_time_$tree.log" || {
        echo "plan_time $tree: exit status $?"; status=1; }
    cat "$out/plan_time_$tree.log"
done
for tree in base pool; do
    dir=$here/build-pool; [ $tree = base ] && dir=$here/build-pool-base
    echo "== $tree: clipt_plan_time --cycle --repeat 5 (first $ncycle shapes)"
    # shellcheck disable=SC2086 # one argument per shape
    timeout 60 "$dir/tuning/clipt_plan_time" --cycle --repeat 5 $cycle_shapes \
        > "$out/cycle_$tree.csv" 2> "$out/cycle_$tree.log" || {
        echo "cycle $tree: exit status $?"; status=1; }
    cat "$out/cycle_$tree.log"
done
# shellcheck disable=SC2086
LD_PRELOAD=$here/build-pool/tuning/libclipt_cl_time_shim.so timeout 60 \
    "$here/build-pool/tuning/clipt_plan_time" --cycle --repeat 5 $cycle_shapes \
    > /dev/null 2> "$out/cycle_shim.log" || { echo "cycle (shim): exit status $?"; status=1; }
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, os, statistics, sys
out = sys.argv[1]
def load(name, column="time_ms"):
    path = os.path.join(out, name + ".csv")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {(r["rows"], r["cols"]): float(r[column]) for r in csv.DictReader(f)
                if r.get(column)}
t = {n: load(n) for n in ("base_repeated", "base_single", "pool_repeated", "pool_single")}
# the single runs' first run of each shape: its plan finds nothing of the
# shape in the pool (this tree's CSV only; the base's leaves first_ms empty)
t["pool_first"] = load("pool_single", "first_ms")
keys = [k for k in t["pool_single"] if k in t["pool_repeated"]]
print("rows x cols: base repeated ms, single ms, single/repeated | "
      "pool repeated ms, single ms, single/repeated")
ratio = {"base": [], "pool": []}
for k in keys:
    cells = []
    for tree in ("base", "pool"):
        rep, sin = t[tree + "_repeated"].get(k), t[tree + "_single"].get(k)
        if rep and sin:
            ratio[tree].append((rep / sin, k))
            cells.append(f"{rep:.3f}, {sin:.3f}, {100 * rep / sin:.1f} %")
        else:
            cells.append("-")
    print(f"{k[0]} x {k[1]}: " + " | ".join(cells))
print()
def spread(what, pairs):
    """Median, p10, min and counts below 50 / 75 % of (ratio, shape) pairs."""
    v = sorted(pairs)
    if not v:
        print(f"{what}: no data"); return
    r = [x for x, _ in v]
    print(f"{what} over {len(r)} shapes: median {100 * statistics.median(r):.1f} %, p10 "
          f"{100 * r[int(0.1 * (len(r) - 1))]:.1f} %, min {100 * r[0]:.1f} % "
          f"({v[0][1][0]} x {v[0][1][1]}), below 50 %: {sum(x < 0.5 for x in r)}, "
          f"below 75 %: {sum(x < 0.75 for x in r)}")
for tree in ("base", "pool"):
    spread(f"{tree}: single/repeated throughput", ratio[tree])
spread("pool, first run of each shape (nothing pooled for it): repeated/first",
       [(t["pool_repeated"][k] / f, k) for k, f in t["pool_first"].items()
        if k in t["pool_repeated"] and f > 0])
for tree in ("base", "pool"):
    path = os.path.join(out, f"plan_time_{tree}.csv")
    rows = list(csv.DictReader(open(path))) if os.path.exists(path) else []
    if rows:
        ms = sorted(float(r["median_ms"]) for r in rows)
        big = sorted(rows, key=lambda r: int(r["rows"]) * int(r["cols"]))
        half = len(big) // 2
        small_half = statistics.median(float(r["median_ms"]) for r in big[:half])
        large_half = statistics.median(float(r["median_ms"]) for r in big[half:])
        print(f"{tree} clipt_plan_create over {len(ms)} shapes (ms): median "
              f"{statistics.median(ms):.3f}, p90 {ms[int(0.9 * (len(ms) - 1))]:.3f}, max "
              f"{ms[-1]:.3f}; median of the smaller half (rows x cols) {small_half:.3f}, "
              f"of the larger half {large_half:.3f}")
def phases(rows, prefix):
    """Medians of one cycle's phases over the shapes, and its overhead."""
    over = sorted(float(r[prefix + "total_ms"]) - float(r[prefix + "device_ms"]) for r in rows)
    return (", ".join(f"{k} {statistics.median(float(r[prefix + k + '_ms']) for r in rows):.3f}"
                      for k in ("create", "enqueue", "wait", "release", "total", "device")) +
            f"; overhead (total - device) median {statistics.median(over):.3f}, "
            f"max {over[-1]:.3f}")
for tree in ("base", "pool"):
    path = os.path.join(out, f"cycle_{tree}.csv")
    rows = list(csv.DictReader(open(path))) if os.path.exists(path) else []
    if rows:
        print(f"{tree} cycle, medians over {len(rows)} shapes (ms): " + phases(rows, ""))
        if rows[0].get("first_total_ms"): # the shape's first cycle: nothing pooled
            print(f"{tree} first cycle of a shape, medians (ms): " + phases(rows, "first_"))
PY
grep -E "^(mode|median)|wrong" "$out/verify.log" | tee -a "$out/summary.txt"
exit $status
