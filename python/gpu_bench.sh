#!/usr/bin/env bash
# The issue-17 measurement on the device machine: builds libclipt and the
# clipt tool (build-gpu/, Release), makes PyOpenCL importable from wheels
# carried in .whl/ when the machine lacks it, and runs bench_vs_tool.py
# (clipt.transpose from Python against `clipt run`, same shape, same
# device); the log goes to $OUT/python_bench.log.
#   python/gpu_bench.sh [bench_vs_tool.py arguments]   (default: 20000 x 20000 float32)
# docs/python.md says which wheels to carry and how.
set -uo pipefail
out=${OUT:-/tmp}
cmake -S . -B build-gpu -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > /tmp/clipt-cmake.log 2>&1 || { tail -30 /tmp/clipt-cmake.log; exit 1; }
cmake --build build-gpu -j16 --target clipt clipt_cli > /tmp/clipt-build.log 2>&1 || { tail -30 /tmp/clipt-build.log; exit 1; }
if ! python3 -c "import pyopencl" 2>/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
  export PYTHONPATH=/tmp/site
  # The wheel bundles its own ICD loader, which on the device machine finds
  # only PoCL (the NVIDIA ICD is named through OCL_ICD_FILENAMES, which the
  # system loader honours); use the system loader instead.
  system_loader=$(ldconfig -p | awk '/libOpenCL\.so\.1 /{print $NF; exit}')
  for bundled in /tmp/site/pyopencl/.libs/libOpenCL-*.so*; do
    [ -e "$bundled" ] && [ -n "$system_loader" ] && ln -sf "$system_loader" "$bundled"
  done
fi
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
export CLIPT_LIBRARY=$PWD/build-gpu/libclipt.so CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee "$out/python_bench.log"
[ $# -gt 0 ] || set -- --rows 20000 --cols 20000 --dtype float32 --repeat 10
python3 python/bench_vs_tool.py --tool build-gpu/src/cli/clipt "$@" 2>&1 | tee -a "$out/python_bench.log"
