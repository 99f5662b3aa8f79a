#!/usr/bin/env bash
# Exact-size buffers at the speed of padded ones (issue 14, item 2: room-less
# padding).  Builds clipt (Release, build-exact/) on the device machine and
# runs `clipt bench` on fresh shapes from tuning/shapes.py (seeds no other
# run used: SEED general fp32, SEED+1 general fp64, SEED+2 skinny fp32),
# each shape twice in the same run, one plan after the other:
#   auto  the automatic plan (padding allowed, room after the matrix);
#   none  the exact-size plan (--padding none: clipt_transpose's plans; the
#         padding, where the plan pads, kept in the plan's own buffer).
# Skinny shapes (both orientations) run the same way.  Timing runs skip the
# host check for time (--no-verify); a verify leg checks the exact-size
# plans of the first VERIFY shapes of each list bit for bit on the device.
# Writes to $OUT (7 files: what the device tool brings back): shapes.txt
# (the lists), <list>.csv for general_e4, general_e8 and skinny_e4 (a column
# `padding`, auto or none, then bench's columns), verify.csv (the same for
# the verify leg), bench.log (every bench call's output), and summary.txt
# (also printed): per list and
# padding the median and p10 ratio to copy, the per-shape ratio exact/padded
# (median, p10, min), shapes with both sides >= 1000 below 7 % of copy,
# how many exact-size plans padded in their tail, and the verify leg; then
# clipt_exact_tail's count of the tail's share of the matrix (plans only).
# Shapes run in chunks, each bench call under its own time limit (what is
# left of BUDGET seconds, the build included, shared among the calls still
# to come, VERIFY_S kept for the verify leg): one that fails or hangs costs
# its chunk only, and the whole stays under 4 minutes.  The summary counts
# the shapes measured; where a list came short, run it alone:
#   LISTS=general_e8 tuning/gpu_exact.sh
# Usage: [LISTS=...] [BUDGET=s] tuning/gpu_exact.sh [SEED [COUNT [CHUNK]]]
set -uo pipefail
out=${OUT:-/tmp/clipt-exact}
work=$(mktemp -d)   # chunks, per-call CSVs, build logs
mkdir -p "$out"
seed=${1:-14021126}
count=${2:-100}
chunk=${3:-20}
lists=${LISTS:-general_e4 general_e8 skinny_e4}
budget=${BUDGET:-225}
verify=${VERIFY:-2}
verify_s=${VERIFY_S:-30}
build=${BUILD:-build-exact}
start=$(date +%s)
cmake -S . -B "$build" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release \
    > "$work/cmake.log" 2>&1 || { tail -30 "$work/cmake.log" | tee "$out/bench.log"; exit 1; }
cmake --build "$build" -j16 --target clipt_cli clipt_exact_tail > "$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log" | tee "$out/bench.log"; exit 1; }
echo "built in $(( $(date +%s) - start )) s"
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    2>/dev/null | tee "$out/bench.log"
python3 tuning/shapes.py general --count "$count" --seed "$seed" --elem 4 \
    > "$work/general_e4.txt" || exit 1
python3 tuning/shapes.py general --count "$count" --seed $((seed + 1)) --elem 8 \
    > "$work/general_e8.txt" || exit 1
python3 tuning/shapes.py skinny --count $((count / 2)) --seed $((seed + 2)) --elem 4 \
    > "$work/skinny_e4.txt" || exit 1
for list in $lists; do cat "$work/$list.txt"; done > "$out/shapes.txt"
clipt=$build/src/cli/clipt
status=0

set -- $lists
nlists=$#
# chunk runs still to come (auto and none per chunk), for the time limits
runs_left=0
for list in $lists; do
    n=$(grep -vc '^#' "$work/$list.txt")
    runs_left=$((runs_left + 2 * ((n + chunk - 1) / chunk)))
done

# A time limit for the next bench call: its share of what is left.
next_limit() {
    local left=$((budget - verify_s - ($(date +%s) - start)))
    local limit=$((left / (runs_left > 0 ? runs_left : 1)))
    echo $((limit > 3 ? limit : 3))
}

# One bench call (time limit, CSV named, padding, then bench's arguments):
# its output appended to bench.log, its rows to the CSV, each row led by
# the padding.
bench_call() {
    local limit=$1 csv=$2 padding=$3
    shift 3
    echo "== [$padding, ${limit} s] clipt bench $*" >> "$out/bench.log"
    timeout "$limit" "$clipt" bench --padding "$padding" "$@" --csv "$work/call.csv" \
        >> "$out/bench.log" 2>&1 ||
        { echo "$csv $padding ($*): exit status $? under a ${limit} s limit (bench.log)"
          status=1; }
    [ -f "$csv" ] || sed -n '1s/^/padding,/p' "$work/call.csv" > "$csv" 2>/dev/null
    tail -n +2 "$work/call.csv" 2>/dev/null | sed "s/^/$padding,/" >> "$csv"
    rm -f "$work/call.csv"
}

# list elem: every chunk of the list, auto then none, into <list>.csv
run_list() {
    local list=$1 elem=$2
    grep -v '^#' "$work/$list.txt" | split -l "$chunk" -d -a 3 - "$work/$list.chunk."
    for part in "$work/$list".chunk.*; do
        for padding in auto none; do
            local limit
            limit=$(next_limit)
            runs_left=$((runs_left - 1))
            bench_call "$limit" "$out/$list.csv" "$padding" --shapes "$part" --elem "$elem" \
                --repeat 3 --no-verify
        done
    done
}
for list in $lists; do
    run_list "$list" "${list##*_e}"
done
# the verify leg: exact-size plans checked bit for bit
for list in $lists; do
    bench_call $((verify_s / nlists)) "$out/verify.csv" none --shapes "$work/$list.txt" \
        --count "$verify" --elem "${list##*_e}" --repeat 1
done
# what the exact-size plans keep in their tail (plans only, no runs)
{ timeout 15 "$build/tuning/clipt_exact_tail" 100 4 "$seed"
  timeout 15 "$build/tuning/clipt_exact_tail" 100 8 $((seed + 1)); } > "$work/tail.txt" 2>&1
echo "measured in $(( $(date +%s) - start )) s with the build"
python3 - "$out" $lists <<'PY' | tee "$out/summary.txt"
import csv, os, statistics, sys
out = sys.argv[1]
def load(name, padding):
    path = os.path.join(out, name + ".csv")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {(int(r["rows"]), int(r["cols"]), r["elem"]): r for r in csv.DictReader(f)
                if r["padding"] == padding}
def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * (len(v) - 1) + 0.5))] if v else float("nan")
def med(v):
    return statistics.median(v) if v else float("nan")
for list_name in sys.argv[2:]:
    auto, none = load(list_name, "auto"), load(list_name, "none")
    both = [k for k in none if k in auto]
    print(f"== {list_name}: {len(auto)} automatic, {len(none)} exact-size, {len(both)} both")
    for name, rows in (("auto (padded, room)", auto), ("none (exact size)", none)):
        r = [100 * float(x["ratio"]) for x in rows.values()]
        print(f"{name}: ratio to copy median {med(r):.1f} %  p10 {pct(r, 0.1):.1f} %  "
              f"min {min(r) if r else float('nan'):.1f} %")
    rel = sorted((float(none[k]["gbs"]) / float(auto[k]["gbs"]), k) for k in both
                 if float(auto[k]["gbs"]) > 0)
    v = [x for x, _ in rel]
    print(f"exact/padded throughput: median {med(v):.3f}  p10 {pct(v, 0.1):.3f}  "
          f"min {v[0] if v else float('nan'):.3f} ({rel[0][1][:2] if rel else ''})")
    low = [k[:2] for k, x in none.items() if min(k[:2]) >= 1000 and 100 * float(x["ratio"]) < 7]
    print(f"exact-size shapes with both sides >= 1000 below 7 % of copy: {len(low)}"
          + (f" {sorted(low)[:8]}" if low else ""))
    tail = [k for k, x in none.items()
            if int(x["padded_rows"]) * int(x["padded_cols"]) > k[0] * k[1]]
    same = [k for k in both if (auto[k]["sequence"], auto[k]["m"], auto[k]["n"],
                                auto[k]["padded_rows"], auto[k]["padded_cols"]) ==
            (none[k]["sequence"], none[k]["m"], none[k]["n"], none[k]["padded_rows"],
             none[k]["padded_cols"])]
    print(f"exact-size plans padded in their tail: {len(tail)} of {len(none)}; "
          f"same factorisation as the automatic plan: {len(same)} of {len(both)}")
    if same:
        s = [float(none[k]["gbs"]) / float(auto[k]["gbs"]) for k in same
             if float(auto[k]["gbs"]) > 0 and (int(auto[k]["padded_rows"]) *
                                               int(auto[k]["padded_cols"]) > k[0] * k[1])]
        if s:
            print(f"  of those padded (split indexing vs room, same plan): exact/padded "
                  f"median {med(s):.3f}  p10 {pct(s, 0.1):.3f} on {len(s)}")
    ver = [x for k, x in load("verify", "none").items() if k in none]
    print(f"verify leg: {sum(x['verified'] == 'yes' for x in ver)} of {len(ver)} "
          f"exact-size plans bit-exact")
    print()
PY
tee -a "$out/summary.txt" < "$work/tail.txt"
rm -rf "$work"
exit $status
