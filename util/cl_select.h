/* Device selection shared by the clipt tool, tests and benchmarks:
 * CLIPT_PLATFORM and CLIPT_DEVICE (index or name substring); by default the
 * first GPU of any platform, else the first device. */
#ifndef CLIPT_CL_SELECT_H
#define CLIPT_CL_SELECT_H

/* clipt needs OpenCL 1.2 entry points only; targets that set their own
 * version (the library's objects do) keep it. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "clipt.h"

typedef struct clipt_cl_env {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;  /* in-order, profiling enabled */
    char platform_name[256];
    char device_name[256];
} clipt_cl_env;

/* Opens the selected device.  On failure writes a reason into why. */
clipt_status clipt_cl_env_open(clipt_cl_env *env, char *why, size_t why_len);
void clipt_cl_env_close(clipt_cl_env *env);

/* Finds the device clipt_cl_env_open would open, without creating anything:
 * fills env's platform, device and names only (context and queue stay
 * NULL, nothing to close).  On failure writes a reason into why. */
clipt_status clipt_cl_select(clipt_cl_env *env, char *why, size_t why_len);

#endif
