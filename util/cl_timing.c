#include "cl_timing.h"
#include "timing.h"

cl_int util_event_seconds(cl_event e, double *seconds)
{
    cl_ulong t0 = 0, t1 = 0;
    cl_int err = clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    if (err == CL_SUCCESS)
        *seconds = 1e-9 * (double)(t1 - t0);
    return err;
}

cl_int util_copy_seconds(cl_command_queue q, cl_mem src, cl_mem dst, size_t bytes,
                         size_t repeat, double *times, double *median)
{
    for (size_t k = 0; k < repeat; k++) {
        cl_event e = NULL;
        cl_int err = clEnqueueCopyBuffer(q, src, dst, 0, 0, bytes, 0, NULL, &e);
        if (err == CL_SUCCESS)
            err = clWaitForEvents(1, &e);
        if (err == CL_SUCCESS)
            err = util_event_seconds(e, &times[k]);
        if (e)
            clReleaseEvent(e);
        if (err != CL_SUCCESS)
            return err;
    }
    *median = util_median(times, repeat);
    return CL_SUCCESS;
}
