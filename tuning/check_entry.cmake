# Checks that a table entry written by clipt_tune is C that the tuning
# table compiles: the entry becomes the whole table (a tuning_entries.inc
# found before tuning/'s own) and the table's source file is compiled.
#   cmake -DC_COMPILER=cc -DSOURCE_DIR=<tree> -DENTRY=<entry file>
#         -DWORK=<scratch directory> -P check_entry.cmake
file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/tuning_entries.inc"
     "static const tuning_entry tuning_entries[] = {\n#include \"${ENTRY}\"\n};\n")
execute_process(
  COMMAND ${C_COMPILER} -std=c11 -fsyntax-only -Wall -Wextra -Werror
          -DCL_TARGET_OPENCL_VERSION=120 -I${WORK} -I${SOURCE_DIR}/include
          -I${SOURCE_DIR}/src ${SOURCE_DIR}/src/tuning_table.c
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  file(READ "${ENTRY}" entry)
  message(FATAL_ERROR "the tuning table does not compile with the entry\n${entry}\n${out}")
endif()
message(STATUS "ok: the entry compiles in src/tuning_table.c")
