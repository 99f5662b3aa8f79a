#!/usr/bin/env bash
# Tuning values side by side on the device: the automatic plans of this
# tree on fresh shape lists (tuning/shapes.py, seeds SEED + 1, + 2, ...),
# once per entry of TUNES ("-" runs the device's own entry, any other
# entry is passed to `clipt bench --tune`), the entries of one set one
# after the other so that they share the machine's state; the first
# entry runs once more at the end, as a measure of the run's noise.  The
# first 3 shapes of every set are verified bit-exact with every entry.
# Prints, per set and entry, the median ratio to copy bandwidth and the
# per-shape speed-up against the first entry (median, min, max, and how
# many plans changed).
# A set written NAME:ELEM:none (e.g. g8:8:none) runs its plans with
# `--padding none` (exact-size buffers: room-less padding, kernels built
# with SPLIT), whose kernels can react to a value unlike the plans with
# room: walk_unroll 16 gained 1 % with room and lost 10 % without.
# An entry written kernels=DIR runs the device's own entry with the kernel
# sources of DIR first (CLIPT_KERNEL_PATH): kernel variants (a copy of
# cl/ with one build option's default changed) side by side;
# kernels=DIR,TUNE adds `--tune TUNE` to them.
# ROUNDS=N (default 1) runs the entries N times over, interleaved (entry
# 0, 1, ..., then again), with no extra run of the first, and compares
# per-shape medians over the rounds: for a noisy device such as a small
# CPU, where one run of an entry against the same entry again differs by
# 0.85-1.5x.  MAXDIM caps the general sides and SKINNY_MAXDIM the skinny
# long side (tuning/shapes.py --max-side; for a CPU device, e.g. 3000 and
# 1000000); CLIPT_BIN runs a clipt already built instead of building one.
# Usage: [SEED=S] [COUNT=N] [SETS="g4:4 g8:8 s4:4 g8:8:none"] TUNES="- align_bytes=128" \
#        OUT=dir bash tuning/gpu_tune_ab.sh
set -u
o=${OUT:-/tmp}/tune_ab; mkdir -p $o
[ -n "${CLIPT_BIN:-}" ] || { cmake -S . -B build-gpu -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > $o/cmake.log 2>&1 && cmake --build build-gpu -j16 --target clipt_cli > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }; }
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $o/gpu.txt 2>/dev/null
b=${CLIPT_BIN:-build-gpu/src/cli/clipt}
seed=${SEED:-2026112900}
read -r -a tunes <<< "${TUNES:--}"
rounds=${ROUNDS:-1}
[ "$rounds" -gt 1 ] || tunes+=("${tunes[0]}")
k=0
for set in ${SETS:-g4:4 g8:8 g1:1 g2:2 g16:16 s4:4}; do
  IFS=: read -r n e padding <<< "$set"; k=$((k + 1))
  kind=general most=${MAXDIM:-0}; case $n in s*) kind=skinny most=${SKINNY_MAXDIM:-0} ;; esac
  pad=(); [ -n "$padding" ] && { pad=(--padding "$padding"); n=$n$padding; }
  python3 tuning/shapes.py $kind --count ${COUNT:-30} --seed $((seed + k)) --elem $e --max-side $most > $o/$n.txt
  grep -v '^#' $o/$n.txt | head -3 > $o/${n}_v.txt
  for r in $(seq "$rounds"); do
  for i in "${!tunes[@]}"; do
    t=${tunes[$i]}; opt=("${pad[@]}"); run=(env)
    tag=$i; [ "$rounds" -gt 1 ] && tag=${i}_r$r
    case $t in
      -) ;;
      kernels=*,*) kd=${t#kernels=}; run+=(CLIPT_KERNEL_PATH="${kd%%,*}"); opt+=(--tune "${kd#*,}") ;;
      kernels=*) run+=(CLIPT_KERNEL_PATH="${t#kernels=}") ;;
      *) opt+=(--tune "$t") ;;
    esac
    last=$(( ${#tunes[@]} - 1 ))
    [ $r = 1 ] && { [ $i -lt $last ] || [ "$rounds" -gt 1 ]; } && "${run[@]}" timeout 60 $b bench --shapes $o/${n}_v.txt --elem $e --repeat 1 "${opt[@]}" --csv $o/${n}_v$i.csv > $o/${n}_v$i.log 2>&1
    "${run[@]}" timeout ${LIMIT:-150} $b bench --shapes $o/$n.txt --elem $e --repeat 3 --no-verify "${opt[@]}" --csv $o/${n}_$tag.csv > $o/${n}_$tag.log 2>&1 || echo "$n ${t}: exit $?"
  done
  done
done
printf '%s\n' "${tunes[@]}" > $o/tunes.txt
python3 - $o <<'PY'
import csv, glob, os, statistics as st, sys
o = sys.argv[1]
tunes = open(o + '/tunes.txt').read().split('\n')[:-1]
def rows(f):
    return [x for x in csv.DictReader(open(f)) if x['time_ms']] if os.path.exists(f) else []
def load(n, i):
    """Entry i's results per shape: one run's, or per-shape medians of the rounds'."""
    got = {}
    for f in [f'{o}/{n}_{i}.csv'] + sorted(glob.glob(f'{o}/{n}_{i}_r*.csv')):
        for x in rows(f):
            got.setdefault((x['rows'], x['cols']), []).append(x)
    out = {}
    for k, xs in got.items():
        x = dict(xs[0])
        x['time_ms'] = st.median(float(y['time_ms']) for y in xs)
        x['ratio'] = st.median(float(y['ratio']) for y in xs)
        out[k] = x
    return out
sets = sorted({os.path.basename(f).split('_')[0] for f in glob.glob(o + '/*_0*.csv')})
for n in sets:
    base = load(n, 0)
    for i, t in enumerate(tunes):
        r = load(n, i)
        v = {(x['rows'], x['cols']): x for x in rows(f'{o}/{n}_v{i}.csv')}
        if not r:
            print(f'{n} [{i}] {t}: no results'); continue
        rat = [float(x['ratio']) for x in r.values()]
        line = f'{n} [{i}] {t:<24} n={len(rat):3d} median {100 * st.median(rat):5.1f} % p10 {100 * sorted(rat)[len(rat) // 10]:5.1f} %'
        if v:
            line += f'  verified {sum(x["verified"] == "yes" for x in v.values())}/{len(v)}'
        if i:
            sp = [float(base[k]['time_ms']) / float(x['time_ms']) for k, x in r.items() if k in base]
            plan = lambda x: (x['sequence'], x['m'], x['n'], x['padded_rows'], x['padded_cols'])
            ch = [float(base[k]['time_ms']) / float(x['time_ms']) for k, x in r.items() if k in base and plan(x) != plan(base[k])]
            line += f'  speed-up median {st.median(sp):.3f} min {min(sp):.3f} max {max(sp):.3f}'
            same = [float(base[k]['time_ms']) / float(x['time_ms']) for k, x in r.items() if k in base and plan(x) == plan(base[k])]
            if ch:
                line += f'; {len(ch)} plans changed: median {st.median(ch):.3f}'
            if same:
                line += f'; unchanged: median {st.median(same):.3f}'
        print(line)
PY
