#!/usr/bin/env bash
# C2R speed, before and after (issue 14, two-pass C2R target): builds the
# baseline tree and this tree (Release, side by side) and runs
# `clipt bench --algorithm c2r` with each, and `--algorithm auto` with this
# tree, on the same shapes in the same run:
#   fp32 coprime   60 general fp32 shapes with gcd(rows, cols) = 1
#                  (C2R: row shuffle + column shuffle, two passes)
#   fp32 gcd>1     20 general fp32 shapes with gcd > 1 (three passes)
#   fp64           20 general fp64 shapes (either)
# drawn by tuning/shapes.py with fresh seeds (SEED, SEED+1, SEED+2).
# Shapes run in chunks of 5, the three runs of a chunk one after the other
# (old c2r, new c2r, new auto), so that the ratios to copy compare; a chunk
# that fails is rerun shape by shape, so one failure never spoils the rest;
# no chunk starts after DEADLINE seconds (default 220, builds included).
# New C2R is verified bit-exact on the first 2 shapes of each set (old too).
# On every other fp32 coprime chunk new C2R runs once more with
# CLIPT_C2R_SCRATCH_MIB=16 (l2_fp32c.csv): the column shuffle's scratch
# small enough to stay in the L2 cache, with fewer work-groups.
# Writes to $OUT: shapes_*.txt, {old,new,auto}_{fp32c,fp32g,fp64}.csv (with
# stages_ms, per pass), *_verify.csv, the logs, and summary.txt (printed):
# per set the median and p10 ratio to copy of old C2R, new C2R and auto,
# the median new/old speed-up, the per-pass medians (pass ms / copy ms of
# the same shape: the copy time counts one read and one write of the
# matrix), and how many shapes new C2R runs faster than auto.
#
# The baseline: BASE_SRC=DIR (a source tree), else ./c2r_base/ if present,
# else `git archive $BASE` (BASE default 2c3ee8f, main where this branch
# began; needs the repository's .git).  The device machine gets the working
# tree without .git: make c2r_base/ here first and carry it:
#     tuning/gpu_c2r_speed.sh --prepare        # writes c2r_base/, ignored
#     run: carry ["c2r_base"], command: bash tuning/gpu_c2r_speed.sh
# Usage: tuning/gpu_c2r_speed.sh [SEED]  (takes < 4 min on an H100).
# For a quick check on PoCL: CLIPT_PLATFORM=Portable COPRIME=2 GCD=1 FP64=1
# MAXDIM=600.
set -uo pipefail
base_ref=${BASE:-2c3ee8f}
if [ "${1:-}" = "--prepare" ]; then
    rm -rf c2r_base && mkdir c2r_base &&
        git archive "${2:-$base_ref}" | tar x -C c2r_base || exit 1
    exclude=$(git rev-parse --git-path info/exclude) &&
        { grep -qx '/c2r_base/' "$exclude" 2>/dev/null || echo '/c2r_base/' >> "$exclude"; }
    echo "c2r_base/: $(git rev-parse --short "${2:-$base_ref}")"
    exit 0
fi
out=${OUT:-/tmp/clipt-c2r-speed}
mkdir -p "$out"
seed=${1:-202611261}
deadline=${DEADLINE:-220}
jobs=$(( $(nproc) / 2 > 1 ? $(nproc) / 2 : 1 ))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the two trees, built at the same time
if [ -n "${BASE_SRC:-}" ]; then cp -r "$BASE_SRC" "$work/old"; from=$BASE_SRC
elif [ -d c2r_base ]; then cp -r c2r_base "$work/old"; from=c2r_base/
else mkdir "$work/old" && git archive "$base_ref" | tar x -C "$work/old" ||
    { echo "no baseline: set BASE_SRC or run --prepare (see the head of $0)"; exit 1; }
    from="git archive $base_ref"
fi
build() { # source dir, build dir, log
    cmake -S "$1" -B "$2" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > "$3" 2>&1 &&
        cmake --build "$2" -j"$jobs" --target clipt_cli >> "$3" 2>&1
}
build "$work/old" "$work/old/build" "$out/build_old.log" & old_pid=$!
build . build-c2r-speed "$out/build_new.log" || { tail -30 "$out/build_new.log"; exit 1; }
wait "$old_pid" || { tail -30 "$out/build_old.log"; exit 1; }
old=$work/old/build/src/cli/clipt
new=build-c2r-speed/src/cli/clipt
echo "built in ${SECONDS}s; baseline from $from" | tee "$out/baseline.txt"

export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    > "$out/gpu.txt" 2>/dev/null && cat "$out/gpu.txt"

# shape lists: COUNT shapes of `set` (coprime | gcd | general) for `elem`
shapes() { # set, count, seed, elem, file
    python3 - "$@" <<'PY'
import math, random, sys
kind, count, seed, elem, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
import os
hi = 15000 if elem >= 8 else 20000
top = int(os.environ.get("MAXDIM", "0")) or hi
lo = min(1000, (top + 1) // 2)
rng, got = random.Random(seed), []
while len(got) < count:  # as tuning/shapes.py general, filtered by gcd
    r, c = rng.randint(lo, min(hi, top)), rng.randint(lo, min(hi, top))
    g = math.gcd(r, c)
    if kind == "general" or (kind == "coprime") == (g == 1):
        got.append((r, c))
with open(path, "w") as f:
    f.write(f"# {kind} elem {elem} seed {seed}\n" + "".join(f"{r} {c}\n" for r, c in got))
PY
}
shapes coprime "${COPRIME:-60}" "$seed" 4 "$out/shapes_fp32c.txt" &&
    shapes gcd "${GCD:-20}" $((seed + 1)) 4 "$out/shapes_fp32g.txt" &&
    shapes general "${FP64:-20}" $((seed + 2)) 8 "$out/shapes_fp64.txt" || exit 1

status=0
. "$(dirname "$0")/bench_chunks.sh"
# tag, binary, algorithm, elem, time limit, shape file, extra args: one
# bench run (bench_chunk: on failure shape by shape); rows appended to
# $out/$tag.csv
bench() {
    local tag=$1 bin=$2 algo=$3 elem=$4 limit=$5 part=$6
    shift 6
    bench_chunk "$tag" "$limit" "$part" "$bin" --elem "$elem" --algorithm "$algo" "$@"
}

rm -f "$out"/*.csv
dir=$work/chunks
mkdir -p "$dir"
echo "== verified bit-exact: old and new C2R on the first 2 shapes of each set"
for set in fp32c fp32g fp64; do
    elem=4; [ "$set" = fp64 ] && elem=8
    grep -v '^#' "$out/shapes_$set.txt" | head -2 > "$dir/verify_$set"
    bench new_verify "$new" c2r "$elem" 60 "$dir/verify_$set" --repeat 1
    bench old_verify "$old" c2r "$elem" 60 "$dir/verify_$set" --repeat 1
done
echo "== old c2r, new c2r, new auto, repeat 3, chunks of 5 shapes, sets interleaved"
for set in fp32c fp32g fp64; do
    grep -v '^#' "$out/shapes_$set.txt" | split -l 5 -d -a 3 - "$dir/$set-"
done
# the sets interleaved (3 fp32 coprime chunks, then one of each other
# set), so that a deadline cuts every set a little
order=()
for i in $(seq 0 40); do
    order+=("$(printf 'fp32c-%03d' "$i")")
    [ $((i % 3)) -eq 2 ] && order+=("$(printf 'fp32g-%03d' $((i / 3)))" "$(printf 'fp64-%03d' $((i / 3)))")
done
for name in "${order[@]}"; do
    part=$dir/$name
    [ -f "$part" ] || continue
    [ "$SECONDS" -lt "$deadline" ] || { echo "deadline: stopped before $(basename "$part")"; break; }
    set=$(basename "$part" | cut -d- -f1)
    elem=4; [ "$set" = fp64 ] && elem=8
    bench "old_$set" "$old" c2r "$elem" 40 "$part" --repeat 3 --no-verify
    bench "new_$set" "$new" c2r "$elem" 40 "$part" --repeat 3 --no-verify
    bench "auto_$set" "$new" auto "$elem" 40 "$part" --repeat 3 --no-verify
    if [ "$set" = fp32c ] && [ $((10#${name#fp32c-} % 2)) -eq 0 ]; then
        # every other chunk: the scratch knob, 16 MiB, to stay in L2
        export CLIPT_C2R_SCRATCH_MIB=16
        bench "l2_$set" "$new" c2r "$elem" 40 "$part" --repeat 3 --no-verify
        unset CLIPT_C2R_SCRATCH_MIB
    fi
done

python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, math, os, statistics, sys
out = sys.argv[1]
def rows_of(name):
    path = os.path.join(out, name + ".csv")
    return list(csv.DictReader(open(path))) if os.path.exists(path) else []
def load(name):
    return {(int(r["rows"]), int(r["cols"])): r for r in rows_of(name)}
def med(xs):
    return statistics.median(xs) if xs else float("nan")
def p10(xs):
    return sorted(xs)[int(0.1 * (len(xs) - 1))] if xs else float("nan")
def copy_ms(r):  # one read and one write of the matrix at the run's copy rate
    return 2 * int(r["rows"]) * int(r["cols"]) * int(r["elem"]) / float(r["copy_gbs"]) / 1e6
def passes(r):
    ms = [float(x) for x in r["stages_ms"].split(";") if x]
    names = (["rotate"] if len(ms) == 3 else []) + ["rows", "columns"]
    return dict(zip(names, (m / copy_ms(r) for m in ms))) if len(ms) == len(names) else {}
print("C2R before (old) and after (new) this branch, and the automatic plan (auto),")
print("same run; ratio = throughput / copy bandwidth of the same shape's run;")
print("pass x copy = the pass's ms / the ms of one copy of the matrix")
sets = {"fp32c": "fp32, gcd 1 (C2R: 2 passes)", "fp32g": "fp32, gcd > 1 (C2R: 3 passes)",
        "fp64": "fp64, general"}
for s, title in sets.items():
    old, new, auto = load("old_" + s), load("new_" + s), load("auto_" + s)
    keys = sorted(set(old) & set(new) & set(auto))
    groups = [(title, keys)]
    if s == "fp64":
        groups = [(title + ", gcd 1", [k for k in keys if math.gcd(*k) == 1]),
                  (title + ", gcd > 1", [k for k in keys if math.gcd(*k) > 1])]
    for name, ks in groups:
        print(f"\n{name}: {len(ks)} shapes measured by all three"
              f" (old {len(old)}, new {len(new)}, auto {len(auto)})")
        if not ks:
            continue
        l2 = load("l2_" + s)
        for tag, d in (("old c2r", old), ("new c2r", new), ("auto", auto),
                       ("new c2r, CLIPT_C2R_SCRATCH_MIB=16", l2)):
            rs = [float(d[k]["ratio"]) for k in ks if k in d]
            if rs:
                print(f"  {tag:8s} ratio to copy: median {100 * med(rs):5.1f} %  "
                      f"p10 {100 * p10(rs):5.1f} %  ({len(rs)} shapes)")
        su = [float(old[k]["time_ms"]) / float(new[k]["time_ms"]) for k in ks]
        va = [float(auto[k]["time_ms"]) / float(new[k]["time_ms"]) for k in ks]
        print(f"  new/old speed-up: median {med(su):.2f}  p10 {p10(su):.2f}  min {min(su):.2f}")
        print(f"  auto ms / new c2r ms: median {med(va):.2f}; new c2r faster on "
              f"{sum(v > 1 for v in va)} of {len(ks)}")
        for tag, d in (("old", old), ("new", new), ("new, 16 MiB scratch", l2)):
            per = [passes(d[k]) for k in ks if k in d]
            if not per:
                continue
            cols = sorted({p for x in per for p in x}, key=["rotate", "rows", "columns"].index)
            print(f"  {tag} pass x copy, median: " + ", ".join(
                f"{p} {med([x[p] for x in per if p in x]):.2f}" for p in cols))
for tag in ("new_verify", "old_verify"):
    rows = rows_of(tag)
    bad = [(r["rows"], r["cols"], r["elem"]) for r in rows if r["verified"] not in ("yes", "1")]
    print(f"\n{tag}: {len(rows) - len(bad)} of {len(rows)} bit-exact" + (f"; NOT: {bad}" if bad else ""), end="")
print("\n\nper shape (new c2r): rows x cols elem gcd | old ratio | new ratio | auto ratio | new stages ms")
for s in sets:
    old, new, auto = load("old_" + s), load("new_" + s), load("auto_" + s)
    for k in sorted(set(old) & set(new) & set(auto)):
        print(f"  {k[0]} x {k[1]} {new[k]['elem']} {math.gcd(*k)} | {float(old[k]['ratio']):.3f} | "
              f"{float(new[k]['ratio']):.3f} | {float(auto[k]['ratio']):.3f} ({auto[k]['sequence']}) | "
              f"{new[k]['stages_ms']}")
PY
echo "total ${SECONDS}s"
exit $status
