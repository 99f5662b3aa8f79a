#!/usr/bin/env bash
# The C2R decomposition against the TPDS sequences (issue 14, item 1):
# builds clipt (Release, build-c2r/) on the device machine and runs
# `clipt bench` on 120 general fp32 shapes from tuning/shapes.py (a seed no
# other run used), once with --algorithm tpds (the automatic TPDS plan,
# padding allowed: today's default) and once with --algorithm c2r (forced),
# in the same run, chunk by chunk of 10 shapes, so that the ratios to copy
# bandwidth compare.  First C2R is verified bit-exact on 10 shapes.
# Writes to $OUT: shapes.txt, tpds.csv, c2r.csv, c2r_verify.csv, the logs,
# and summary.txt (also printed): for the coprime shapes (gcd = 1, where C2R
# runs two passes) and for the rest, the median and p10 ratio to copy of
# each algorithm, and the median and p10 of tpds_time / c2r_time (> 1: C2R
# faster), with the count of shapes where C2R is faster; from it the lead
# decides the automatic choice.
# Shapes run in chunks of 10 under a time limit each; a chunk that fails is
# rerun shape by shape, so one failure never spoils the rest.  No chunk
# starts after DEADLINE seconds (default 185, build included): the summary
# says how many shapes both algorithms measured (the target is >= 100).
# Usage: tuning/gpu_c2r.sh [SEED]  (takes < 4 min).  SHAPES=FILE replaces
# the shape list (for a quick check on PoCL: CLIPT_PLATFORM=Portable).
set -uo pipefail
out=${OUT:-/tmp/clipt-c2r}
mkdir -p "$out"
seed=${1:-20261126}
cmake -S . -B build-c2r -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release \
    > "$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
cmake --build build-c2r -j16 --target clipt_cli > "$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; exit 1; }
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    > "$out/gpu.txt" 2>/dev/null && cat "$out/gpu.txt"
if [ -n "${SHAPES:-}" ]; then
    grep -v '^#' "$SHAPES" > "$out/shapes.txt"
else
    python3 tuning/shapes.py general --count 120 --seed "$seed" --elem 4 \
        > "$out/shapes.txt" || exit 1
fi
clipt=build-c2r/src/cli/clipt
status=0

# Runs stop starting new chunks once the script has run this long (s), so
# that it ends within 4 minutes whatever the device's speed.
deadline=${DEADLINE:-185}

# name, algorithm, time limit (s), shape file, extra arguments: benches the
# shapes of one file; a failing run is retried shape by shape (until the
# deadline); the CSV rows go to $out/$name.csv (one header)
bench_part() {
    local name=$1 algo=$2 limit=$3 part=$4
    shift 4
    if ! timeout "$limit" "$clipt" bench --shapes "$part" --elem 4 --algorithm "$algo" \
        "$@" --csv "$part.$name.csv" >> "$out/$name.log" 2>&1; then
        echo "$name: $(basename "$part") failed; shape by shape" | tee -a "$out/$name.log"
        rm -f "$part.$name.csv"
        while read -r r c; do
            [ -n "$r" ] && [ "$SECONDS" -lt "$deadline" ] || continue
            echo "$r $c" > "$part.one"
            timeout "$limit" "$clipt" bench --shapes "$part.one" --elem 4 \
                --algorithm "$algo" "$@" --csv "$part.one.csv" >> "$out/$name.log" 2>&1 ||
                { echo "$name: $r x $c failed (exit $?)" | tee -a "$out/$name.log"; status=1; }
            [ -f "$part.one.csv" ] || continue
            if [ -f "$part.$name.csv" ]; then tail -n +2 "$part.one.csv" >> "$part.$name.csv"
            else cp "$part.one.csv" "$part.$name.csv"; fi
            rm -f "$part.one.csv"
        done < "$part"
    fi
    [ -f "$part.$name.csv" ] || return 0
    if [ -f "$out/$name.csv" ]; then tail -n +2 "$part.$name.csv" >> "$out/$name.csv"
    else cp "$part.$name.csv" "$out/$name.csv"; fi
}

dir="$out/chunks"
rm -rf "$dir" "$out"/tpds.csv "$out"/c2r.csv "$out"/c2r_verify.csv
mkdir -p "$dir"
echo "== c2r verified bit-exact on the first 10 shapes"
head -10 "$out/shapes.txt" > "$dir/verify"
bench_part c2r_verify c2r 60 "$dir/verify" --repeat 1
echo "== tpds (automatic TPDS plans, padding allowed) and c2r (forced), repeat 3,"
echo "   chunk by chunk of 10 shapes, the two algorithms one after the other"
split -l 10 -d -a 3 "$out/shapes.txt" "$dir/part-"
for part in "$dir"/part-*; do
    [ "$SECONDS" -lt "$deadline" ] ||
        { echo "deadline: stopped before $(basename "$part")"; break; }
    bench_part tpds tpds 25 "$part" --repeat 3 --no-verify
    bench_part c2r c2r 25 "$part" --repeat 3 --no-verify
done
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, math, os, statistics, sys
out = sys.argv[1]
def load(name):
    path = os.path.join(out, name + ".csv")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {(int(r["rows"]), int(r["cols"])): r for r in csv.DictReader(f)}
tpds, c2r, ver = load("tpds"), load("c2r"), load("c2r_verify")
def p10(xs):
    xs = sorted(xs)
    return xs[int(0.1 * (len(xs) - 1))] if xs else float("nan")
def med(xs):
    return statistics.median(xs) if xs else float("nan")
groups = {"coprime (gcd 1: C2R in two passes)": [], "gcd > 1 (C2R in three passes)": []}
for key in sorted(set(tpds) & set(c2r)):
    t, c = tpds[key], c2r[key]
    tt, tc = float(t["time_ms"]), float(c["time_ms"])
    if tt <= 0 or tc <= 0:
        continue
    g = math.gcd(*key)
    groups["coprime (gcd 1: C2R in two passes)" if g == 1 else
           "gcd > 1 (C2R in three passes)"].append(
        (key, float(t["ratio"]), float(c["ratio"]), tt / tc, t["sequence"]))
print("C2R (forced) against the automatic TPDS plan, general fp32 shapes, same run")
print("ratio = throughput / copy bandwidth of the same run; speed-up = tpds ms / c2r ms")
for name, rows in groups.items():
    n = len(rows)
    print(f"\n{name}: {n} shapes")
    if not n:
        continue
    tr, cr, su = [r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows]
    print(f"  tpds ratio to copy: median {med(tr):.3f}  p10 {p10(tr):.3f}")
    print(f"  c2r  ratio to copy: median {med(cr):.3f}  p10 {p10(cr):.3f}")
    print(f"  speed-up c2r over tpds: median {med(su):.3f}  p10 {p10(su):.3f}  "
          f"max {max(su):.3f}; c2r faster on {sum(s > 1 for s in su)} of {n}")
missing = sorted(set(tpds) ^ set(c2r))
print(f"\nshapes measured: tpds {len(tpds)}, c2r {len(c2r)}, both {len(set(tpds) & set(c2r))} "
      f"(the target is >= 100); in one only: {missing[:10]}")
bad = [k for k, r in ver.items() if r["verified"] not in ("yes", "1")]
print(f"c2r verified bit-exact: {len(ver) - len(bad)} of {len(ver)} shapes"
      + (f"; NOT: {bad}" if bad else ""))
print("\nper shape: rows x cols gcd | tpds sequence ratio | c2r ratio | speed-up")
for name, rows in groups.items():
    for key, tr, cr, su, seq in rows:
        print(f"  {key[0]} x {key[1]} {math.gcd(*key)} | {seq} {tr:.3f} | {cr:.3f} | {su:.3f}")
PY
exit $status
