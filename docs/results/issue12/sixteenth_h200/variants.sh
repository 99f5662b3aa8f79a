#!/usr/bin/env bash
# DIAG (not committed): quad variants on fresh general 1-byte shapes
set -u
o=$OUT/diag; mkdir -p $o
for t in .:build-new .base:build-base; do
  cmake -S ${t%%:*} -B ${t#*:} -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release >> $o/build.log 2>&1 && cmake --build ${t#*:} -j16 --target clipt_cli >> $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
done
export CLIPT_PLATFORM=NVIDIA
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $o/gpu.txt
b=build-new/src/cli/clipt
k=0
for set in g1:general:1:fix,nofence,ld8; do
  IFS=: read -r n kind e vars <<< "$set"; k=$((k+1))
  python3 tuning/shapes.py $kind --count ${COUNT:-40} --seed $((2026121570 + k)) --elem $e > $o/$n.txt
  grep -v '^#' $o/$n.txt | head -4 > $o/${n}_v.txt
  timeout 120 build-base/src/cli/clipt bench --shapes $o/$n.txt --elem $e --repeat 3 --no-verify --csv $o/${n}_base.csv > $o/${n}_base.log 2>&1
  for v in ${vars//,/ }; do
    CLIPT_KERNEL_PATH=$PWD/.kq/$v timeout 120 $b bench --shapes $o/$n.txt --elem $e --repeat 3 --no-verify --csv $o/${n}_$v.csv > $o/${n}_$v.log 2>&1 || echo "$n $v exit $?"
    CLIPT_KERNEL_PATH=$PWD/.kq/$v timeout 60 $b bench --shapes $o/${n}_v.txt --elem $e --repeat 1 --csv $o/${n}_v$v.csv > $o/${n}_v$v.log 2>&1
  done
  timeout 120 build-base/src/cli/clipt bench --shapes $o/$n.txt --elem $e --repeat 3 --no-verify --csv $o/${n}_base2.csv > $o/${n}_base2.log 2>&1
done
python3 .diag_sum.py $o | tee $o/summary.txt
tar czf $OUT/diag.tgz -C $OUT diag
