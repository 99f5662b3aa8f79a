/* Device selection from CLIPT_PLATFORM / CLIPT_DEVICE. */
#include "cl_select.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_IDS 64

/* "2" selects index 2; anything else is a case-sensitive name substring. */
static int matches(const char *want, cl_uint index, const char *name)
{
    char *end = NULL;
    unsigned long k;
    if (!want || !*want)
        return 1;
    k = strtoul(want, &end, 10);
    if (end && *end == '\0' && isdigit((unsigned char)want[0]))
        return k == index;
    return strstr(name, want) != NULL;
}

clipt_status clipt_cl_env_open(clipt_cl_env *env, char *why, size_t why_len)
{
    cl_platform_id platforms[MAX_IDS];
    cl_uint np = 0;
    const char *want_platform = getenv("CLIPT_PLATFORM");
    const char *want_device = getenv("CLIPT_DEVICE");
    int explicit_choice = (want_platform && *want_platform) || (want_device && *want_device);
    cl_int err;
    memset(env, 0, sizeof *env);
    err = clGetPlatformIDs(MAX_IDS, platforms, &np);
    if (err != CL_SUCCESS || np == 0) {
        snprintf(why, why_len, "no OpenCL platform (clGetPlatformIDs: %s)",
                 clipt_status_string(err == CL_SUCCESS ? CLIPT_ERROR_NO_DEVICE : err));
        return CLIPT_ERROR_NO_DEVICE;
    }
    if (np > MAX_IDS)
        np = MAX_IDS;
    /* two passes without an explicit choice: GPUs first, then anything */
    for (int pass = explicit_choice ? 1 : 0; pass < 2 && !env->device; pass++) {
        for (cl_uint p = 0; p < np && !env->device; p++) {
            char pname[256] = "";
            cl_device_id devices[MAX_IDS];
            cl_uint nd = 0;
            clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
            if (!matches(want_platform, p, pname))
                continue;
            if (clGetDeviceIDs(platforms[p], pass == 0 ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL,
                               MAX_IDS, devices, &nd) != CL_SUCCESS)
                continue;
            if (nd > MAX_IDS)
                nd = MAX_IDS;
            for (cl_uint d = 0; d < nd; d++) {
                char dname[256] = "";
                clGetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof dname, dname, NULL);
                if (!matches(want_device, d, dname))
                    continue;
                env->platform = platforms[p];
                env->device = devices[d];
                snprintf(env->platform_name, sizeof env->platform_name, "%s", pname);
                snprintf(env->device_name, sizeof env->device_name, "%s", dname);
                break;
            }
        }
    }
    if (!env->device) {
        snprintf(why, why_len, "no OpenCL device matches CLIPT_PLATFORM=%s CLIPT_DEVICE=%s",
                 want_platform ? want_platform : "(any)", want_device ? want_device : "(any)");
        return CLIPT_ERROR_NO_DEVICE;
    }
    env->context = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        snprintf(why, why_len, "clCreateContext: %s", clipt_status_string(err));
        return err;
    }
    env->queue = clCreateCommandQueue(env->context, env->device,
                                      CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        snprintf(why, why_len, "clCreateCommandQueue: %s", clipt_status_string(err));
        clReleaseContext(env->context);
        env->context = NULL;
        return err;
    }
    return CLIPT_SUCCESS;
}

void clipt_cl_env_close(clipt_cl_env *env)
{
    if (env->queue)
        clReleaseCommandQueue(env->queue);
    if (env->context)
        clReleaseContext(env->context);
    memset(env, 0, sizeof *env);
}
