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
  if(NOT EXISTS "${file}")
    message(SEND_ERROR "${file} is missing")
    return()
  endif()
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
expect(2 "give the input FILE \\(- for standard input\\)" transpose)
expect(2 "give the input FILE" transpose --verify)
expect(2 "unexpected argument 'c.npy'" transpose a.npy b.npy c.npy)
expect(2 "give OUT once: -o OUT or a second operand" transpose a.npy b.npy -o c.npy)
expect(2 "--demo writes FILE first: give a file name, not -" transpose --demo -)
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

# ---- output targets that are not regular files --------------------------------
# A device, FIFO or socket is never replaced by a regular file: refused
# before the device runs, and afterwards still what it was (`stat -c %F`).
function(expect_not_replaced path type)
  expect_refused(4 "${dir}/good.npy" "${path}" "is not a regular file" -o ${path})
  execute_process(COMMAND stat -c %F ${path} OUTPUT_VARIABLE now
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT now STREQUAL type)
    message(SEND_ERROR "${path} is now a ${now}, not a ${type}")
  endif()
endfunction()
if(NOT uid STREQUAL "0")
  message(STATUS "skipped: character and block device targets (mknod needs root)")
else()
  execute_process(COMMAND mknod ${dir}/null_device c 1 3 RESULT_VARIABLE rc_c ERROR_QUIET)
  execute_process(COMMAND mknod ${dir}/loop_device b 7 0 RESULT_VARIABLE rc_b ERROR_QUIET)
  if(rc_c EQUAL 0 AND rc_b EQUAL 0)
    expect_not_replaced(${dir}/null_device "character special file")
    expect_not_replaced(${dir}/loop_device "block special file")
  else()
    message(STATUS "skipped: device targets (mknod refused here, even as root: a "
                   "container without CAP_MKNOD)")
  endif()
  file(REMOVE ${dir}/null_device ${dir}/loop_device)
endif()
execute_process(COMMAND mkfifo ${dir}/fifo RESULT_VARIABLE rc)
if(rc EQUAL 0)
  expect_not_replaced(${dir}/fifo "fifo")
else()
  message(STATUS "skipped: the FIFO target (mkfifo failed)")
endif()
find_program(socket_python NAMES python3)
if(socket_python)
  execute_process(COMMAND ${socket_python} -c "import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])" ${dir}/socket)
  expect_not_replaced(${dir}/socket "socket")
else()
  message(STATUS "skipped: the socket target (no python3 to make one)")
endif()
# /dev/stdout's kind of link: stdout is a pipe here, which is refused, and
# the link stays a link
file(CREATE_LINK /proc/self/fd/1 ${dir}/to_stdout SYMBOLIC)
expect_refused(4 "${dir}/good.npy" "${dir}/to_stdout" "is not a regular file"
  -o ${dir}/to_stdout)
if(NOT IS_SYMLINK ${dir}/to_stdout)
  message(SEND_ERROR "${dir}/to_stdout is no longer a symbolic link")
endif()

# ---- symbolic links as the target ----------------------------------------------
# Followed to the end: the file there is written, the links stay links.
# A dangling link's target is created (relative links from the link's own
# directory); a loop is refused.
expect(0 "written atomically" transpose ${dir}/good.npy -o ${dir}/plain_out.npy)
file(SHA256 "${dir}/plain_out.npy" transposed_sum)
file(MAKE_DIRECTORY "${dir}/links")
file(CREATE_LINK made.npy ${dir}/dangling.npy SYMBOLIC)
file(CREATE_LINK ../made_too.npy ${dir}/links/dangling.npy SYMBOLIC)
file(CREATE_LINK links/dangling.npy ${dir}/to_dangling.npy SYMBOLIC)
file(CREATE_LINK plain_out.npy ${dir}/to_existing.npy SYMBOLIC)
foreach(case "dangling.npy:made.npy" "to_dangling.npy:made_too.npy"
             "to_existing.npy:plain_out.npy")
  string(REPLACE ":" ";" case "${case}")
  list(GET case 0 link)
  list(GET case 1 end)
  expect(0 "written atomically" transpose ${dir}/good.npy -o ${dir}/${link})
  if(NOT IS_SYMLINK ${dir}/${link})
    message(SEND_ERROR "${dir}/${link} was replaced: it is no longer a symbolic link")
  endif()
  expect_unchanged("${dir}/${end}" "${transposed_sum}")
endforeach()
file(CREATE_LINK loop_b.npy ${dir}/loop_a.npy SYMBOLIC)
file(CREATE_LINK loop_a.npy ${dir}/loop_b.npy SYMBOLIC)
file(CREATE_LINK itself.npy ${dir}/itself.npy SYMBOLIC)
foreach(link loop_a.npy itself.npy)
  expect_refused(4 "${dir}/good.npy" "${dir}/${link}"
    "cannot follow it: Too many levels of symbolic links" -o ${dir}/${link})
  if(NOT IS_SYMLINK ${dir}/${link})
    message(SEND_ERROR "${dir}/${link} was replaced: it is no longer a symbolic link")
  endif()
endforeach()

# ---- owner, group and mode are kept ---------------------------------------------
# Replacing a file (in place, or with -o over it) keeps its owner and group
# (`nobody`'s numbers need no such user) and its mode.
if(NOT uid STREQUAL "0")
  message(STATUS "skipped: keeping another user's owner and group (only root may give "
                 "a file away, so only root can make the test file)")
else()
  foreach(how in_place over)
    configure_file("${npy}/valid_c_f4_v1.npy" "${dir}/owned.npy" COPYONLY)
    execute_process(COMMAND chown 65534:65534 ${dir}/owned.npy)
    execute_process(COMMAND chmod 640 ${dir}/owned.npy)
    if(how STREQUAL "in_place")
      expect(0 "replaced atomically" transpose ${dir}/owned.npy)
    else()
      expect(0 "written atomically" transpose ${dir}/good.npy -o ${dir}/owned.npy)
    endif()
    execute_process(COMMAND stat -c "%u:%g %a" ${dir}/owned.npy OUTPUT_VARIABLE kept
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT kept STREQUAL "65534:65534 640")
      message(SEND_ERROR "transpose ${how}: owned.npy is now '${kept}', expected "
                         "'65534:65534 640'")
    else()
      message(STATUS "ok: transpose ${how} kept owner, group and mode ${kept}")
    endif()
  endforeach()
endif()
expect_no_leftovers()

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

# ---- operands, directories, standard input and output ----------------------------
# OUT as a second operand, -oOUT, --output=OUT and -o OUT write the same bytes
foreach(form "OPERAND" "-oATTACHED" "--output=EQUALS" "-o;SEPARATE")
  string(REGEX REPLACE "[A-Z]+$" "${dir}/form.npy" args "${form}")
  if(form STREQUAL "OPERAND")
    set(args "${dir}/form.npy")
  endif()
  file(REMOVE "${dir}/form.npy")
  expect(0 "form.npy \\(.npy 1.0, '<f4', C order, shape \\(4, 3\\)\\), written atomically"
         transpose ${dir}/good.npy ${args})
  expect_unchanged("${dir}/form.npy" "${transposed_sum}")
endforeach()
# an OUT that is a directory receives a file of the input's name
file(MAKE_DIRECTORY "${dir}/into")
expect(0 "into/good.npy \\(.npy.*written atomically" transpose ${dir}/good.npy -o ${dir}/into)
expect_unchanged("${dir}/into/good.npy" "${transposed_sum}")
file(REMOVE "${dir}/into/good.npy")
expect(0 "into/good.npy \\(.npy.*written atomically" transpose ${dir}/good.npy ${dir}/into/)
expect_unchanged("${dir}/into/good.npy" "${transposed_sum}")
# the same file by another name is reported as replaced
configure_file("${npy}/valid_c_f4_v1.npy" "${dir}/into/self.npy" COPYONLY)
expect(0 "into/\\./self.npy \\(.*replaced atomically" transpose ${dir}/into/self.npy
       ${dir}/into/.)
expect_unchanged("${dir}/into/self.npy" "${transposed_sum}")
# "--" ends the options: a file whose name starts with '-'
configure_file("${npy}/valid_c_f4_v1.npy" "${dir}/-dash.npy" COPYONLY)
execute_process(COMMAND ${CLIPT} transpose -- -dash.npy WORKING_DIRECTORY ${dir}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "input: +-dash.npy .*replaced atomically")
  message(SEND_ERROR "transpose -- -dash.npy: exit ${rc}\n${out}")
endif()
expect_unchanged("${dir}/-dash.npy" "${transposed_sum}")

# Runs clipt transpose ARGN with `input` on stdin (a file, or through a pipe
# when `how` is "pipe"); checks that stdout holds exactly the bytes with
# SHA-256 `want_sum` (no message mixed in) and that the report went to
# stderr.
function(expect_stdout how input want_sum)
  file(REMOVE "${dir}/stdout.bin")
  if(how STREQUAL "pipe")
    execute_process(COMMAND cat ${input} COMMAND ${CLIPT} transpose ${ARGN}
      RESULT_VARIABLE rc OUTPUT_FILE "${dir}/stdout.bin" ERROR_VARIABLE err)
  else()
    execute_process(COMMAND ${CLIPT} transpose ${ARGN} INPUT_FILE ${input}
      RESULT_VARIABLE rc OUTPUT_FILE "${dir}/stdout.bin" ERROR_VARIABLE err)
  endif()
  string(REPLACE ";" " " shown "${ARGN}")
  file(SHA256 "${dir}/stdout.bin" sum)
  if(NOT rc STREQUAL "0" OR NOT sum STREQUAL want_sum OR
     NOT err MATCHES "^input: .*\noutput: +stdout \\(.*\\), written\n$")
    file(SIZE "${dir}/stdout.bin" size)
    message(SEND_ERROR "transpose ${shown} < ${input} (${how}): exit ${rc}, ${size} bytes "
                       "on stdout, not the transpose's, stderr\n${err}")
  else()
    message(STATUS "ok: transpose ${shown} < ${input} (${how}): stdout holds the transpose")
  endif()
endfunction()
file(WRITE "${dir}/raw_in.bin" "abcdefghijkl")
file(WRITE "${dir}/raw_out.bin" "aeibfjcgkdhl")
file(SHA256 "${dir}/raw_out.bin" raw_sum)
foreach(how file pipe)
  expect_stdout(${how} "${dir}/good.npy" "${transposed_sum}" -)
  expect_stdout(${how} "${dir}/good.npy" "${transposed_sum}" - - --verify)
  expect_stdout(${how} "${dir}/raw_in.bin" "${raw_sum}" - --rows 3 --cols 4 --elem 1)
endforeach()
# a file to stdout; stdin to a file
expect_stdout(file "${dir}/good.npy" "${transposed_sum}" ${dir}/good.npy -o -)
expect_unchanged("${dir}/good.npy" "${good_sum}")
file(REMOVE "${dir}/from_stdin.npy")
execute_process(COMMAND ${CLIPT} transpose - ${dir}/from_stdin.npy INPUT_FILE ${dir}/good.npy
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "input: +stdin .*from_stdin.npy .*written atomically")
  message(SEND_ERROR "transpose - from_stdin.npy: exit ${rc}\n${out}${err}")
endif()
expect_unchanged("${dir}/from_stdin.npy" "${transposed_sum}")
# standard input has no name to write into a directory; bad data on stdin
execute_process(COMMAND ${CLIPT} transpose - -o ${dir}/into INPUT_FILE ${dir}/good.npy
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 4 OR NOT err STREQUAL "clipt transpose: ${dir}/into: is a directory, and \
standard input has no file name to write there\n")
  message(SEND_ERROR "transpose - -o DIR: exit ${rc}\n${err}")
endif()
execute_process(COMMAND ${CLIPT} transpose - INPUT_FILE ${npy}/bad_magic.npy
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 4 OR NOT out STREQUAL "" OR NOT err STREQUAL
   "clipt transpose: stdin: not a .npy file (it does not start with \\x93NUMPY)\n")
  message(SEND_ERROR "transpose - < bad_magic.npy: exit ${rc}\n${out}${err}")
endif()

# ---- progress ---------------------------------------------------------------------
# quiet when stderr is not a terminal; every step with its time with
# --progress, or on a terminal (script(1) gives the tool one)
execute_process(COMMAND ${CLIPT} transpose ${dir}/good.npy -o ${dir}/quiet.npy
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(SEND_ERROR "transpose with stderr not a terminal printed on it:\n${err}")
endif()
set(step " \\.\\.\\. [0-9]+\\.[0-9][0-9][0-9] s\r?\n")
set(steps "^\\[1/7\\] planning 3 x 4 on .*${step}\\[2/7\\] reading [^\n]*good.npy \\(0.00 MB\\)\
${step}\\[3/7\\] uploading 0.00 MB${step}\\[4/7\\] transposing 3 x 4 in place on the device\
${step}\\[5/7\\] downloading 0.00 MB${step}\\[6/7\\] verifying against a CPU transpose\
${step}\\[7/7\\] writing [^\n]*progress.npy${step}done in [0-9.]+ s\r?\n")
execute_process(COMMAND ${CLIPT} transpose --progress --verify ${dir}/good.npy
                        ${dir}/progress.npy
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err MATCHES "${steps}$" OR NOT out MATCHES "^input: ")
  message(SEND_ERROR "transpose --progress: exit ${rc}, stderr\n${err}")
else()
  message(STATUS "ok: transpose --progress shows every step")
endif()
find_program(script_tool script)
if(NOT script_tool)
  message(STATUS "skipped: progress on a terminal (no script(1), Debian: bsdutils)")
else()
  execute_process(COMMAND ${script_tool} -qec
    "${CLIPT} transpose --verify ${dir}/good.npy ${dir}/progress.npy" /dev/null
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "${steps}input: ")
    message(SEND_ERROR "transpose on a terminal: exit ${rc}, output\n${out}")
  else()
    message(STATUS "ok: transpose on a terminal shows every step")
  endif()
  # stdout on a terminal gets no binary data
  execute_process(COMMAND ${script_tool} -qec "${CLIPT} transpose ${dir}/good.npy -" /dev/null
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 4 OR NOT out MATCHES "^clipt transpose: stdout: is a terminal: the \
transpose is binary data \\(redirect it, or give OUT\\)\r?\n$")
    message(SEND_ERROR "transpose FILE - on a terminal: exit ${rc}, output\n${out}")
  endif()
endif()
# a failing step ends its line before the error
execute_process(COMMAND ${CLIPT} transpose --progress - INPUT_FILE ${npy}/truncated_data.npy
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 4 OR NOT err MATCHES "^\\[1/6\\] reading standard input \\.\\.\\. failed\n\
clipt transpose: stdin: truncated data: ")
  message(SEND_ERROR "transpose --progress of a bad stdin: exit ${rc}, stderr\n${err}")
endif()
expect_no_leftovers()

# ---- a device that computes wrong results ------------------------------------------
# A copy of the kernels whose tile transpose adds 1 to every element (small
# shapes are one 010! stage; both kernel styles, GPU and CPU): --verify
# must catch it and write nothing.
file(GLOB kernels "${SOURCE_DIR}/cl/*.cl" "${SOURCE_DIR}/cl/*.h")
file(COPY ${kernels} DESTINATION "${dir}/broken_cl")
file(READ "${dir}/broken_cl/transpose010.cl" text)
string(REPLACE "at0 + k) = tile[" "at0 + k) = 1 + tile[" half "${text}")
string(REPLACE "out + j * a + i) = in[" "out + j * a + i) = 1 + in[" broken "${half}")
if(half STREQUAL text OR broken STREQUAL half)
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
