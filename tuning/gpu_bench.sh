#!/usr/bin/env bash
# Builds clipt on the device machine and runs `clipt bench` sets; CSVs and
# logs go to $OUT.  Usage: tuning/gpu_bench.sh NAME "bench args" [NAME "args"]...
# e.g. tuning/gpu_bench.sh general_e4 "--random general --count 100 --seed 1"
set -uo pipefail
out=${OUT:-/tmp}
cmake -S . -B build-gpu -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > /tmp/clipt-cmake.log 2>&1 || { tail -30 /tmp/clipt-cmake.log; exit 1; }
cmake --build build-gpu -j16 --target clipt_cli > /tmp/clipt-build.log 2>&1 || { tail -30 /tmp/clipt-build.log; exit 1; }
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | tee -a "$out/bench.log"
status=0
while [ $# -ge 2 ]; do
  name=$1; args=$2; shift 2
  echo "== $name: clipt bench $args"
  # one log for all sets: what comes back from the device is limited in files
  { echo "== $name: clipt bench $args"; build-gpu/src/cli/clipt bench $args --csv "$out/$name.csv" 2>&1; } >> "$out/bench.log" || status=1
  grep -E "^(median|ratio|auto/best|mode)" "$out/bench.log" | tail -4
done
exit $status
