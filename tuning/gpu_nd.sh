#!/usr/bin/env bash
# Batched and N-D axis permutations in place (issue 15) on the device
# machine: builds clipt_permute_bench (Release, build-nd/) and runs each case
# in its own process under its own time limit (one failure or hang never
# spoils the others), next to the device's copy of the same array and an
# out-of-place permutation kernel (tuning/permute_oop.cl) in the same run:
#   batches:  10^5 matrices 32 x 48 fp32, 10^4 matrices 64 x 100 fp16
#             (target >= 60 % of copy);
#   NCHW <-> NHWC: 64x256x56x56 fp32 (>= 25 %) and fp16 (>= 20 %),
#             32x3x224x224 uint8 (>= 15 %), both directions;
#   random:   12 TTLG-like permutations of 3-D to 6-D tensors of about
#             10^8 bytes, elem 4 and 8 (tuning/shapes.py-style seed), median
#             >= 20 % of copy and >= 30 % of the out-of-place kernel.
# Writes to $OUT: nd.csv (one row per case: times, pct_of_copy = copy time /
# clipt time, pct_of_oop, verified), one log per case, gpu.txt, and
# summary.txt (also printed).  Usage: tuning/gpu_nd.sh [CASES_FILE]
# (lines "ELEM DIMS:AXES"; default: the list above).  Takes < 4 min.
set -uo pipefail
out=${OUT:-/tmp/clipt-nd}
mkdir -p "$out"
cmake -S . -B build-nd -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release \
    > "$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
cmake --build build-nd -j16 --target clipt_permute_bench > "$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; exit 1; }
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    > "$out/gpu.txt" 2>/dev/null && cat "$out/gpu.txt"
bench=build-nd/tuning/clipt_permute_bench
cases="$out/cases.txt"
if [ $# -ge 1 ]; then
    cp "$1" "$cases"
else
    cat > "$cases" <<'LIST'
4 100000x32x48:0,2,1
2 10000x64x100:0,2,1
4 64x256x56x56:0,2,3,1
4 64x56x56x256:0,3,1,2
2 64x256x56x56:0,2,3,1
2 64x56x56x256:0,3,1,2
1 32x3x224x224:0,2,3,1
1 32x224x224x3:0,3,1,2
LIST
    # TTLG-like: random 3-D..6-D shapes of about 10^8 bytes, random
    # non-identity permutations (fixed seed)
    python3 - >> "$cases" <<'PY'
import random
rng = random.Random(15)
for k in range(12):
    elem = 4 if k % 2 == 0 else 8
    nd = rng.randint(3, 6)
    target = 1e8 / elem
    dims = [rng.randint(2, 64) for _ in range(nd)]
    prod = 1
    for d in dims:
        prod *= d
    scale = (target / prod) ** (1.0 / nd)
    dims = [max(2, int(round(d * scale))) for d in dims]
    perm = list(range(nd))
    while perm == sorted(perm):
        rng.shuffle(perm)
    print(elem, "x".join(map(str, dims)) + ":" + ",".join(map(str, perm)))
PY
fi
rm -f "$out/nd.csv"
status=0
n=0
while read -r elem spec; do
    [ -z "$spec" ] && continue
    n=$((n + 1))
    # the whole run stays under 4 minutes, build included
    left=$((215 - SECONDS))
    if [ "$left" -lt 5 ]; then
        echo "case $n ($elem $spec): skipped, out of time"; status=1; continue
    fi
    timeout $((left < 25 ? left : 25)) "$bench" --elem "$elem" --repeat 5 --csv "$out/nd.csv" "$spec" \
        > "$out/case$n.log" 2>&1 || { echo "case $n ($elem $spec): exit $?"; status=1; }
    tail -1 "$out/case$n.log"
done < "$cases"
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, os, statistics, sys
out = sys.argv[1]
path = os.path.join(out, "nd.csv")
rows = list(csv.DictReader(open(path))) if os.path.exists(path) else []
print("case, elem: passes/stages | clipt ms | copy ms | oop ms | % of copy | % of oop | verified")
for r in rows:
    print(f"{r['case']}, {r['elem']}: {r['passes']}/{r['stages']} | {r['clipt_ms']} | "
          f"{r['copy_ms']} | {r['oop_ms']} | {r['pct_of_copy']} | {r['pct_of_oop']} | "
          f"{r['verified']} (oop {r['oop_verified']})")
rand = [r for r in rows if r['case'] not in (
    "100000x32x48:0,2,1", "10000x64x100:0,2,1", "64x256x56x56:0,2,3,1",
    "64x56x56x256:0,3,1,2", "32x3x224x224:0,2,3,1", "32x224x224x3:0,3,1,2")]
if rand:
    print("random set: median %% of copy %.1f, median %% of oop %.1f over %d cases" % (
        statistics.median(float(r['pct_of_copy']) for r in rand),
        statistics.median(float(r['pct_of_oop']) for r in rand), len(rand)))
print("verified: %d of %d cases" % (sum(r['verified'] == 'yes' for r in rows), len(rows)))
PY
exit $status
