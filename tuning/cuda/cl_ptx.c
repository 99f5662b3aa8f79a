/*
 * Builds one kernel file with the first GPU's OpenCL and writes the
 * program binary that the runtime returns (PTX on NVIDIA's platform), so
 * that tuning/cuda/c2r_prof.cu can run and Nsight Compute profile exactly
 * what clipt runs.  A measuring tool for tuning/gpu_c2r_ncu.sh.
 *
 * Usage: cl_ptx FILE.cl "OPTIONS" OUT   (OPTIONS as clipt passes them,
 *        plus -I for the kernel directory)
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)n + 1)) && fread(text, 1, (size_t)n, f) == (size_t)n)
        text[n] = 0;
    else {
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

int main(int argc, char **argv)
{
    cl_platform_id platforms[8];
    cl_uint np = 0;
    cl_device_id dev = NULL;
    cl_context ctx = NULL;
    cl_program prog = NULL;
    cl_int err = CL_SUCCESS;
    size_t size = 0;
    unsigned char *binary = NULL;
    char *source;
    const char *text;
    int status = 1;
    FILE *out;
    if (argc != 4) {
        fprintf(stderr, "usage: %s FILE.cl OPTIONS OUT\n", argv[0]);
        return 2;
    }
    if (!(source = read_file(argv[1]))) {
        perror(argv[1]);
        return 2;
    }
    if (clGetPlatformIDs(8, platforms, &np) != CL_SUCCESS)
        goto done;
    for (cl_uint i = 0; i < np && !dev; i++)
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    if (!dev) {
        fprintf(stderr, "no OpenCL GPU\n");
        goto done;
    }
    if (!(ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err)))
        goto done;
    text = source;
    if (!(prog = clCreateProgramWithSource(ctx, 1, &text, NULL, &err)))
        goto done;
    if ((err = clBuildProgram(prog, 1, &dev, argv[2], NULL, NULL)) != CL_SUCCESS) {
        char log[65536] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        fprintf(stderr, "build failed (%d):\n%s\n", err, log);
        goto done;
    }
    if ((err = clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL)) ||
        !(binary = malloc(size ? size : 1)) ||
        (err = clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL)))
        goto done;
    if (!(out = fopen(argv[3], "wb")) || fwrite(binary, 1, size, out) != size || fclose(out)) {
        perror(argv[3]);
        goto done;
    }
    printf("%s: %zu bytes\n", argv[3], size);
    status = 0;
done:
    if (status && err != CL_SUCCESS)
        fprintf(stderr, "OpenCL error %d\n", err);
    free(binary);
    free(source);
    if (prog)
        clReleaseProgram(prog);
    if (ctx)
        clReleaseContext(ctx);
    return status;
}
