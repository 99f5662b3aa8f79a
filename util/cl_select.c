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

/* A name that cannot be queried matches only an index or an empty choice:
 * better than failing the whole selection over one odd device. */
static void platform_name(cl_platform_id p, char *name, size_t len)
{
    if (clGetPlatformInfo(p, CL_PLATFORM_NAME, len, name, NULL) != CL_SUCCESS)
        name[0] = '\0';
    name[len - 1] = '\0';
}

static void device_name(cl_device_id d, char *name, size_t len)
{
    if (clGetDeviceInfo(d, CL_DEVICE_NAME, len, name, NULL) != CL_SUCCESS)
        name[0] = '\0';
    name[len - 1] = '\0';
}

/* Looks through platform p's devices of `type` for one matching want_device;
 * returns 1 and fills env when found. */
static int pick_on_platform(clipt_cl_env *env, cl_platform_id p,
                            const char *pname, cl_device_type type,
                            const char *want_device)
{
    cl_device_id devices[MAX_IDS];
    cl_uint nd = 0;
    /* CL_DEVICE_NOT_FOUND just means "no device of this type here" */
    if (clGetDeviceIDs(p, type, MAX_IDS, devices, &nd) != CL_SUCCESS)
        return 0;
    if (nd > MAX_IDS)
        nd = MAX_IDS;
    for (cl_uint d = 0; d < nd; d++) {
        char dname[256];
        device_name(devices[d], dname, sizeof dname);
        if (!matches(want_device, d, dname))
            continue;
        env->platform = p;
        env->device = devices[d];
        snprintf(env->platform_name, sizeof env->platform_name, "%s", pname);
        snprintf(env->device_name, sizeof env->device_name, "%s", dname);
        return 1;
    }
    return 0;
}

clipt_status clipt_cl_select(clipt_cl_env *env, char *why, size_t why_len)
{
    cl_platform_id platforms[MAX_IDS];
    cl_uint np = 0;
    const char *want_platform = getenv("CLIPT_PLATFORM");
    const char *want_device = getenv("CLIPT_DEVICE");
    const int explicit_choice =
        (want_platform && *want_platform) || (want_device && *want_device);
    cl_int err;
    memset(env, 0, sizeof *env);
    err = clGetPlatformIDs(MAX_IDS, platforms, &np);
    if (err != CL_SUCCESS || np == 0) {
        /* the ICD loader reports "no platform" as CL_PLATFORM_NOT_FOUND_KHR
         * (-1001), which would read as a clipt code: do not pass it on */
        snprintf(why, why_len, "no OpenCL platform found (clGetPlatformIDs returned %d)",
                 (int)err);
        return CLIPT_ERROR_NO_DEVICE;
    }
    if (np > MAX_IDS)
        np = MAX_IDS;
    /* Device indices count devices of every type, so an explicit choice is
     * matched in the "all devices" pass only; without one, GPUs come first. */
    for (int pass = explicit_choice ? 1 : 0; pass < 2; pass++) {
        const cl_device_type type = pass == 0 ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL;
        for (cl_uint p = 0; p < np; p++) {
            char pname[256];
            platform_name(platforms[p], pname, sizeof pname);
            if (matches(want_platform, p, pname) &&
                pick_on_platform(env, platforms[p], pname, type, want_device))
                return CLIPT_SUCCESS;
        }
    }
    snprintf(why, why_len, "no OpenCL device matches CLIPT_PLATFORM=%s CLIPT_DEVICE=%s",
             want_platform ? want_platform : "(any)", want_device ? want_device : "(any)");
    return CLIPT_ERROR_NO_DEVICE;
}

clipt_status clipt_cl_env_open(clipt_cl_env *env, char *why, size_t why_len)
{
    cl_int err;
    clipt_status s = clipt_cl_select(env, why, why_len);
    if (s != CLIPT_SUCCESS)
        return s;
    env->context = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        snprintf(why, why_len, "clCreateContext: %s", clipt_status_string(err));
        env->context = NULL;
        return err;
    }
    env->queue = clCreateCommandQueue(env->context, env->device,
                                      CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        snprintf(why, why_len, "clCreateCommandQueue: %s", clipt_status_string(err));
        clReleaseContext(env->context);
        env->context = NULL;
        env->queue = NULL;
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
