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
# Writes to $OUT: the shape lists, <list>_<padding>.csv (bench's columns),
# one log per bench call, and summary.txt (also printed): per list and
# padding the median and p10 ratio to copy, the per-shape ratio exact/padded
# (median, p10, min), shapes with both sides >= 1000 below 7 % of copy,
# how many exact-size plans padded in their tail, and the verify leg.
# Shapes run in chunks, each bench call under its own time limit: one that
# fails or hangs costs its chunk only, and the whole stays under 4 minutes
# with the build.  Usage: tuning/gpu_exact.sh [SEED [COUNT [CHUNK]]]
set -uo pipefail
out=${OUT:-/tmp/clipt-exact}
mkdir -p "$out"
seed=${1:-14021126}
count=${2:-100}
chunk=${3:-25}
verify=${VERIFY:-4}
# seconds per bench call of a chunk, by list (fp64 and skinny move more or
# fewer bytes per shape); the sum stays below the budget
limit_general_e4=${LIMIT_E4:-8}
limit_general_e8=${LIMIT_E8:-8}
limit_skinny_e4=${LIMIT_SKINNY:-8}
build=${BUILD:-build-exact}
start=$(date +%s)
cmake -S . -B "$build" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release \
    > "$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
cmake --build "$build" -j16 --target clipt_cli > "$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; exit 1; }
echo "built in $(( $(date +%s) - start )) s"
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    > "$out/gpu.txt" 2>/dev/null && cat "$out/gpu.txt"
python3 tuning/shapes.py general --count "$count" --seed "$seed" --elem 4 \
    > "$out/general_e4.txt" || exit 1
python3 tuning/shapes.py general --count "$count" --seed $((seed + 1)) --elem 8 \
    > "$out/general_e8.txt" || exit 1
python3 tuning/shapes.py skinny --count $((count / 2)) --seed $((seed + 2)) --elem 4 \
    > "$out/skinny_e4.txt" || exit 1
clipt=$build/src/cli/clipt
status=0

# list elem limit [extra bench arguments]: every chunk of the list, auto then
# none, rows appended to <list>_auto.csv and <list>_none.csv
run_list() {
    local list=$1 elem=$2 limit=$3
    shift 3
    local shapes="$out/$list.txt" k=0
    grep -v '^#' "$shapes" | split -l "$chunk" -d -a 3 - "$out/$list.chunk."
    for part in "$out/$list".chunk.*; do
        for padding in auto none; do
            local csv="$out/${list}_${padding}.csv" tmp="$out/${list}_${padding}.$k.csv"
            timeout "$limit" "$clipt" bench --shapes "$part" --elem "$elem" --padding "$padding" \
                --repeat 3 --no-verify "$@" --csv "$tmp" > "$out/${list}_${padding}.$k.log" 2>&1 ||
                { echo "$list $padding chunk $k: exit status $? (see ${list}_${padding}.$k.log)"
                  status=1; }
            [ -f "$csv" ] || head -1 "$tmp" > "$csv" 2>/dev/null
            tail -n +2 "$tmp" >> "$csv" 2>/dev/null
            rm -f "$tmp"
        done
        rm -f "$part"
        k=$((k + 1))
    done
}
run_list general_e4 4 "$limit_general_e4"
run_list general_e8 8 "$limit_general_e8"
run_list skinny_e4 4 "$limit_skinny_e4"
# the verify leg: exact-size plans checked bit for bit
for list in general_e4 general_e8 skinny_e4; do
    elem=${list##*_e}
    timeout 12 "$clipt" bench --shapes "$out/$list.txt" --count "$verify" --elem "$elem" \
        --padding none --repeat 1 --csv "$out/${list}_verify.csv" \
        > "$out/${list}_verify.log" 2>&1 ||
        { echo "verify $list: exit status $? (see ${list}_verify.log)"; status=1; }
done
echo "measured in $(( $(date +%s) - start )) s with the build"
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, os, statistics, sys
out = sys.argv[1]
def load(name):
    path = os.path.join(out, name + ".csv")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {(int(r["rows"]), int(r["cols"])): r for r in csv.DictReader(f)}
def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * (len(v) - 1) + 0.5))] if v else float("nan")
def med(v):
    return statistics.median(v) if v else float("nan")
for list_name in ("general_e4", "general_e8", "skinny_e4"):
    auto, none = load(list_name + "_auto"), load(list_name + "_none")
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
          f"min {v[0] if v else float('nan'):.3f} ({rel[0][1] if rel else ''})")
    low = [k for k, x in none.items() if min(k) >= 1000 and 100 * float(x["ratio"]) < 7]
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
    ver = load(list_name + "_verify")
    print(f"verify leg: {sum(x['verified'] == 'yes' for x in ver.values())} of {len(ver)} "
          f"exact-size plans bit-exact")
    print()
PY
exit $status
