#!/usr/bin/env bash
# Issue 13, lever 1: plan creation by the cycle algebra against the old walk
# of every position (CLIPT_CYCLE_WALK=1 makes the library walk), on the
# device machine.  Builds Release in build-gpu-cycles; writes to $OUT:
#   plan_new.csv, plan_walk.csv   clipt_plan_time: host ms of clipt_plan_create
#                                 (programs built) on the named shapes and on
#                                 100 random general fp32 shapes (seed 1);
#                                 summary lines in cycles.log
#   probe.log                     clipt_probe per-stage device times, each
#                                 shape new then walk then new again (drift)
#   bench_{single,repeated}_{new,walk}.csv
#                                 clipt bench on 24 random general shapes
#                                 (seed 1, --repeat 3): single-use vs repeated,
#                                 with per-stage medians (stages_ms)
#   cycles.log                    everything printed, in order
# Takes about 2-3 minutes on the H100; a failing step or shape never stops
# the others.  Usage: OUT=dir tuning/gpu_cycles.sh
set -uo pipefail
out=${OUT:-/tmp}
log="$out/cycles.log"
build=build-gpu-cycles
cmake -S . -B $build -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > /tmp/clipt-cycles-cmake.log 2>&1 ||
  { tail -30 /tmp/clipt-cycles-cmake.log; exit 1; }
cmake --build $build -j16 --target clipt_cli clipt_plan_time clipt_probe > /tmp/clipt-cycles-build.log 2>&1 ||
  { tail -30 /tmp/clipt-cycles-build.log; exit 1; }
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee -a "$log"
shapes=${CYCLES_SHAPES:-"2711x6084 5000x7001 16067x15965 3672x2677 19999x17001 12345x6789 1000x1000 8192x8192"}
count=${CYCLES_COUNT:-24}   # bench shapes (CYCLES_* only for dry runs elsewhere)

for way in new walk; do
  walk=0; [ $way = walk ] && walk=1
  echo "== plan creation, $way" | tee -a "$log"
  CLIPT_CYCLE_WALK=$walk timeout 100 $build/tuning/clipt_plan_time --repeat 9 $shapes --random 100 \
    > "$out/plan_$way.csv" 2>> "$log"
  tail -1 "$log"
  head -9 "$out/plan_$way.csv" | tee -a "$log"
done

echo "== per-stage device times (clipt_probe, --repeat 5), new / walk / new" | tee -a "$log"
for s in $shapes; do
  for way in new walk new; do
    walk=0; [ $way = walk ] && walk=1
    { echo "-- $s $way"; CLIPT_CYCLE_WALK=$walk timeout 60 $build/tuning/clipt_probe --repeat 5 $s 2>&1; } >> "$out/probe.log"
  done
done
grep -E "^-- |stage" "$out/probe.log" | sed 's/(super-elements).*blocks along cycles//' | cut -c1-160 | tee -a "$log" > /dev/null
grep -E "^-- |walk_segments" "$out/probe.log" | awk '/^-- /{h=$2" "$3} /walk_segments/{for(i=1;i<=NF;i++) if($i=="ms") print h": "$(i-1)" ms"}' | tee -a "$log"

for mode in single repeated; do
  for way in new walk; do
    walk=0; [ $way = walk ] && walk=1
    echo "== clipt bench --mode $mode, $way" | tee -a "$log"
    CLIPT_CYCLE_WALK=$walk timeout 150 $build/src/cli/clipt bench --random general --count $count --seed 1 \
      --repeat 3 --mode $mode --csv "$out/bench_${mode}_$way.csv" >> "$log" 2>&1
    grep -E "^(median|ratio)" "$log" | tail -2
  done
done
exit 0
