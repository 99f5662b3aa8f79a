#!/usr/bin/env bash
# tuning/gpu_model.sh: the cost model on the H100 (issue 12), for the lead
# to run on the device machine from the repository root:
#
#     bash tuning/gpu_model.sh            (CSVs and logs to $OUT)
#
# Builds clipt (Release, own build dir), then, on fresh shape lists
# (tuning/shapes.py, seeds the bench never drew), with every shape verified:
#   g4     120 general fp32 shapes, automatic plans (the cost model's choice)
#   g4a5   the same shapes with --tile-rule alg5 (Algorithm 5 alone: the
#          plans the model replaces), for the side-by-side gain
#   g8     120 general fp64 shapes
#   s4     120 skinny fp32 shapes
#   brute  30 general fp32 shapes up to 8000 x 8000, --brute-force with
#          padded candidates, at most 16 plans each (auto/best)
# and prints per set the ratio to copy and the model's accuracy (clipt
# bench's 'model:' line).  Then the per-stage calibration on the measured
# plans: clipt_model_calib (the H100's own profile) and tuning/fit_model.py
# --check (accuracy of the committed values, per stage kind and per plan)
# and a refit (new values, printed as the entry's .model_* line).  A shape
# that fails is reported by the bench and the rest go on.  About 5 minutes.
# Files in $OUT: model.log (everything), g4.csv, g4a5.csv, g8.csv, s4.csv,
# brute.csv, features.csv, fit.txt.
set -uo pipefail
out=${OUT:-/tmp/clipt-model}
mkdir -p "$out"
log=$out/model.log
build=build-model
start=$(date +%s)
cmake -S . -B $build -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > /tmp/clipt-cmake.log 2>&1 ||
    { tail -30 /tmp/clipt-cmake.log; exit 1; }
cmake --build $build -j16 --target clipt_cli clipt_model_calib > /tmp/clipt-build.log 2>&1 ||
    { tail -30 /tmp/clipt-build.log; exit 1; }
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee -a "$log"
git log --oneline -1 | tee -a "$log"

python3 tuning/shapes.py general --count 120 --seed 1201 > /tmp/g4.txt
python3 tuning/shapes.py general --count 120 --seed 1202 --elem 8 > /tmp/g8.txt
python3 tuning/shapes.py skinny --count 120 --seed 1203 > /tmp/s4.txt
# brute force: smaller shapes (plan creation is the cost), padded candidates
python3 tuning/shapes.py general --count 400 --seed 1205 |
    awk '!/^#/ && $1 <= 8000 && $2 <= 8000' | head -n 30 > /tmp/brute.txt

status=0
run() { # NAME ARGS...: one bench, its CSV, its summary lines
    local name=$1
    shift
    echo "== $name: clipt bench $*" | tee -a "$log"
    $build/src/cli/clipt bench "$@" --csv "$out/$name.csv" >> "$log" 2>&1 || status=1
    grep -E "^(mode|ratio|auto/best|model:)" "$log" | tail -n 4
}
run g4 --shapes /tmp/g4.txt --repeat 3
run g4a5 --shapes /tmp/g4.txt --repeat 3 --tile-rule alg5
run g8 --shapes /tmp/g8.txt --repeat 3 --elem 8
run s4 --shapes /tmp/s4.txt --repeat 3
run brute --shapes /tmp/brute.txt --repeat 3 --brute-force --brute-limit 16

# side by side: the model's plans against Algorithm 5's on the same shapes
python3 - "$out/g4.csv" "$out/g4a5.csv" <<'EOF' | tee -a "$log"
import csv, statistics, sys
a = {(r["rows"], r["cols"]): r for r in csv.DictReader(open(sys.argv[1]))}
b = {(r["rows"], r["cols"]): r for r in csv.DictReader(open(sys.argv[2]))}
both = [k for k in a if k in b]
changed = [k for k in both if (a[k]["sequence"], a[k]["m"], a[k]["n"], a[k]["padded_rows"],
                               a[k]["padded_cols"]) != (b[k]["sequence"], b[k]["m"], b[k]["n"],
                                                        b[k]["padded_rows"], b[k]["padded_cols"])]
gain = [float(b[k]["time_ms"]) / float(a[k]["time_ms"]) - 1 for k in changed]
print("model vs Algorithm 5 (g4): %d of %d shapes change plan; on those, time gain median "
      "%+.1f %%, worst %+.1f %%, best %+.1f %%; all shapes: ratio median %.1f %% vs %.1f %%" % (
          len(changed), len(both), 100 * statistics.median(gain) if gain else 0,
          100 * min(gain) if gain else 0, 100 * max(gain) if gain else 0,
          100 * statistics.median(float(a[k]["ratio"]) for k in both),
          100 * statistics.median(float(b[k]["ratio"]) for k in both)))
EOF

# per-stage calibration on the plans just measured (the H100's own profile)
$build/tuning/clipt_model_calib --profile device "$out/g4.csv" "$out/g4a5.csv" "$out/g8.csv" \
    "$out/s4.csv" > "$out/features.csv" 2>> "$log" || status=1
{
    python3 tuning/fit_model.py --check "$out/features.csv"
    echo
    python3 tuning/fit_model.py "$out/features.csv"
} > "$out/fit.txt" 2>&1
cat "$out/fit.txt" | tee -a "$log"
echo "gpu_model.sh: $(($(date +%s) - start)) s" | tee -a "$log"
exit $status
