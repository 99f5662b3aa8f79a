# One man page of the tool: `TOOL --man PAGE` into OUT, written whole or
# not at all (run by the build, see CMakeLists.txt).
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
execute_process(COMMAND ${TOOL} --man ${PAGE} OUTPUT_FILE ${OUT}.new
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.new)
  message(FATAL_ERROR "${TOOL} --man ${PAGE} failed (${rc}): ${err}")
endif()
file(RENAME ${OUT}.new ${OUT})
