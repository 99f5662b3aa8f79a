# Builds tests/consumer against an installed clipt and runs it, as ctest's
# consumer_find_package and consumer_pkg-config tests:
#   cmake -DMODE=find_package|pkg-config -DBUILD_DIR=<clipt build tree>
#         -DWORK=<scratch directory> -DSOURCE_DIR=<tests/consumer>
#         -DCLIPT_SOURCE_DIR=<clipt source tree> -DC_COMPILER=<cc>
#         -DPKG_CONFIG=<pkg-config or empty> -P run_consumer.cmake
# find_package: `cmake --install --prefix WORK/prefix` (a prefix other than
# the configured one) and the consumer's CMake project with
# CMAKE_PREFIX_PATH.  pkg-config: `cmake --install` with DESTDIR=WORK/destdir
# and `cc consumer.c $(pkg-config --cflags --libs clipt)` with clipt.pc's
# rpath_flags, run without LD_LIBRARY_PATH (and shown not to start without
# those flags).
# Neither sets CLIPT_KERNEL_PATH: the consumer runs with the installed
# kernels, normally and with one PoCL thread.  Then the installed kernel
# directory is renamed away, and later its kernels are deleted: each time the
# consumer must fail with CLIPT_ERROR_KERNEL_NOT_FOUND having searched only
# the installed directory: proof that the first run used the installed
# kernels and that the source tree's cl/ is out of reach.

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

unset(ENV{CLIPT_KERNEL_PATH})
unset(ENV{CLIPT_CACHE_DIR})
file(REMOVE_RECURSE "${WORK}")

if(MODE STREQUAL "find_package")
  set(prefix "${WORK}/prefix")
  run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
  run("configuring the consumer" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK}/build
      -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_PREFIX_PATH=${prefix}
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
  run("building the consumer" ${CMAKE_COMMAND} --build ${WORK}/build)
  set(consumer ${WORK}/build/consumer)
elseif(MODE STREQUAL "pkg-config")
  if(NOT PKG_CONFIG)
    message("consumer: skipped: pkg-config not found (Debian: pkgconf)")
    return()
  endif()
  set(ENV{DESTDIR} ${WORK}/destdir)
  run("cmake --install with DESTDIR" ${CMAKE_COMMAND} --install ${BUILD_DIR})
  unset(ENV{DESTDIR})
  file(GLOB_RECURSE pc_file ${WORK}/destdir/*/clipt.pc)
  get_filename_component(pc_dir "${pc_file}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
  run("pkg-config --cflags --libs clipt" ${PKG_CONFIG} --cflags --libs clipt)
  separate_arguments(flags UNIX_COMMAND "${run_output}")
  run("pkg-config --variable=rpath_flags clipt" ${PKG_CONFIG} --variable=rpath_flags clipt)
  separate_arguments(rpath_flags UNIX_COMMAND "${run_output}")
  if(NOT rpath_flags MATCHES "^-Wl,-rpath,/")
    message(FATAL_ERROR "clipt.pc's rpath_flags is '${rpath_flags}', not -Wl,-rpath,LIBDIR")
  endif()
  file(MAKE_DIRECTORY ${WORK}/build)
  # as docs/usage.md shows: the rpath hint makes the program start from a
  # prefix the dynamic linker does not search (no LD_LIBRARY_PATH)
  set(consumer ${WORK}/build/consumer)
  run("compiling the consumer" ${C_COMPILER} -std=c11 ${SOURCE_DIR}/consumer.c ${flags}
      ${rpath_flags} -o ${consumer})
  unset(ENV{LD_LIBRARY_PATH})
  # without the hint it would not start: what the hint is for
  run("compiling the consumer without rpath_flags" ${C_COMPILER} -std=c11
      ${SOURCE_DIR}/consumer.c ${flags} -o ${WORK}/build/consumer_no_rpath)
  execute_process(COMMAND ${WORK}/build/consumer_no_rpath RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    message(STATUS "note: the consumer starts without rpath_flags too: a libclipt.so.0 "
                   "is installed where the dynamic linker looks")
  elseif(NOT out MATCHES "libclipt\\.so\\.0: cannot open shared object file")
    message(FATAL_ERROR "the consumer without rpath_flags failed otherwise (${rc}):\n${out}")
  else()
    message(STATUS "ok: without rpath_flags: ${out}")
  endif()
else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()

run("the consumer" ${consumer})
message(STATUS "${run_output}")
run("the consumer with one PoCL thread" ${CMAKE_COMMAND} -E env POCL_MAX_PTHREAD_COUNT=1
    ${consumer})

# Without the installed kernels it must fail, having looked only there:
# first with share/clipt/cl renamed away (an installed library decides that
# it is installed from its own location, not from that directory being
# there), then with the directory present but its files deleted.
function(expect_not_found how)
  execute_process(COMMAND ${consumer} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE out)
  string(REGEX MATCH "searched: [^\n]*" searched "${out}")
  string(FIND "${searched}" "searched: ${WORK}/" at)
  string(FIND "${searched}" ", " second_path)
  if(NOT rc EQUAL 3 OR NOT out MATCHES "KERNEL_NOT_FOUND" OR NOT at EQUAL 0 OR
     second_path GREATER -1 OR out MATCHES "${CLIPT_SOURCE_DIR}/cl/")
    message(FATAL_ERROR "${how}, the consumer should fail with KERNEL_NOT_FOUND "
            "after searching only the installed directory under ${WORK}; it exited "
            "${rc}:\n${out}")
  endif()
  message(STATUS "ok: ${how}: ${searched}")
endfunction()

file(GLOB_RECURSE installed ${WORK}/*.cl)
if(NOT installed)
  message(FATAL_ERROR "no kernels installed under ${WORK}")
endif()
list(GET installed 0 one_kernel)
get_filename_component(kernel_dir "${one_kernel}" DIRECTORY)
file(RENAME "${kernel_dir}" "${kernel_dir}.renamed")
expect_not_found("with ${kernel_dir} renamed")
file(RENAME "${kernel_dir}.renamed" "${kernel_dir}")
file(REMOVE ${installed})
expect_not_found("with the installed kernels deleted")
