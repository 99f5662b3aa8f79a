/* Segment tables cut on the device (cl/shift100_segments.cl's
 * cut_segments) from the cycle records the host lists: bit-exact against
 * the host's cut of the same cycles (src/cycles.c), through plans on the
 * default and an H100-like profile and, for moduli past 2^32 (stages of
 * 2^32 positions and more, which no test matrix reaches), through the
 * kernel alone; the plan's first run counts the cutting in its profile,
 * later runs do not. */
#include "support.h"
#include "cycles.h"
#include "loader.h"
#include "plan.h"
#include "stage_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The host's cut of the a x b cycles into seg_len positions. */
static void host_cut(uint64_t a, uint64_t b, unsigned seg_len, size_t max_segments,
                     clipt_segments *out)
{
    clipt_cycle_list list;
    assert_status(clipt_cycle_list_find(a, b, CLIPT_MAX_CYCLES, &list), CLIPT_SUCCESS);
    assert_status(clipt_cycle_list_cut(&list, seg_len, max_segments, out), CLIPT_SUCCESS);
    clipt_cycle_list_free(&list);
}

/* Fails unless the device's table (count segments at the head of `table`)
 * holds what the host's cut gives. */
static void expect_table(test_env *env, cl_mem table, const clipt_segments *want,
                         const char *what)
{
    const size_t bytes = want->count * CLIPT_SEGMENT_BYTES;
    unsigned char *got = malloc(bytes + 1);
    assert_non_null(got);
    assert_status(clEnqueueReadBuffer(env->cl.queue, table, CL_TRUE, 0, bytes, got, 0, NULL,
                                      NULL),
                  CL_SUCCESS);
    /* the host's arrays lie in one block in the table's layout (cycles.h) */
    if (memcmp(got, want->start, bytes) != 0) {
        const cl_ulong *start = (const cl_ulong *)got;
        const cl_uint *length = (const cl_uint *)(start + want->count);
        const cl_uint *slot = length + want->count;
        for (size_t g = 0; g < want->count; g++)
            if (start[g] != want->start[g] || length[g] != want->length[g] ||
                slot[g] != want->slot[g])
                fail_msg("%s: segment %zu of %zu: device (%llu, %u, %u), host (%llu, %u, %u)",
                         what, g, want->count, (unsigned long long)start[g], length[g],
                         slot[g], (unsigned long long)want->start[g], want->length[g],
                         want->slot[g]);
    }
    free(got);
}

/* Whether `table` is read-only or read-write to the kernels. */
static cl_mem_flags access_of(cl_mem table)
{
    cl_mem_flags flags = 0;
    assert_status(clGetMemObjectInfo(table, CL_MEM_FLAGS, sizeof flags, &flags, NULL),
                  CL_SUCCESS);
    return flags & (CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE);
}

/* Runs p once on a pattern buffer (checked), then compares every segment
 * table it made with the host's cut; returns how many of them the device
 * cut, and counts in *host_made those the host wrote whole (cycles of one
 * segment each, or about). */
static unsigned run_and_compare(test_env *env, clipt_plan p, size_t rows, size_t cols,
                                unsigned *host_made)
{
    const size_t bytes = rows * cols * 4;
    unsigned char *host = NULL, *want = malloc(bytes);
    cl_mem buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, clipt_plan_buffer_size(p), 5, &host);
    unsigned compared = 0;
    assert_non_null(want);
    test_reference_transpose(host, want, rows, cols, 4);
    assert_status(clipt_enqueue(p, env->cl.queue, buf, 0, 0, NULL, NULL), CLIPT_SUCCESS);
    test_expect_buffer(env, buf, want, bytes, "a plan whose tables were cut on the device");
    for (unsigned i = 0; i < p->num_stages; i++) {
        const clipt_stage *st = &p->stages[i];
        clipt_segments segs;
        char what[128];
        if (st->family != &clipt_family_shift100_segments)
            continue;
        /* the device cuts from records fewer bytes than the table; a
         * table the host writes is read-only, so that no kernel ever
         * writes a pooled buffer the host wrote (Oclgrind, see
         * take_table) */
        if (st->f.segments.cut) {
            assert_true(st->f.segments.cycles * CLIPT_CYCLE_RECORD_BYTES <
                        st->f.segments.count * CLIPT_SEGMENT_BYTES);
            assert_int_equal(access_of(st->f.segments.table), CL_MEM_READ_WRITE);
            compared++;
        } else {
            assert_int_equal(st->f.segments.cycles, 0);
            assert_int_equal(access_of(st->f.segments.table), CL_MEM_READ_ONLY);
            ++*host_made;
        }
        host_cut(st->spec.a, st->spec.b, st->f.segments.len, st->f.segments.count, &segs);
        assert_int_equal(segs.count, st->f.segments.count);
        assert_int_equal(segs.saved, st->f.segments.saved);
        snprintf(what, sizeof what, "%zu x %zu, stage %u (%llu x %llu, seg_len %u)", rows, cols,
                 i + 1, (unsigned long long)st->spec.a, (unsigned long long)st->spec.b,
                 st->f.segments.len);
        expect_table(env, st->f.segments.table, &segs, what);
        clipt_segments_free(&segs);
    }
    clReleaseMemObject(buf);
    free(host);
    free(want);
    return compared;
}

/* The last two have stages of (nearly) one segment per cycle, whose
 * tables the host writes whole. */
static const size_t shapes[][2] = {{1111, 2003}, {2228, 1775}, {301, 517}, {97, 89},
                                   {1200, 1500}, {4797, 533},  {640, 131}, {3, 1000},
                                   {207, 221},   {853, 494}};

/* The cutting's launch of every stage of p that cuts: the same global and
 * local size as *grid (set by the first one seen), whatever the table's
 * size.  PoCL 3.1 aborted when two plans' cuts of different grids ran at
 * once (stage_shift100_segments.c, cut_launch). */
static void expect_one_cut_grid(clipt_plan p, size_t grid[2], size_t rows, size_t cols)
{
    for (unsigned i = 0; i < p->num_stages; i++) {
        const clipt_segments_state *g = &p->stages[i].f.segments;
        if (p->stages[i].family != &clipt_family_shift100_segments || !g->cut)
            continue;
        if (!grid[0]) {
            grid[0] = g->cut_global;
            grid[1] = g->cut_local;
        }
        if (g->cut_global != grid[0] || g->cut_local != grid[1])
            fail_msg("%zu x %zu, stage %u (%zu segments): the cut launches %zu / %zu "
                     "work-items, another plan of the context %zu / %zu", rows, cols, i + 1,
                     g->count, g->cut_global, g->cut_local, grid[0], grid[1]);
    }
}

/* Returns how many tables the host wrote whole. */
static unsigned compare_on(test_env *env, clipt_context c)
{
    clipt_plan_options o;
    unsigned compared = 0, host_made = 0;
    size_t grid[2] = {0, 0};
    clipt_plan_options_init(&o);
    o.algorithm = CLIPT_ALGORITHM_TPDS; /* the segment walks, not C2R */
    clipt_context_set_pool_limit(c, 0); /* every plan cuts its own */
    for (size_t i = 0; i < COUNT(shapes); i++) {
        clipt_plan p;
        /* a plan's own 100! grid leaves the cut's alone */
        o.groups_100 = i % 2 ? 3 : 0;
        assert_status(clipt_plan_create(c, shapes[i][0], shapes[i][1], 4, &o, &p),
                      CLIPT_SUCCESS);
        expect_one_cut_grid(p, grid, shapes[i][0], shapes[i][1]);
        compared += run_and_compare(env, p, shapes[i][0], shapes[i][1], &host_made);
        clipt_plan_release(p);
    }
    assert_true(compared >= 3); /* the set has tables cut on the device */
    return host_made;
}

static void test_device_cut_matches_host(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context c;
    unsigned host_made = 0;
    assert_status(clipt_context_create(env->cl.context, env->cl.device, &c), CLIPT_SUCCESS);
    host_made += compare_on(env, c);
    clipt_context_release(c);
    c = test_context_gpu_like(env, "NVIDIA H100 80GB HBM3", "NVIDIA Corporation");
    host_made += compare_on(env, c);
    clipt_context_release(c);
    assert_true(host_made >= 1); /* the set has tables the host cut too */
}

/* The kernel alone on a x b with a*b - 1 past 2^32 (products by doubling). */
static void test_device_cut_past_32_bits(void **state)
{
    static const uint64_t sides[][3] = {{65537, 65539, 1u << 16}, {100003, 70001, 1u << 16}};
    test_env *env = TEST_ENV(state);
    for (size_t i = 0; i < COUNT(sides); i++) {
        const uint64_t a = sides[i][0], b = sides[i][1];
        const unsigned seg_len = (unsigned)sides[i][2];
        clipt_cycle_list list;
        cl_ulong *records = NULL;
        size_t segments = 0, saved = 0;
        clipt_segments want;
        cl_kernel k;
        cl_int err;
        assert_true(a * b - 1 > UINT32_MAX);
        assert_status(clipt_cycle_list_find(a, b, CLIPT_MAX_CYCLES, &list), CLIPT_SUCCESS);
        assert_status(clipt_cycle_list_records(&list, seg_len, &records, &segments, &saved),
                      CLIPT_SUCCESS);
        assert_status(clipt_cycle_list_cut(&list, seg_len, segments, &want), CLIPT_SUCCESS);
        assert_int_equal(want.count, segments);
        assert_int_equal(want.saved, saved);
        cl_mem table = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE,
                                      segments * CLIPT_SEGMENT_BYTES, NULL, &err);
        assert_status(err, CL_SUCCESS);
        cl_mem cycle = clCreateBuffer(env->cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                      list.count * CLIPT_CYCLE_RECORD_BYTES, records, &err);
        assert_status(err, CL_SUCCESS);
        assert_status(clipt_loader_kernel(env->ctx, "shift100_segments.cl",
                                          "-DELEM_TYPE=uint -DQ=1 -DUNROLL=4 -DSMALL_INDEX=0",
                                          "cut_segments", &k),
                      CLIPT_SUCCESS);
        const cl_ulong count = segments, cycles = list.count, n_mod = list.N,
                       leap = clipt_cycle_step(&list, seg_len);
        const cl_uint len = seg_len;
        const size_t local = 64, global = (segments + local - 1) / local * local;
        assert_status(clSetKernelArg(k, 0, sizeof table, &table), CL_SUCCESS);
        assert_status(clSetKernelArg(k, 1, sizeof cycle, &cycle), CL_SUCCESS);
        assert_status(clSetKernelArg(k, 2, sizeof count, &count), CL_SUCCESS);
        assert_status(clSetKernelArg(k, 3, sizeof cycles, &cycles), CL_SUCCESS);
        assert_status(clSetKernelArg(k, 4, sizeof n_mod, &n_mod), CL_SUCCESS);
        assert_status(clSetKernelArg(k, 5, sizeof leap, &leap), CL_SUCCESS);
        assert_status(clSetKernelArg(k, 6, sizeof len, &len), CL_SUCCESS);
        assert_status(clEnqueueNDRangeKernel(env->cl.queue, k, 1, NULL, &global, &local, 0, NULL,
                                             NULL),
                      CL_SUCCESS);
        expect_table(env, table, &want, "a modulus past 2^32");
        clReleaseKernel(k);
        clReleaseMemObject(table);
        clReleaseMemObject(cycle);
        clipt_segments_free(&want);
        free(records);
        clipt_cycle_list_free(&list);
    }
}

/* The first run's profile counts the cutting; the second run's does not. */
static void test_first_run_counts_the_cutting(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context c = test_context_gpu_like(env, "NVIDIA H100 80GB HBM3", "NVIDIA Corporation");
    clipt_plan_options o;
    clipt_plan p;
    unsigned walks = 0, host_made = 0;
    clipt_plan_options_init(&o);
    o.algorithm = CLIPT_ALGORITHM_TPDS; /* segment walks: not the automatic C2R */
    assert_status(clipt_plan_create(c, 1111, 2003, 4, &o, &p), CLIPT_SUCCESS);
    run_and_compare(env, p, 1111, 2003, &host_made);
    for (unsigned i = 0; i < p->num_stages; i++)
        if (p->stages[i].family == &clipt_family_shift100_segments) {
            assert_non_null(p->stage_prep[i]);
            walks++;
        }
    assert_true(walks > 0);
    double first = 0, second = 0, stages[CLIPT_MAX_PLAN_STAGES], sum = 0;
    unsigned n = 0;
    assert_status(clipt_plan_profile(p, &first, NULL, 0, NULL), CLIPT_SUCCESS);
    assert_true(first > 0);
    run_and_compare(env, p, 1111, 2003, &host_made);
    for (unsigned i = 0; i < p->num_stages; i++)
        assert_null(p->stage_prep[i]);
    assert_status(clipt_plan_profile(p, &second, stages, CLIPT_MAX_PLAN_STAGES, &n),
                  CLIPT_SUCCESS);
    for (unsigned i = 0; i < n; i++)
        sum += stages[i];
    assert_true(second > 0 && sum > 0);
    clipt_plan_release(p);
    clipt_context_release(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_cut_matches_host),
        cmocka_unit_test(test_device_cut_past_32_bits),
        cmocka_unit_test(test_first_run_counts_the_cutting),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
