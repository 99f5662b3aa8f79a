# Checks of the clipt tool's exit statuses and output, run by ctest as
#   cmake -DCLIPT=<path to clipt> -DGROUP=<usage|sequences|bench|transpose>
#         [-DOUTDIR=<writable directory>] [-DSOURCE_DIR=<source tree>]
#         -P cli_tests.cmake
# Each case runs the tool once and compares its exit status (and, where
# given, a regular expression on its stdout+stderr).

function(expect want_rc regex)
  execute_process(COMMAND ${CLIPT} ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(REPLACE ";" " " shown "${ARGN}")
  if(NOT rc STREQUAL "${want_rc}")
    message(SEND_ERROR "clipt ${shown}: exit ${rc}, expected ${want_rc}\n${out}")
  elseif(regex AND NOT out MATCHES "${regex}")
    message(SEND_ERROR "clipt ${shown}: output does not match '${regex}'\n${out}")
  else()
    message(STATUS "ok: clipt ${shown} -> ${rc}")
  endif()
endfunction()

if(GROUP STREQUAL "usage")
  expect(0 "clipt [0-9]+\\.[0-9]+\\.[0-9]+" --version)
  expect(0 "commands:.*run.*info" --help)
  expect(0 "--rows R.*--describe" run --help)
  expect(0 "usage: clipt info" info --help)
  expect(2 "usage: clipt")
  expect(2 "unknown command 'frobnicate'" frobnicate)
  expect(2 "unknown option '--frobnicate'" --frobnicate)
  expect(2 "unknown option '--frobnicate'" run --frobnicate)
  expect(2 "expected 1, 2, 4, 8 or 16" run --elem 3)
  expect(2 "positive whole number" run --rows 0)
  expect(2 "positive whole number" run --cols -4)
  expect(2 "needs a value" run --repeat)
  expect(2 "expected auto, 1, 2.1" run --sequence 5.5)
  expect(2 "takes no value" run --describe=yes)
  expect(2 "unexpected argument" run extra)
  expect(2 "does not fit in memory" run --rows 100000000000 --cols 100000000000)
  # a forced factor that does not divide the dimension
  expect(2 "INCOMPATIBLE_OPTIONS" run --rows 100 --cols 60 --tile-m 7)
  expect(2 "unknown option" info --all)
elseif(GROUP STREQUAL "sequences")
  # every sequence with forced tiles, so that each stage really moves data
  foreach(seq auto 1 2.1 2.2 3.1 3.2 4.1 4.2 4.3)
    foreach(elem 1 4 16)
      expect(0 "verified: +yes" run --rows 360 --cols 240 --elem ${elem}
             --sequence ${seq} --tile-m 24 --tile-n 16 --repeat 2)
    endforeach()
  endforeach()
  # awkward shapes: a prime side, a single row, a single column
  expect(0 "verified: +yes" run --rows 997 --cols 64 --no-padding)
  expect(0 "verified: +yes" run --rows 1 --cols 1000)
  expect(0 "verified: +yes" run --rows 1000 --cols 1)
  expect(0 "sequence: .*stage 1:.*verified: +yes" run --rows 64 --cols 48 --describe)
elseif(GROUP STREQUAL "bench")
  if(NOT OUTDIR)
    set(OUTDIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  set(num "[0-9]+\\.[0-9]+")
  set(summary "median ${num} GB/s  p10 ${num}  p90 ${num}  copy ${num} GB/s  median/copy ${num} %  verified")
  set(ratio_line "ratio median ${num} %  p10 ${num} %  p90 ${num} %")
  # seed 1 gives the same shapes on every machine (splitmix64)
  expect(0 "407 x 300 .*504 x 580 .*382 x 596 .*${summary} 3/3\n${ratio_line}"
         bench --random general --count 3 --seed 1 --repeat 1 --max-dim 600)
  # skinny: both orientations, short side in [2, 32]
  expect(0 "[0-9]+ x ([2-9]|[12][0-9]|3[0-2])  .*\n([2-9]|[12][0-9]|3[0-2]) x [0-9]+  .*${summary} 4/4"
         bench --random skinny --count 4 --max-dim 5000 --repeat 1)
  expect(0 "auto/best [0-9.]+ % .*${summary} 2/2\n${ratio_line}\nauto/best median ${num} %"
         bench --random general --brute-force --count 2 --max-dim 200 --repeat 1)
  expect(0 "\\(device [0-9.]+ ms\\).*mode single: .*${summary} 2/2"
         bench --random general --mode single --count 2 --max-dim 300 --repeat 2)
  # the CSV: its header, then exactly one row per shape
  set(csv "${OUTDIR}/bench_test.csv")
  file(REMOVE "${csv}")
  expect(0 "${summary} 2/2" bench --random general --count 2 --seed 7 --max-dim 400
         --repeat 2 --csv ${csv})
  set(header "rows,cols,elem,sequence,m,n,padded_rows,padded_cols,time_ms,gbs,copy_gbs,ratio,verified,stages_ms,mode,device_ms,best_gbs,best_sequence,best_m,best_n,auto_best,best_verified")
  set(row "[0-9]+,[0-9]+,4,[0-9.]+,[0-9]+,[0-9]+,[0-9]+,[0-9]+,${num},${num},${num},${num},yes,[0-9.;]+,repeated,${num},,,,,,")
  if(NOT EXISTS "${csv}")
    message(SEND_ERROR "clipt bench --csv wrote no ${csv}")
  else()
    file(READ "${csv}" content)
    if(NOT content MATCHES "^${header}\n${row}\n${row}\n$")
      message(SEND_ERROR "${csv} is not a header and two rows:\n${content}")
    else()
      message(STATUS "ok: ${csv} has the header and two rows")
    endif()
  endif()
  # a shapes file: comments, blank lines; a single row is skipped
  file(WRITE "${OUTDIR}/bench_shapes.txt" "# rows cols\n64 48\n\n  100 60   # comment\n1 50\n")
  expect(0 "2 shapes measured, 1 skipped, 0 failed\n${summary} 2/2"
         bench --shapes ${OUTDIR}/bench_shapes.txt --repeat 1)
  # --png never fails the bench: a picture, or one line saying why not
  expect(0 "png: " bench --random general --count 3 --max-dim 300 --repeat 1
         --png ${OUTDIR}/bench_test.png)
  # usage errors
  expect(2 "give --shapes FILE or --random" bench)
  expect(2 "expected general or skinny" bench --random normal)
  expect(2 "exclude each other" bench --random general --shapes ${OUTDIR}/bench_shapes.txt)
  file(WRITE "${OUTDIR}/bench_bad.txt" "64 48\n12 x\n")
  expect(2 "bench_bad.txt:2: expected" bench --shapes ${OUTDIR}/bench_bad.txt)
  expect(2 "expected repeated or single" bench --random general --mode twice)
  expect(0 "median/copy.*--brute-limit N" bench --help)
  # host arrays over several queues: one row per count, each checked
  set(host_row "[0-9.]+ +[0-9.]+ +[-+][0-9.]+ % +yes")
  expect(0 "sequence: 3.2.*queues .*\n +1 +${host_row}\n +3 +${host_row}\n"
         bench --host --rows 360 --cols 240 --sequence 3.2 --queues 1,3 --repeat 2)
  expect(0 "usage: clipt bench --host.*--queues LIST" bench --host --help)
  expect(2 "--queues: expected a comma-separated list" bench --host --queues 1,65)
elseif(GROUP STREQUAL "transpose")
  include(${CMAKE_CURRENT_LIST_DIR}/cli_transpose_tests.cmake)
else()
  message(FATAL_ERROR "unknown GROUP '${GROUP}'")
endif()
