#!/usr/bin/env bash
# The C2R decomposition against the TPDS sequences (issue 14, item 1):
# builds clipt (Release, build-c2r/) on the device machine and runs
# `clipt bench` on 120 general fp32 shapes from tuning/shapes.py (a seed no
# other run used), once with --algorithm tpds (the automatic TPDS plan,
# padding allowed: today's default) and once with --algorithm c2r (forced),
# in the same run, so that the ratios to copy bandwidth compare.  Then
# C2R again, verified bit-exact, on the first 20 shapes.
# Writes to $OUT: shapes.txt, tpds.csv, c2r.csv, c2r_verify.csv, the logs,
# and summary.txt (also printed): for the coprime shapes (gcd = 1, where C2R
# runs two passes) and for the rest, the median and p10 ratio to copy of
# each algorithm, and the median and p10 of tpds_time / c2r_time (> 1: C2R
# faster), with the count of shapes where C2R is faster; from it the lead
# decides the automatic choice.
# Shapes run in chunks of 10 under a time limit each; a chunk that fails is
# rerun shape by shape, so one failure never spoils the rest.
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

# name, algorithm, time limit per chunk (s), shape file, extra arguments:
# appends every chunk's CSV rows to $out/$name.csv (one header)
run_chunks() {
    local name=$1 algo=$2 limit=$3 shapes=$4
    shift 4
    local dir="$out/chunks-$name"
    mkdir -p "$dir"
    rm -f "$out/$name.csv" "$dir"/*
    split -l 10 -d -a 3 "$shapes" "$dir/part-"
    for part in "$dir"/part-*; do
        if ! timeout "$limit" "$clipt" bench --shapes "$part" --elem 4 --algorithm "$algo" \
            "$@" --csv "$part.csv" >> "$out/$name.log" 2>&1; then
            echo "$name: chunk $(basename "$part") failed; shape by shape" |
                tee -a "$out/$name.log"
            rm -f "$part.csv"
            while read -r r c; do
                [ -n "$r" ] || continue
                echo "$r $c" > "$part.one"
                timeout "$limit" "$clipt" bench --shapes "$part.one" --elem 4 \
                    --algorithm "$algo" "$@" --csv "$part.one.csv" >> "$out/$name.log" 2>&1 ||
                    { echo "$name: $r x $c failed (exit $?)" | tee -a "$out/$name.log"; status=1; }
                [ -f "$part.one.csv" ] && { [ -f "$part.csv" ] && tail -n +2 "$part.one.csv" \
                    >> "$part.csv" || cp "$part.one.csv" "$part.csv"; rm -f "$part.one.csv"; }
            done < "$part"
        fi
        [ -f "$part.csv" ] || continue
        if [ -f "$out/$name.csv" ]; then tail -n +2 "$part.csv" >> "$out/$name.csv"
        else cp "$part.csv" "$out/$name.csv"; fi
    done
}

echo "== tpds (automatic TPDS plans, padding allowed), repeat 3"
run_chunks tpds tpds 40 "$out/shapes.txt" --repeat 3 --no-verify
echo "== c2r (forced), repeat 3"
run_chunks c2r c2r 40 "$out/shapes.txt" --repeat 3 --no-verify
echo "== c2r verified on the first 20 shapes"
head -20 "$out/shapes.txt" > "$out/shapes-verify.txt"
run_chunks c2r_verify c2r 60 "$out/shapes-verify.txt" --repeat 1
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
print(f"\nshapes measured: tpds {len(tpds)}, c2r {len(c2r)}; in one only: {missing[:10]}")
bad = [k for k, r in ver.items() if r["verified"] not in ("yes", "1")]
print(f"c2r verified bit-exact: {len(ver) - len(bad)} of {len(ver)} shapes"
      + (f"; NOT: {bad}" if bad else ""))
print("\nper shape: rows x cols gcd | tpds sequence ratio | c2r ratio | speed-up")
for name, rows in groups.items():
    for key, tr, cr, su, seq in rows:
        print(f"  {key[0]} x {key[1]} {math.gcd(*key)} | {seq} {tr:.3f} | {cr:.3f} | {su:.3f}")
PY
exit $status
