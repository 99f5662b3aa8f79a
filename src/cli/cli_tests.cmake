# Checks of the clipt tool's exit statuses and output, run by ctest as
#   cmake -DCLIPT=<path to clipt>
#         -DGROUP=<usage|sequences|bench|bench_nd|transpose|installed>
#         [-DOUTDIR=<writable directory>] [-DSOURCE_DIR=<source tree>]
#         [-DPERMUTE_BENCH=<clipt_permute_bench, for bench_nd>]
#         [-DBUILD_DIR=<build tree, for installed>] -P cli_tests.cmake
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

# The file at `path` (written by the case before) matches `regex`; `what`
# says what it should hold.
function(expect_file path regex what)
  if(NOT EXISTS "${path}")
    message(SEND_ERROR "no ${path} was written")
    return()
  endif()
  file(READ "${path}" content)
  if(NOT content MATCHES "${regex}")
    message(SEND_ERROR "${path} is not ${what}:\n${content}")
  else()
    message(STATUS "ok: ${path} is ${what}")
  endif()
endfunction()

if(GROUP STREQUAL "usage")
  expect(0 "clipt [0-9]+\\.[0-9]+\\.[0-9]+" --version)
  expect(0 "commands:.*run.*info" --help)
  expect(0 "--rows R.*--describe" run --help)
  expect(0 "usage: clipt info" info --help)
  expect(0 "\\[selected\\].*tuning names, by the step they tune.*tile transpose in local \
memory \\(010!\\).*moving blocks of elements along cycles \\(100!\\).*c2r_column_bytes  +the \
automatic plan's C2R" info)
  expect(2 "usage: clipt")
  expect(2 "unknown command 'frobnicate'" frobnicate)
  expect(2 "unknown option '--frobnicate'" --frobnicate)
  expect(2 "unknown option '--frobnicate'" run --frobnicate)
  expect(2 "expected 1, 2, 4, 8 or 16" run --elem 3)
  expect(2 "positive whole number" run --rows 0)
  expect(2 "positive whole number" run --cols -4)
  expect(2 "needs a value" run --repeat)
  expect(2 "expected auto, 1, 2.1" run --sequence 5.5)
  expect(2 "expected auto, tpds, c2r or r2c" run --algorithm fast)
  expect(0 "algorithm: C2R \\(forced\\): 3 passes.*c2r_rows_local.*verified: +yes" run --rows 60
         --cols 84 --algorithm c2r --describe)
  expect(2 "cannot plan 60 x 84 .*INCOMPATIBLE_OPTIONS" run --rows 60 --cols 84
         --algorithm c2r --sequence 3.1)
  # the automatic C2R: never by PoCL's entry, by the limit --tune sets
  expect(0 "sequence: +[0-9.]+ \\(automatic\\).*verified: +yes" run --rows 97 --cols 101 --describe)
  expect(0 "algorithm: C2R \\(automatic: coprime sides, columns of 388 bytes, at most \
c2r_column_bytes=4096\\): 2 passes.*verified: +yes" run --rows 97 --cols 101
         --tune c2r_column_bytes=4096 --describe)
  expect(2 "takes no value" run --describe=yes)
  expect(2 "unexpected argument" run extra)
  expect(2 "does not fit in memory" run --rows 100000000000 --cols 100000000000)
  # a forced factor that does not divide the dimension
  expect(2 "--tile-m 7 does not divide --rows 100" run --rows 100 --cols 60 --tile-m 7
         --no-padding)
  expect(2 "--tile-n 7 does not divide --cols 60" run --rows 100 --cols 60 --tile-n 7
         --no-padding)
  expect(2 "--tile-m 7 does not divide --rows 1" run --rows 1 --cols 60 --tile-m 7)
  # with padding allowed, a forced factor that does not divide pads its side
  expect(0 "padded shape: 105 x 60.*verified: +yes" run --rows 100 --cols 60 --tile-m 7
         --tile-n 6 --sequence 3.1 --describe)
  # other forced combinations the library refuses keep its status
  expect(2 "cannot plan 4000 x 4000 .*INCOMPATIBLE_OPTIONS" run --rows 4000 --cols 4000
         --sequence 4.3 --tile-m 2000 --tile-n 2000)
  expect(2 "unknown option" info --all)
  # GNU/POSIX habits (getopt_long): -h, --opt=value, prefixes, operands
  # anywhere, "--", combined short flags
  expect(0 "^usage: clipt <command>" -h)
  expect(0 "^usage: clipt <command>" help)
  expect(0 "^usage: clipt run" help run)
  expect(2 "unknown command 'frobnicate'" help frobnicate)
  foreach(cmd run info bench transpose)
    expect(0 "^usage: clipt ${cmd}[ \n].*-h, --help +show this help" ${cmd} -h)
  endforeach()
  expect(0 "^usage: clipt bench --host" bench --host -h)
  # the summaries start in one column, after the longest name
  expect(0 "\n  run        transpose a demo.*\n  info       list .*\n\
  bench      throughput.*\n  transpose  transpose a " --help)
  expect(0 "shape: +64 x 48,.*verified: +yes" run --rows=64 --cols=48 --rep=2)
  # --permute: N-D axis permutations, verified; bad lists are usage errors
  expect(0 "permutation: +\\(4, 6, 7, 9\\) axes \\(0, 2, 3, 1\\).*passes: +1.*verified: +yes"
    run --permute 4x6x7x9:0,2,3,1 --repeat 2)
  expect(0 "pass 2: \\(A, B, C, D\\).*verified: +yes" run --permute 3x4x5x6x7:4,2,0,3,1
    --elem 2 --describe)
  expect(2 "expected DIMS:AXES" run --permute 3x4:0)
  expect(2 "expected DIMS:AXES" run --permute 3x0:1,0)
  expect(2 "INVALID_PERMUTATION" run --permute 3x4:0,0)
  expect(0 "shape: +64 x 48,.*verified: +yes" run --rows 64 --cols 48 --repeat=1)
  expect(2 "ambiguous option '--t' \\(--tile-m, --tile-n, --tune\\)" run --t 3)
  expect(2 "unknown option '-x'" run -x)
  expect(2 "option --rows needs a value R" run --rows)
  expect(2 "option --repeat needs a value K" run --rep)
  expect(2 "invalid value 'x' for --rows: expected a positive whole number" run --rows=x)
  expect(2 "unexpected argument 'extra'" run --rows 64 -- extra)
  expect(0 "^usage: clipt transpose" transpose -ho x.npy)
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
  # plain words lead, the papers' names follow in parentheses
  expect(0 "stage 1: tile transpose in local memory \\(010!\\), kernel [a-z0-9_]+: 1 tile of \
64 x 48 elements;" run --rows 64 --cols 48 --describe)
  expect(0 "tiles: m=24 n=16 \\(forced by the options\\).*stage 1: move blocks along cycles \
\\(0100!\\), kernel [a-z0-9_ +]+: 15 matrices of 24 x 15 blocks of 16 elements \\(super-elements\\)\
.*stage 2: tile transpose in local memory \\(0010!\\).*stage 3: move blocks along cycles \\(100!\\)"
         run --rows 360 --cols 240 --sequence 3.2 --tile-m 24 --tile-n 16 --describe)
  expect(0 "stage 1: move single elements along cycles \\(100! whole matrix\\)"
         run --rows 36 --cols 24 --sequence 1 --describe)
  # automatic tiles: Algorithm 5's choice, kept or replaced by the cost model
  expect(0 "tiles: m=[0-9]+ n=[0-9]+ \\((tiles by Algorithm 5; the cost model found no \
cheaper candidate|sequence, tiles and padding by the cost model \\(cheapest predicted among \
Algorithm 5's choice and its neighbours\\))\\)"
         run --rows 1201 --cols 1103 --describe)
  # a padded plan's describe warns that it writes beyond rows*cols*elem
  expect(0 "buffer bytes: [0-9]+ \\(rows\\*cols\\*elem = 5298812 plus [0-9]+ bytes of room \
that the transposition overwrites: .*make the plan with CLIPT_PADDING_NONE\\)"
         run --rows 1201 --cols 1103 --describe)
  expect(0 "buffer bytes: 5298812 \\(exactly rows\\*cols\\*elem"
         run --rows 1201 --cols 1103 --describe --no-padding)
  # room-less padding: an exact-size buffer, the padded tail in the plan
  expect(0 "padded shape: 105 x 60\n.*buffer bytes: 24000 \\(exactly rows\\*cols\\*elem.*\
padded tail 1200 = 5.000 % of the matrix.*region split after 6000 elements.*verified: +yes"
         run --rows 100 --cols 60 --tile-m 7 --tile-n 6 --sequence 3.1 --padding scratch
         --describe)
  expect(0 "padded shape: 1201 x 1103 \\(no padding\\).*verified: +yes"
         run --rows 1201 --cols 1103 --describe --padding off)
  expect(2 "expected auto, none, scratch or off" run --padding some)
  expect(2 "--no-padding is --padding none" run --no-padding --padding scratch)
  expect(2 "--tile-m 7 does not divide --rows 100" run --rows 100 --cols 60 --tile-m 7
         --padding off)
elseif(GROUP STREQUAL "bench")
  if(NOT OUTDIR)
    set(OUTDIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  set(num "[0-9]+\\.[0-9]+")
  set(summary "median ${num} GB/s  p10 ${num}  p90 ${num}  copy ${num} GB/s  median/copy ${num} %  verified")
  set(ratio_line "ratio median ${num} %  p10 ${num} %  p90 ${num} %")
  # seed 1 gives the same shapes on every machine (splitmix64)
  expect(0 "407 x 300 .*predicted ${num} ms .*504 x 580 .*382 x 596 .*${summary} 3/3\n${ratio_line}\nmodel: predicted within \\+-20 % for ${num} % of 3 shapes"
         bench --random general --count 3 --seed 1 --repeat 1 --max-dim 600)
  # skinny: both orientations, short side in [2, 32]
  expect(0 "[0-9]+ x ([2-9]|[12][0-9]|3[0-2])  .*\n([2-9]|[12][0-9]|3[0-2]) x [0-9]+  .*${summary} 4/4"
         bench --random skinny --count 4 --max-dim 5000 --repeat 1)
  expect(0 "auto/best [0-9.]+ % .*${summary} 2/2\n${ratio_line}\nauto/best median ${num} %"
         bench --random general --brute-force --count 2 --max-dim 200 --repeat 1)
  expect(0 "\\(device [0-9.]+ ms; first run [0-9.]+ ms\\).*mode single: .*${summary} 2/2.*first run of a shape \\(host\\) / its device time: median [0-9.]+"
         bench --random general --mode single --count 2 --max-dim 300 --repeat 2)
  # clipt_transpose through its cache, beside the repeated device time
  expect(0 "\\(first [0-9.]+ ms; repeated [0-9.]+ ms device, [0-9.]+ ms host; oneshot/repeated [0-9.]+\\).*mode oneshot: .*${summary} 2/2.*oneshot/repeated median [0-9.]+.*oneshot/kept plan.s host time median [0-9.]+.*first call on the device [0-9.]+ ms"
         bench --random general --mode oneshot --count 2 --max-dim 300 --repeat 2)
  # the CSV: its header, then exactly one row per shape
  set(csv "${OUTDIR}/bench_test.csv")
  file(REMOVE "${csv}")
  expect(0 "${summary} 2/2" bench --random general --count 2 --seed 7 --max-dim 400
         --repeat 2 --csv ${csv})
  set(header "rows,cols,elem,sequence,m,n,padded_rows,padded_cols,time_ms,gbs,copy_gbs,ratio,verified,stages_ms,mode,device_ms,best_gbs,best_sequence,best_m,best_n,auto_best,best_verified,predicted_ms,first_ms,oneshot_ratio,plan_host_ms,dims,axes,passes")
  set(row "[0-9]+,[0-9]+,4,[0-9.]+,[0-9]+,[0-9]+,[0-9]+,[0-9]+,${num},${num},${num},${num},yes,[0-9.;]+,repeated,${num},,,,,,,${num},,,,[0-9]+x[0-9]+,1;0,1")
  expect_file("${csv}" "^${header}\n${row}\n${row}\n$" "a header and two rows")
  # a shapes file: comments, blank lines; a single row is skipped
  file(WRITE "${OUTDIR}/bench_shapes.txt" "# rows cols\n64 48\n\n  100 60   # comment\n1 50\n")
  expect(0 "2 shapes measured, 1 skipped, 0 failed\n${summary} 2/2"
         bench --shapes ${OUTDIR}/bench_shapes.txt --repeat 1)
  # a shape that breaks the device session (as a 1-byte fill past 2^31
  # bytes did on the H100's runtime) fails alone: the session is opened
  # afresh and the next shape is measured
  set(ENV{CLIPT_BENCH_BREAK_SHAPE} 1)
  expect(3 "failed on purpose.*opening a new one.*1 shapes measured, 1 skipped, 1 failed\n${summary} 1/1"
         bench --shapes ${OUTDIR}/bench_shapes.txt --repeat 1)
  unset(ENV{CLIPT_BENCH_BREAK_SHAPE})
  # --png never fails the bench: a picture, or one line saying why not
  expect(0 "png: " bench --random general --count 3 --max-dim 300 --repeat 1
         --png ${OUTDIR}/bench_test.png)
  # usage errors
  expect(2 "give --shapes FILE, --random general\\|skinny\\|tensor or --permute" bench)
  expect(2 "expected general, skinny or tensor" bench --random normal)
  expect(2 "exclude each other" bench --random general --shapes ${OUTDIR}/bench_shapes.txt)
  file(WRITE "${OUTDIR}/bench_bad.txt" "64 48\n12 x\n")
  expect(2 "bench_bad.txt:2: expected" bench --shapes ${OUTDIR}/bench_bad.txt)
  expect(2 "expected repeated, single or oneshot" bench --random general --mode twice)
  expect(2 "no --tune, --tile-rule, --algorithm, --padding or --brute-force" bench --random general
         --mode oneshot --tile-rule alg5)
  expect(2 "no --tune, --tile-rule, --algorithm, --padding or --brute-force" bench --random general
         --mode oneshot --algorithm c2r)
  expect(2 "expected auto, tpds, c2r or r2c" bench --random general --algorithm c3r)
  # C2R forced for every plan: its name in the sequence column, verified
  expect(0 "c2r.*${summary} 2/2" bench --random general --count 2 --max-dim 300 --repeat 1
         --algorithm c2r)
  expect(2 "no --tune, --tile-rule, --algorithm, --padding or --brute-force" bench --random general
         --mode oneshot --tile-rule alg5)
  expect(2 "no --tune, --tile-rule, --algorithm, --padding or --brute-force" bench --random general
         --mode oneshot --padding none)
  expect(2 "expected auto, none, scratch or off" bench --random general --padding room)
  # exact-size plans (clipt_transpose's), checked like the others
  expect(0 "${summary} 2/2" bench --random general --count 2 --max-dim 300 --repeat 1
         --padding none)
  expect(0 "${summary} 2/2" bench --random general --count 2 --max-dim 300 --repeat 1
         --padding scratch)
  expect(2 "expected auto, alg5, alg2 or alg1" bench --random general --tile-rule alg7)
  # Algorithm 5 alone (the cost model's fallback) for comparisons
  expect(0 "tiles by Algorithm 5|${summary} 2/2" bench --random general --count 2
         --max-dim 300 --repeat 1 --tile-rule alg5)
  expect(0 "median/copy.*--brute-limit N" bench --help)
  # host arrays over several queues: one row per count, each checked
  set(host_row "[0-9.]+ +[0-9.]+ +[-+][0-9.]+ % +yes")
  expect(0 "sequence: 3.2.*queues .*\n +1 +${host_row}\n +3 +${host_row}\n"
         bench --host --rows 360 --cols 240 --sequence 3.2 --queues 1,3 --repeat 2)
  expect(0 "usage: clipt bench --host.*--queues LIST" bench --host --help)
  expect(2 "--queues: expected a comma-separated list" bench --host --queues 1,65)
elseif(GROUP STREQUAL "bench_nd")
  include(${CMAKE_CURRENT_LIST_DIR}/cli_bench_nd_tests.cmake)
elseif(GROUP STREQUAL "transpose")
  include(${CMAKE_CURRENT_LIST_DIR}/cli_transpose_tests.cmake)
elseif(GROUP STREQUAL "installed")
  include(${CMAKE_CURRENT_LIST_DIR}/cli_installed_tests.cmake)
else()
  message(FATAL_ERROR "unknown GROUP '${GROUP}'")
endif()
