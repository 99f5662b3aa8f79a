# The installed tool, included by cli_tests.cmake for GROUP installed (it
# reuses expect()).  Installs BUILD_DIR into OUTDIR/installed (a prefix
# other than the configured one) and checks, from there and with neither
# CLIPT_PLOT_SCRIPT nor CLIPT_KERNEL_PATH set:
#   - bench --png: the plot script installed with the tool is found from
#     the tool's own place, and only there; CLIPT_PLOT_SCRIPT still wins;
#     without matplotlib, one line says what to install;
#   - the man pages: each renders with `man -l` without a warning; the
#     tool's pages name every option its help names; clipt(3) has a
#     section for every function of clipt.h; `man clipt-transpose` and
#     `man 3 clipt_enqueue` find them under the prefix's share/man.

set(prefix "${OUTDIR}/installed")
file(REMOVE_RECURSE "${prefix}")
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${prefix} failed:\n${err}")
endif()
set(CLIPT "${prefix}/bin/clipt")
unset(ENV{CLIPT_PLOT_SCRIPT})
unset(ENV{CLIPT_KERNEL_PATH})
set(script "${prefix}/share/clipt/plot_hist.py")
if(NOT EXISTS "${script}")
  message(SEND_ERROR "the plot script was not installed as ${script}")
endif()

# ---- bench --png --------------------------------------------------------------
set(bench_png bench --random general --count 3 --max-dim 300 --repeat 1 --png)
set(png "${OUTDIR}/installed_bench.png")
# a python3 with matplotlib (PATH's, else the system's) goes first on PATH
set(plotting_python "")
find_program(path_python NAMES python3)
foreach(candidate ${path_python} /usr/bin/python3)
  if(NOT plotting_python AND EXISTS "${candidate}")
    execute_process(COMMAND ${candidate} -c "import matplotlib" RESULT_VARIABLE rc
                    OUTPUT_QUIET ERROR_QUIET)
    if(rc EQUAL 0)
      set(plotting_python "${candidate}")
    endif()
  endif()
endforeach()
file(REMOVE "${png}")
if(plotting_python)
  get_filename_component(python_dir "${plotting_python}" DIRECTORY)
  set(ENV{PATH} "${python_dir}:$ENV{PATH}")
  expect(0 "png: ${png}\n" ${bench_png} ${png})
  file(READ "${png}" magic LIMIT 8 HEX)
  if(NOT magic STREQUAL "89504e470d0a1a0a")
    message(SEND_ERROR "${png} is not a PNG file (starts with ${magic})")
  endif()
else()
  message(STATUS "no python3 with matplotlib here: checking the message instead "
                 "(Debian: apt-get install python3-matplotlib)")
  expect(0 "png: not written: matplotlib is not installed for [^\n]*python3[^\n]* \
\\(Debian: apt-get install python3-matplotlib; or: python3 -m pip install matplotlib\\)"
         ${bench_png} ${png})
endif()
# the installed script is the one used, not the source tree's: without it
# the bench says where it looked, and still succeeds
file(RENAME "${script}" "${script}.away")
expect(0 "png: not written: no plot script at ${prefix}/bin/\\.\\./share/clipt/plot_hist\\.py \
\\(it is installed with the tool as share/clipt/plot_hist.py; CLIPT_PLOT_SCRIPT names another\\)"
       ${bench_png} ${png})
file(RENAME "${script}.away" "${script}")
# CLIPT_PLOT_SCRIPT wins: a stand-in that writes its arguments
file(WRITE "${OUTDIR}/stand_in_plot.py"
     "import sys\nopen(sys.argv[2], 'w').write(' '.join(sys.argv[3:]))\n")
set(ENV{CLIPT_PLOT_SCRIPT} "${OUTDIR}/stand_in_plot.py")
expect(0 "png: ${png}\n" ${bench_png} ${png})
file(READ "${png}" written)
if(NOT written MATCHES "^--title clipt bench: .*, general set, 4-byte elements, repeated mode$")
  message(SEND_ERROR "CLIPT_PLOT_SCRIPT was not the script run: ${png} holds '${written}'")
endif()
unset(ENV{CLIPT_PLOT_SCRIPT})

# ---- man pages -------------------------------------------------------------------
find_program(man_tool man)
if(NOT man_tool)
  message(STATUS "skipped: the man pages (no man; Debian: man-db)")
  return()
endif()
set(ENV{MANWIDTH} 100)
set(ENV{MANPAGER} cat)
set(ENV{PAGER} cat)
# Renders `page` (a file, or with MANPATH set a name) and fails on a
# warning; the text goes into `var`.
function(render var)
  execute_process(COMMAND ${man_tool} --warnings ${ARGN} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE text ERROR_VARIABLE warnings)
  string(REPLACE ";" " " shown "${ARGN}")
  if(NOT rc EQUAL 0 OR NOT warnings STREQUAL "")
    message(SEND_ERROR "man ${shown}: exit ${rc}\n${warnings}")
  endif()
  set(${var} "${text}" PARENT_SCOPE)
endfunction()
set(man1 "${prefix}/share/man/man1")
foreach(cmd run info bench transpose)
  render(text -l ${man1}/clipt-${cmd}.1)
  execute_process(COMMAND ${CLIPT} ${cmd} --help OUTPUT_VARIABLE help)
  if(cmd STREQUAL "bench")
    execute_process(COMMAND ${CLIPT} bench --host --help OUTPUT_VARIABLE host_help)
    string(APPEND help "${host_help}")
  endif()
  string(REGEX MATCHALL "\n +(-[a-z], )?--[a-z-]+" options "${help}")
  list(LENGTH options count)
  if(count LESS 1)
    message(SEND_ERROR "clipt ${cmd} --help lists no options:\n${help}")
  endif()
  foreach(option ${options})
    string(STRIP "${option}" option)
    string(FIND "${text}" "${option}" at)
    if(at LESS 0)
      message(SEND_ERROR "man clipt-${cmd} lacks '${option}' of its --help")
    endif()
  endforeach()
  if(NOT text MATCHES "^CLIPT-[A-Z]+\\(1\\) .*\nNAME\n +clipt-${cmd} - .*\nSYNOPSIS\n.*\nDESCRIPTION\n\
.*\nOPTIONS\n.*\nSEE ALSO\n")
    message(SEND_ERROR "man clipt-${cmd} lacks a section:\n${text}")
  endif()
  message(STATUS "ok: man clipt-${cmd} renders and names its ${count} options")
endforeach()
render(text -l ${man1}/clipt.1)
foreach(part "run +transpose a demo matrix" "transpose[ \n]+transpose a \\.npy" "CLIPT_DEVICE"
             "CLIPT_PLOT_SCRIPT" "EXIT STATUS\n +0 success")
  if(NOT text MATCHES "${part}")
    message(SEND_ERROR "man clipt lacks '${part}':\n${text}")
  endif()
endforeach()
# clipt(3): a section for every function of the installed header
render(text -l ${prefix}/share/man/man3/clipt.3)
file(READ "${prefix}/include/clipt.h" header)
string(REGEX MATCHALL "\nCLIPT_API [^;(]*\\(" declarations "${header}")
set(functions 0)
foreach(declaration ${declarations})
  string(REGEX MATCH "[a-z_0-9]+\\($" name "${declaration}")
  string(REPLACE "(" "" name "${name}")
  if(NOT text MATCHES "\n   [^\n]*${name}[,\n]")
    message(SEND_ERROR "man 3 clipt has no section for ${name}")
  endif()
  math(EXPR functions "${functions} + 1")
endforeach()
if(functions LESS 20 OR NOT text MATCHES "CLIPT_ERROR_WAIT_EVENT_FAILED \\(-1019\\)")
  message(SEND_ERROR "man 3 clipt: ${functions} functions, or no status codes:\n${text}")
endif()
message(STATUS "ok: man 3 clipt renders with all ${functions} functions of clipt.h")
# as a user finds them: by name, under the prefix's share/man
set(ENV{MANPATH} "${prefix}/share/man")
render(text clipt-transpose)
if(NOT text MATCHES "--progress")
  message(SEND_ERROR "man clipt-transpose (MANPATH) is not the tool's page:\n${text}")
endif()
render(text 3 clipt_enqueue)
if(NOT text MATCHES "^CLIPT\\(3\\).*\n   clipt_enqueue\n")
  message(SEND_ERROR "man 3 clipt_enqueue does not open clipt(3):\n${text}")
endif()
message(STATUS "ok: man clipt-transpose and man 3 clipt_enqueue under ${prefix}/share/man")
