# `clipt transpose`, included by cli_tests.cmake for GROUP transpose (it
# reuses expect()).  Needs SOURCE_DIR (the fixtures in tests/npy, the
# kernels in cl/) and OUTDIR.  Every bad file gets its exact one-line
# message and exit status, and is checked unchanged afterwards, with no
# output and no temporary file left behind.  NumPy round trips of many
# dtypes are in transpose_npy_test.py; here only what needs no Python.

set(dir "${OUTDIR}/transpose_test")
set(npy "${SOURCE_DIR}/tests/npy")
file(REMOVE_RECURSE "${dir}")
file(MAKE_DIRECTORY "${dir}")
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)

# Fails the test unless `file` still has the SHA-256 `want`.
function(expect_unchanged file want)
  file(SHA256 "${file}" now)
  if(NOT now STREQUAL want)
    message(SEND_ERROR "${file} was changed")
  endif()
endfunction()

# Fails the test if a temporary file of an atomic write is left in dir.
function(expect_no_leftovers)
  file(GLOB left "${dir}/.*clipt-*")
  if(left)
    message(SEND_ERROR "temporary files left behind: ${left}")
    file(REMOVE ${left})
  endif()
endfunction()

# Runs clipt transpose INPUT ARGN and checks the exit status, that stderr is
# exactly "clipt transpose: <where>: <message>" on one line and stdout empty,
# that INPUT is unchanged (when it exists) and that out.npy was not made.
function(expect_refused want_rc input where message)
  set(sum "")
  if(EXISTS "${input}" AND NOT IS_DIRECTORY "${input}")
    file(SIZE "${input}" size)
    if(size LESS 1000000) # the huge sparse file is checked by its caller
      file(SHA256 "${input}" sum)
    endif()
  endif()
  file(REMOVE "${dir}/out.npy")
  execute_process(COMMAND ${CLIPT} transpose ${input} ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REPLACE ";" " " shown "${ARGN}")
  set(want_err "clipt transpose: ${where}: ${message}\n")
  if(NOT rc STREQUAL "${want_rc}")
    message(SEND_ERROR "transpose ${input} ${shown}: exit ${rc}, expected ${want_rc}\n${err}")
  elseif(NOT err STREQUAL want_err)
    message(SEND_ERROR "transpose ${input} ${shown}: stderr\n  ${err}expected\n  ${want_err}")
  elseif(NOT out STREQUAL "")
    message(SEND_ERROR "transpose ${input} ${shown}: printed on stdout:\n${out}")
  else()
    message(STATUS "ok: transpose ${input} ${shown} -> ${rc}: ${message}")
  endif()
  if(sum)
    expect_unchanged("${input}" "${sum}")
  endif()
  if(EXISTS "${dir}/out.npy")
    message(SEND_ERROR "transpose ${input} ${shown} wrote ${dir}/out.npy")
  endif()
  expect_no_leftovers()
endfunction()

# A fixture of tests/npy, copied, refused both in place and with -o.
function(expect_bad_fixture name message)
  configure_file("${npy}/${name}" "${dir}/${name}" COPYONLY)
  expect_refused(4 "${dir}/${name}" "${dir}/${name}" "${message}")
  expect_refused(4 "${dir}/${name}" "${dir}/${name}" "${message}" -o ${dir}/out.npy)
endfunction()

# Fails the test unless `file` holds exactly `want` (text).
function(expect_content file want)
  file(READ "${file}" got)
  if(NOT got STREQUAL want)
    message(SEND_ERROR "${file} holds '${got}', expected '${want}'")
  else()
    message(STATUS "ok: ${file} holds '${want}'")
  endif()
endfunction()

# ---- help and usage --------------------------------------------------------
foreach(cmd run info bench transpose)
  expect(0 "^usage: clipt ${cmd}" ${cmd} --help)
endforeach()
expect(0 "--output OUT.*--rows R.*--verify.*--demo" transpose --help)
expect(0 "transpose +transpose a .npy" --help)
expect(2 "give one FILE" transpose)
expect(2 "give one FILE" transpose --verify)
expect(2 "unexpected argument 'b.npy'" transpose a.npy b.npy)
expect(2 "needs all of --rows, --cols and --elem" transpose --rows 3 --cols 4 x.bin)
expect(2 "takes no --rows" transpose --demo --rows 2 --cols 2 --elem 4 x.npy)
expect(2 "expected 1, 2, 4, 8 or 16" transpose --rows 2 --cols 2 --elem 3 x.bin)
expect(2 "needs a value OUT" transpose x.npy -o)
expect(2 "does not fit in memory" transpose --rows 100000000000 --cols 100000000000
       --elem 16 x.bin)

# ---- bad .npy files ------------------------------------------------------------
expect_bad_fixture(bad_magic.npy "not a .npy file (it does not start with \\x93NUMPY)")
expect_bad_fixture(bad_version.npy "unsupported .npy version 4.0 (known: 1.0, 2.0, 3.0)")
expect_bad_fixture(truncated_prefix.npy
  "truncated header: 7 bytes, a .npy file starts with at least 10")
expect_bad_fixture(truncated_header.npy "truncated header: it claims 128 bytes, the file has 50")
expect_bad_fixture(truncated_data.npy "truncated data: shape (3, 4) of 4-byte elements needs \
48 bytes after the header, the file has 40")
expect_bad_fixture(size_lie.npy "data size mismatch: shape (3, 4) of 4-byte elements needs \
48 bytes after the header, the file has 60")
expect_bad_fixture(one_d.npy "array has 1 dimension (shape (12,)): clipt transposes 2-D arrays")
expect_bad_fixture(three_d.npy
  "array has 3 dimensions (shape (2, 3, 2)): clipt transposes 2-D arrays")
expect_bad_fixture(object.npy
  "object dtype '|O' is not supported: its elements are Python objects, not data")
expect_bad_fixture(structured.npy
  "structured dtype (a list of fields) is not supported: only plain element types")
expect_bad_fixture(itemsize12.npy
  "dtype '<U3' has 12-byte elements: clipt moves elements of 1, 2, 4, 8 or 16 bytes")
expect_bad_fixture(unknown_key.npy "malformed header: unknown key 'extra' at byte 68 \
(a .npy header has 'descr', 'fortran_order' and 'shape')")
expect_bad_fixture(missing_key.npy "malformed header: no 'fortran_order' key")
expect_bad_fixture(repeated_key.npy "malformed header: key 'descr' appears twice")
expect_bad_fixture(shape_list.npy "malformed header: expected a tuple such as (3, 4) for \
'shape' at byte 60, found '['")
expect_bad_fixture(shape_negative.npy "malformed header: negative dimension in 'shape' at byte 61")
expect_bad_fixture(shape_huge.npy
  "shape (4611686018427387904, 4) of 4-byte elements is larger than memory can hold")
expect_bad_fixture(fortran_number.npy "malformed header: expected True or False for \
'fortran_order' at byte 44, found '0'")
expect_bad_fixture(trailing_text.npy "malformed header: expected only blanks after the header \
dict at byte 70, found 'x'")

# ---- paths that cannot be read or written -------------------------------------
expect_refused(4 "${dir}/missing.npy" "${dir}/missing.npy"
  "cannot open it: No such file or directory")
file(MAKE_DIRECTORY "${dir}/a_directory.npy")
expect_refused(4 "${dir}/a_directory.npy" "${dir}/a_directory.npy" "is a directory, not a file")
configure_file("${npy}/valid_c_f4_v1.npy" "${dir}/good.npy" COPYONLY)
expect_refused(4 "${dir}/good.npy" "${dir}/no_such_dir/out.npy"
  "cannot create a file in directory '${dir}/no_such_dir': No such file or directory"
  -o ${dir}/no_such_dir/out.npy)
expect_refused(4 "${dir}/good.npy" "${dir}/good.npy/out.npy"
  "cannot create a file in directory '${dir}/good.npy': Not a directory"
  -o ${dir}/good.npy/out.npy)
# root reads and writes through any permission bits: those cases need a user
if(uid STREQUAL "0")
  message(STATUS "skipped: unreadable input and read-only directory (running as root, "
                 "which reads and writes regardless of permissions)")
else()
  configure_file("${npy}/valid_c_f4_v1.npy" "${dir}/unreadable.npy" COPYONLY)
  execute_process(COMMAND chmod 200 "${dir}/unreadable.npy")
  expect_refused(4 "${dir}/unreadable.npy" "${dir}/unreadable.npy"
    "cannot open it: Permission denied")
  file(MAKE_DIRECTORY "${dir}/read_only")
  configure_file("${npy}/valid_c_f4_v1.npy" "${dir}/read_only/in.npy" COPYONLY)
  execute_process(COMMAND chmod 500 "${dir}/read_only")
  expect_refused(4 "${dir}/read_only/in.npy" "${dir}/read_only/in.npy"
    "cannot create a file in directory '${dir}/read_only': Permission denied")
  execute_process(COMMAND chmod 700 "${dir}/read_only")
endif()

# ---- raw files -------------------------------------------------------------------
file(WRITE "${dir}/short.bin" "abcdefghij")
expect_refused(4 "${dir}/short.bin" "${dir}/short.bin"
  "raw file holds 10 bytes, --rows 3 --cols 4 --elem 1 need 12" --rows 3 --cols 4 --elem 1)
# 3 x 4 bytes, and 2 x 3 elements of 2 bytes: letters show every move
file(WRITE "${dir}/m.bin" "abcdefghijkl")
expect(0 "input: .*raw, 3 x 4 of 1-byte elements.*verified: +yes.*written atomically"
       transpose ${dir}/m.bin -o ${dir}/m_t.bin --rows 3 --cols 4 --elem 1 --verify)
expect_content("${dir}/m_t.bin" "aeibfjcgkdhl")
expect_content("${dir}/m.bin" "abcdefghijkl")
expect(0 "verified: +not checked.*replaced atomically"
       transpose ${dir}/m.bin --rows 2 --cols 3 --elem 2)
expect_content("${dir}/m.bin" "abghcdijefkl")

# ---- valid .npy files --------------------------------------------------------------
# twice in place gives back the same bytes (the fixture's header is spelt
# as clipt writes it)
file(SHA256 "${dir}/good.npy" good_sum)
expect(0 "shape \\(3, 4\\).*3 x 4 -> 4 x 3 row-major.*shape \\(4, 3\\)\\), replaced atomically"
       transpose ${dir}/good.npy --verify)
expect(0 "shape \\(4, 3\\).*shape \\(3, 4\\)\\), replaced atomically" transpose ${dir}/good.npy)
expect_unchanged("${dir}/good.npy" "${good_sum}")
configure_file("${npy}/valid_f_c16_v2.npy" "${dir}/fortran.npy" COPYONLY)
expect(0 "'>c16', Fortran order, shape \\(3, 2\\).*2 x 3 -> 3 x 2 row-major \\(the Fortran-order \
data as stored\\).*verified: +yes.*out.npy \\(.npy 1.0, '>c16', Fortran order, shape \\(2, 3\\)\\)"
       transpose ${dir}/fortran.npy -o ${dir}/out.npy --verify)
configure_file("${npy}/valid_empty.npy" "${dir}/empty.npy" COPYONLY)
expect(0 "shape \\(0, 3\\).*nothing to move.*shape \\(3, 0\\)" transpose ${dir}/empty.npy)
expect_no_leftovers()

# ---- a device that computes wrong results ------------------------------------------
# A copy of the kernels whose tile transpose adds 1 to every element (small
# shapes are one 010! stage): --verify must catch it and write nothing.
file(GLOB kernels "${SOURCE_DIR}/cl/*.cl")
file(COPY ${kernels} DESTINATION "${dir}/broken_cl")
file(READ "${dir}/broken_cl/transpose010.cl" text)
string(REPLACE "base[k] = tile[" "base[k] = 1 + tile[" broken "${text}")
if(broken STREQUAL text)
  message(SEND_ERROR "cl/transpose010.cl changed: update the broken kernel of this test")
endif()
file(WRITE "${dir}/broken_cl/transpose010.cl" "${broken}")
file(SHA256 "${dir}/good.npy" good_sum)
execute_process(COMMAND ${CMAKE_COMMAND} -E env CLIPT_KERNEL_PATH=${dir}/broken_cl
                        ${CLIPT} transpose ${dir}/good.npy --verify
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(want_err "clipt transpose: ${dir}/good.npy: verification failed: 12 of 12 elements differ \
from the CPU transpose, the first at row 0, column 0 of the result; nothing was written\n")
if(NOT rc STREQUAL "1" OR NOT err STREQUAL want_err)
  message(SEND_ERROR "broken kernels with --verify: exit ${rc}, stderr\n  ${err}expected 1 and\n"
                     "  ${want_err}")
else()
  message(STATUS "ok: broken kernels with --verify -> 1, nothing written")
endif()
expect_unchanged("${dir}/good.npy" "${good_sum}")
expect_no_leftovers()

# ---- larger than the device can hold ---------------------------------------------
# A sparse raw file one row larger than the device's largest allocation:
# refused before a byte of it is read.
execute_process(COMMAND ${CLIPT} info OUTPUT_VARIABLE info)
string(FIND "${info}" "[selected]" at)
set(selected "")
if(at GREATER_EQUAL 0)
  string(SUBSTRING "${info}" ${at} -1 selected) # the first match below is its own
endif()
if(NOT selected MATCHES "max allocation: ([0-9]+) bytes")
  message(SEND_ERROR "clipt info shows no max allocation for the selected device:\n${info}")
else()
  set(max_alloc ${CMAKE_MATCH_1})
  math(EXPR rows "${max_alloc} / 65536 + 1")
  math(EXPR size "${rows} * 65536")
  execute_process(COMMAND truncate -s ${size} ${dir}/huge.bin RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(STATUS "skipped: the too-large case (truncate cannot make a sparse file here)")
  else()
    file(TIMESTAMP "${dir}/huge.bin" before "%s")
    expect_refused(3 "${dir}/huge.bin" "${dir}/huge.bin" "the array's ${size} bytes exceed \
the device's largest allocation (${max_alloc} bytes, CL_DEVICE_MAX_MEM_ALLOC_SIZE); nothing \
was changed" --rows ${rows} --cols 65536 --elem 1)
    file(TIMESTAMP "${dir}/huge.bin" after "%s")
    file(SIZE "${dir}/huge.bin" after_size)
    if(NOT before STREQUAL after OR NOT after_size STREQUAL size)
      message(SEND_ERROR "${dir}/huge.bin was changed")
    endif()
    file(REMOVE "${dir}/huge.bin")
  endif()
endif()
