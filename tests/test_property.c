/* Property: the automatic plan transposes any shape bit-exactly.  10 000
 * random small shapes (fixed seed), every element size, at element offsets
 * 0..3, in turn on the device's own local memory, on a GPU's 48 KiB and on
 * 4 KiB (the smaller ones make small shapes tile, pad and fall back as
 * large ones do on a GPU), and with the profiles of an H100 and of an
 * unknown GPU (their tuning entries' cost models choose the plans); the
 * bytes around the matrix must stay as they were.  One context per profile
 * and one buffer reused throughout, so that the run stays short on a CPU
 * device.  Then forced tiles that do not divide their side (padding AUTO
 * pads it to their next multiple, as clipt bench --brute-force's padded
 * candidates do), under every sequence.  Then forced C2R plans.  Then 2000
 * random axis permutations of ndim 1..8 (clipt_plan_create_permute). */
#include "support.h"
#include "modular.h"
#include "plan.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define SHAPES 10000
#define SLACK 64                      /* bytes checked after the plan's room */
#define MAX_ELEMS (2 * 2200 + 64 * 64) /* more than any shape below needs */
#define MAX_OFFSET 3                  /* elements */
#define PADDING_ROOM 2                /* padded room as a multiple of the matrix */

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};

/* Shapes: mostly sides 1..64; one in eight skinny, one side 1..4 and the
 * other up to 2200. */
static void random_shape(uint64_t *seed, size_t *rows, size_t *cols)
{
    if (test_rand(seed) % 8 == 0) {
        size_t thin = test_rand_range(seed, 1, 4), long_side = test_rand_range(seed, 65, 2200);
        int tall = test_rand(seed) & 1;
        *rows = tall ? long_side : thin;
        *cols = tall ? thin : long_side;
    } else {
        *rows = test_rand_range(seed, 1, 64);
        *cols = test_rand_range(seed, 1, 64);
    }
}

/* The buffer every shape runs in, its pattern and scratch host arrays. */
typedef struct bench {
    cl_mem buf;
    size_t capacity;                 /* bytes */
    unsigned char *pattern, *expect, *got;
} bench;

static void bench_open(test_env *env, bench *b)
{
    b->capacity = MAX_ELEMS * 16 * PADDING_ROOM + (MAX_OFFSET + 1) * 16 + SLACK;
    b->buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, b->capacity, 1, &b->pattern);
    b->expect = malloc(b->capacity);
    b->got = malloc(b->capacity);
    assert_true(b->expect && b->got);
}

static void bench_close(bench *b)
{
    clReleaseMemObject(b->buf);
    free(b->pattern);
    free(b->expect);
    free(b->got);
}

/* Plans of the kinds that matter, counted so that the test shows it met
 * them. */
typedef struct tally {
    size_t per_elem[COUNT(elem_sizes)];
    size_t multi_stage, padded, by_model;
    size_t passes;                   /* permutations of several passes */
    size_t c2r;                      /* C2R plans the library chose     */
} tally;

/* Text naming a case in a failure: "3 x 5" or "(3, 5, 7) axes (2, 0, 1)". */
static const char *case_text(unsigned ndim, const size_t *dims, const unsigned *perm)
{
    static char text[256];
    int used = 0;
    if (!perm) {
        snprintf(text, sizeof text, "%zu x %zu", dims[0], dims[1]);
        return text;
    }
    for (unsigned i = 0; i < ndim; i++)
        used += snprintf(text + used, sizeof text - (size_t)used, "%s%zu", i ? ", " : "(",
                         dims[i]);
    for (unsigned i = 0; i < ndim; i++)
        used += snprintf(text + used, sizeof text - (size_t)used, "%s%u",
                         i ? ", " : ") axes (", perm[i]);
    snprintf(text + used, sizeof text - (size_t)used, ")");
    return text;
}

/* One case: writes the pattern over the region the run may touch, runs
 * the plan (perm NULL: clipt_plan_create's for the 2-D dims), and
 * compares that region, plus SLACK bytes after it, with the expected bytes
 * (the padding room itself may hold anything). */
static void run_case(test_env *env, clipt_context cx, bench *b, size_t i, unsigned ndim,
                     const size_t *dims, const unsigned *perm, size_t elem, size_t offset,
                     const clipt_plan_options *o, tally *t)
{
    static const unsigned swap[2] = {1, 0};
    size_t bytes = elem;
    clipt_plan plan = NULL;
    cl_event done = NULL;
    size_t first, span;
    clipt_status s = perm ? clipt_plan_create_permute(cx, ndim, dims, perm, elem, o, &plan)
                          : clipt_plan_create(cx, dims[0], dims[1], elem, o, &plan);
    if (s != CLIPT_SUCCESS)
        fail_msg("case %zu: %s, %zu-byte elements: plan: %s", i, case_text(ndim, dims, perm),
                 elem, clipt_status_string(s));
    for (unsigned k = 0; k < ndim; k++)
        bytes *= dims[k];
    span = offset + clipt_plan_buffer_size(plan) + SLACK;
    assert_true(span <= b->capacity);
    memcpy(b->expect, b->pattern, span);
    hostmat_permute(b->pattern + offset, b->expect + offset, ndim, dims, perm ? perm : swap,
                    elem);
    s = clEnqueueWriteBuffer(env->cl.queue, b->buf, CL_FALSE, 0, span, b->pattern, 0, NULL,
                             NULL);
    if (s == CL_SUCCESS)
        s = clipt_enqueue(plan, env->cl.queue, b->buf, offset, 0, NULL, &done);
    if (s == CL_SUCCESS)
        s = clEnqueueReadBuffer(env->cl.queue, b->buf, CL_TRUE, 0, span, b->got, 1, &done,
                                NULL);
    if (done)
        clReleaseEvent(done);
    if (s != CL_SUCCESS)
        fail_msg("case %zu: %s, %zu-byte elements at %zu: %s", i, case_text(ndim, dims, perm),
                 elem, offset, clipt_status_string(s));
    if (test_mismatches(b->got, b->expect, offset + bytes, &first) ||
        test_mismatches(b->got + span - SLACK, b->expect + span - SLACK, SLACK, &first)) {
        static char text[16384];
        clipt_plan_describe(plan, text, sizeof text);
        fail_msg("case %zu: %s, %zu-byte elements at byte offset %zu: wrong\n%s", i,
                 case_text(ndim, dims, perm), elem, offset, text);
    }
    t->multi_stage += plan->num_stages > 1;
    t->padded += clipt_plan_buffer_size(plan) > bytes;
    t->by_model += plan->choice.why && strstr(plan->choice.why, "by the cost model") != NULL;
    t->passes += plan->nd.num_passes > 1;
    t->c2r += plan->choice.algorithm == CLIPT_ALGORITHM_C2R &&
              (!o || o->algorithm != CLIPT_ALGORITHM_C2R);
    clipt_plan_release(plan);
}

static void run_shape(test_env *env, clipt_context cx, bench *b, size_t i, size_t rows,
                      size_t cols, size_t elem, size_t offset, const clipt_plan_options *o,
                      tally *t)
{
    const size_t dims[2] = {rows, cols};
    run_case(env, cx, b, i, 2, dims, NULL, elem, offset, o, t);
}

static void test_random_small_shapes(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context contexts[5];
    tally t = {{0}, 0, 0, 0, 0, 0};
    uint64_t seed = 10000;
    bench b;
    const double start = util_now_seconds();
    clipt_plan_options tpds;
    clipt_plan_options_init(&tpds);
    tpds.algorithm = CLIPT_ALGORITHM_TPDS;
    contexts[0] = env->ctx;
    contexts[1] = test_context_limited(env, 48 * 1024);
    contexts[2] = test_context_limited(env, 4 * 1024);
    contexts[3] = test_context_gpu_like(env, "NVIDIA H100 80GB HBM3", "NVIDIA Corporation");
    contexts[4] = test_context_gpu_like(env, "Some GPU", "Some Vendor");
    bench_open(env, &b);
    for (size_t i = 0; i < SHAPES; i++) {
        const size_t e = (size_t)(test_rand(&seed) % COUNT(elem_sizes));
        const size_t offset = elem_sizes[e] * (size_t)(test_rand(&seed) % (MAX_OFFSET + 1));
        size_t rows, cols;
        /* one more slot: the H100's profile with the sequences forced (its
         * automatic plan of coprime sides with short columns is C2R's) */
        const size_t k = i % (COUNT(contexts) + 1);
        random_shape(&seed, &rows, &cols);
        run_shape(env, contexts[k < COUNT(contexts) ? k : 3], &b, i, rows, cols, elem_sizes[e],
                  offset, k < COUNT(contexts) ? NULL : &tpds, &t);
        t.per_elem[e]++;
    }
    print_message("%d shapes bit-exact in %.1f s (", SHAPES, util_now_seconds() - start);
    for (size_t e = 0; e < COUNT(elem_sizes); e++)
        print_message("%zu with %zu-byte elements, ", t.per_elem[e], elem_sizes[e]);
    print_message("%zu plans of several stages, %zu padded, %zu chosen by the cost model "
                  "over Algorithm 5, %zu automatic C2R)\n", t.multi_stage, t.padded, t.by_model,
                  t.c2r);
    for (size_t e = 0; e < COUNT(elem_sizes); e++)
        assert_true(t.per_elem[e] > SHAPES / 10);
    assert_true(t.multi_stage > SHAPES / 10 && t.padded > 0 && t.by_model > SHAPES / 100);
    assert_true(t.c2r > SHAPES / 100); /* the H100's profile chose C2R */
    bench_close(&b);
    for (size_t c = 1; c < COUNT(contexts); c++)
        clipt_context_release(contexts[c]);
}

/* Forced tiles that do not divide their side, with padding AUTO: the side
 * is padded to the tile's next multiple.  Every sequence, shapes up to
 * 64 x 64 on a GPU's 48 KiB, every element size; the padding is real (the
 * plan's buffer is larger than the matrix, or the sequence drops it). */
static void test_forced_padded_tiles(void **state)
{
    static const clipt_sequence seqs[] = {
        CLIPT_SEQUENCE_2_1, CLIPT_SEQUENCE_2_2, CLIPT_SEQUENCE_3_1, CLIPT_SEQUENCE_3_2,
        CLIPT_SEQUENCE_4_1, CLIPT_SEQUENCE_4_2, CLIPT_SEQUENCE_4_3};
    test_env *env = TEST_ENV(state);
    clipt_context gpu = test_context_limited(env, 48 * 1024);
    tally t = {{0}, 0, 0, 0, 0, 0};
    uint64_t seed = 4242;
    size_t runs = 0;
    bench b;
    bench_open(env, &b);
    for (size_t i = 0; i < 300; i++) {
        const size_t e = i % COUNT(elem_sizes);
        const size_t rows = test_rand_range(&seed, 9, 64), cols = test_rand_range(&seed, 9, 64);
        clipt_plan_options o;
        clipt_plan_options_init(&o);
        o.sequence = seqs[i % COUNT(seqs)];
        /* factors below the side that (mostly) leave a remainder */
        o.tile_m = test_rand_range(&seed, 2, rows / 2);
        o.tile_n = test_rand_range(&seed, 2, cols / 2);
        run_shape(env, gpu, &b, i, rows, cols, elem_sizes[e], 0, &o, &t);
        runs++;
    }
    print_message("%zu forced plans with padding tiles bit-exact, %zu padded\n", runs,
                  t.padded);
    assert_true(t.padded > runs / 2);
    bench_close(&b);
    clipt_context_release(gpu);
}

/* Property of the C2R decomposition: 2000 random shapes as above, every
 * element size and offset, forced C2R on the device's local memory, a
 * GPU's 48 KiB and 2 KiB (rows and column blocks then go through global
 * scratch); coprime shapes run two passes, the others three. */
static void test_c2r_shapes(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context contexts[3];
    tally t = {{0}, 0, 0, 0, 0, 0};
    uint64_t seed = 1414;
    size_t two = 0, three = 0;
    bench b;
    contexts[0] = env->ctx;
    contexts[1] = test_context_limited(env, 48 * 1024);
    contexts[2] = test_context_limited(env, 2 * 1024);
    bench_open(env, &b);
    for (size_t i = 0; i < 2000; i++) {
        const size_t e = (size_t)(test_rand(&seed) % COUNT(elem_sizes));
        const size_t offset = elem_sizes[e] * (size_t)(test_rand(&seed) % (MAX_OFFSET + 1));
        clipt_plan_options o;
        size_t rows, cols;
        clipt_plan_options_init(&o);
        o.algorithm = CLIPT_ALGORITHM_C2R;
        random_shape(&seed, &rows, &cols);
        run_shape(env, contexts[i % COUNT(contexts)], &b, i, rows, cols, elem_sizes[e], offset,
                  &o, &t);
        two += rows > 1 && cols > 1 && clipt_gcd64(rows, cols) == 1;
        three += rows > 1 && cols > 1 && clipt_gcd64(rows, cols) > 1;
        t.per_elem[e]++;
    }
    print_message("2000 C2R plans bit-exact: %zu coprime (two passes), %zu with a rotation, "
                  "none padded\n", two, three);
    assert_int_equal(t.padded, 0);
    assert_true(two > 200 && three > 200);
    bench_close(&b);
    for (size_t c = 1; c < COUNT(contexts); c++)
        clipt_context_release(contexts[c]);
}

/* Random axis permutations: ndim 1..8, dimensions of 1..9 (a third of
 * them 1) with at most MAX_ELEMS elements, every element size, offsets, on
 * the device's local memory and on 4 KiB (tiles fall back as on a GPU). */
static void test_random_permutations(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context contexts[2] = {env->ctx, test_context_limited(env, 4 * 1024)};
    tally t = {{0}, 0, 0, 0, 0, 0};
    uint64_t seed = 1515;
    bench b;
    bench_open(env, &b);
    for (size_t i = 0; i < 2000; i++) {
        const unsigned ndim = (unsigned)test_rand_range(&seed, 1, 8);
        const size_t e = (size_t)(test_rand(&seed) % COUNT(elem_sizes));
        const size_t offset = elem_sizes[e] * (size_t)(test_rand(&seed) % (MAX_OFFSET + 1));
        size_t dims[8], count = 1;
        unsigned perm[8];
        for (unsigned k = 0; k < ndim; k++) {
            const size_t most = MAX_ELEMS / 2 / count;
            dims[k] = test_rand(&seed) % 3 == 0 ? 1 : test_rand_range(&seed, 1, 9);
            if (k == ndim - 1 && ndim <= 3)
                dims[k] = test_rand_range(&seed, 1, 40);
            dims[k] = dims[k] < most ? dims[k] : most > 0 ? most : 1;
            count *= dims[k];
            perm[k] = k;
        }
        for (unsigned k = ndim; k-- > 1;) {
            const unsigned j = (unsigned)test_rand_range(&seed, 0, k), x = perm[k];
            perm[k] = perm[j];
            perm[j] = x;
        }
        run_case(env, contexts[i % 2], &b, i, ndim, dims, perm, elem_sizes[e], offset, NULL,
                 &t);
        t.per_elem[e]++;
    }
    print_message("2000 permutations bit-exact (%zu of several passes, %zu of several "
                  "stages)\n", t.passes, t.multi_stage);
    assert_true(t.passes > 200 && t.multi_stage > 400);
    bench_close(&b);
    clipt_context_release(contexts[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_small_shapes),
        cmocka_unit_test(test_forced_padded_tiles),
        cmocka_unit_test(test_c2r_shapes),
        cmocka_unit_test(test_random_permutations),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
