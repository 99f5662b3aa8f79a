#!/usr/bin/env bash
# One-shot calls at repeated-use speed (issue 13): builds clipt (Release,
# build-oneshot/) on the device machine and runs `clipt bench` on 40 general
# fp32 shapes from tuning/shapes.py (a seed no other run used) in the three
# modes, one after the other on the same shapes:
#   repeated  plan made once, device time (clipt_plan_profile);
#   single    clipt_plan_create + enqueue + wait + release per run, host clock;
#   oneshot   clipt_transpose (cached context and plan), host clock: the first
#             call of each shape and the median of --repeat later calls, next
#             to the repeated device time of the same plan (automatic,
#             CLIPT_PADDING_NONE) measured in the same run.
# Writes to $OUT: shapes.txt, repeated.csv, single.csv, oneshot.csv, one log
# per mode, and summary.txt (also printed): per shape and as medians, the
# oneshot/repeated ratio (target: <= 1.2 on the second call of a shape), and
# oneshot / the kept plan's host time (clipt_enqueue + wait, host clock):
# what the caches cost beyond the latency of any blocking call.
# Then clipt_plan_time: host time of clipt_plan_create (programs built) on
# 100 random general fp32 shapes, rows and cols in [1000, 20000]
# (plan_time.csv; its summary line in summary.txt), and the single-use
# cycle of the same shapes split by phase (create, enqueue, wait, release:
# cycle.csv), once more under tuning/cl_time_shim.c (cycle_shim.log: time
# inside the OpenCL runtime, by function).
# Each mode runs under its own time limit: one that fails or hangs never
# stops the others.  Usage: [COUNT=N] tuning/gpu_oneshot.sh [SEED]
# (COUNT shapes, default 40: < 4 min; COUNT=100: < 9 min).
set -uo pipefail
out=${OUT:-/tmp/clipt-oneshot}
mkdir -p "$out"
seed=${1:-20261123}
count=${COUNT:-40}
scale() { echo $(( ($1 * count + 39) / 40 )); } # time limits grow with COUNT
cmake -S . -B build-oneshot -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release \
    > "$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
cmake --build build-oneshot -j16 --target clipt_cli clipt_plan_time clipt_cl_time_shim > "$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; exit 1; }
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    > "$out/gpu.txt" 2>/dev/null && cat "$out/gpu.txt"
python3 tuning/shapes.py general --count "$count" --seed "$seed" --elem 4 > "$out/shapes.txt" ||
    exit 1
clipt=build-oneshot/src/cli/clipt
status=0
# mode, time limit (s), extra arguments; verification: oneshot checks both
# its plan's result and clipt_transpose's, the others skip it for time
run_mode() {
    local mode=$1 limit=$2
    shift 2
    echo "== clipt bench --shapes shapes.txt --mode $mode $*"
    timeout "$limit" "$clipt" bench --shapes "$out/shapes.txt" --elem 4 --mode "$mode" "$@" \
        --csv "$out/$mode.csv" > "$out/$mode.log" 2>&1 || {
        echo "mode $mode: exit status $? (see $mode.log)"
        status=1
    }
    grep -E "^(mode|median|ratio|oneshot/|first call)" "$out/$mode.log"
}
run_mode repeated "$(scale 50)" --repeat 3 --no-verify
run_mode single "$(scale 55)" --repeat 3 --no-verify
run_mode oneshot "$(scale 75)" --repeat 5
echo "== clipt_plan_time --repeat 9 --random 100 --seed 26"
timeout 60 build-oneshot/tuning/clipt_plan_time --repeat 9 --random 100 --seed 26 \
    > "$out/plan_time.csv" 2> "$out/plan_time.log" || { echo "plan_time: exit status $?"; status=1; }
cat "$out/plan_time.log"
echo "== clipt_plan_time --cycle --repeat 9 (the shapes above), then under the CL timing shim"
cycle_shapes=$(awk '!/^#/ && NF >= 2 {printf "%sx%s ", $1, $2}' "$out/shapes.txt")
# shellcheck disable=SC2086 # one argument per shape
timeout "$(scale 40)" build-oneshot/tuning/clipt_plan_time --cycle --repeat 9 $cycle_shapes \
    > "$out/cycle.csv" 2> "$out/cycle.log" || { echo "cycle: exit status $?"; status=1; }
# shellcheck disable=SC2086
LD_PRELOAD=$PWD/build-oneshot/tuning/libclipt_cl_time_shim.so timeout "$(scale 40)" \
    build-oneshot/tuning/clipt_plan_time --cycle --repeat 9 $cycle_shapes \
    > "$out/cycle_shim.csv" 2> "$out/cycle_shim.log" || { echo "cycle (shim): exit status $?"; status=1; }
cat "$out/cycle.log" "$out/cycle_shim.log"
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, os, statistics, sys
out = sys.argv[1]
def load(mode):
    path = os.path.join(out, mode + ".csv")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {(r["rows"], r["cols"]): r for r in csv.DictReader(f)}
rep, single, one = load("repeated"), load("single"), load("oneshot")
print("rows x cols: repeated device ms | single host ms | oneshot first ms, "
      "median ms | oneshot/repeated (same run, same plan) | oneshot / kept plan's host "
      "time | oneshot / repeated-mode")
ratios, vs_mode, firsts, single_ratio, vs_host = [], [], [], [], []
for key, o in one.items():
    dev = float(o["device_ms"])
    steady, first = float(o["time_ms"]), float(o["first_ms"])
    r = float(o["oneshot_ratio"])
    h = float(o["plan_host_ms"])
    ratios.append(r)
    vs_host.append(steady / h if h > 0 else 0)
    firsts.append(first / dev if dev > 0 else 0)
    m = float(rep[key]["device_ms"]) if key in rep else 0
    s = float(single[key]["time_ms"]) if key in single else 0
    if m > 0:
        vs_mode.append(steady / m)
        if s > 0:
            single_ratio.append(s / m)
    print(f"{key[0]} x {key[1]}: {m:.3f} | {s:.3f} | {first:.3f}, {steady:.3f} | "
          f"{r:.3f} | {steady / h if h else float('nan'):.3f} | "
          f"{steady / m if m else float('nan'):.3f}  verified {o['verified']}")
def line(name, v):
    if not v:
        print(f"{name}: no data"); return
    v = sorted(v)
    p90 = v[min(len(v) - 1, int(0.9 * (len(v) - 1) + 0.5))]
    print(f"{name}: median {statistics.median(v):.3f}  p90 {p90:.3f}  max {v[-1]:.3f}  "
          f"<= 1.2 on {sum(x <= 1.2 for x in v)}/{len(v)}")
print()
line("oneshot median call / repeated device time (same run, same plan)", ratios)
line("oneshot median call / kept plan's enqueue + wait (host clock, same run)", vs_host)
line("oneshot median call / --mode repeated device time (automatic plan, may pad)", vs_mode)
line("oneshot first call of a shape / repeated device time", firsts)
line("single (plan per run) host time / --mode repeated device time", single_ratio)
PY
cat "$out/plan_time.log" "$out/cycle.log" >> "$out/summary.txt"
python3 - "$out/cycle.csv" <<'PY' | tee -a "$out/summary.txt"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
if rows:
    print("single-use cycle, medians over shapes (ms):",
          ", ".join(f"{k} {statistics.median(float(r[k]) for r in rows):.3f}"
                    for k in ("create_ms", "enqueue_ms", "wait_ms", "release_ms", "total_ms",
                              "device_ms")))
    over = sorted((float(r["total_ms"]) - float(r["device_ms"])) for r in rows)
    print(f"host overhead (total - device): median {statistics.median(over):.3f} ms, "
          f"max {over[-1]:.3f} ms")
PY
exit $status
