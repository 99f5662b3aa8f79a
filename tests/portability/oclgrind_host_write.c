/* Oclgrind 21.10's fault behind the host-written segment tables' reports
 * (docs/portability.md, "Oclgrind"): after clEnqueueWriteBuffer of n bytes
 * at offset 0, what a kernel then writes past byte n counts as
 * uninitialised for the next kernel, though every byte read was written.
 * Not a test (nothing of the library runs); the evidence, kept to rerun
 * on a newer Oclgrind:
 *
 *     cc -o /tmp/ohw tests/portability/oclgrind_host_write.c -lOpenCL
 *     oclgrind --uninitialized /tmp/ohw
 *
 * 21.10 prints no report in steps 1-3 and one report per word 4-15 in
 * step 4 ("Uninitialized value written" by `get`); a correct simulator
 * prints none. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

static const char *src =
    "__kernel void put(__global uint *b, uint v) { b[get_global_id(0)] = v; }\n"
    "__kernel void get(__global const uint *b, __global uint *out)\n"
    "{ out[get_global_id(0)] = b[get_global_id(0)] + 1; }\n";

static cl_command_queue q;
static cl_kernel kput, kget;

/* put(b, v) or get(b, out) on `words` work-items, to completion. */
static void run(cl_kernel k, cl_mem b, size_t words, cl_mem out, cl_uint v)
{
    clSetKernelArg(k, 0, sizeof b, &b);
    if (k == kput)
        clSetKernelArg(k, 1, sizeof v, &v);
    else
        clSetKernelArg(k, 1, sizeof out, &out);
    clEnqueueNDRangeKernel(q, k, 1, NULL, &words, NULL, 0, NULL, NULL);
    clFinish(q);
}

int main(void)
{
    static cl_uint zero[16];
    cl_platform_id p;
    cl_device_id d;
    cl_int err;
    if (clGetPlatformIDs(1, &p, NULL) || clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL))
        return 1;
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    q = clCreateCommandQueue(ctx, d, 0, &err);
    cl_program pr = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (clBuildProgram(pr, 1, &d, "", NULL, NULL) != CL_SUCCESS)
        return 1;
    kput = clCreateKernel(pr, "put", &err);
    kget = clCreateKernel(pr, "get", &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    fprintf(stderr, "step 1: put writes words 0-15, get reads them\n");
    run(kput, b, 16, NULL, 1);
    run(kget, b, 16, out, 0);
    fprintf(stderr, "step 2: the host writes words 0-3, get reads them\n");
    clEnqueueWriteBuffer(q, b, CL_TRUE, 0, 16, zero, 0, NULL, NULL);
    run(kget, b, 4, out, 0);
    fprintf(stderr, "step 3: put writes words 0-3 (within the host write), get reads them\n");
    run(kput, b, 4, NULL, 2);
    run(kget, b, 4, out, 0);
    fprintf(stderr, "step 4: put writes words 0-15, get reads them\n");
    run(kput, b, 16, NULL, 3);
    run(kget, b, 16, out, 0);
    fprintf(stderr, "end\n");
    clReleaseMemObject(out);
    clReleaseMemObject(b);
    clReleaseKernel(kget);
    clReleaseKernel(kput);
    clReleaseProgram(pr);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
