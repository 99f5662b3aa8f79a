# clipt bench on axis permutations (issue 15): --permute, --random tensor,
# DIMS:AXES lines of --shapes, --list, and their usage errors.  Included by
# cli_tests.cmake for GROUP bench_nd (expect() and expect_file() are defined
# there); OUTDIR is writable, PERMUTE_BENCH (optional) is tuning's
# clipt_permute_bench, whose --random-tensor must list the very cases of
# --random tensor.
if(NOT OUTDIR)
  set(OUTDIR "${CMAKE_CURRENT_BINARY_DIR}")
endif()
set(num "[0-9]+\\.[0-9]+")
set(summary "median ${num} GB/s  p10 ${num}  p90 ${num}  copy ${num} GB/s  median/copy ${num} %  verified")
set(nd_line "passes [1-9]  stages [1-9][^\n]*  ${num} ms  ${num} GB/s  copy ${num} GB/s  ratio ${num} %  verified yes")

# --permute: repeated and as a list; a matrix is the 2-D case (its sides,
# sequence and tiles); a permutation that is the identity without its
# axes of 1 is skipped; every other result verified
# (progress lines on stderr come in between: .* between the cases)
expect(0 "set: permute, 5 shapes.*40 x 30  seq [0-9.]+  m=[0-9]+ [^\n]*verified yes.*4x30x20:0,2,1  ${nd_line}.*3x4x5x6x7:4,2,0,3,1  passes [2-9]  stages [1-9][^\n]*verified yes.*6x5x4x3:0,2,3,1  ${nd_line}.*4 shapes measured, 1 skipped, 0 failed\n${summary} 4/4"
       bench --permute "40x30:1,0 4x30x20:0,2,1" --permute 1x5x1:2,1,0
       --permute "3x4x5x6x7:4,2,0,3,1 6x5x4x3:0,2,3,1" --repeat 1 --elem 2)
expect(0 "skipping 1x5x1:2,1,0: the identity without axes of 1, nothing moves"
       bench --permute 1x5x1:2,1,0 --repeat 1)
# every element size, single mode (a plan per run) too
foreach(elem 1 2 4 8 16)
  expect(0 "${summary} 2/2" bench --permute "7x11x13:1,2,0 2x3x5x7:3,1,0,2" --repeat 1
         --elem ${elem})
endforeach()
expect(0 "mode single: .*${summary} 1/1" bench --permute 5x6x7:2,1,0 --mode single --repeat 2)

# --random tensor: the TTLG-like set, seeded, scaled by --max-bytes; the
# first case is NCHW -> NHWC, every case verified
expect(0 "set: tensor \\(seed 3, --max-bytes\\), 4 shapes, 4-byte elements.*[0-9]+x[0-9]+x[0-9]+x[0-9]+:0,2,3,1  [^\n]*verified yes.*4 shapes measured, 0 skipped, 0 failed\n${summary} 4/4"
       bench --random tensor --count 4 --seed 3 --max-bytes 300000 --repeat 1)
expect(0 "${summary} 3/3" bench --random tensor --count 3 --seed 9 --max-bytes 200000
       --repeat 1 --elem 8)
# --list: the cases only (no device), the same for the same seed
# (glibc's exp/log/pow: another libm could round a case differently)
expect(0 "^7x3x14x14:0,2,3,1\n2x2x3x4x6x8:3,1,4,0,5,2\n6x5x5x17:0,2,1,3\n$"
       bench --random tensor --count 3 --seed 1 --max-bytes 20000 --list)
expect(0 "^[0-9]+ [0-9]+\n[0-9]+ [0-9]+\n$" bench --random general --count 2 --list)
if(PERMUTE_BENCH)
  foreach(elem 4 8)
    execute_process(COMMAND ${CLIPT} bench --random tensor --count 30 --seed 15 --elem ${elem}
                            --max-bytes 5000000 --list
                    OUTPUT_VARIABLE tool RESULT_VARIABLE rc1)
    execute_process(COMMAND ${PERMUTE_BENCH} --seed 15 --elem ${elem} --max-bytes 5000000
                            --list --random-tensor 30
                    OUTPUT_VARIABLE pbench RESULT_VARIABLE rc2)
    if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0 OR NOT tool STREQUAL pbench OR tool STREQUAL "")
      message(SEND_ERROR "clipt bench --random tensor and clipt_permute_bench --random-tensor "
                         "list different cases (elem ${elem}):\n${tool}\n--\n${pbench}")
    else()
      message(STATUS "ok: clipt bench --random tensor = clipt_permute_bench --random-tensor "
                     "(elem ${elem}, 30 cases)")
    endif()
  endforeach()
endif()

# the CSV: a permutation has no rows and cols, sequence "nd" unless it is
# one 2-D transposition; its dims, axes (';'-joined) and passes at the end
set(csv "${OUTDIR}/bench_nd.csv")
file(REMOVE "${csv}")
expect(0 "${summary} 2/2" bench --permute "50x40:1,0 3x4x5x6:3,1,0,2" --repeat 1 --csv ${csv})
set(matrix_row "50,40,4,[0-9.]+,[0-9]+,[0-9]+,50,40,${num},${num},${num},${num},yes,[0-9.;]+,repeated,${num},,,,,,,${num},,,,50x40,1\;0,1")
set(nd_row ",,4,nd,0,0,0,0,${num},${num},${num},${num},yes,[0-9.;]+,repeated,${num},,,,,,,${num},,,,3x4x5x6,3\;1\;0\;2,[2-9]")
expect_file("${csv}" "^rows,[^\n]*,dims,axes,passes\n${matrix_row}\n${nd_row}\n$"
            "a header, a matrix row and an N-D row")

# --shapes takes DIMS:AXES lines beside "rows cols" (what --list writes)
file(WRITE "${OUTDIR}/bench_nd_shapes.txt" "# mixed\n30 20\n  4x5x6:2,0,1  # a permutation\n")
expect(0 "30 x 20  seq.*4x5x6:2,0,1  .*2 shapes measured, 0 skipped, 0 failed\n${summary} 2/2"
       bench --shapes ${OUTDIR}/bench_nd_shapes.txt --repeat 1)
file(WRITE "${OUTDIR}/bench_nd_bad.txt" "30 20\n4x5:0,0\n")
expect(2 "bench_nd_bad.txt:2: 4x5:0,0: an axis appears twice"
       bench --shapes ${OUTDIR}/bench_nd_bad.txt)
file(WRITE "${OUTDIR}/bench_nd_bad.txt" "4x5x6:0,1\n")
expect(2 "bench_nd_bad.txt:1: expected DIMS:AXES" bench --shapes ${OUTDIR}/bench_nd_bad.txt)

# one failing case never spoils the rest: the session is opened afresh
set(ENV{CLIPT_BENCH_BREAK_SHAPE} 1)
expect(3 "4x5x6:0,2,1: failed on purpose.*opening a new one.*1 shapes measured, 0 skipped, 1 failed\n${summary} 1/1"
       bench --permute "4x5x6:0,2,1 6x5x4:2,1,0" --repeat 1)
unset(ENV{CLIPT_BENCH_BREAK_SHAPE})

# bad DIMS:AXES strings and options: exit status 2, nothing run
expect(2 "invalid value '4x5:0' for --permute: expected DIMS:AXES" bench --permute 4x5:0)
expect(2 "invalid value '4x0:1,0' for --permute: expected DIMS:AXES" bench --permute 4x0:1,0)
expect(2 "invalid value '4x5:1,2' for --permute: expected DIMS:AXES" bench --permute 4x5:1,2)
expect(2 "invalid value '4x5:1,0,' for --permute" bench --permute 4x5:1,0,)
expect(2 "invalid value '1x2x3x4x5x6x7x8x9:0,1,2,3,4,5,6,7,8' for --permute"
       bench --permute 1x2x3x4x5x6x7x8x9:0,1,2,3,4,5,6,7,8)
expect(2 "invalid value '4x5:1,0 x' for --permute" bench --permute "4x5:1,0 x")
expect(2 "invalid value ' ' for --permute" bench --permute " ")
expect(2 "--permute 4x5x6:0,0,1: an axis appears twice" bench --permute 4x5x6:0,0,1)
expect(2 "--permute 100000000000x100000000000:1,0: the array does not fit in memory"
       bench --permute 100000000000x100000000000:1,0)
expect(2 "--permute 3000000000x3000000000:1,0: the array does not fit in memory"
       bench --permute 3000000000x3000000000:1,0 --elem 4)
expect(2 "exclude each other" bench --permute 4x5:1,0 --random tensor)
expect(2 "exclude each other" bench --permute 4x5:1,0 --shapes ${OUTDIR}/bench_nd_shapes.txt)
expect(2 "4x5x6:0,2,1 is no matrix: --mode oneshot and --brute-force" bench
       --permute 4x5x6:0,2,1 --mode oneshot)
expect(2 "is no matrix: --mode oneshot and --brute-force" bench --random tensor --count 2
       --brute-force)
expect(2 "--max-bytes applies to --random tensor only" bench --random general --max-bytes 1000)
expect(2 "--max-dim applies to --random general\\|skinny only" bench --random tensor
       --max-dim 100)
expect(2 "expected general, skinny or tensor" bench --random tensors)
expect(0 "--permute DIMS:AXES.*tensor +axis permutations.*--max-bytes B.*--list" bench --help)
