/* clipt_scatter: how fast can a device move blocks between scattered
 * addresses?  The 100!/0100! stages move super-elements of `s` elements to
 * scattered positions; this measures the same traffic without any of
 * clipt's machinery, as a ceiling for those stages.
 *
 *   clipt_scatter [--mib M] [--repeat K] [--word W] [--warp-lanes L] [BLOCK_BYTES ...]
 *
 * For each block size B (default 64 128 256 512 1024 4096), a buffer of M
 * MiB (default 512) is cut into B-byte blocks and block p1[k] of the source
 * is copied to block p2[k] of the destination, for two independent random
 * permutations p1, p2 (read and write both scattered, as in a cycle walk).
 * Work-items move W bytes each (--word 4, 8 or 16; default 16; blocks are
 * multiples of W and lie back to back, so a block of B bytes starts at
 * k * B: with B not a multiple of 32, on partial sectors, as a cycle walk's
 * super-elements of a prime count do); the work-items of one block are
 * adjacent.  --warp-lanes L rounds each block's work-items up to a multiple
 * of L (the spare ones idle), so that no warp of L work-items straddles two
 * blocks: whether straddling, or the partial sectors, cost the walk.
 * --realign moves blocks of any multiple of 4 bytes in 16-byte words of
 * the destination's grid, each loaded as two aligned words of the source
 * and shifted into place (the edge words 4 bytes at a time);
 * --realign-vload the same, but each whole word loaded as one unaligned
 * vload4 of 4-byte words.
 * Also measured in the same run: "sequential" (p1 = p2 = identity, the same
 * kernel) and clEnqueueCopyBuffer.  GB/s = 2 * bytes / time (read + write),
 * the permutation tables' own reads not counted; median of K runs.  The
 * destination is checked against the source for every block size. */
#include "cl_select.h"
#include "cl_timing.h"
#include "random.h"
#include "timing.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPEAT 16

static const char kernel_source[] =
    "__kernel void move_blocks(__global const WORD *src, __global WORD *dst,\n"
    "                          __global const uint *from, __global const uint *to,\n"
    "                          uint lanes, uint slots, ulong blocks)\n"
    "{\n"
    "    const uint work = (uint)blocks * slots;\n"
    "    for (uint t = get_global_id(0); t < work; t += get_global_size(0)) {\n"
    "        const uint k = t / slots;\n"
    "        const uint l = t - k * slots;\n"
    "        if (l < lanes)\n"
    "            dst[(ulong)to[k] * lanes + l] = src[(ulong)from[k] * lanes + l];\n"
    "    }\n"
    "}\n"
    /* --realign: work-item l writes the l-th 16-byte word of the
     * destination's own 16-byte grid, whole words as one aligned store, out
     * of two aligned 16-byte loads of the source shifted into place; the
     * words at the block's ends are moved 4 bytes at a time */
    "__kernel void move_blocks_realign(__global const uint *src, __global uint *dst,\n"
    "                          __global const uint *from, __global const uint *to,\n"
    "                          uint lanes, uint slots, ulong blocks)\n"
    "{\n"
    "    const uint work = (uint)blocks * slots, bytes = lanes * 4;\n"
    "    for (uint t = get_global_id(0); t < work; t += get_global_size(0)) {\n"
    "        const uint k = t / slots;\n"
    "        const uint l = t - k * slots;\n"
    "        const ulong q = (ulong)to[k] * bytes, p = (ulong)from[k] * bytes;\n"
    "        const ulong d = (q & ~15UL) + 16UL * l;\n"
    "        if (d >= q + bytes)\n"
    "            continue;\n"
    "        if (d >= q && d + 16 <= q + bytes) {\n"
    "            const ulong from_byte = d - q + p;\n"
    "#if REALIGN == 2\n"
    "            const uint4 out = vload4(0, src + from_byte / 4);\n"
    "#else\n"
    "            const uint sh = (uint)(from_byte & 15) / 4;\n"
    "            __global const uint4 *w = (__global const uint4 *)src + from_byte / 16;\n"
    "            const uint4 a = w[0];\n"
    "            uint4 out = a;\n"
    "            if (sh) {\n"
    "                const uint8 v = (uint8)(a, w[1]);\n"
    "                out = sh == 1 ? v.s1234 : sh == 2 ? v.s2345 : v.s3456;\n"
    "            }\n"
    "#endif\n"
    "            ((__global uint4 *)dst)[d / 16] = out;\n"
    "        } else {\n"
    "            for (uint e = 0; e < 4; e++) {\n"
    "                const ulong at = d + 4 * e;\n"
    "                if (at >= q && at < q + bytes)\n"
    "                    dst[at / 4] = src[(at - q + p) / 4];\n"
    "            }\n"
    "        }\n"
    "    }\n"
    "}\n";

static void shuffle(unsigned *v, size_t n, uint64_t *seed)
{
    for (size_t i = 0; i < n; i++)
        v[i] = (unsigned)i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(util_splitmix64(seed) % i);
        unsigned t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

typedef struct scatter {
    clipt_cl_env env;
    cl_program program;
    cl_kernel kernel;
    cl_mem src, dst;
    size_t bytes, groups;
    size_t word;       /* bytes a work-item moves */
    size_t warp_lanes; /* a block's work-items rounded up to a multiple of this */
    int realign;       /* --realign: destination-aligned 16-byte words */
    int repeat;
} scatter;

/* 0 on an error */
static double time_copy(scatter *x)
{
    double t[MAX_REPEAT], median = 0;
    if (util_copy_seconds(x->env.queue, x->src, x->dst, x->bytes, (size_t)x->repeat, t,
                          &median) != CL_SUCCESS)
        return 0;
    return 2.0 * (double)x->bytes / median * 1e-9;
}

/* GB/s of moving blocks from[k] -> to[k]; 0 on an error or a wrong result. */
static double time_moves(scatter *x, size_t block, const unsigned *from, const unsigned *to,
                         const unsigned *host_src, unsigned *host_dst)
{
    const size_t blocks = x->bytes / block;
    /* realign: 4-byte words per block, and its 16-byte grid words */
    const cl_uint lanes = (cl_uint)(block / (x->realign ? 4 : x->word));
    const size_t items = x->realign ? block / 16 + 2 : lanes;
    const cl_uint slots = (cl_uint)((items + x->warp_lanes - 1) / x->warp_lanes * x->warp_lanes);
    const cl_ulong nblocks = blocks;
    double t[MAX_REPEAT], gbs = 0;
    cl_int err;
    cl_mem from_buf = clCreateBuffer(x->env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                     blocks * 4, (void *)(uintptr_t)from, &err);
    cl_mem to_buf = err ? NULL
                        : clCreateBuffer(x->env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                         blocks * 4, (void *)(uintptr_t)to, &err);
    size_t local = 256, global = x->groups * local;
    if (err || clSetKernelArg(x->kernel, 0, sizeof x->src, &x->src) ||
        clSetKernelArg(x->kernel, 1, sizeof x->dst, &x->dst) ||
        clSetKernelArg(x->kernel, 2, sizeof from_buf, &from_buf) ||
        clSetKernelArg(x->kernel, 3, sizeof to_buf, &to_buf) ||
        clSetKernelArg(x->kernel, 4, sizeof lanes, &lanes) ||
        clSetKernelArg(x->kernel, 5, sizeof slots, &slots) ||
        clSetKernelArg(x->kernel, 6, sizeof nblocks, &nblocks))
        goto done;
    for (int r = 0; r < x->repeat; r++) {
        cl_event e = NULL;
        if (clEnqueueNDRangeKernel(x->env.queue, x->kernel, 1, NULL, &global, &local, 0, NULL,
                                   &e) ||
            clWaitForEvents(1, &e) || util_event_seconds(e, &t[r])) {
            if (e)
                clReleaseEvent(e);
            goto done;
        }
        clReleaseEvent(e);
    }
    if (clEnqueueReadBuffer(x->env.queue, x->dst, CL_TRUE, 0, x->bytes, host_dst, 0, NULL, NULL))
        goto done;
    for (size_t k = 0; k < blocks; k++)
        if (memcmp(host_dst + (size_t)to[k] * (block / 4), host_src + (size_t)from[k] * (block / 4),
                   block)) {
            fprintf(stderr, "clipt_scatter: wrong result for %zu-byte blocks\n", block);
            goto done;
        }
    gbs = 2.0 * (double)x->bytes / util_median(t, (size_t)x->repeat) * 1e-9;
done:
    if (from_buf)
        clReleaseMemObject(from_buf);
    if (to_buf)
        clReleaseMemObject(to_buf);
    return gbs;
}

static int setup(scatter *x, const unsigned *host_src)
{
    char why[512];
    cl_int err;
    const char *text = kernel_source;
    char options[64];
    snprintf(options, sizeof options, "-DWORD=%s -DREALIGN=%d",
             x->word == 4 ? "uint" : x->word == 8 ? "uint2" : "uint4", x->realign);
    cl_uint units = 1;
    if (clipt_cl_env_open(&x->env, why, sizeof why) != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_scatter: %s\n", why);
        return 0;
    }
    clGetDeviceInfo(x->env.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    x->groups = (size_t)units * 8;
    x->program = clCreateProgramWithSource(x->env.context, 1, &text, NULL, &err);
    if (err || clBuildProgram(x->program, 1, &x->env.device, options, NULL, NULL))
        return 0;
    x->kernel = clCreateKernel(x->program, x->realign ? "move_blocks_realign" : "move_blocks", &err);
    if (err)
        return 0;
    x->src = clCreateBuffer(x->env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, x->bytes,
                            (void *)(uintptr_t)host_src, &err);
    if (err)
        return 0;
    x->dst = clCreateBuffer(x->env.context, CL_MEM_READ_WRITE, x->bytes, NULL, &err);
    return err == CL_SUCCESS;
}

int main(int argc, char **argv)
{
    scatter x = {0};
    size_t sizes[16] = {64, 128, 256, 512, 1024, 4096}, nsizes = 6, mib = 512;
    size_t given = 0;
    unsigned *host_src = NULL, *host_dst = NULL, *p1 = NULL, *p2 = NULL, *ident = NULL;
    uint64_t seed = 1;
    int status = 1;
    x.repeat = 5;
    x.word = 16;
    x.warp_lanes = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mib") && i + 1 < argc)
            mib = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            x.repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--word") && i + 1 < argc)
            x.word = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--realign"))
            x.realign = 1;
        else if (!strcmp(argv[i], "--realign-vload"))
            x.realign = 2;
        else if (!strcmp(argv[i], "--warp-lanes") && i + 1 < argc)
            x.warp_lanes = strtoul(argv[++i], NULL, 10);
        else if (given < 16 && strtoul(argv[i], NULL, 10) >= 4)
            sizes[given++] = strtoul(argv[i], NULL, 10);
        else
            goto usage;
    }
    if ((x.word != 4 && x.word != 8 && x.word != 16) || x.warp_lanes < 1 || x.warp_lanes > 1024)
        goto usage;
    for (size_t i = 0; i < given; i++)
        if (sizes[i] % (x.realign ? 4 : x.word))
            goto usage;
    if (given)
        nsizes = given;
    if (x.repeat < 1 || x.repeat > MAX_REPEAT || mib < 1)
        goto usage;
    x.bytes = mib << 20;
    host_src = malloc(x.bytes);
    host_dst = malloc(x.bytes);
    p1 = malloc(x.bytes / 4 * sizeof *p1);
    p2 = malloc(x.bytes / 4 * sizeof *p2);
    ident = malloc(x.bytes / 4 * sizeof *ident);
    if (!host_src || !host_dst || !p1 || !p2 || !ident)
        goto done;
    for (size_t i = 0; i < x.bytes / 4; i++)
        host_src[i] = (unsigned)(i * 2654435761u);
    if (!setup(&x, host_src)) {
        fprintf(stderr, "clipt_scatter: OpenCL setup failed\n");
        goto done;
    }
    printf("device: %s (%s)\n", x.env.device_name, x.env.platform_name);
    printf("%zu MiB, median of %d runs, %s, blocks' work-items rounded to %zu; "
           "GB/s = 2 * bytes / time\n", mib, x.repeat,
           x.realign ? "16-byte words of the destination's grid" : "words as given", x.warp_lanes);
    printf("copy buffer: %.1f GB/s\n", time_copy(&x));
    printf("%8s %14s %14s %10s\n", "block B", "sequential", "scattered", "scattered/copy");
    for (size_t i = 0; i < nsizes; i++) {
        const size_t blocks = x.bytes / sizes[i];
        double copy = time_copy(&x), seq, scat;
        for (size_t k = 0; k < blocks; k++)
            ident[k] = (unsigned)k;
        shuffle(p1, blocks, &seed);
        shuffle(p2, blocks, &seed);
        seq = time_moves(&x, sizes[i], ident, ident, host_src, host_dst);
        scat = time_moves(&x, sizes[i], p1, p2, host_src, host_dst);
        if (seq <= 0 || scat <= 0 || copy <= 0)
            goto done;
        printf("%8zu %9.1f GB/s %9.1f GB/s %9.1f %%\n", sizes[i], seq, scat, 100 * scat / copy);
    }
    status = 0;
done:
    if (x.kernel)
        clReleaseKernel(x.kernel);
    if (x.program)
        clReleaseProgram(x.program);
    if (x.src)
        clReleaseMemObject(x.src);
    if (x.dst)
        clReleaseMemObject(x.dst);
    if (x.env.context)
        clipt_cl_env_close(&x.env);
    free(host_src);
    free(host_dst);
    free(p1);
    free(p2);
    free(ident);
    return status;
usage:
    fprintf(stderr, "usage: clipt_scatter [--mib M] [--repeat K] [--word 4|8|16] [--realign] "
                    "[--warp-lanes L] [BLOCK_BYTES ...] (blocks: multiples of the word, "
                    "of 4 with --realign)\n");
    return 2;
}
