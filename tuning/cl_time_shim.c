/* cl_time_shim: an LD_PRELOAD library that times every call the library
 * makes into a handful of OpenCL entry points (host clock, time spent inside
 * the runtime) and prints per-function totals to stderr at exit.  Used to
 * split clipt's host overhead (plan creation, enqueue, release) between the
 * OpenCL runtime and clipt's own work (issue 13):
 *
 *   LD_PRELOAD=build/tuning/libclipt_cl_time_shim.so \
 *       build/tuning/clipt_plan_time --cycle --repeat 9 SHAPES
 *
 * Only the wrapped functions below are counted; the real ones are found
 * with dlsym(RTLD_NEXT).  CL_TIME_SHIM_TRACE=1 also prints every call that
 * took longer than 20 us, as it returns (with the kernel's name for
 * clEnqueueNDRangeKernel): which launch of a plan blocks, and for how long.  Not thread-safe (the counters are plain): time
 * single-threaded programs only. */
#define _GNU_SOURCE
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum {
#define ENTRY(name) I_##name,
#include "cl_time_shim.inc"
#undef ENTRY
    ENTRIES
};
static const char *const entry_name[ENTRIES] = {
#define ENTRY(name) #name,
#include "cl_time_shim.inc"
#undef ENTRY
};
static double entry_seconds[ENTRIES];
static unsigned long entry_calls[ENTRIES];

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int tracing = -1;

/* Prints one slow call when tracing; `kernel` names the launched kernel. */
static void trace(const char *name, double seconds, cl_kernel kernel)
{
    char kname[128] = "";
    if (tracing < 0)
        tracing = getenv("CL_TIME_SHIM_TRACE") != NULL;
    if (!tracing || seconds < 20e-6)
        return;
    if (kernel)
        clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof kname - 1, kname, NULL);
    fprintf(stderr, "cl_time_shim trace: %s %s %.1f us\n", name, kname, seconds * 1e6);
}

static cl_kernel no_kernel(void) { return NULL; }

/* Defines `name` with the given prototype: finds the real one once, calls
 * it, adds the time spent to the entry's total. */
#define WRAP_K(ret, name, params, args, kernel)                          \
    ret name params                                                     \
    {                                                                   \
        static ret(*real) params;                                       \
        if (!real)                                                      \
            *(void **)&real = dlsym(RTLD_NEXT, #name);                  \
        const double t0 = now();                                        \
        ret got = real args;                                            \
        entry_seconds[I_##name] += now() - t0;                          \
        entry_calls[I_##name]++;                                        \
        trace(#name, now() - t0, kernel);                               \
        return got;                                                     \
    }
#define WRAP(ret, name, params, args) WRAP_K(ret, name, params, args, no_kernel())

WRAP(cl_mem, clCreateBuffer, (cl_context c, cl_mem_flags f, size_t n, void *h, cl_int *e),
     (c, f, n, h, e))
WRAP(cl_kernel, clCreateKernel, (cl_program p, const char *k, cl_int *e), (p, k, e))
WRAP(cl_int, clSetKernelArg, (cl_kernel k, cl_uint i, size_t n, const void *v), (k, i, n, v))
WRAP_K(cl_int, clEnqueueNDRangeKernel,
       (cl_command_queue q, cl_kernel k, cl_uint d, const size_t *o, const size_t *g,
        const size_t *l, cl_uint n, const cl_event *w, cl_event *e),
       (q, k, d, o, g, l, n, w, e), k)
WRAP(cl_int, clEnqueueFillBuffer,
     (cl_command_queue q, cl_mem b, const void *p, size_t ps, size_t o, size_t n, cl_uint nw,
      const cl_event *w, cl_event *e),
     (q, b, p, ps, o, n, nw, w, e))
WRAP(cl_int, clEnqueueWriteBuffer,
     (cl_command_queue q, cl_mem b, cl_bool bl, size_t o, size_t n, const void *p, cl_uint nw,
      const cl_event *w, cl_event *e),
     (q, b, bl, o, n, p, nw, w, e))
WRAP(cl_int, clEnqueueMarkerWithWaitList,
     (cl_command_queue q, cl_uint n, const cl_event *w, cl_event *e), (q, n, w, e))
WRAP(cl_int, clFinish, (cl_command_queue q), (q))
WRAP(cl_int, clReleaseMemObject, (cl_mem m), (m))
WRAP(cl_int, clReleaseKernel, (cl_kernel k), (k))
WRAP(cl_int, clReleaseEvent, (cl_event e), (e))
WRAP(cl_int, clRetainEvent, (cl_event e), (e))
WRAP(cl_int, clGetDeviceInfo, (cl_device_id d, cl_device_info i, size_t n, void *v, size_t *r),
     (d, i, n, v, r))
WRAP(cl_int, clGetKernelWorkGroupInfo,
     (cl_kernel k, cl_device_id d, cl_kernel_work_group_info i, size_t n, void *v, size_t *r),
     (k, d, i, n, v, r))
WRAP(cl_int, clGetMemObjectInfo, (cl_mem m, cl_mem_info i, size_t n, void *v, size_t *r),
     (m, i, n, v, r))
WRAP(cl_int, clGetEventInfo, (cl_event e, cl_event_info i, size_t n, void *v, size_t *r),
     (e, i, n, v, r))
WRAP(cl_int, clGetEventProfilingInfo,
     (cl_event e, cl_profiling_info i, size_t n, void *v, size_t *r), (e, i, n, v, r))
WRAP(cl_int, clGetCommandQueueInfo,
     (cl_command_queue q, cl_command_queue_info i, size_t n, void *v, size_t *r),
     (q, i, n, v, r))

__attribute__((destructor)) static void report(void)
{
    fprintf(stderr, "cl_time_shim: function, calls, total ms, us per call\n");
    for (int i = 0; i < ENTRIES; i++)
        if (entry_calls[i] > 0)
            fprintf(stderr, "cl_time_shim: %s, %lu, %.3f, %.2f\n", entry_name[i], entry_calls[i],
                    entry_seconds[i] * 1e3, entry_seconds[i] * 1e6 / (double)entry_calls[i]);
}
