set -u
b() { cmake -S $1 -B $2 -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null 2>&1 && cmake --build $2 -j8 --target clipt_cli > /dev/null 2>&1; }
b . bn & b .base bb; wait
export CLIPT_PLATFORM=NVIDIA
for e in 4 1; do for t in bb bn bb bn; do timeout 40 $t/src/cli/clipt bench --shapes tuning/.short_rows.txt --elem $e --algorithm c2r --repeat 3 --csv $OUT/${t}_$e.$RANDOM.csv > /dev/null 2>&1 || echo fail $t $e; done; done
timeout 30 bn/src/cli/clipt bench --shapes tuning/.short_rows.txt --elem 1 --algorithm c2r --repeat 1 | tail -3
cd $OUT && tar czf short.tgz *.csv && rm -f *.csv
