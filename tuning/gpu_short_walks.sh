#!/usr/bin/env bash
# C2R's split column pass on walks of short cycles (issue 12): coprime
# shapes whose row walk has cycles of at most 64 rows (the order of -cols
# modulo rows, tuning/shapes.py walk_order), both sides small enough for
# the split clause of src/choice_c2r.c to take C2R or R2C and rows <= cols
# (so C2R, the shorter columns), timed as forced C2R, as the TPDS plan
# and as the automatic plan (`--algorithm c2r|tpds|auto`), every shape
# verified.  Prints, per element size and order bucket, the shapes, the
# median and range of time(C2R) / time(TPDS) (where it is above 1 the
# automatic plan should keep the TPDS sequences), how many automatic
# plans were C2R, and the median and minimum of the faster plan's time /
# the automatic plan's.  Writes to $OUT/walks: the lists, CSVs, logs.
# Usage: [SEED=S] [COUNT=N] [ELEMS="2 4 8"] OUT=dir bash tuning/gpu_short_walks.sh [BUILD]
set -u
o=${OUT:-/tmp}/walks; mkdir -p "$o"
b=${1:-build-gpu}
[ -x "$b/src/cli/clipt" ] || {
  cmake -S . -B "$b" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > "$o/cmake.log" 2>&1 &&
    cmake --build "$b" -j16 --target clipt_cli > "$o/build.log" 2>&1 || { tail -20 "$o/build.log"; exit 1; }; }
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
seed=${SEED:-2026120210}
for e in ${ELEMS:-2 4 8}; do
  # sides: rows past clause 1's columns (c2r_column_bytes 12288 on Hopper;
  # 2-byte elements never take clause 1), rows of a row in local memory
  case $e in 2) lo=1000 hi=20000 ;; 4) lo=3100 hi=11000 ;; 8) lo=1600 hi=5500 ;; esac
  python3 - "$lo" "$hi" "${COUNT:-36}" $((seed + e)) > "$o/list_$e.txt" <<'PY'
import math, random, sys
sys.path.insert(0, 'tuning')
from shapes import walk_order
lo, hi, count, seed = map(int, sys.argv[1:])
rng = random.Random(seed)
buckets = {b: 0 for b in ((2, 2), (3, 4), (5, 8), (9, 16), (17, 32), (33, 64))}
print(f'# coprime, rows <= cols in [{lo}, {hi}], walk order 2-64, seed {seed}')
while sum(buckets.values()) < count:
    rows = rng.randint(lo, hi - 1)
    for c in rng.sample(range(rows + 1, hi + 1), min(4000, hi - rows)):
        k = walk_order(rows, c, 64)
        for b in buckets:
            if b[0] <= k <= b[1] and buckets[b] < count // 6 and math.gcd(rows, c) == 1:
                buckets[b] += 1
                print(rows, c)
                break
        else:
            continue
        break
PY
  for a in c2r tpds auto; do
    timeout 150 "$b/src/cli/clipt" bench --shapes "$o/list_$e.txt" --elem "$e" --repeat 3 \
      --algorithm $a --csv "$o/${a}_$e.csv" > "$o/${a}_$e.log" 2>&1 || echo "$a $e: exit $?"
  done
done
python3 - "$o" <<'PY'
import csv, os, statistics as st, sys
sys.path.insert(0, 'tuning')
from shapes import walk_order
o = sys.argv[1]
def load(f):
    return {(int(x['rows']), int(x['cols'])): x for x in csv.DictReader(open(f)) if x['time_ms']} if os.path.exists(f) else {}
print('elem | walk order | shapes | time C2R / TPDS: median (min-max) | verified C2R, TPDS | '
      'automatic: C2R plans, best / automatic median (min)')
for e in (2, 4, 8):
    c, t, u = load(f'{o}/c2r_{e}.csv'), load(f'{o}/tpds_{e}.csv'), load(f'{o}/auto_{e}.csv')
    for lo, hi in ((2, 2), (3, 4), (5, 8), (9, 16), (17, 32), (33, 64)):
        ks = [k for k in c if k in t and lo <= walk_order(k[0], k[1], 64) <= hi]
        if not ks:
            continue
        r = sorted(float(c[k]['time_ms']) / float(t[k]['time_ms']) for k in ks)
        vc = sum(c[k]['verified'] == 'yes' for k in ks)
        vt = sum(t[k]['verified'] == 'yes' for k in ks)
        line = f'{e} | {lo}-{hi} | {len(ks)} | {st.median(r):.2f} ({r[0]:.2f}-{r[-1]:.2f}) | {vc}, {vt}'
        ka = [k for k in ks if k in u]
        if ka:
            best = sorted(min(float(c[k]['time_ms']), float(t[k]['time_ms'])) / float(u[k]['time_ms'])
                          for k in ka)
            line += (f" | {sum(u[k]['sequence'] in ('c2r', 'r2c') for k in ka)}/{len(ka)}, "
                     f'{st.median(best):.2f} ({best[0]:.2f})')
        print(line)
PY
