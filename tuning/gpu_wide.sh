#!/usr/bin/env bash
# Stage-level widening (issue 12, 1- and 2-byte rows): main against this
# tree, side by side in one run on the device machine.
# Builds the base (git archive $BASE, default main; or the tarball $MAIN_TGZ
# when the tree has no git history) into build-wide-main/ (after a merge of
# this branch into main, run with BASE=<main before the merge>)
# and this tree into build-wide/, then for each shape list runs
# `clipt bench --repeat 3` with main's build and with this tree's, one
# after the other on the same shapes, each under its own time limit:
#   g1, g2, g4  tuning/shapes.py general --count 60 --seed 20261128 --elem E
#   s1, s2      tuning/shapes.py skinny  --count 40 --seed 20261128 --elem E
# This tree's runs verify every shape bit-exact; main's skip the check for
# time (main is verified by its own runs).
# Writes the shape lists, old_<set>.csv / new_<set>.csv and logs into
# $OUT/all.tgz, and summary.txt (also printed) beside it: per set, median
# and p10 % of copy old / new over the shapes both measured, and the
# median throughput of each stage (% of copy) by plan kind (sequence,
# stage count).
# Usage: [BASE=ref | MAIN_TGZ=main.tgz] [LIMIT=S] tuning/gpu_wide.sh   (< 6 min)
# (a quick check elsewhere: COUNT=N shapes per list, DIV=D divides every
# side by D (at least 2 left), e.g. COUNT=3 DIV=10 on PoCL)
set -uo pipefail
# the work in its own folder; $OUT gets summary.txt, gpu.txt, trees.txt and
# all.tgz only (the device machine returns at most 8 files)
final=${OUT:-/tmp/clipt-wide}
mkdir -p "$final"
out=$(mktemp -d)
seed=20261128
limit=${LIMIT:-28}
here=$PWD
main_src=$here/build-wide-main-src # a fixed place: a rerun reuses the builds
rm -rf "$main_src" && mkdir -p "$main_src"
if [ -n "${MAIN_TGZ:-}" ]; then
    tar -xzf "$MAIN_TGZ" -C "$main_src" || exit 1
else
    git archive "${BASE:-main}" | tar -x -C "$main_src" || exit 1
fi
build() { # source dir, build dir, log name
    cmake -S "$1" -B "$2" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release \
        > "$out/$3.log" 2>&1 && cmake --build "$2" -j8 --target clipt_cli >> "$out/$3.log" 2>&1
}
build "$main_src" "$here/build-wide-main" build_main &
build "$here" "$here/build-wide" build_new || { tail -30 "$out/build_new.log"; exit 1; }
wait $! || { tail -30 "$out/build_main.log"; exit 1; }
[ -n "${DIV:-}" ] || export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    > "$out/gpu.txt" 2>/dev/null && cat "$out/gpu.txt"
{ echo "base: ${MAIN_TGZ:-$(git -C "$here" rev-parse --short "${BASE:-main}" 2>/dev/null)}"
  git -C "$here" log -1 --format='this tree: %h %s'; } > "$out/trees.txt" 2>/dev/null
status=0
# set name, shape class, element size, shape count
run_set() {
    local name=$1 class=$2 elem=$3 count=$4
    python3 "$here/tuning/shapes.py" "$class" --count "${COUNT:-$count}" --seed "$seed" \
        --elem "$elem" | awk -v d="${DIV:-1}" '/^#/ || d == 1 {print; next}
            {r = int($1 / d); c = int($2 / d); print (r < 2 ? 2 : r), (c < 2 ? 2 : c)}' \
        > "$out/$name.txt" || { status=1; return; }
    for tree in old new; do
        local clipt="$here/build-wide/src/cli/clipt" extra=""
        if [ "$tree" = old ]; then clipt="$here/build-wide-main/src/cli/clipt"; extra=--no-verify; fi
        echo "== $tree $name: clipt bench --shapes $name.txt --elem $elem --repeat 3 $extra"
        timeout "$limit" "$clipt" bench --shapes "$out/$name.txt" --elem "$elem" --repeat 3 \
            $extra --csv "$out/${tree}_$name.csv" > "$out/${tree}_$name.log" 2>&1 ||
            { echo "$tree $name: exit status $? (see ${tree}_$name.log)"; status=1; }
        grep -E "^(median|ratio)" "$out/${tree}_$name.log"
    done
}
run_set g1 general 1 60
run_set g2 general 2 60
run_set s1 skinny 1 40
run_set s2 skinny 2 40
run_set g4 general 4 60
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, os, statistics, sys
out = sys.argv[1]
def load(tree, name):
    path = os.path.join(out, "%s_%s.csv" % (tree, name))
    rows = {}
    if os.path.exists(path):
        with open(path) as f:
            for r in csv.DictReader(f):
                if r.get("time_ms"):
                    rows[(r["rows"], r["cols"])] = r
    return rows
def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")
def stage_pcts(r):
    # one stage's share of copy: the whole plan's bytes moved once in its time
    ms = [float(x) for x in r["stages_ms"].split(";") if x] if r.get("stages_ms") else []
    gb = 2.0 * int(r["rows"]) * int(r["cols"]) * int(r["elem"]) / 1e9
    return [100.0 * gb / (t / 1e3) / float(r["copy_gbs"]) for t in ms if t > 0]
print("set    shapes  old median/p10 %copy   new median/p10 %copy   new/old (median of per-shape ratios)")
for name in ["g1", "g2", "s1", "s2", "g4"]:
    old, new = load("old", name), load("new", name)
    both = sorted(set(old) & set(new))
    if not both:
        print("%-6s no shape measured by both trees" % name)
        continue
    o = [100 * float(old[k]["ratio"]) for k in both]
    n = [100 * float(new[k]["ratio"]) for k in both]
    gain = statistics.median(float(new[k]["gbs"]) / float(old[k]["gbs"]) for k in both)
    bad = sum(1 for k in both if new[k].get("verified") not in ("yes",))
    print("%-6s %4d    %6.1f / %5.1f          %6.1f / %5.1f          %.3f%s" %
          (name, len(both), statistics.median(o), pct(o, 0.1), statistics.median(n), pct(n, 0.1),
           gain, "   NOT VERIFIED: %d" % bad if bad else ""))
print()
print("per-stage medians (% of copy), by plan kind (sequence, stages), old | new:")
for name in ["g1", "g2", "s1", "s2", "g4"]:
    for tree in ("old", "new"):
        kinds = {}
        for r in load(tree, name).values():
            p = stage_pcts(r)
            kinds.setdefault((r["sequence"], len(p)), []).append(p)
        for (seq, k), ps in sorted(kinds.items(), key=lambda x: -len(x[1])):
            if k == 0 or len(ps) < 3:
                continue
            meds = ["%.0f" % statistics.median(p[i] for p in ps) for i in range(k)]
            print("  %-3s %-4s seq %-4s %d stages, %3d shapes: %s" %
                  (name, tree, seq, k, len(ps), ", ".join(meds)))
PY
tar -czf "$final/all.tgz" -C "$out" . 2>/dev/null
cp "$out/summary.txt" "$out/gpu.txt" "$out/trees.txt" "$final/" 2>/dev/null
exit $status
