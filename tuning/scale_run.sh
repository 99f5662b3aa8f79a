#!/usr/bin/env bash
# Very large matrices on the device machine (issue 6): builds clipt in
# Release and runs tuning/scale_check.c (clipt_scale) on
#   - 50000 x 50001 fp32 (10.0 GB, 2.5 x 10^9 elements: above 2^31, below 2^32);
#   - 49999 x 50021 fp32 (both sides prime; 10.0 GB);
#   - 66000 x 66001 of 1-byte elements (4.36 x 10^9 elements: above 2^32);
#   - largest:4, the largest fp32 rows x (rows+1) whose buffer fits
#     CL_DEVICE_MAX_MEM_ALLOC_SIZE (about 20 GB on an 80 GB H100).
# Every run is uploaded, transposed, read back and checked bit for bit on
# the host (all cores); the log has the plan descriptions, scratch bytes,
# times and GB/s, and one "csv," line per case.  Output: $OUT/scale.log.
# Usage: tuning/scale_run.sh [--repeat K] [CASE ...]   (cases: see clipt_scale)
set -uo pipefail
out=${OUT:-/tmp}
log=$out/scale.log
cmake -S . -B build-scale -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > /tmp/clipt-cmake.log 2>&1 ||
    { tail -30 /tmp/clipt-cmake.log; exit 1; }
cmake --build build-scale -j"$(nproc)" --target clipt_scale > /tmp/clipt-build.log 2>&1 ||
    { tail -30 /tmp/clipt-build.log; exit 1; }
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
repeat=(--repeat 2)
if [ "${1:-}" = --repeat ]; then
    repeat=(--repeat "$2")
    shift 2
fi
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(50000x50001x4 49999x50021x4 66000x66001x1 largest:4)
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null
    echo "host: $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB"
} | tee "$log"
start=$SECONDS
build-scale/tuning/clipt_scale "${repeat[@]}" "${cases[@]}" 2>&1 | tee -a "$log"
status=${PIPESTATUS[0]}
echo "scale_run: exit $status after $((SECONDS - start)) s" | tee -a "$log"
exit "$status"
