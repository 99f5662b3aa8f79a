#!/usr/bin/env bash
# DIAG: padding stage time against the gap (bytes) and the width's alignment, 1-byte, forced 3.1 m=n=128
set -u
o=$OUT/padgap; mkdir -p $o
cmake -S . -B build-new -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > $o/build.log 2>&1 && cmake --build build-new -j16 --target clipt_cli >> $o/build.log 2>&1 || { tail $o/build.log; exit 1; }
export CLIPT_PLATFORM=NVIDIA
for P in 16000 16128; do
  for g in 1 2 3 4 5 7 8 9 12 15 16 17 24 31 32 33 48 64 100; do
    c=$((P - g))
    r=$(timeout 30 build-new/src/cli/clipt run --rows 10112 --cols $c --elem 1 --sequence 3.1 --tile-m 128 --tile-n 128 --repeat 3 2>&1 | grep -E "stage times|verified" | tr '\n' ' ')
    echo "P=$P gap=$g width=$c width%16=$((c % 16)) $r" | tee -a $o/padgap.txt
  done
done
