/* Every kernel family on small shapes, for the Oclgrind simulator: run by
 * tests/oclgrind_check.cmake under `oclgrind --data-races --uninitialized
 * --check-api`, which fails the test on any report that
 * tests/oclgrind.supp does not explain.  Each case is also checked
 * bit-exact against the CPU reference, so a case that stops moving data
 * (and so stops racing) fails too.
 *
 * Adding a kernel: add its stages to stage_cases[] (family, spec, element
 * size, tuning changes) or its plans to plan_cases[] (C2R: c2r_cases[]); its kernels must
 * number work-groups with clipt_group_id()/clipt_global_id()
 * (cl/clipt_kernel.h), which the check verifies, so that the reversed run
 * (-DCLIPT_GROUP_ORDER=1) really reverses them. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "support.h"
#include "internal.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Two stand-ins for runtime calls, which the statically linked library
 * calls instead of the runtime's, for faults of Oclgrind 21.10's
 * uninitialised-value tracking (tests/oclgrind_check.cmake runs that check
 * on this program; docs/portability.md has the details):
 *   - it counts what clEnqueueFillBuffer writes as uninitialised, so every
 *     flag a kernel read after the library zeroed its scratch buffer was
 *     reported; and after a host write (clEnqueueWriteBuffer) into a
 *     buffer, what kernels then write there counts as uninitialised for
 *     the kernels after them.  The fill is made by a kernel instead;
 *   - in a buffer created without data, what one kernel writes could still
 *     count as uninitialised for the next (the saved cycle heads of the
 *     second plan a context made, whose results were exact): such buffers
 *     are created holding 0xA5 bytes, so that a kernel that really reads
 *     what nobody wrote gets 0xA5s and fails the bit-exact check instead. */
static const char *fill_source =
    "__kernel void clipt_test_fill(__global uchar *buf, ulong offset,\n"
    "                              __global const uchar *pattern, uint size)\n"
    "{ buf[offset + get_global_id(0)] = pattern[get_global_id(0) % size]; }\n";

/* The fill kernel of q's context (one context at a time: the tests' own). */
static cl_kernel fill_kernel(cl_command_queue q, cl_context *ctx_out)
{
    static cl_context ctx;
    static cl_kernel kernel;
    cl_context now = NULL;
    cl_device_id dev = NULL;
    cl_program prog;
    cl_int err;
    if (clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof now, &now, NULL) != CL_SUCCESS ||
        clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) != CL_SUCCESS)
        return NULL;
    *ctx_out = now;
    if (kernel && ctx == now)
        return kernel;
    if (kernel)
        clReleaseKernel(kernel);
    kernel = NULL;
    prog = clCreateProgramWithSource(now, 1, &fill_source, NULL, &err);
    if (err == CL_SUCCESS && clBuildProgram(prog, 1, &dev, "", NULL, NULL) == CL_SUCCESS)
        kernel = clCreateKernel(prog, "clipt_test_fill", &err);
    if (prog)
        clReleaseProgram(prog); /* the kernel keeps it */
    ctx = now;
    return kernel;
}

static cl_mem create_buffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host,
                            cl_int *err);

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem buf,
                                                    const void *pattern, size_t pattern_size,
                                                    size_t offset, size_t size,
                                                    cl_uint num_wait, const cl_event *wait,
                                                    cl_event *event)
{
    cl_context ctx = NULL;
    cl_kernel k = fill_kernel(q, &ctx);
    cl_mem pat = NULL;
    cl_ulong at = offset;
    cl_uint psize = (cl_uint)pattern_size;
    cl_event done = NULL;
    cl_int err;
    if (!pattern || pattern_size == 0 || size % pattern_size)
        return CL_INVALID_VALUE;
    if (!k)
        return CL_OUT_OF_RESOURCES;
    pat = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, pattern_size,
                        (void *)(uintptr_t)pattern, &err);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 0, sizeof buf, &buf);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 1, sizeof at, &at);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 2, sizeof pat, &pat);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 3, sizeof psize, &psize);
    if (err == CL_SUCCESS && size > 0)
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &size, NULL, num_wait, wait, &done);
    else if (err == CL_SUCCESS)
        err = clEnqueueMarkerWithWaitList(q, num_wait, wait, &done);
    if (err == CL_SUCCESS)
        err = clWaitForEvents(1, &done); /* then the pattern may go */
    if (err == CL_SUCCESS && event) {
        *event = done;
        done = NULL;
    }
    if (done)
        clReleaseEvent(done);
    if (pat)
        clReleaseMemObject(pat);
    return err;
}

/* The runtime's clCreateBuffer, which the stand-in below hides. */
static cl_mem create_buffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host,
                            cl_int *err)
{
    static cl_mem (*real)(cl_context, cl_mem_flags, size_t, void *, cl_int *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "clCreateBuffer");
    return real(ctx, flags, size, host, err);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context ctx, cl_mem_flags flags,
                                               size_t size, void *host, cl_int *err)
{
    unsigned char *junk;
    cl_mem made;
    if (host || (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR)) || size == 0)
        return create_buffer(ctx, flags, size, host, err);
    junk = malloc(size);
    if (!junk) {
        if (err)
            *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    memset(junk, 0xA5, size);
    made = create_buffer(ctx, flags | CL_MEM_COPY_HOST_PTR, size, junk, err);
    free(junk);
    return made;
}

#define TILES CLIPT_OP_TRANSPOSE_TILES
#define SUPER CLIPT_OP_MOVE_SUPER

/* A stage computed by one family: spec (op, instances, a, b, s, sa, sb),
 * element size, and tuning values that differ from the context's (0 or
 * left out = keep); wide = 1 builds the 64-bit index variants
 * (SMALL_INDEX=0); loops = 1 the CPU kernels (kernel_style 2), else the
 * GPU ones (kernel_style 1, whatever device type the simulator reports). */
typedef struct tweaks {
    unsigned wg_010, wg_100, simd_100, spread, pad, unroll, item_bytes;
    int wide, loops;
    int words; /* at offsets of whole 16 bytes: widened stages run, and
                  the packed tiles' words with no element alone */
} tweaks;

typedef struct stage_case {
    clipt_kernel_family family;
    clipt_stage_op op;
    uint64_t instances, a, b, s, sa, sb;
    size_t elem;
    tweaks t;
} stage_case;

static const stage_case stage_cases[] = {
    /* 010! staged in local memory: batches of tiles, odd and even b (row
     * pitch b or b + 1), small work-groups looping over a tile */
    {CLIPT_FAMILY_TILE_LOCAL, TILES, 3, 13, 7, 1, 0, 0, 1, {0}},
    {CLIPT_FAMILY_TILE_LOCAL, TILES, 11, 17, 19, 1, 0, 0, 2, {0}},
    {CLIPT_FAMILY_TILE_LOCAL, TILES, 7, 31, 32, 1, 0, 0, 4, {0}},
    {CLIPT_FAMILY_TILE_LOCAL, TILES, 40, 5, 6, 1, 0, 0, 8, {.wg_010 = 32}},
    {CLIPT_FAMILY_TILE_LOCAL, TILES, 2, 9, 9, 1, 0, 0, 16, {.wg_010 = 16}},
    /* PTTWAC: every spreading factor, flag padding on and off */
    {CLIPT_FAMILY_TILE_CYCLES, TILES, 2, 33, 58, 1, 0, 0, 1, {.wg_010 = 64, .spread = 1}},
    {CLIPT_FAMILY_TILE_CYCLES, TILES, 2, 34, 57, 1, 0, 0, 2, {.wg_010 = 32, .spread = 2, .pad = 1}},
    {CLIPT_FAMILY_TILE_CYCLES, TILES, 2, 35, 56, 1, 0, 0, 4, {.wg_010 = 64, .spread = 4, .pad = 3}},
    {CLIPT_FAMILY_TILE_CYCLES, TILES, 3, 17, 19, 1, 0, 0, 8, {.wg_010 = 16, .spread = 8, .pad = 1}},
    {CLIPT_FAMILY_TILE_CYCLES, TILES, 2, 37, 40, 1, 0, 0, 16, {.wg_010 = 64, .spread = 16}},
    {CLIPT_FAMILY_TILE_CYCLES, TILES, 2, 13, 29, 1, 0, 0, 4, {.wg_010 = 1, .spread = 32, .pad = 2}},
    /* workers through local memory: one- and multi-item workers, fused
     * super-elements (1000!+0010!) */
    {CLIPT_FAMILY_SUPER_LOCAL, SUPER, 1, 5, 7, 3, 0, 0, 1, {.wg_100 = 64, .simd_100 = 4}},
    {CLIPT_FAMILY_SUPER_LOCAL, SUPER, 4, 9, 7, 24, 0, 0, 4, {.wg_100 = 64, .simd_100 = 32}},
    {CLIPT_FAMILY_SUPER_LOCAL, SUPER, 2, 27, 40, 2, 0, 0, 16, {.wg_100 = 4, .simd_100 = 1}},
    {CLIPT_FAMILY_SUPER_LOCAL, SUPER, 1, 5, 7, 6, 2, 3, 2, {.wg_100 = 32, .simd_100 = 8}},
    {CLIPT_FAMILY_SUPER_LOCAL, SUPER, 3, 6, 2, 24, 4, 6, 8, {0}},
    {CLIPT_FAMILY_SUPER_LOCAL, SUPER, 1, 7, 5, 35, 5, 7, 16, {0}},
    /* independent slices, flags in global memory */
    {CLIPT_FAMILY_SUPER_SLICES, SUPER, 1, 5, 7, 24, 0, 0, 4, {0}},
    {CLIPT_FAMILY_SUPER_SLICES, SUPER, 3, 27, 40, 1, 0, 0, 1, {0}},
    {CLIPT_FAMILY_SUPER_SLICES, SUPER, 2, 9, 7, 6, 0, 0, 16, {0}},
    {CLIPT_FAMILY_SUPER_SLICES, SUPER, 1, 8, 3, 100, 0, 0, 1, {0}},
    {CLIPT_FAMILY_SUPER_SLICES, SUPER, 2, 13, 11, 4, 0, 0, 8, {0}},
    {CLIPT_FAMILY_SUPER_SLICES, SUPER, 1, 12, 10, 3, 0, 0, 2, {.wide = 1}},
    {CLIPT_FAMILY_SUPER_SLICES, TILES, 2, 13, 11, 1, 0, 0, 4, {0}},
    /* cycle segments: whole matrix, saved heads, instances, every read-
     * ahead and slice width, 64-bit indices */
    {CLIPT_FAMILY_SUPER_SEGMENTS, SUPER, 1, 60, 42, 1, 0, 0, 4, {0}},
    {CLIPT_FAMILY_SUPER_SEGMENTS, SUPER, 1, 60, 42, 1, 0, 0, 1, {.unroll = 8}},
    {CLIPT_FAMILY_SUPER_SEGMENTS, SUPER, 1, 27, 40, 7, 0, 0, 2, {.unroll = 1}},
    {CLIPT_FAMILY_SUPER_SEGMENTS, SUPER, 6, 10, 7, 6, 0, 0, 8, {0}},
    {CLIPT_FAMILY_SUPER_SEGMENTS, SUPER, 1, 13, 17, 16, 0, 0, 1, {.unroll = 2, .item_bytes = 32}},
    {CLIPT_FAMILY_SUPER_SEGMENTS, SUPER, 2, 11, 9, 5, 0, 0, 16, {.unroll = 4, .wide = 1}},
    {CLIPT_FAMILY_SUPER_SEGMENTS, SUPER, 1, 41, 37, 3, 0, 0, 4, {.unroll = 8, .wide = 1}},
    /* padding and unpadding: many chunks that wait for one another */
    {CLIPT_FAMILY_ROWS, CLIPT_OP_PAD, 17, 41, 1, 1, 41, 48, 1, {.wg_010 = 16}},
    {CLIPT_FAMILY_ROWS, CLIPT_OP_UNPAD, 17, 41, 1, 1, 48, 41, 2, {.wg_010 = 16}},
    {CLIPT_FAMILY_ROWS, CLIPT_OP_PAD, 30, 13, 1, 1, 13, 16, 4, {.wg_010 = 8}},
    {CLIPT_FAMILY_ROWS, CLIPT_OP_UNPAD, 30, 13, 1, 1, 16, 13, 8, {.wg_010 = 8}},
    {CLIPT_FAMILY_ROWS, CLIPT_OP_PAD, 9, 25, 1, 1, 25, 32, 16, {.wg_010 = 4, .wide = 1}},
    {CLIPT_FAMILY_ROWS, CLIPT_OP_UNPAD, 9, 25, 1, 1, 32, 25, 4, {.wg_010 = 4, .wide = 1}},
    {CLIPT_FAMILY_ROWS, CLIPT_OP_PAD, 1, 5, 1, 1, 5, 8, 4, {0}},
    /* the CPU kernels (kernel_style loops): tiles in batches, segment
     * walks with saved heads and whole cycles, padding with rows that
     * overlap their own sources and rows that do not, every element size */
    {CLIPT_FAMILY_TILE_LOCAL, TILES, 3, 13, 7, 1, 0, 0, 1, {.loops = 1}},
    {CLIPT_FAMILY_TILE_LOCAL, TILES, 40, 5, 6, 1, 0, 0, 8, {.loops = 1}},
    {CLIPT_FAMILY_TILE_LOCAL, TILES, 2, 37, 19, 1, 0, 0, 16, {.loops = 1}},
    {CLIPT_FAMILY_SUPER_SEGMENTS, SUPER, 1, 60, 42, 1, 0, 0, 4, {.loops = 1}},
    {CLIPT_FAMILY_SUPER_SEGMENTS, SUPER, 6, 10, 7, 6, 0, 0, 2, {.loops = 1}},
    {CLIPT_FAMILY_SUPER_SEGMENTS, SUPER, 2, 11, 9, 5, 0, 0, 16, {.loops = 1, .wide = 1}},
    {CLIPT_FAMILY_ROWS, CLIPT_OP_PAD, 17, 41, 1, 1, 41, 48, 1, {.loops = 1}},
    {CLIPT_FAMILY_ROWS, CLIPT_OP_UNPAD, 17, 41, 1, 1, 48, 41, 2, {.loops = 1}},
    {CLIPT_FAMILY_ROWS, CLIPT_OP_PAD, 9, 25, 1, 1, 25, 32, 8, {.loops = 1, .wide = 1}},
    {CLIPT_FAMILY_ROWS, CLIPT_OP_UNPAD, 9, 25, 1, 1, 32, 25, 4, {.loops = 1}},
    /* wider words: 1- and 2-byte tiles read and written as packed 32-bit
     * words (PACK; aligned, and at an odd offset with a head and a tail
     * moved alone), super-elements and rows moved as 16-, 8- and 4-byte
     * words (stage-level widening) */
    {CLIPT_FAMILY_TILE_LOCAL, TILES, 50, 8, 8, 1, 0, 0, 1, {.words = 1}},
    {CLIPT_FAMILY_TILE_LOCAL, TILES, 13, 5, 7, 1, 0, 0, 1, {.wg_010 = 32}},
    {CLIPT_FAMILY_TILE_LOCAL, TILES, 31, 6, 9, 1, 0, 0, 2, {.wg_010 = 16, .words = 1}},
    /* 1-byte quads (QUAD): rows of 5 words, rotated by up to 3, loaded 4
     * bytes at a time; rows of 6 words loaded 8 at a time */
    {CLIPT_FAMILY_TILE_LOCAL, TILES, 3, 32, 20, 1, 0, 0, 1, {.wg_010 = 16, .words = 1}},
    {CLIPT_FAMILY_TILE_LOCAL, TILES, 2, 36, 24, 1, 0, 0, 1, {.wg_010 = 32, .words = 1}},
    {CLIPT_FAMILY_SUPER_SEGMENTS, SUPER, 1, 13, 17, 32, 0, 0, 1, {.words = 1}},
    {CLIPT_FAMILY_SUPER_SEGMENTS, SUPER, 2, 9, 7, 6, 0, 0, 2, {.words = 1}},
    {CLIPT_FAMILY_SUPER_SLICES, SUPER, 1, 8, 3, 64, 0, 0, 1, {.words = 1}},
    {CLIPT_FAMILY_ROWS, CLIPT_OP_PAD, 9, 32, 1, 1, 32, 48, 1, {.wg_010 = 8, .words = 1}},
    {CLIPT_FAMILY_ROWS, CLIPT_OP_UNPAD, 9, 32, 1, 1, 48, 32, 2, {.wg_010 = 8, .words = 1}},
};

/* Whole plans: every sequence, forced tiles, padding and none. */
typedef struct plan_case {
    size_t rows, cols, elem;
    clipt_sequence sequence;
    size_t tile_m, tile_n;
    clipt_padding padding;
    int loops; /* the CPU kernels (kernel_style 2), else the GPU ones */
} plan_case;

static const plan_case plan_cases[] = {
    {60, 42, 4, CLIPT_SEQUENCE_1, 0, 0, CLIPT_PADDING_AUTO, 0},
    {60, 42, 1, CLIPT_SEQUENCE_2_1, 6, 7, CLIPT_PADDING_AUTO, 0},
    {60, 42, 2, CLIPT_SEQUENCE_2_2, 6, 7, CLIPT_PADDING_AUTO, 0},
    {60, 42, 8, CLIPT_SEQUENCE_3_1, 6, 7, CLIPT_PADDING_AUTO, 0},
    {60, 42, 16, CLIPT_SEQUENCE_3_2, 6, 7, CLIPT_PADDING_AUTO, 0},
    {60, 42, 4, CLIPT_SEQUENCE_4_1, 6, 7, CLIPT_PADDING_AUTO, 0},
    {60, 42, 2, CLIPT_SEQUENCE_4_2, 6, 7, CLIPT_PADDING_AUTO, 0},
    {60, 42, 1, CLIPT_SEQUENCE_4_3, 6, 7, CLIPT_PADDING_AUTO, 0},
    {97, 101, 4, CLIPT_SEQUENCE_AUTO, 0, 0, CLIPT_PADDING_AUTO, 0},
    {97, 101, 2, CLIPT_SEQUENCE_AUTO, 0, 0, CLIPT_PADDING_NONE, 0},
    {3, 2048, 8, CLIPT_SEQUENCE_AUTO, 0, 0, CLIPT_PADDING_AUTO, 0},
    {1000, 7, 1, CLIPT_SEQUENCE_AUTO, 0, 0, CLIPT_PADDING_AUTO, 0},
    {64, 61, 4, CLIPT_SEQUENCE_3_1, 16, 8, CLIPT_PADDING_AUTO, 1},
    {61, 64, 8, CLIPT_SEQUENCE_3_2, 8, 16, CLIPT_PADDING_AUTO, 1},
    {60, 42, 2, CLIPT_SEQUENCE_2_1, 6, 7, CLIPT_PADDING_AUTO, 1},
    {97, 101, 1, CLIPT_SEQUENCE_AUTO, 0, 0, CLIPT_PADDING_AUTO, 1},
    /* room-less (the padded tail in the plan's buffer: SPLIT=1 kernels),
     * the CPU kernels, then the GPU ones (whose batches and chunks before
     * the split index plainly): padding, tiles, segment walks, unpadding */
    {64, 61, 4, CLIPT_SEQUENCE_3_1, 16, 8, CLIPT_PADDING_SCRATCH, 1},
    {97, 101, 2, CLIPT_SEQUENCE_3_2, 10, 12, CLIPT_PADDING_SCRATCH, 1},
    {64, 61, 4, CLIPT_SEQUENCE_3_1, 16, 8, CLIPT_PADDING_SCRATCH, 0},
    {97, 101, 2, CLIPT_SEQUENCE_3_2, 10, 12, CLIPT_PADDING_SCRATCH, 0},
};

static clipt_tuning tuning_of(const clipt_tuning *base, const tweaks *w)
{
    clipt_tuning t = *base;
    if (w->wg_010) t.wg_010 = w->wg_010;
    if (w->wg_100) t.wg_100 = w->wg_100;
    if (w->simd_100) t.simd_100 = w->simd_100;
    if (w->spread) t.pttwac_spread = w->spread;
    if (w->pad) t.pttwac_pad = w->pad;
    if (w->unroll) t.walk_unroll = w->unroll;
    if (w->item_bytes) t.walk_item_bytes = w->item_bytes;
    t.kernel_style = w->loops ? CLIPT_KERNEL_STYLE_LOOPS : CLIPT_KERNEL_STYLE_GROUPS;
    return t;
}

/* Whether case `index` of kind `kind` ('s' stage, 'p' plan, 'c' C2R plan)
 * runs: the one $CLIPT_OCLGRIND_CASE names ("s5", "p3"), else those of the
 * shard $CLIPT_OCLGRIND_SHARD names ("K/N": every N-th case of each kind,
 * from the K-th, so that N simulator runs share the cases), else all. */
static int selected(char kind, size_t index)
{
    const char *only = getenv("CLIPT_OCLGRIND_CASE");
    const char *shard = getenv("CLIPT_OCLGRIND_SHARD");
    unsigned k, n;
    if (only && *only)
        return only[0] == kind && (size_t)atoi(only + 1) == index;
    if (shard && *shard) {
        if (sscanf(shard, "%u/%u", &k, &n) != 2 || n == 0 || k >= n)
            fail_msg("CLIPT_OCLGRIND_SHARD=%s: expected K/N with K < N", shard);
        return index % n == k;
    }
    return 1;
}

static void test_stage_cases(void **state)
{
    test_env *env = TEST_ENV(state);
    for (size_t i = 0; i < COUNT(stage_cases); i++) {
        const stage_case *c = &stage_cases[i];
        if (!selected('s', i))
            continue;
        const clipt_stage_spec sp = {c->op, "case", c->instances, c->a, c->b,
                                     c->s, c->sa, c->sb, 0};
        const clipt_tuning t = tuning_of(&env->ctx->profile.tuning, &c->t);
        clipt_kernel_family used = CLIPT_FAMILY_AUTO;
        size_t bad = 0;
        clipt_status s;
        printf("stage case %zu begins\n", i);
        fflush(stdout);
        env->ctx->wide_index_from = c->t.wide ? 0 : CLIPT_WIDE_INDEX_FROM;
        s = test_run_stage_as(env, &sp, c->family, c->elem,
                              c->t.words ? i % 5 * 16 / c->elem : i % 5, &t, &bad, &used);
        env->ctx->wide_index_from = CLIPT_WIDE_INDEX_FROM;
        printf("stage case %zu: family %d, %llu x (%llu x %llu) s=%llu, %zu-byte: %s, "
               "%zu bytes wrong\n", i, (int)c->family, (unsigned long long)c->instances,
               (unsigned long long)c->a, (unsigned long long)c->b,
               (unsigned long long)c->s, c->elem, clipt_status_string(s), bad);
        fflush(stdout); /* in order with Oclgrind's reports on stderr */
        if (s != CLIPT_SUCCESS || bad || used != c->family)
            fail_msg("stage case %zu failed", i);
    }
}

static void test_plan_cases(void **state)
{
    test_env *env = TEST_ENV(state);
    for (size_t i = 0; i < COUNT(plan_cases); i++) {
        const plan_case *c = &plan_cases[i];
        if (!selected('p', i))
            continue;
        clipt_plan_options o;
        char text[4096];
        size_t bad = 0;
        clipt_status s;
        printf("plan case %zu begins\n", i);
        fflush(stdout);
        clipt_plan_options_init(&o);
        o.sequence = c->sequence;
        o.tile_m = c->tile_m;
        o.tile_n = c->tile_n;
        o.padding = c->padding;
        o.kernel_style = c->loops ? CLIPT_KERNEL_STYLE_LOOPS : CLIPT_KERNEL_STYLE_GROUPS;
        /* odd offsets (the unwidened twin) and 16 bytes (widened stages) */
        s = test_run_transpose(env, c->rows, c->cols, c->elem, i % 2 ? 16 : 3 * c->elem, &o,
                               &bad, text, sizeof text);
        printf("plan case %zu: %zu x %zu, %zu-byte: %s, %zu bytes wrong\n%s", i, c->rows,
               c->cols, c->elem, clipt_status_string(s), bad,
               s == CLIPT_SUCCESS ? text : "");
        fflush(stdout);
        if (s != CLIPT_SUCCESS || bad)
            fail_msg("plan case %zu failed", i);
    }
}

/* C2R plans (rows, cols, elem, kernel style, R2C, split): a rotation (gcd 6,
 * streamed), coprime sides (two passes), a row too long for local memory
 * (its rest in registers) and column blocks too tall for it (through
 * global scratch); the device's kernel style (0), then the GPU style (1: 8
 * or 4 elements a work-item step) on the streamed rotation, a row whose
 * rest fits the registers (12007 > 8192 in Oclgrind's 32 KiB), one whose
 * rest does not (through scratch) and the column blocks; then R2C (its
 * passes on the transposed view: the unrotation streamed from the bottom,
 * a long row, tall column blocks, a row's rest in registers); the last
 * three force the split column shuffle (a reflection and a row walk) with
 * CLIPT_C2R_COLUMNS=split (the last field): C2R, R2C (64 rows: a fixed
 * point among each even column's pairs), and gcd > 1 in the GPU style;
 * then 1- and 2-byte rows in 32-bit words (C2R_PACK) in the GPU style, the
 * index stepped (coprime) and divided (R2C, gcd 6), 1-byte columns
 * reflected two to a work-item (C2R_REFLECT_COLS), and 16-byte columns
 * reflected in strips of four lines (C2R_STRIP_LINES), local memory
 * holding 32 of a strip's pairs at a time, and a walk of cycles of two
 * rows (100 x 301). */
static const size_t c2r_cases[][6] = {
    {60, 42, 4, 0, 0, 0},   {97, 101, 16, 0, 0, 0}, {3, 20011, 2, 0, 0, 0},
    {12000, 5, 1, 0, 0, 0}, {60, 42, 8, 1, 0, 0},   {3, 12007, 4, 1, 0, 0},
    {3, 20011, 4, 1, 0, 0}, {1500, 5, 16, 1, 0, 0}, {42, 60, 4, 1, 1, 0},
    {20011, 3, 2, 0, 1, 0}, {5, 12000, 1, 0, 1, 0}, {12007, 3, 4, 1, 1, 0},
    {97, 101, 4, 0, 0, 1},  {101, 64, 8, 0, 1, 1},  {64, 84, 2, 1, 0, 1},
    {97, 101, 1, 1, 0, 0},  {60, 42, 2, 1, 1, 0},   {101, 97, 1, 1, 0, 1},
    {101, 97, 16, 0, 0, 1}, {100, 301, 2, 0, 0, 1}};

static void test_c2r_cases(void **state)
{
    test_env *env = TEST_ENV(state);
    for (size_t i = 0; i < COUNT(c2r_cases); i++) {
        const size_t rows = c2r_cases[i][0], cols = c2r_cases[i][1], elem = c2r_cases[i][2];
        clipt_plan_options o;
        char text[4096];
        size_t bad = 0;
        clipt_status s;
        if (!selected('c', i))
            continue;
        clipt_plan_options_init(&o);
        o.algorithm = c2r_cases[i][4] ? CLIPT_ALGORITHM_R2C : CLIPT_ALGORITHM_C2R;
        o.kernel_style = c2r_cases[i][3] ? CLIPT_KERNEL_STYLE_GROUPS : 0;
        if (c2r_cases[i][5])
            setenv("CLIPT_C2R_COLUMNS", "split", 1);
        s = test_run_transpose(env, rows, cols, elem, 5 * elem, &o, &bad, text, sizeof text);
        unsetenv("CLIPT_C2R_COLUMNS");
        printf("c2r case %zu (%s): %zu x %zu, %zu-byte: %s, %zu bytes wrong\n%s", i,
               c2r_cases[i][4] ? "R2C" : "C2R", rows, cols, elem, clipt_status_string(s), bad,
               s == CLIPT_SUCCESS ? text : "");
        fflush(stdout);
        if (s != CLIPT_SUCCESS || bad)
            fail_msg("c2r case %zu failed", i);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stage_cases),
        cmocka_unit_test(test_plan_cases),
        cmocka_unit_test(test_c2r_cases),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
