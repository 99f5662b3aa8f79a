#!/usr/bin/env bash
# A/B of the nd-speed branch (issue 15's speed targets) against an older
# tree on the device machine, both built and timed in the same run on the
# same cases with clipt_permute_bench: gpu_nd.sh's fixed cases (the
# batches 10^5 x 32 x 48 fp32 and 10^4 x 64 x 100 fp16, NCHW <-> NHWC
# 64x256x56x56 fp32 and fp16, 32x3x224x224 uint8) and the first COUNT
# (default 12) cases of each of its random tensor sets (TTLG-like, elem 4
# seed SEED = 15, elem 8 seed SEED + 1; MAX_BYTES caps their size).  Each case runs in its own process under its own
# time limit, old and new one after the other, so that one failure or hang
# spoils nothing else and clock drift hits both alike.
#
# The old tree: OLD=DIR (a source tree) or OLD=FILE.tar, else
# `git archive ${BASE:-main}` of this repository (needs .git).  The new tree
# is the current directory.  Builds go to build-ndA/ (old) and build-ndB/
# (new), in parallel.
# Writes to $OUT: old.csv, new.csv (clipt_permute_bench's rows), logs.tgz
# (one log per case and tree, the build logs), cases.txt, gpu.txt, and
# summary.txt (also printed): per case the
# old and new % of copy, their difference, and both trees' medians over the
# random set.  Usage: [OLD=...] [REPEAT=5] [COUNT=12] [SEED=15] [MAX_BYTES=N]
# [FIXED_FILE=F] tuning/gpu_nd_speed.sh [CASES_FILE] (FIXED_FILE: lines
# "ELEM DIMS:AXES" in place of the fixed cases; CASES_FILE: the whole list).
# (lines "ELEM DIMS:AXES").  Takes < 5 min, builds included.
set -uo pipefail
out=${OUT:-/tmp/clipt-nd-speed}
mkdir -p "$out"
repeat=${REPEAT:-5}
count=${COUNT:-12}
seed=${SEED:-15}
old_src=build-ndA/src
rm -rf build-ndA build-ndB
mkdir -p "$old_src"
if [ -n "${OLD:-}" ] && [ -d "$OLD" ]; then
    cp -a "$OLD"/. "$old_src"/
elif [ -n "${OLD:-}" ]; then
    tar -xf "$OLD" -C "$old_src" || exit 1
else
    git archive "${BASE:-main}" | tar -x -C "$old_src" || {
        echo "no old tree: set OLD=DIR or OLD=FILE.tar, or run in a git checkout"; exit 1; }
fi
build() { # source dir, build dir, log
    cmake -S "$1" -B "$2" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > "$3" 2>&1 &&
        cmake --build "$2" -j8 --target clipt_permute_bench >> "$3" 2>&1
}
build "$old_src" build-ndA/bin "$out/build_old.log" & pid_old=$!
build . build-ndB "$out/build_new.log" & pid_new=$!
wait $pid_old || { echo "old tree: build failed"; tail -30 "$out/build_old.log"; exit 1; }
wait $pid_new || { echo "new tree: build failed"; tail -30 "$out/build_new.log"; exit 1; }
declare -A bench=([old]=build-ndA/bin/tuning/clipt_permute_bench
                  [new]=build-ndB/tuning/clipt_permute_bench)
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    > "$out/gpu.txt" 2>/dev/null && cat "$out/gpu.txt"
cases="$out/cases.txt"
if [ $# -ge 1 ]; then
    cp "$1" "$cases"
else
    # gpu_nd.sh's fixed cases, then the first COUNT cases of its random
    # tensor sets (util/tensor_set.c: elem 4 with seed SEED, elem 8 with
    # SEED + 1), as the new tree's bench lists them
    if [ -n "${FIXED_FILE:-}" ]; then
        cp "$FIXED_FILE" "$cases"
    else # the fixed cases of tuning/nd_summary.py's targets
        python3 -c 'import sys; sys.path.insert(0, "tuning"); import nd_summary
for case, elem in nd_summary.FIXED_TARGETS:
    print(elem, case)' > "$cases" || exit 1
    fi
    mb=${MAX_BYTES:+--max-bytes $MAX_BYTES}
    for e in 4 8; do
        "${bench[new]}" --seed $((seed + e / 8)) --elem $e $mb --list --random-tensor "$count" |
            sed "s/^/$e /" >> "$cases" || exit 1
    done
fi
rm -f "$out/old.csv" "$out/new.csv"
pct_of() { # a case log's last CSV row: its pct_of_copy
    python3 -c 'import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 8]
print(rows[-1][8] if len(rows) > 1 else "-")' "$1" 2>/dev/null || echo -
}
status=0
n=0
while read -r elem spec; do
    [ -z "$spec" ] && continue
    n=$((n + 1))
    for tree in old new; do
        # the whole run stays under 5 minutes, builds included
        left=$((285 - SECONDS))
        if [ "$left" -lt 5 ]; then
            echo "case $n ($elem $spec, $tree): skipped, out of time"; status=1; continue
        fi
        CLIPT_CACHE_DIR="$PWD/build-nd${tree}-cache" timeout $((left < 20 ? left : 20)) \
            "${bench[$tree]}" --elem "$elem" --repeat "$repeat" --csv "$out/$tree.csv" "$spec" \
            > "$out/case${n}_$tree.log" 2>&1 ||
            { echo "case $n ($elem $spec, $tree): exit $?"; status=1; }
    done
    echo "case $n ($elem $spec): % of copy old $(pct_of "$out/case${n}_old.log")," \
         "new $(pct_of "$out/case${n}_new.log")"
done < "$cases"
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, os, statistics, sys
out = sys.argv[1]
def rows(tree):
    path = os.path.join(out, tree + ".csv")
    if not os.path.exists(path):
        return {}
    return {(r["case"], r["elem"]): r for r in csv.DictReader(open(path))}
old, new = rows("old"), rows("new")
sys.path.insert(0, "tuning")
import nd_summary
fixed = {case for case, _ in nd_summary.FIXED_TARGETS}
def pct(r):
    try:
        return float(r["pct_of_copy"])
    except (KeyError, TypeError, ValueError):
        return None
print("case, elem | old passes/stages, % of copy | new passes/stages, % of copy | "
      "new - old (points) | verified old/new")
rand_old, rand_new = [], []
for key in sorted(set(old) | set(new), key=lambda k: list(new or old).index(k)
                  if k in (new or old) else 999):
    o, w = old.get(key, {}), new.get(key, {})
    po, pn = pct(o), pct(w)
    d = "%+.1f" % (pn - po) if po is not None and pn is not None else "-"
    print(f"{key[0]}, {key[1]} | {o.get('passes', '-')}/{o.get('stages', '-')}, "
          f"{po if po is not None else '-'} | {w.get('passes', '-')}/{w.get('stages', '-')}, "
          f"{pn if pn is not None else '-'} | {d} | {o.get('verified', '-')}/"
          f"{w.get('verified', '-')}")
    if key[0] not in fixed:
        if po is not None:
            rand_old.append(po)
        if pn is not None:
            rand_new.append(pn)
if rand_old or rand_new:
    med = lambda v: "%.1f" % statistics.median(v) if v else "-"
    print("random set: median %% of copy old %s (%d cases), new %s (%d cases)" % (
        med(rand_old), len(rand_old), med(rand_new), len(rand_new)))
print("verified: old %d of %d, new %d of %d" % (
    sum(r["verified"] == "yes" for r in old.values()), len(old),
    sum(r["verified"] == "yes" for r in new.values()), len(new)))
PY
# the per-case and build logs in one archive: the device returns few files
(cd "$out" && tar -czf logs.tgz case*_*.log build_*.log && rm -f case*_*.log build_*.log)
exit $status
