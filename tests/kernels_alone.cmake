# Each kernel file compiles alone with clang (only -I for the kernels' own
# headers: every -D parameter has a default), and at -O0 calls no function
# that is not defined: a helper written as a plain C99 `inline` function is
# then only declared, so the kernel would not link where the OpenCL
# compiler inlines nothing (-cl-opt-disable).  Helpers must be `static
# inline`.  Builtins (mangled _Z...) and LLVM intrinsics are the runtime's.
# Variables: CLANG, KERNEL_DIR.
file(GLOB kernels "${KERNEL_DIR}/*.cl")
list(LENGTH kernels count)
if(count EQUAL 0)
  message(FATAL_ERROR "no kernel files in ${KERNEL_DIR}")
endif()
foreach(kernel ${kernels})
  execute_process(COMMAND ${CLANG} -cl-std=CL1.2 -O0 -emit-llvm -S -I ${KERNEL_DIR}
                          -o - ${kernel}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE ir ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(SEND_ERROR "${kernel} does not compile alone:\n${err}")
    continue()
  endif()
  string(REGEX MATCHALL "\ndeclare [^\n]*@[A-Za-z0-9_.$]+\\(" declared "${ir}")
  foreach(d ${declared})
    string(REGEX REPLACE ".*@([A-Za-z0-9_.$]+)\\($" "\\1" name "${d}")
    if(NOT name MATCHES "^(_Z|llvm\\.)")
      message(SEND_ERROR "${kernel}: ${name} is called but not defined at -O0 "
                         "(make it static inline)")
    endif()
  endforeach()
  message(STATUS "ok: ${kernel}")
endforeach()
