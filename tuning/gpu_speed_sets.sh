#!/usr/bin/env bash
# Issue 12's rows in one device run: the automatic plans of this tree on
# fresh shape lists of the papers' distributions (tuning/shapes.py, seeds
# SEED + 1 .. SEED + 9, SEED 2026112700 by default), every element size:
# general 1-, 2-, 4-, 8- and 16-byte (60, 60, 100, 60, 40 shapes) and
# skinny 1-, 2-, 4- and 8-byte (40 each, both orientations); COUNT sets
# every count (the time limits grow with it); SETS (default all) picks
# sets.  Each set: `clipt bench --shapes --repeat 3 --no-verify` under
# its own time limit (one set that fails or hangs never stops the
# others), after a verified run of its first 3 shapes.  Writes to
# $OUT/i12: the lists, CSVs and logs, gpu.txt; prints one line a set (the
# bench's median lines and the verified count).  About 5 minutes on an
# H100 with the build at the default counts.
# Usage: [SEED=S] [COUNT=N] [SETS="g1 s1"] OUT=dir bash tuning/gpu_speed_sets.sh
set -u
o=${OUT:-/tmp}/i12; mkdir -p $o
cmake -S . -B build-gpu -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > $o/cmake.log 2>&1 && cmake --build build-gpu -j16 --target clipt_cli > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
export CLIPT_PLATFORM=NVIDIA
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $o/gpu.txt
b=build-gpu/src/cli/clipt
seed=${SEED:-2026112700}
run() { # name, set, count, seed offset, elem, limit (s for the default count)
  case " ${SETS:-g1 g2 g4 g8 g16 s1 s2 s4 s8} " in *" $1 "*) ;; *) return ;; esac
  local count=${COUNT:-$3} limit=$6
  [ -n "${COUNT:-}" ] && limit=$(( $6 * COUNT / $3 + 10 ))
  python3 tuning/shapes.py $2 --count $count --seed $((seed + $4)) --elem $5 > $o/$1.txt
  grep -v '^#' $o/$1.txt | head -3 > $o/$1_v.txt
  timeout 30 $b bench --shapes $o/$1_v.txt --elem $5 --repeat 1 --csv $o/$1_verify.csv > $o/$1_verify.log 2>&1
  timeout $limit $b bench --shapes $o/$1.txt --elem $5 --repeat 3 --no-verify --csv $o/$1.csv > $o/$1.log 2>&1 || echo "$1: exit $?"
  echo "$1: $(grep -E '^(median|ratio)' $o/$1.log | head -2 | tr '\n' ' ') verified $(grep -c ,yes, $o/$1_verify.csv)/$(grep -vc '^rows' $o/$1_verify.csv)"
}
run g1 general 60 1 1 60
run g2 general 60 2 2 60
run g4 general 100 3 4 80
run g8 general 60 4 8 70
run g16 general 40 5 16 70
run s1 skinny 40 6 1 60
run s2 skinny 40 7 2 60
run s4 skinny 40 8 4 70
run s8 skinny 40 9 8 80
