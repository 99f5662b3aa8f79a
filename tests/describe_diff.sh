#!/bin/sh
# describe_diff.sh BASE [BUILD]
# The plan descriptions of tests/describe_dump.c (several thousand plans)
# with the library at git revision BASE and with the working tree's build
# (BUILD, default build/), and their diff: empty when plan choices, stages
# and launch sizes are all unchanged.  Exit status 1 on a difference.
# Needs a device (CLIPT_PLATFORM / CLIPT_DEVICE select one) and a few
# minutes on PoCL (set CLIPT_CACHE_DIR to keep built kernels).
set -e
base=${1:?usage: describe_diff.sh BASE [BUILD]}
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${2:-$src/build}" && pwd)
work=$(mktemp -d)
mkdir "$work/base"
git -C "$src" archive "$base" | tar -x -C "$work/base"
cmake -S "$work/base" -B "$work/base/build" -DBUILD_TESTING=OFF >/dev/null
cmake --build "$work/base/build" --target clipt_internal -j2 >/dev/null

# dump TREE BUILD OUT: the dump program against that tree's internal library
dump() {
    xxhash=$(sed -n 's/^CLIPT_XXHASH_LIBRARY:FILEPATH=//p' "$2/CMakeCache.txt")
    case "$xxhash" in *NOTFOUND*) xxhash= ;; esac
    cc -std=c11 -O1 -DCL_TARGET_OPENCL_VERSION=120 -I"$1/include" -I"$1/src" -I"$1/src/cli" -I"$1/util" \
        -I"$1/cl" "$src/tests/describe_dump.c" "$1/util/cl_select.c" \
        "$2/libclipt_internal.a" -lOpenCL -lpthread -lm -ldl $xxhash -o "$3"
}
dump "$work/base" "$work/base/build" "$work/dump_base"
dump "$src" "$build" "$work/dump_new"
"$work/dump_base" > "$work/base.txt"
"$work/dump_new" > "$work/new.txt"
echo "$(grep -c '^==' "$work/new.txt") plans; texts in $work"
diff "$work/base.txt" "$work/new.txt" && echo "identical"
