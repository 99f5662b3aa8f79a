#!/usr/bin/env bash
# C2R and R2C for the element sizes the automatic rule leaves out (1, 2
# and 16 bytes; 4 and 8 as the control): on the shapes where the rule
# would consider them, forced against the automatic plan, in one run.
# Builds this tree (Release, clipt_cli), then per element size E of ELEMS
# (default "1 2 16") draws COUNT (default 30) shapes of the general
# distribution (tuning/shapes.py's: sides uniform in [1000, 20000],
# [1000, 15000] for 8 and 16 bytes; Python's random.Random(SEED + E)) kept
# when the sides are coprime and one of them holds a row in local memory
# (at most LOCAL bytes, default 45000, over E): the rule's geometry.  Of
# C2R (rows of `cols` in local memory) and R2C (rows of `rows`) the one
# with the shorter columns, as the rule takes it.  Each chunk of 5 shapes
# runs `clipt bench --repeat 3 --no-verify` forced and automatic, one
# after the other, so that their ratios to copy compare; the first 2
# shapes of each size are verified bit-exact, forced.  A chunk that fails
# is rerun shape by shape (bench_chunks.sh); no chunk starts after
# DEADLINE seconds (default 400, the build included).
# Writes to $OUT: shapes_E_{c2r,r2c}.txt, {forced,auto,base}_E.csv and logs,
# verify_E.csv, gpu.txt and summary.txt (printed): per size the median and
# p10 % of copy of both, the per-shape speed-up auto ms / forced ms, how
# many shapes the forced plan wins, and its passes in copies' time.
# BASE_SRC=dir (a source tree, e.g. `git archive` of an earlier commit,
# carried along): also built, and its forced plans run after this tree's
# (base_E.csv): the summary adds its median and the speed-up base / this.
# Usage: [ELEMS="1 2 16"] [COUNT=30] [SEED=S] [BASE_SRC=dir] OUT=dir \
#        bash tuning/gpu_c2r_elems.sh
set -uo pipefail
out=${OUT:-/tmp/clipt-c2r-elems}
mkdir -p "$out"
seed=${SEED:-2026112810}
deadline=${DEADLINE:-400}
count=${COUNT:-30}
local_bytes=${LOCAL:-45000}
status=0
. tuning/bench_chunks.sh
cmake -S . -B build-c2r-elems -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release \
    > "$out/build.log" 2>&1 &&
    cmake --build build-c2r-elems -j"$(nproc)" --target clipt_cli >> "$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; exit 1; }
bin=build-c2r-elems/src/cli/clipt
base_bin=
if [ -n "${BASE_SRC:-}" ]; then
    cmake -S "$BASE_SRC" -B build-c2r-elems-base -DBUILD_TESTING=OFF \
        -DCMAKE_BUILD_TYPE=Release >> "$out/build.log" 2>&1 &&
        cmake --build build-c2r-elems-base -j"$(nproc)" --target clipt_cli \
            >> "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
    base_bin=build-c2r-elems-base/src/cli/clipt
fi
export CLIPT_PLATFORM=${CLIPT_PLATFORM:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    > "$out/gpu.txt" 2>/dev/null && cat "$out/gpu.txt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for e in ${ELEMS:-1 2 16}; do
    python3 - "$e" "$count" $((seed + e)) "$local_bytes" "$out" <<'PY'
import math, random, sys
elem, count, seed, local = (int(a) for a in sys.argv[1:5])
out = sys.argv[5]
hi, lm = (15000 if elem >= 8 else 20000), local // elem
rng, got = random.Random(seed), {"c2r": [], "r2c": []}
while sum(map(len, got.values())) < count:
    r, c = rng.randint(1000, hi), rng.randint(1000, hi)
    if math.gcd(r, c) != 1:
        continue
    c2r, r2c = c <= lm, r <= lm  # the row held in local memory
    if c2r and (not r2c or r <= c):
        got["c2r"].append((r, c))
    elif r2c:
        got["r2c"].append((r, c))
for algo, shapes in got.items():
    with open(f"{out}/shapes_{elem}_{algo}.txt", "w") as f:
        f.write(f"# {algo}, elem {elem}, seed {seed}\n" + "".join(f"{r} {c}\n" for r, c in shapes))
PY
    for algo in c2r r2c; do
        list=$out/shapes_${e}_$algo.txt
        grep -v '^#' "$list" | head -1 > "$work/v_${e}_$algo"
        [ -s "$work/v_${e}_$algo" ] &&
            bench_chunk "verify_$e" 120 "$work/v_${e}_$algo" "$bin" --elem "$e" \
                --algorithm "$algo" --repeat 1
        grep -v '^#' "$list" | split -l 5 - "$work/$e.$algo.part."
    done
done
for part in $(ls "$work"/*.part.* 2>/dev/null | sort -t. -k3,3 -k1,1); do
    if [ "$SECONDS" -gt "$deadline" ]; then
        echo "deadline: stops before $(basename "$part")"
        break
    fi
    name=$(basename "$part")
    e=${name%%.*} algo=$(echo "$name" | cut -d. -f2)
    bench_chunk "forced_$e" 120 "$part" "$bin" --elem "$e" --algorithm "$algo" \
        --repeat 3 --no-verify
    bench_chunk "auto_$e" 120 "$part" "$bin" --elem "$e" --repeat 3 --no-verify
    [ -z "$base_bin" ] || bench_chunk "base_$e" 120 "$part" "$base_bin" --elem "$e" \
        --algorithm "$algo" --repeat 3 --no-verify
done
python3 - "$out" ${ELEMS:-1 2 16} <<'PY' | tee "$out/summary.txt"
import csv, os, statistics, sys
out, elems = sys.argv[1], sys.argv[2:]
def load(name):
    path = os.path.join(out, name + ".csv")
    rows = list(csv.DictReader(open(path))) if os.path.exists(path) else []
    return {(int(r["rows"]), int(r["cols"])): r for r in rows}
def p10(xs):
    return sorted(xs)[int(0.1 * (len(xs) - 1))]
def copy_ms(r):  # one read and one write of the matrix at the run's copy rate
    return 2 * int(r["rows"]) * int(r["cols"]) * int(r["elem"]) / float(r["copy_gbs"]) / 1e6
print("forced C2R/R2C against the automatic plan, same shapes, same run (ratio to copy)")
for e in elems:
    forced, auto = load("forced_" + e), load("auto_" + e)
    keys = sorted(set(forced) & set(auto))
    ver = load("verify_" + e)
    print(f"\n{e}-byte: {len(keys)} shapes; verified {sum(r.get('verified') == 'yes' for r in ver.values())}"
          f" of {len(ver)}")
    if not keys:
        continue
    base = load("base_" + e)
    for tag, d in (("forced", forced), ("auto", auto), ("base", base)):
        if not all(k in d for k in keys):
            continue
        rs = [100 * float(d[k]["ratio"]) for k in keys]
        seqs = sorted({d[k]["sequence"] for k in keys})
        print(f"  {tag:6s} median {statistics.median(rs):5.1f} %  p10 {p10(rs):5.1f} %"
              f"  sequences {' '.join(seqs)}")
    su = [float(auto[k]["time_ms"]) / float(forced[k]["time_ms"]) for k in keys]
    print(f"  auto ms / forced ms: median {statistics.median(su):.2f}, p10 {p10(su):.2f}, "
          f"max {max(su):.2f}; forced faster on {sum(s > 1 for s in su)} of {len(keys)}")
    if all(k in base for k in keys):
        bs = [float(base[k]["time_ms"]) / float(forced[k]["time_ms"]) for k in keys]
        print(f"  base ms / forced ms: median {statistics.median(bs):.2f}, p10 {p10(bs):.2f}, "
              f"min {min(bs):.2f}")
        bp = [[float(x) / copy_ms(base[k]) for x in base[k]["stages_ms"].split(";") if x]
              for k in keys]
        n = max(map(len, bp))
        print("  base passes, copies' time (median): " + ", ".join(
            f"{statistics.median([p[i] for p in bp if len(p) == n]):.2f}" for i in range(n)))
    passes = [[float(x) / copy_ms(forced[k]) for x in forced[k]["stages_ms"].split(";") if x]
              for k in keys]
    n = max(map(len, passes))
    med = [statistics.median([p[i] for p in passes if len(p) == n]) for i in range(n)]
    print("  forced passes, copies' time (median): " + ", ".join(f"{m:.2f}" for m in med))
    for k in keys:
        print(f"    {k[0]:6d} x {k[1]:6d}  forced {100 * float(forced[k]['ratio']):5.1f} %"
              f"  auto {100 * float(auto[k]['ratio']):5.1f} % ({auto[k]['sequence']})")
PY
exit $status
