#!/usr/bin/env bash
# Builds clipt on the device machine and runs clipt_probe on a fixed set of
# general and skinny shapes: per-stage GB/s next to the copy bandwidth.
# Usage: tuning/gpu_probe.sh [extra clipt_probe args]; output also in $OUT.
set -uo pipefail
out=${OUT:-/tmp}
cmake -S . -B build-gpu -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > "$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
cmake --build build-gpu -j16 --target clipt_probe > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
clinfo -l 2>/dev/null || true
probe=build-gpu/tuning/clipt_probe
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
general="4096x4096 5000x7000 10007x8191 15000x12000 20000x3000 7919x15013"
skinny="1000000x16 16x1000000 3000000x7 7x3000000 5000000x32 32x5000000"
{
  $probe --repeat 5 --elem 4 $general "$@"
  $probe --repeat 5 --elem 4 $skinny "$@"
  $probe --repeat 3 --elem 8 5000x7000 10007x8191 1000000x16 16x1000000 "$@"
  $probe --repeat 5 --elem 4 --min 90 5000x7000 15000x12000 20000x3000
  $probe --repeat 5 --elem 4 --min 200 1000000x16 16x1000000 3000000x7
  for s in 1 21 22 31 32 41 42 43; do $probe --repeat 1 --seq $s 1000x999 1009x1013; done
} 2>&1 | tee "$out/probe.txt"
