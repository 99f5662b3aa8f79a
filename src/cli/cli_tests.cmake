# Checks of the clipt tool's exit statuses and output, run by ctest as
#   cmake -DCLIPT=<path to clipt> -DGROUP=<usage|sequences> -P cli_tests.cmake
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
else()
  message(FATAL_ERROR "unknown GROUP '${GROUP}'")
endif()
