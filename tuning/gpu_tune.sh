#!/usr/bin/env bash
# Runs the tuner on the device machine: the GPU (NVIDIA OpenCL) entry, then
# the PoCL CPU entry.  Entries, per-measurement CSVs and the log go to $OUT.
# Usage: bash tuning/gpu_tune.sh [extra clipt_tune arguments]
set -uo pipefail
out=${OUT:-/tmp}
cmake -S . -B build-gpu -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > /tmp/clipt-cmake.log 2>&1 || { tail -30 /tmp/clipt-cmake.log; exit 1; }
cmake --build build-gpu -j16 --target clipt_tune clipt_cli > /tmp/clipt-build.log 2>&1 || { tail -30 /tmp/clipt-build.log; exit 1; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | tee "$out/tune.log"
status=0
CLIPT_PLATFORM=NVIDIA timeout ${GPU_LIMIT:-360} build-gpu/tuning/clipt_tune --out "$out/entry_gpu.inc" --csv "$out/tune_gpu.csv" "$@" 2>> "$out/tune.log" || status=1
CLIPT_PLATFORM=Portable timeout ${CPU_LIMIT:-200} build-gpu/tuning/clipt_tune --match runtime ${CPU_ARGS:-} --out "$out/entry_pocl.inc" --csv "$out/tune_pocl.csv" "$@" 2>> "$out/tune.log" || status=1
grep -E "=>|score" "$out/tune.log"
exit $status
