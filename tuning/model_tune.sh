#!/bin/sh
# tuning/model_tune.sh BUILD OUTDIR [COUNT] [MAX_DIM] [REPEAT]
#
# Measures the cost model's values (the model_* tuning fields) on the
# selected device (CLIPT_PLATFORM / CLIPT_DEVICE): per-stage times of the
# automatic plans of general and skinny shapes with 4- and 8-byte elements
# and general ones with 1- and 2-byte elements (their small super-elements
# are what model_run_bytes is fitted on)
# (clipt bench --csv: every shape verified, stage times are medians of
# REPEAT runs), each plan's stages as the model sees them
# (clipt_model_calib --profile device), and the least-squares fit of all
# values at once (tuning/fit_model.py), which prints the fit's accuracy and
# the `.model_* = ...` values for the device's entry in
# tuning/tuning_entries.inc.  COUNT shapes per set (default 24), sides
# scaled down to at most MAX_DIM (default: the papers' ranges; 3000 suits
# a CPU).  Writes OUTDIR/model_SET.csv, OUTDIR/model_features.csv and
# OUTDIR/model_fit.txt.
set -e
build=${1:?usage: model_tune.sh BUILD OUTDIR [COUNT] [MAX_DIM] [REPEAT]}
out=${2:?usage: model_tune.sh BUILD OUTDIR [COUNT] [MAX_DIM] [REPEAT]}
count=${3:-24}
maxdim=${4:+--max-dim $4}
repeat=${5:-3}
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
set -- general_e4 "--random general --seed 1201" general_e8 "--random general --elem 8 --seed 1202" \
    skinny_e4 "--random skinny --seed 1203" skinny_e8 "--random skinny --elem 8 --seed 1204" \
    general_e1 "--random general --elem 1 --seed 1205" general_e2 "--random general --elem 2 --seed 1206"
csvs=
while [ $# -gt 0 ]; do
    # shellcheck disable=SC2086 # the set's options are words
    "$build/src/cli/clipt" bench $2 --count "$count" --repeat "$repeat" $maxdim \
        --csv "$out/model_$1.csv" > "$out/model_$1.log" || echo "model_tune: $1 had failures" >&2
    tail -n 4 "$out/model_$1.log"
    csvs="$csvs $out/model_$1.csv"
    shift 2
done
# shellcheck disable=SC2086
"$build/tuning/clipt_model_calib" --profile device $csvs > "$out/model_features.csv"
python3 "$src/tuning/fit_model.py" "$out/model_features.csv" | tee "$out/model_fit.txt"
