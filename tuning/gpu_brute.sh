#!/usr/bin/env bash
# Issue 12's brute-force row: the automatic plan against the best of the
# candidates `clipt bench --brute-force` times (padded candidates
# included, at most LIMIT plans a shape), on fresh lists of the papers'
# general distribution (tuning/shapes.py, seed SEED + 1 per element size)
# with both sides at most MAXDIM (plan creation, not the transposition, is
# the cost of a brute-force shape).  Chunks of 10 shapes, each under
# `timeout` (tuning/bench_chunks.sh: a failing chunk is rerun shape by
# shape); no chunk starts after DEADLINE seconds (the build included).
# Writes to $OUT: the lists, brute_E.csv and logs, gpu.txt and summary.txt
# (printed): per element size the shapes measured, the median and p10 of
# auto / best, how many best plans were verified bit-exact, and the
# model's share of plans predicted within +-20 %.  BENCH_ARGS adds
# options to every bench (e.g. "--tune model_copy_gbs=3943,...": a
# refitted cost model's automatic plans against the same candidates).
# Usage: [SEED=S] [ELEMS="4 8"] [COUNT=N] [LIMIT=16] [MAXDIM=8000] \
#        [BENCH_ARGS=...] OUT=dir bash tuning/gpu_brute.sh
set -uo pipefail
shopt -s nullglob
out=${OUT:-/tmp/clipt-brute}
mkdir -p "$out"
seed=${SEED:-2026112740}
deadline=${DEADLINE:-500}
maxdim=${MAXDIM:-8000}
status=0
. tuning/bench_chunks.sh
cmake -S . -B build-brute -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > "$out/build.log" 2>&1 &&
    cmake --build build-brute -j16 --target clipt_cli >> "$out/build.log" 2>&1 ||
    { tail -20 "$out/build.log"; exit 1; }
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/gpu.txt" 2>/dev/null
k=0
for e in ${ELEMS:-4 8}; do
    k=$((k + 1))
    python3 tuning/shapes.py general --count 2000 --seed $((seed + k)) --elem "$e" |
        awk -v m="$maxdim" '!/^#/ && $1 <= m && $2 <= m' | head -n "${COUNT:-100}" > "$out/list_$e.txt"
    split -l 10 -d "$out/list_$e.txt" "$out/part_${e}_"
    for part in "$out"/part_${e}_*; do
        [ "$SECONDS" -lt "$deadline" ] || { echo "brute_$e: deadline; $(basename "$part") and later not run"; break; }
        bench_chunk "brute_$e" 120 "$part" build-brute/src/cli/clipt --elem "$e" --repeat 3 \
            --brute-force --brute-limit "${LIMIT:-16}" ${BENCH_ARGS:-}
    done
done
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, glob, os, statistics as st, sys
o = sys.argv[1]
print(open(o + '/gpu.txt').read().strip() if os.path.exists(o + '/gpu.txt') else 'device unknown')
print('elem | shapes | auto / best: median, p10, min | auto is the best | best verified | model within +-20 %')
for f in sorted(glob.glob(o + '/brute_*.csv')):
    rows = [r for r in csv.DictReader(open(f)) if r['auto_best']]
    if not rows:
        continue
    ab = sorted(float(r['auto_best']) for r in rows)
    won = sum(a >= 0.9999 for a in ab)
    ver = sum(r['best_verified'] == 'yes' for r in rows)
    pred = [float(r['predicted_ms']) / float(r['time_ms']) for r in rows
            if r['predicted_ms'] and r['time_ms']]
    within = sum(0.8 <= p <= 1.2 for p in pred)
    print(f"{os.path.basename(f)[6:-4]} | {len(ab)} | {100 * st.median(ab):.1f} %, "
          f"{100 * ab[len(ab) // 10]:.1f} %, {100 * ab[0]:.1f} % | {won} | {ver}/{len(rows)} | "
          f"{within}/{len(pred)}")
PY
exit $status
