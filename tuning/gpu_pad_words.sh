#!/usr/bin/env bash
# The padding kernels in 16-byte words (pad_rows_words, unpad_rows_words)
# against the tree before them, on the same shapes in one device run.
# Builds this tree and BASE_SRC (a tree without them: git archive of the
# commit before, unpacked here and carried along) side by side (Release,
# clipt_cli), draws fresh lists of the papers' distributions
# (tuning/shapes.py: general 1-, 2-, 4- and 8-byte, skinny 1- and 2-byte;
# SEED, default 2026112720, plus the set's number) and runs
# `clipt bench --repeat 3 --no-verify` on each chunk of 10 shapes with the
# base tree, then this tree, so that their ratios to copy compare; the
# first VERIFY (default 2) shapes of each set are verified bit-exact with
# this tree's plans.
# A chunk that fails is rerun shape by shape (tuning/bench_chunks.sh); no
# chunk starts after DEADLINE seconds (default 500, the builds included).
# Writes to $OUT: the lists, {base,new}_SET.csv and logs, verify_SET.csv,
# gpu.txt and summary.txt (printed; tuning/pad_words_summary.py): per set
# the median and p10 % of copy of both trees, the per-shape speed-up, and
# the padding stages' time in copies of the matrix.
# Also the A/B of any other change of the automatic plans (sets g16, s4,
# s8 too).
# COUNT (default: 60, 100 for g4, 40 for g16 and the skinny sets) sets
# every set's count.
# Usage: BASE_SRC=.base [SEED=S] [SETS="g1 g2 g4 g8 s1 s2"] [VERIFY=N] [COUNT=N] OUT=dir \
#        bash tuning/gpu_pad_words.sh
set -uo pipefail
out=${OUT:-/tmp/clipt-pad-words}
mkdir -p "$out"
seed=${SEED:-2026112720}
deadline=${DEADLINE:-500}
sets_wanted=${SETS:-g1 g2 g4 g8 s1 s2}
base_src=${BASE_SRC:?BASE_SRC: the tree to compare with}
jobs=$(nproc 2>/dev/null || echo 4)
start=$SECONDS
status=0
. tuning/bench_chunks.sh
build() { # source, build dir
    cmake -S "$1" -B "$2" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release >> "$out/build.log" 2>&1 &&
        cmake --build "$2" -j"$jobs" --target clipt_cli >> "$out/build.log" 2>&1
}
build . build-padw && build "$base_src" build-padw-base || { tail -30 "$out/build.log"; exit 1; }
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    > "$out/gpu.txt" 2>/dev/null && cat "$out/gpu.txt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# name: distribution, count, element bytes
declare -A kind=([g1]=general [g2]=general [g4]=general [g8]=general [g16]=general
                 [s1]=skinny [s2]=skinny [s4]=skinny [s8]=skinny)
declare -A count=([g1]=60 [g2]=60 [g4]=100 [g8]=60 [g16]=40 [s1]=40 [s2]=40 [s4]=40 [s8]=40)
if [ -n "${COUNT:-}" ]; then # one count for every set
    for s in "${!count[@]}"; do count[$s]=$COUNT; done
fi
declare -A elem=([g1]=1 [g2]=2 [g4]=4 [g8]=8 [g16]=16 [s1]=1 [s2]=2 [s4]=4 [s8]=8)
k=0
for s in $sets_wanted; do
    k=$((k + 1))
    python3 tuning/shapes.py "${kind[$s]}" --count "${count[$s]}" --seed $((seed + k)) \
        --elem "${elem[$s]}" > "$out/shapes_$s.txt"
    grep -v '^#' "$out/shapes_$s.txt" | head -"${VERIFY:-2}" > "$work/v_$s.txt"
    timeout 60 build-padw/src/cli/clipt bench --shapes "$work/v_$s.txt" --elem "${elem[$s]}" \
        --repeat 1 --csv "$out/verify_$s.csv" > "$out/verify_$s.log" 2>&1 ||
        echo "verify $s: exit $?"
    grep -v '^#' "$out/shapes_$s.txt" | split -l 10 - "$work/$s.part."
    for part in "$work/$s".part.*; do
        if [ $((SECONDS - start)) -gt "$deadline" ]; then
            echo "deadline: $s stops before $(basename "$part")"
            break
        fi
        bench_chunk "base_$s" 120 "$part" build-padw-base/src/cli/clipt --elem "${elem[$s]}" \
            --repeat 3 --no-verify
        bench_chunk "new_$s" 120 "$part" build-padw/src/cli/clipt --elem "${elem[$s]}" \
            --repeat 3 --no-verify
    done
done
python3 tuning/pad_words_summary.py "$out" $sets_wanted | tee "$out/summary.txt"
exit $status
