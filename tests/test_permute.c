/* Axis permutations (clipt_plan_create_permute): the reduction and the
 * passes on the host (every pass list applied to an index array equals
 * hostmat_permute), and whole plans bit-exact against hostmat_permute for
 * every element size, ndim 1-8, every permutation of small 3-D and 4-D
 * shapes, dimensions of 1, primes, batches, offsets; bad arguments. */
#include "support.h"
#include "permute.h"
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};
static const clipt_permute_costs test_costs = {24, 4096, 0};

/* Next permutation in lexicographic order; 0 after the last. */
static int next_perm(unsigned *p, unsigned n)
{
    int i = (int)n - 2;
    while (i >= 0 && p[i] >= p[i + 1])
        i--;
    if (i < 0)
        return 0;
    int j = (int)n - 1;
    while (p[j] <= p[i])
        j--;
    unsigned t = p[i];
    p[i] = p[j];
    p[j] = t;
    for (unsigned a = (unsigned)i + 1, b = n - 1; a < b; a++, b--)
        t = p[a], p[a] = p[b], p[b] = t;
    return 1;
}

static void apply_pass(const clipt_permute_pass *ps, const uint32_t *in, uint32_t *out)
{
    for (uint64_t a = 0; a < ps->A; a++)
        for (uint64_t b = 0; b < ps->B; b++)
            for (uint64_t c = 0; c < ps->C; c++)
                for (uint64_t d = 0; d < ps->D; d++)
                    out[((a * ps->C + c) * ps->B + b) * ps->D + d] =
                        in[((a * ps->B + b) * ps->C + c) * ps->D + d];
}

/* The passes chosen for (dims, perm), applied on the host, give
 * hostmat_permute's result; *passes receives their number. */
static void check_passes(unsigned ndim, const size_t *dims, const unsigned *perm,
                         unsigned *passes)
{
    clipt_permutation p;
    size_t n = 1;
    for (unsigned i = 0; i < ndim; i++)
        n *= dims[i];
    uint32_t *x = malloc(n * 4), *y = malloc(n * 4), *want = malloc(n * 4);
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(want);
    for (size_t i = 0; i < n; i++)
        x[i] = (uint32_t)i;
    hostmat_permute((const unsigned char *)x, (unsigned char *)want, ndim, dims, perm, 4);
    assert_status(clipt_permutation_plan(ndim, dims, perm, &test_costs, &p), CLIPT_SUCCESS);
    for (unsigned i = 0; i < p.num_passes; i++) {
        uint32_t *t;
        apply_pass(&p.passes[i], x, y);
        t = x, x = y, y = t;
        assert_true(p.passes[i].B > 1 && p.passes[i].C > 1);
    }
    if (memcmp(x, want, n * 4) != 0)
        fail_msg("ndim %u: passes do not give the permutation", ndim);
    /* a reduced array of k axes needs at most k - 1 passes */
    assert_true(p.num_passes + 1 <= (p.rdim > 1 ? p.rdim : 1));
    *passes = p.num_passes;
    free(x);
    free(y);
    free(want);
}

static void host_every_small_permutation(void **state)
{
    static const size_t shapes[][6] = {{2, 3, 5, 7, 2, 3}, {3, 1, 4, 2, 1, 5}, {1, 1, 1, 2, 3, 1}};
    (void)state;
    for (unsigned s = 0; s < COUNT(shapes); s++)
        for (unsigned ndim = 1; ndim <= 6; ndim++) {
            unsigned perm[8];
            for (unsigned i = 0; i < ndim; i++)
                perm[i] = i;
            do {
                unsigned passes;
                check_passes(ndim, shapes[s], perm, &passes);
            } while (next_perm(perm, ndim));
        }
}

static void host_random_8d(void **state)
{
    uint64_t seed = 42;
    (void)state;
    for (unsigned k = 0; k < 40; k++) {
        size_t dims[8];
        unsigned perm[8], passes;
        for (unsigned i = 0; i < 8; i++) {
            dims[i] = test_rand_range(&seed, 1, 4);
            perm[i] = i;
        }
        for (unsigned i = 7; i > 0; i--) {
            unsigned j = (unsigned)test_rand_range(&seed, 0, i), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        check_passes(8, dims, perm, &passes);
    }
}

static void host_reduction(void **state)
{
    /* NCHW -> NHWC: H and W merge, one batched 2-D pass */
    const size_t nchw[4] = {64, 256, 56, 56};
    const unsigned to_nhwc[4] = {0, 2, 3, 1}, ident[4] = {0, 1, 2, 3};
    const size_t ones[4] = {1, 5, 1, 7};
    const unsigned swap13[4] = {0, 3, 2, 1};
    clipt_permutation p;
    (void)state;
    assert_status(clipt_permutation_plan(4, nchw, to_nhwc, &test_costs, &p), CLIPT_SUCCESS);
    assert_int_equal(p.rdim, 3);
    assert_int_equal(p.rdims[2], 56 * 56);
    assert_int_equal(p.num_passes, 1);
    assert_int_equal(p.passes[0].A, 64);
    assert_int_equal(p.passes[0].B, 256);
    assert_int_equal(p.passes[0].C, 3136);
    assert_int_equal(p.passes[0].D, 1);
    assert_status(clipt_permutation_plan(4, nchw, ident, &test_costs, &p), CLIPT_SUCCESS);
    assert_int_equal(p.rdim, 1);
    assert_int_equal(p.num_passes, 0);
    /* axes of 1 dropped: (5, 7) transposed */
    assert_status(clipt_permutation_plan(4, ones, swap13, &test_costs, &p), CLIPT_SUCCESS);
    assert_int_equal(p.rdim, 2);
    assert_int_equal(p.num_passes, 1);
    assert_int_equal(p.passes[0].B, 5);
    assert_int_equal(p.passes[0].C, 7);
}

/* ---- bad arguments ---------------------------------------------------------- */

static void bad_arguments(void **state)
{
    test_env *env = TEST_ENV(state);
    static const size_t dims[9] = {2, 3, 4, 2, 2, 2, 2, 2, 2}, zero[3] = {2, 0, 4};
    static const size_t huge[3] = {SIZE_MAX / 2, 3, 1};
    static const unsigned perm[9] = {0, 2, 1, 3, 4, 5, 6, 7, 8};
    static const unsigned repeated[3] = {0, 2, 2}, outside[3] = {0, 3, 1};
    static const struct {
        unsigned ndim;
        const size_t *dims;
        const unsigned *perm;
        size_t elem;
        clipt_status want;
    } cases[] = {
        {3, NULL, perm, 4, CLIPT_ERROR_NULL_ARGUMENT},
        {3, dims, NULL, 4, CLIPT_ERROR_NULL_ARGUMENT},
        {3, dims, perm, 3, CLIPT_ERROR_INVALID_ELEM_SIZE},
        {0, dims, perm, 4, CLIPT_ERROR_INVALID_NDIM},
        {9, dims, perm, 4, CLIPT_ERROR_INVALID_NDIM},
        {3, dims, repeated, 4, CLIPT_ERROR_INVALID_PERMUTATION},
        {3, dims, outside, 4, CLIPT_ERROR_INVALID_PERMUTATION},
        {3, zero, perm, 4, CLIPT_ERROR_INVALID_SHAPE},
        {3, huge, perm, 4, CLIPT_ERROR_SHAPE_OVERFLOW},
    };
    clipt_plan p = (clipt_plan)1;
    assert_status(clipt_plan_create_permute(NULL, 3, dims, perm, 4, NULL, &p),
                  CLIPT_ERROR_NULL_ARGUMENT);
    assert_null(p);
    assert_status(clipt_plan_create_permute(env->ctx, 3, dims, perm, 4, NULL, NULL),
                  CLIPT_ERROR_NULL_ARGUMENT);
    for (unsigned i = 0; i < COUNT(cases); i++) {
        p = (clipt_plan)1;
        assert_status(clipt_plan_create_permute(env->ctx, cases[i].ndim, cases[i].dims,
                                                cases[i].perm, cases[i].elem, NULL, &p),
                      cases[i].want);
        assert_null(p);
    }
}

/* A buffer one byte short of the plan's size is refused, untouched. */
static void buffer_too_small(void **state)
{
    test_env *env = TEST_ENV(state);
    const size_t dims[3] = {3, 5, 7};
    const unsigned perm[3] = {2, 0, 1};
    clipt_plan p = NULL;
    unsigned char *before = NULL;
    assert_status(clipt_plan_create_permute(env->ctx, 3, dims, perm, 4, NULL, &p), CLIPT_SUCCESS);
    const size_t bytes = clipt_plan_buffer_size(p);
    assert_int_equal(bytes, 3 * 5 * 7 * 4);
    cl_mem buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, bytes - 1, 7, &before);
    assert_status(clipt_enqueue(p, env->cl.queue, buf, 0, 0, NULL, NULL),
                  CLIPT_ERROR_BUFFER_TOO_SMALL);
    test_expect_buffer(env, buf, before, bytes - 1, "after a refused enqueue");
    clReleaseMemObject(buf);
    free(before);
    clipt_plan_release(p);
}

/* ---- whole plans ------------------------------------------------------------ */

static void run_case(test_env *env, unsigned ndim, const size_t *dims, const unsigned *perm,
                     size_t elem, size_t offset)
{
    static char describe[16384];
    size_t bad = 0;
    clipt_status s;
    describe[0] = '\0';
    s = test_run_permute(env, ndim, dims, perm, elem, offset, NULL, &bad, describe,
                         sizeof describe);
    if (s != CLIPT_SUCCESS || bad != 0) {
        char text[256];
        int used = snprintf(text, sizeof text, "dims");
        for (unsigned i = 0; i < ndim; i++)
            used += snprintf(text + used, sizeof text - (size_t)used, " %zu", dims[i]);
        used += snprintf(text + used, sizeof text - (size_t)used, " axes");
        for (unsigned i = 0; i < ndim; i++)
            used += snprintf(text + used, sizeof text - (size_t)used, " %u", perm[i]);
        fail_msg("%s, %zu-byte elements at offset %zu: %s, %zu bytes wrong\n%s", text, elem,
                 offset, clipt_status_string(s), bad, describe);
    }
}

static void every_permutation(test_env *env, unsigned ndim, const size_t *dims, size_t elem,
                              size_t offset)
{
    unsigned perm[8];
    for (unsigned i = 0; i < ndim; i++)
        perm[i] = i;
    do
        run_case(env, ndim, dims, perm, elem, offset);
    while (next_perm(perm, ndim));
}

static void all_3d_every_elem(void **state)
{
    static const size_t shapes[][3] = {{2, 3, 5}, {7, 1, 13}, {4, 6, 30}, {1, 1, 1}};
    for (unsigned s = 0; s < COUNT(shapes); s++)
        for (unsigned e = 0; e < COUNT(elem_sizes); e++)
            every_permutation(TEST_ENV(state), 3, shapes[s], elem_sizes[e],
                              s * elem_sizes[e]);
}

static void all_4d(void **state)
{
    static const size_t shapes[][4] = {{2, 3, 4, 5}, {3, 1, 7, 2}, {2, 5, 3, 26}};
    for (unsigned s = 0; s < COUNT(shapes); s++)
        for (unsigned e = 0; e < COUNT(elem_sizes); e++)
            if (s == 0 || elem_sizes[e] == 4 || elem_sizes[e] == 1)
                every_permutation(TEST_ENV(state), 4, shapes[s], elem_sizes[e], 0);
}

/* ndim 1 to 8: the full reversal and a rotation, every element size */
static void ndim_1_to_8(void **state)
{
    static const size_t dims[8] = {3, 2, 5, 1, 2, 3, 2, 2};
    for (unsigned ndim = 1; ndim <= 8; ndim++)
        for (unsigned e = 0; e < COUNT(elem_sizes); e++) {
            unsigned rev[8], rot[8];
            for (unsigned i = 0; i < ndim; i++) {
                rev[i] = ndim - 1 - i;
                rot[i] = (i + 1) % ndim;
            }
            run_case(TEST_ENV(state), ndim, dims, rev, elem_sizes[e], elem_sizes[e]);
            run_case(TEST_ENV(state), ndim, dims, rot, elem_sizes[e], 0);
        }
}

/* (B, M, N) -> (B, N, M): small matrices, primes, one larger than a tile;
 * and the same shapes as NCHW <-> NHWC */
static void batched_2d(void **state)
{
    static const size_t shapes[][3] = {
        {100, 32, 48}, {17, 64, 100}, {5, 31, 37}, {3, 97, 250}, {2, 1, 9}, {9, 1, 1}};
    static const unsigned swap[3] = {0, 2, 1};
    static const size_t nchw[4] = {4, 6, 7, 9};
    static const unsigned to_nhwc[4] = {0, 2, 3, 1}, to_nchw[4] = {0, 3, 1, 2};
    for (unsigned s = 0; s < COUNT(shapes); s++)
        for (unsigned e = 0; e < COUNT(elem_sizes); e++)
            run_case(TEST_ENV(state), 3, shapes[s], swap, elem_sizes[e], 2 * elem_sizes[e]);
    for (unsigned e = 0; e < COUNT(elem_sizes); e++) {
        const size_t nhwc[4] = {4, 7, 9, 6};
        run_case(TEST_ENV(state), 4, nchw, to_nhwc, elem_sizes[e], 0);
        run_case(TEST_ENV(state), 4, nhwc, to_nchw, elem_sizes[e], elem_sizes[e]);
    }
}

/* A batch whose matrices fit no slab of either side but the whole cannot
 * be padded: not single elements along cycles (the cost model prices that
 * walk far too low), but 2.1 with the largest row factor whose slab fits;
 * a single matrix keeps clipt_plan_choose's choice.  On the H100's profile
 * (tuning entry with min_super 32: Algorithm 5 takes m = 124, n = 1), the
 * plan then run bit-exact on the test device. */
static void batch_avoids_single_moves(void **state)
{
    test_env *env = TEST_ENV(state), gpu = *env;
    static const size_t dims[3] = {7, 124, 149};
    static const unsigned swap[3] = {0, 2, 1};
    clipt_plan_options o;
    clipt_plan_choice one, many;
    gpu.ctx = test_context_gpu_like(env, "NVIDIA H100 80GB HBM3", "NVIDIA Corporation");
    const clipt_device_profile *profile = &gpu.ctx->profile;
    clipt_plan_options_init(&o);
    o.padding = CLIPT_PADDING_OFF;
    o.algorithm = CLIPT_ALGORITHM_TPDS; /* the single matrix's automatic plan is C2R's */
    assert_status(clipt_plan_choose(profile, 124, 149, 8, &o, &profile->tuning, &one),
                  CLIPT_SUCCESS);
    assert_status(clipt_plan_choose_batch(profile, 1, 124, 149, 8, &o, &profile->tuning, &many),
                  CLIPT_SUCCESS);
    assert_true(one.sequence == many.sequence && one.m == many.m && one.n == many.n);
    assert_int_equal(one.n, 1); /* single elements along cycles */
    assert_status(clipt_plan_choose_batch(profile, 672, 124, 149, 8, &o, &profile->tuning,
                                          &many),
                  CLIPT_SUCCESS);
    assert_int_equal(many.sequence, CLIPT_SEQUENCE_2_1);
    assert_int_equal(many.m, 31);
    run_case(&gpu, 3, dims, swap, 8, 8);
    clipt_context_release(gpu.ctx);
}

/* The kernels' 64-bit index paths (a context that takes every region as
 * large), on permutations of every kind of pass: batched tiles, a
 * super-element move, the small-D tile pass, several passes. */
static void wide_indices(void **state)
{
    static const size_t a[3] = {6, 31, 37}, b[4] = {2, 3, 4, 30}, c[4] = {2, 3, 4, 5};
    static const size_t d[5] = {3, 4, 5, 6, 7};
    static const unsigned swap[3] = {0, 2, 1}, front[4] = {1, 0, 2, 3};
    static const unsigned five[5] = {4, 2, 0, 3, 1};
    test_env wide = *TEST_ENV(state);
    assert_status(clipt_context_create(wide.cl.context, wide.cl.device, &wide.ctx),
                  CLIPT_SUCCESS);
    wide.ctx->wide_index_from = 0;
    for (unsigned e = 0; e < COUNT(elem_sizes); e++) {
        run_case(&wide, 3, a, swap, elem_sizes[e], elem_sizes[e]);
        run_case(&wide, 4, b, front, elem_sizes[e], 0);
        run_case(&wide, 4, c, front, elem_sizes[e], 0);
        run_case(&wide, 5, d, five, elem_sizes[e], elem_sizes[e]);
    }
    clipt_context_release(wide.ctx);
}

/* A 2-D transposition through the N-D API is clipt_plan_create's plan
 * (the same stages, padding included); an identity has no stages. */
static void same_as_2d(void **state)
{
    test_env *env = TEST_ENV(state);
    static const size_t shapes[][2] = {{3001, 997}, {640, 480}, {1, 77}};
    const unsigned swap[2] = {1, 0}, ident[2] = {0, 1};
    for (unsigned s = 0; s < COUNT(shapes); s++) {
        clipt_plan a = NULL, b = NULL;
        clipt_plan_info ia, ib;
        assert_status(clipt_plan_create(env->ctx, shapes[s][0], shapes[s][1], 4, NULL, &a),
                      CLIPT_SUCCESS);
        assert_status(clipt_plan_create_permute(env->ctx, 2, shapes[s], swap, 4, NULL, &b),
                      CLIPT_SUCCESS);
        clipt_plan_query(a, &ia);
        clipt_plan_query(b, &ib);
        assert_int_equal(ia.num_stages, ib.num_stages);
        assert_int_equal(ia.buffer_bytes, ib.buffer_bytes);
        assert_int_equal(ia.tile_m, ib.tile_m);
        assert_int_equal(ia.tile_n, ib.tile_n);
        assert_int_equal(ia.sequence, ib.sequence);
        assert_int_equal(ib.ndim, 2);
        for (unsigned i = 0; i < ia.num_stages; i++) {
            clipt_stage_info sa, sb;
            clipt_plan_query_stage(a, i, &sa);
            clipt_plan_query_stage(b, i, &sb);
            assert_int_equal(sa.family, sb.family);
            assert_int_equal(sa.a, sb.a);
            assert_int_equal(sa.b, sb.b);
            assert_int_equal(sa.s, sb.s);
            assert_int_equal(sa.global_size, sb.global_size);
        }
        clipt_plan_release(a);
        clipt_plan_release(b);
        assert_status(clipt_plan_create_permute(env->ctx, 2, shapes[s], ident, 4, NULL, &b),
                      CLIPT_SUCCESS);
        clipt_plan_query(b, &ib);
        assert_int_equal(ib.num_stages, 0);
        assert_int_equal(ib.num_passes, 0);
        clipt_plan_release(b);
    }
    run_case(env, 2, shapes[0], swap, 4, 8);
}

/* describe names the permutation, its reduction and each pass */
static void describe_passes(void **state)
{
    test_env *env = TEST_ENV(state);
    const size_t dims[4] = {8, 16, 7, 7};
    const unsigned perm[4] = {0, 2, 3, 1};
    char text[8192];
    clipt_plan p = NULL;
    assert_status(clipt_plan_create_permute(env->ctx, 4, dims, perm, 4, NULL, &p), CLIPT_SUCCESS);
    assert_status(clipt_plan_describe(p, text, sizeof text), CLIPT_SUCCESS);
    assert_non_null(strstr(text, "permutation: (8, 16, 7, 7) axes (0, 2, 3, 1) -> (8, 7, 7, 16)"));
    assert_non_null(strstr(text, "reduced: (8, 16, 49) axes (0, 2, 1)"));
    assert_non_null(strstr(text, "pass 1: (A, B, C, D) = (8, 16, 49, 1) -> (A, C, B, D): "
                                 "batched 2-D transpositions (sequence "));
    /* the 2-D lines are the passes' own, not the plan's */
    assert_null(strstr(text, "\ntiles: "));
    clipt_plan_release(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(host_reduction),
        cmocka_unit_test(host_every_small_permutation),
        cmocka_unit_test(host_random_8d),
        cmocka_unit_test(bad_arguments),
        cmocka_unit_test(buffer_too_small),
        cmocka_unit_test(same_as_2d),
        cmocka_unit_test(describe_passes),
        cmocka_unit_test(batched_2d),
        cmocka_unit_test(batch_avoids_single_moves),
        cmocka_unit_test(all_3d_every_elem),
        cmocka_unit_test(all_4d),
        cmocka_unit_test(ndim_1_to_8),
        cmocka_unit_test(wide_indices),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
