cmake_minimum_required(VERSION 3.16)

# The README's two commands name the packages that .ci/packages installs:
# the first (.ci/setup) RUNTIME_PACKAGES, the second (.ci/test)
# TEST_PACKAGES, the same lists in the same order, and no package in both.
#   cmake -DSOURCE_DIR=<source tree> -P readme_packages.cmake

# The blank-separated words of text, as a list.
function(split_words text out)
  string(REGEX REPLACE "[ \n]+" ";" words "${text}")
  list(REMOVE_ITEM words "")
  set(${out} "${words}" PARENT_SCOPE)
endfunction()

# The words of bash array NAME=( ... ) in text.
function(bash_array text name out)
  if(NOT text MATCHES "\n${name}=\\(([^)]*)\\)")
    message(FATAL_ERROR ".ci/packages has no ${name}=(...)")
  endif()
  split_words("${CMAKE_MATCH_1}" words)
  set(${out} "${words}" PARENT_SCOPE)
endfunction()

# The words of the first `...` list after `after` in the README.
function(readme_list text after out)
  string(FIND "${text}" "${after}" at)
  if(at LESS 0)
    message(FATAL_ERROR "README.md lost '${after}'")
  endif()
  string(SUBSTRING "${text}" ${at} -1 rest)
  if(NOT rest MATCHES "\\(`([^`]*)`")
    message(FATAL_ERROR "README.md names no packages after '${after}'")
  endif()
  split_words("${CMAKE_MATCH_1}" words)
  set(${out} "${words}" PARENT_SCOPE)
endfunction()

file(READ "${SOURCE_DIR}/.ci/packages" packages)
file(READ "${SOURCE_DIR}/README.md" readme)
bash_array("${packages}" RUNTIME_PACKAGES runtime)
bash_array("${packages}" TEST_PACKAGES test)
readme_list("${readme}" "installs what building and running needs" readme_runtime)
readme_list("${readme}" "installs what the tests need besides" readme_test)
if(NOT runtime STREQUAL readme_runtime)
  message(FATAL_ERROR "README's first command names '${readme_runtime}', .ci/packages "
                      "RUNTIME_PACKAGES '${runtime}'")
endif()
if(NOT test STREQUAL readme_test)
  message(FATAL_ERROR "README's second command names '${readme_test}', .ci/packages "
                      "TEST_PACKAGES '${test}'")
endif()
foreach(p ${test})
  if(p IN_LIST runtime)
    message(FATAL_ERROR "${p} is in both RUNTIME_PACKAGES and TEST_PACKAGES")
  endif()
endforeach()
list(LENGTH runtime nr)
list(LENGTH test nt)
message(STATUS "ok: README and .ci/packages agree: ${nr} packages to run, ${nt} more to test")
