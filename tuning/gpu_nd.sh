#!/usr/bin/env bash
# Issue 15's whole target set on the device machine (H100), in one run of
# < 6 minutes including the build: builds clipt and clipt_permute_bench
# (Release, build-nd/) and runs each case in its own process under its own
# time limit (one failure or hang never spoils the others):
#   fixed:  batches of 10^5 matrices 32 x 48 fp32 and 10^4 64 x 100 fp16
#           (target >= 60 % of copy); NCHW <-> NHWC 64x256x56x56 fp32
#           (>= 25 %) and fp16 (>= 20 %), 32x3x224x224 uint8 (>= 15 %);
#   random: the random tensor set (util/tensor_set.c, TTLG-like: 3-D to 6-D,
#           10^7-10^9 bytes, random non-identity permutations, CNN layout
#           changes among them) of `clipt bench --random tensor`, COUNT
#           cases (default 50) for elem 4 with seed SEED (default 15) and
#           as many for elem 8 with seed SEED+1 (two independent draws):
#           median >= 20 % of copy and >= 30 % of the out-of-place kernel
#           (tuning/permute_oop.cl) on the same shapes;
#   batch:  a batch of B matrices as one plan against B 2-D plans enqueued
#           back to back on the same buffer (clipt_permute_bench
#           --batch-vs-plans), the two batches above and seven more, B from
#           2 to 10^5 (target: the batch is never slower);
#   tool:   `clipt bench --random tensor --count 5` (the first 5 elem-4
#           cases of the random set, through the tool: bench's own timing,
#           check, CSV and report).
# Every case runs next to the device's copy of the same array (and the
# out-of-place kernel) in the same process; every result is checked bit for
# bit.  Writes to $OUT: summary.txt (also printed: per-case figures, medians
# and p10 of % of copy and % of the out-of-place kernel, the batch ratios,
# the targets), fixed.csv, random.csv, batch.csv, tool.csv, tool.log,
# gpu.txt, logs/ (one log per case, the lists, the build logs) and all.tgz
# (everything, since the device tool brings back only a few files).
# Environment: COUNT, SEED; DEADLINE (seconds for the whole run, default
# 340); TINY=1 scales everything down for a CPU (PoCL): small fixed and
# batch cases, MAX_BYTES=1000000 and COUNT=3 unless given; MAX_BYTES caps
# the random cases' size (clipt bench --max-bytes); CLIPT_PLATFORM
# (default NVIDIA).  Usage: [TINY=1] [COUNT=N] tuning/gpu_nd.sh [FIXED_FILE]
# (FIXED_FILE: lines "ELEM DIMS:AXES" in place of the fixed cases).
set -uo pipefail
out=${OUT:-/tmp/clipt-nd}
mkdir -p "$out/logs"
tiny=${TINY:-0}
seed=${SEED:-15}
deadline=${DEADLINE:-340}
if [ "$tiny" = 1 ]; then
    count=${COUNT:-3}; max_bytes=${MAX_BYTES:-1000000}; limit=60; jobs=2
else
    count=${COUNT:-50}; max_bytes=${MAX_BYTES:-}; limit=30; jobs=16
fi
cmake -S . -B build-nd -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release \
    > "$out/logs/cmake.log" 2>&1 || { tail -30 "$out/logs/cmake.log"; exit 1; }
cmake --build build-nd -j"$jobs" --target clipt_cli clipt_permute_bench \
    > "$out/logs/build.log" 2>&1 || { tail -30 "$out/logs/build.log"; exit 1; }
echo "build: ${SECONDS} s"
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
# programs built once, loaded from disk by every later process
export CLIPT_CACHE_DIR=${CLIPT_CACHE_DIR:-$(mktemp -d /tmp/clipt-nd-cache.XXXXXX)}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    > "$out/gpu.txt" 2>/dev/null || echo "no nvidia-smi; CLIPT_PLATFORM=$CLIPT_PLATFORM" \
    > "$out/gpu.txt"
cat "$out/gpu.txt"
pb=build-nd/tuning/clipt_permute_bench
clipt=build-nd/src/cli/clipt
mb=${max_bytes:+--max-bytes $max_bytes}

# ---- the case lists ("ELEM DIMS:AXES" per line) ----
if [ "$tiny" = 1 ]; then
    fixed="4 1000x32x48:0,2,1
2 300x64x100:0,2,1
4 4x64x28x28:0,2,3,1
4 4x28x28x64:0,3,1,2
2 4x64x28x28:0,2,3,1
2 4x28x28x64:0,3,1,2
1 4x3x112x112:0,2,3,1
1 4x112x112x3:0,3,1,2"
    batch="4 1000x32x48:0,2,1
2 300x64x100:0,2,1
4 2x300x500:0,2,1
4 4x1000x1500:0,2,1
8 50x60x70:0,2,1"
else
    fixed="4 100000x32x48:0,2,1
2 10000x64x100:0,2,1
4 64x256x56x56:0,2,3,1
4 64x56x56x256:0,3,1,2
2 64x256x56x56:0,2,3,1
2 64x56x56x256:0,3,1,2
1 32x3x224x224:0,2,3,1
1 32x224x224x3:0,3,1,2"
    batch="4 100000x32x48:0,2,1
2 10000x64x100:0,2,1
4 2x8192x8192:0,2,1
4 8x4096x3000:0,2,1
8 64x1000x1500:0,2,1
4 16x1000x1500:0,2,1
4 1000x256x384:0,2,1
4 20000x60x70:0,2,1
8 100000x8x16:0,2,1"
fi
if [ $# -ge 1 ]; then
    fixed=$(cat "$1") || exit 1
fi
echo "$fixed" > "$out/logs/fixed.txt"
echo "$batch" > "$out/logs/batch.txt"
# the random set, elem 4 and 8 taken in turn (a run cut by the deadline
# keeps both); the very cases of clipt bench --random tensor --seed S
# --elem 4 and --seed S+1 --elem 8
: > "$out/logs/random.txt"
"$pb" --seed "$seed" --elem 4 $mb --list --random-tensor "$count" > "$out/logs/r4.txt" &&
    "$pb" --seed $((seed + 1)) --elem 8 $mb --list --random-tensor "$count" > "$out/logs/r8.txt" ||
    { echo "clipt_permute_bench --list failed"; exit 1; }
paste -d '\n' <(sed 's/^/4 /' "$out/logs/r4.txt") <(sed 's/^/8 /' "$out/logs/r8.txt") |
    grep -v '^$' > "$out/logs/random.txt"

status=0
# run_list NAME LIST_FILE RESERVE EXTRA...: each line in its own process,
# the whole list ending RESERVE seconds before the deadline
run_list() {
    local name=$1 list=$2 reserve=$3 n=0 elem spec left
    shift 3
    rm -f "$out/$name.csv"
    while read -r elem spec; do
        [ -z "$spec" ] && continue
        n=$((n + 1))
        left=$((deadline - reserve - SECONDS))
        if [ "$left" -lt 3 ]; then
            echo "$name $n ($elem $spec): not run, out of time" | tee -a "$out/logs/not_run.txt"
            status=1; continue
        fi
        timeout $((left < limit ? left : limit)) "$pb" --elem "$elem" --repeat 5 \
            --csv "$out/$name.csv" "$@" "$spec" > "$out/logs/$name$n.log" 2>&1 || {
            echo "$name $n ($elem $spec): exit $?" | tee -a "$out/logs/failed.txt"; status=1; }
    done < "$list"
    echo "$name: $n cases, ${SECONDS} s"
}
# the short lists first; the random set takes what is left but the tool's
# share (a case not started in time is listed in logs/not_run.txt)
run_list fixed "$out/logs/fixed.txt" 0
run_list batch "$out/logs/batch.txt" 150 --repeat 3 --batch-vs-plans
run_list random "$out/logs/random.txt" 25
left=$((deadline - SECONDS))
timeout $((left > 10 ? left : 10)) "$clipt" bench --random tensor --count 5 --seed "$seed" \
    --elem 4 $mb --repeat 5 --csv "$out/tool.csv" > "$out/tool.log" 2>&1 ||
    { echo "clipt bench --random tensor: exit $?"; status=1; }
echo "tool: ${SECONDS} s"
python3 tuning/nd_summary.py "$out" "$tiny" | tee "$out/summary.txt"
echo "total: ${SECONDS} s" | tee -a "$out/summary.txt"
tar czf /tmp/clipt-nd-all.tgz -C "$out" --exclude=all.tgz . && mv /tmp/clipt-nd-all.tgz "$out/all.tgz"
exit $status
