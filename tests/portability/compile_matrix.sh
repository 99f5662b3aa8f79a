#!/bin/sh
# compile_matrix.sh KERNEL_BUILDS PYTHON3 SOURCE_DIR WORK [CLANG]
# The compile matrix as a test: the kernel builds the library makes for the
# AMD and NVIDIA profiles (KERNEL_BUILDS is build/tuning/clipt_kernel_builds,
# run on the test device), compiled by tuning/compile_matrix.py; the table
# and every row are left in WORK.
set -e
builds=$1 python=$2 src=$3 work=$4 clang=${5:-clang-15}
mkdir -p "$work"
"$builds" > "$work/builds.tsv"
exec "$python" "$src/tuning/compile_matrix.py" --builds "$work/builds.tsv" \
    --kernels "$src/cl" --clang "$clang" --csv "$work/all.csv" --markdown "$work/table.md"
