/* Status strings and version. */
#include "internal.h"

#include <string.h>

#define CLIPT_STR_(x) #x
#define CLIPT_XSTR_(x) CLIPT_STR_(x)

const char *clipt_version_string(void)
{
    return CLIPT_XSTR_(CLIPT_VERSION_MAJOR) "." CLIPT_XSTR_(
        CLIPT_VERSION_MINOR) "." CLIPT_XSTR_(CLIPT_VERSION_PATCH);
}

unsigned clipt_version_number(void) { return CLIPT_VERSION_NUMBER; }

static const char *opencl_status_string(clipt_status s)
{
    switch (s) {
#define CL_CASE(code, text) case code: return #code ": " text;
    CL_CASE(CL_DEVICE_NOT_FOUND, "no device found")
    CL_CASE(CL_DEVICE_NOT_AVAILABLE, "device not available")
    CL_CASE(CL_COMPILER_NOT_AVAILABLE, "compiler not available")
    CL_CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE, "memory object allocation failure")
    CL_CASE(CL_OUT_OF_RESOURCES, "out of resources")
    CL_CASE(CL_OUT_OF_HOST_MEMORY, "out of host memory")
    CL_CASE(CL_PROFILING_INFO_NOT_AVAILABLE, "profiling information not available")
    CL_CASE(CL_MEM_COPY_OVERLAP, "memory copy overlap")
    CL_CASE(CL_IMAGE_FORMAT_MISMATCH, "image format mismatch")
    CL_CASE(CL_IMAGE_FORMAT_NOT_SUPPORTED, "image format not supported")
    CL_CASE(CL_BUILD_PROGRAM_FAILURE, "program build failure")
    CL_CASE(CL_MAP_FAILURE, "map failure")
    CL_CASE(CL_MISALIGNED_SUB_BUFFER_OFFSET, "misaligned sub-buffer offset")
    CL_CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "an event in the wait list failed")
    CL_CASE(CL_COMPILE_PROGRAM_FAILURE, "compile program failure")
    CL_CASE(CL_LINKER_NOT_AVAILABLE, "linker not available")
    CL_CASE(CL_LINK_PROGRAM_FAILURE, "link program failure")
    CL_CASE(CL_DEVICE_PARTITION_FAILED, "device partition failed")
    CL_CASE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "kernel argument info not available")
    CL_CASE(CL_INVALID_VALUE, "invalid value")
    CL_CASE(CL_INVALID_DEVICE_TYPE, "invalid device type")
    CL_CASE(CL_INVALID_PLATFORM, "invalid platform")
    CL_CASE(CL_INVALID_DEVICE, "invalid device")
    CL_CASE(CL_INVALID_CONTEXT, "invalid context")
    CL_CASE(CL_INVALID_QUEUE_PROPERTIES, "invalid queue properties")
    CL_CASE(CL_INVALID_COMMAND_QUEUE, "invalid command queue")
    CL_CASE(CL_INVALID_HOST_PTR, "invalid host pointer")
    CL_CASE(CL_INVALID_MEM_OBJECT, "invalid memory object")
    CL_CASE(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "invalid image format descriptor")
    CL_CASE(CL_INVALID_IMAGE_SIZE, "invalid image size")
    CL_CASE(CL_INVALID_SAMPLER, "invalid sampler")
    CL_CASE(CL_INVALID_BINARY, "invalid binary")
    CL_CASE(CL_INVALID_BUILD_OPTIONS, "invalid build options")
    CL_CASE(CL_INVALID_PROGRAM, "invalid program")
    CL_CASE(CL_INVALID_PROGRAM_EXECUTABLE, "invalid program executable")
    CL_CASE(CL_INVALID_KERNEL_NAME, "invalid kernel name")
    CL_CASE(CL_INVALID_KERNEL_DEFINITION, "invalid kernel definition")
    CL_CASE(CL_INVALID_KERNEL, "invalid kernel")
    CL_CASE(CL_INVALID_ARG_INDEX, "invalid argument index")
    CL_CASE(CL_INVALID_ARG_VALUE, "invalid argument value")
    CL_CASE(CL_INVALID_ARG_SIZE, "invalid argument size")
    CL_CASE(CL_INVALID_KERNEL_ARGS, "invalid kernel arguments")
    CL_CASE(CL_INVALID_WORK_DIMENSION, "invalid work dimension")
    CL_CASE(CL_INVALID_WORK_GROUP_SIZE, "invalid work-group size")
    CL_CASE(CL_INVALID_WORK_ITEM_SIZE, "invalid work-item size")
    CL_CASE(CL_INVALID_GLOBAL_OFFSET, "invalid global offset")
    CL_CASE(CL_INVALID_EVENT_WAIT_LIST, "invalid event wait list")
    CL_CASE(CL_INVALID_EVENT, "invalid event")
    CL_CASE(CL_INVALID_OPERATION, "invalid operation")
    CL_CASE(CL_INVALID_GL_OBJECT, "invalid GL object")
    CL_CASE(CL_INVALID_BUFFER_SIZE, "invalid buffer size")
    CL_CASE(CL_INVALID_MIP_LEVEL, "invalid mip level")
    CL_CASE(CL_INVALID_GLOBAL_WORK_SIZE, "invalid global work size")
    CL_CASE(CL_INVALID_PROPERTY, "invalid property")
    CL_CASE(CL_INVALID_IMAGE_DESCRIPTOR, "invalid image descriptor")
    CL_CASE(CL_INVALID_COMPILER_OPTIONS, "invalid compiler options")
    CL_CASE(CL_INVALID_LINKER_OPTIONS, "invalid linker options")
    CL_CASE(CL_INVALID_DEVICE_PARTITION_COUNT, "invalid device partition count")
#undef CL_CASE
    default:
        return NULL;
    }
}

const char *clipt_status_string(clipt_status s)
{
    const char *cl_text;
    switch (s) {
    case CLIPT_SUCCESS:
        return "CLIPT_SUCCESS: success";
#define CLIPT_STRING_CASE_(name, value, text) case name: return #name ": " text;
        CLIPT_ERROR_TABLE(CLIPT_STRING_CASE_)
#undef CLIPT_STRING_CASE_
    default:
        break;
    }
    cl_text = opencl_status_string(s);
    return cl_text ? cl_text : "unknown status code";
}

clipt_status clipt_copy_text(const char *text, char *buf, size_t len)
{
    size_t n;
    if (!buf || len == 0)
        return CLIPT_ERROR_NULL_ARGUMENT;
    n = strlen(text);
    if (n >= len) {
        memcpy(buf, text, len - 1);
        buf[len - 1] = '\0';
        return CLIPT_ERROR_TRUNCATED;
    }
    memcpy(buf, text, n + 1);
    return CLIPT_SUCCESS;
}
