/* clipt_transpose_host: host arrays through the device and back over 1 to 8
 * command queues, bit-exact against the CPU reference; how each sequence's
 * stages are cut into pieces; bad input leaves the array as it was. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"
#include "host.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const unsigned queue_counts[] = {1, 2, 3, 4, 8};
static const size_t elem_sizes[] = {1, 2, 4, 8, 16};

/* ---- helpers -------------------------------------------------------------- */

/* Transposes a pattern matrix through clipt_transpose_host with Q queues;
 * returns 1 when the array then holds the reference transpose exactly,
 * else 0 with the reason in why.  No cmocka call: threads use it too. */
static int host_exact(clipt_context c, cl_command_queue q, size_t rows, size_t cols,
                      size_t elem, unsigned queues, const clipt_plan_options *opts,
                      char *why, size_t why_len)
{
    const size_t bytes = rows * cols * elem;
    unsigned char *data = malloc(bytes), *orig = malloc(bytes), *want = malloc(bytes);
    size_t first = 0, bad = 0;
    clipt_status s = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    if (data && orig && want) {
        test_fill_pattern(orig, rows * cols, elem, rows * 131 + cols * 7 + queues);
        memcpy(data, orig, bytes);
        test_reference_transpose(orig, want, rows, cols, elem);
        s = clipt_transpose_host(c, q, data, rows, cols, elem, queues, opts);
        bad = test_mismatches(data, want, bytes, &first);
    }
    if (s != CLIPT_SUCCESS || bad)
        snprintf(why, why_len, "%zu x %zu, %zu-byte elements, %u queues, sequence %d: %s, "
                 "%zu bytes wrong (first at %zu)", rows, cols, elem, queues,
                 opts ? (int)opts->sequence : 0, clipt_status_string(s), bad, first);
    free(data);
    free(orig);
    free(want);
    return s == CLIPT_SUCCESS && !bad;
}

/* host_exact, failing the test otherwise. */
static void expect_host_exact(clipt_context c, cl_command_queue q, size_t rows,
                              size_t cols, size_t elem, unsigned queues,
                              const clipt_plan_options *opts)
{
    char why[512];
    if (!host_exact(c, q, rows, cols, elem, queues, opts, why, sizeof why))
        fail_msg("%s", why);
}

/* The split clipt_transpose_host makes of this plan for Q queues. */
static void split_of(clipt_context c, size_t rows, size_t cols, size_t elem,
                     const clipt_plan_options *opts, unsigned queues,
                     clipt_host_split *sp, unsigned *num_stages)
{
    clipt_plan p = NULL;
    assert_status(clipt_plan_create(c, rows, cols, elem, opts, &p), CLIPT_SUCCESS);
    clipt_host_split_plan(p, queues, sp);
    *num_stages = p->num_stages;
    clipt_plan_release(p);
}

/* ---- every sequence ------------------------------------------------------------ */

/* With tiles 24 x 16 of 360 x 240 every stage moves data; the runs are the
 * stages with several instances at each end whose sizes nest. */
typedef struct sequence_case {
    clipt_sequence seq;
    unsigned stages, head, tail_first, tail;
} sequence_case;

static const sequence_case sequence_cases[] = {
    {CLIPT_SEQUENCE_1, 1, 0, 1, 0},   /* 100! of the whole matrix        */
    {CLIPT_SEQUENCE_2_1, 2, 1, 2, 0}, /* 010! tiles | 100!               */
    {CLIPT_SEQUENCE_2_2, 2, 0, 1, 1}, /* 100! | 010! tiles               */
    {CLIPT_SEQUENCE_3_1, 3, 0, 1, 2}, /* 100! | 0010!, 0100!             */
    {CLIPT_SEQUENCE_3_2, 3, 2, 3, 0}, /* 0100!, 0010! | 100!             */
    {CLIPT_SEQUENCE_4_1, 4, 2, 3, 1}, /* 0100!, 0010! | 1000! | 0100!    */
    {CLIPT_SEQUENCE_4_2, 4, 1, 2, 2}, /* 0100! | 1000! | 0010!, 0100!    */
    {CLIPT_SEQUENCE_4_3, 3, 1, 2, 1}, /* 0100! | fused 1000!+0010! | 0100! */
};

static void forced(clipt_plan_options *o, clipt_sequence seq)
{
    clipt_plan_options_init(o);
    o->sequence = seq;
    o->tile_m = 24;
    o->tile_n = 16;
}

static void test_split_of_each_sequence(void **state)
{
    for (size_t i = 0; i < COUNT(sequence_cases); i++) {
        const sequence_case *k = &sequence_cases[i];
        clipt_plan_options o;
        forced(&o, k->seq);
        for (size_t qi = 0; qi < COUNT(queue_counts); qi++) {
            const unsigned q = queue_counts[qi];
            clipt_host_split sp;
            unsigned stages = 0;
            split_of(TEST_ENV(state)->ctx, 360, 240, 4, &o, q, &sp, &stages);
            if (stages != k->stages || sp.head.count != k->head ||
                sp.tail.first != k->tail_first || sp.tail.count != k->tail)
                fail_msg("sequence %s: %u stages, head %u, tail %u+%u; expected %u, %u, "
                         "%u+%u", clipt_sequence_name(k->seq), stages, sp.head.count,
                         sp.tail.first, sp.tail.count, k->stages, k->head,
                         k->tail_first, k->tail);
            /* 15 instances of m x N (head) or of M x n (tail): 15 units */
            assert_int_equal(sp.head.chunks, k->head ? (q < 15 ? q : 15) : 1);
            assert_int_equal(sp.tail.chunks, k->tail ? (q < 15 ? q : 15) : 1);
            assert_int_equal(sp.queues, sp.head.chunks > sp.tail.chunks
                                            ? sp.head.chunks : sp.tail.chunks);
        }
    }
}

/* The pieces of a run cover the matrix in order, without gaps, each cut on
 * a multiple of the unit. */
static void test_pieces_tile_the_matrix(void **state)
{
    static const uint64_t totals[] = {15 * 5760, 7 * 384, 1000};
    static const uint64_t units[] = {5760, 384, 1000};
    (void)state;
    for (size_t t = 0; t < COUNT(totals); t++)
        for (unsigned chunks = 1; chunks <= 8; chunks++) {
            clipt_host_run r = {0, 1, units[t], chunks};
            uint64_t at = 0;
            if (chunks > totals[t] / units[t])
                continue;
            for (unsigned k = 0; k < chunks; k++) {
                uint64_t begin, end;
                clipt_host_chunk(&r, totals[t], k, &begin, &end);
                assert_true(begin == at && end > begin && begin % units[t] == 0);
                at = end;
            }
            assert_true(at == totals[t]);
        }
}

/* Every sequence with 1, 2, 3, 4 and 8 queues; the element size changes
 * with the case so that each size runs with each count of queues. */
static void test_every_sequence(void **state)
{
    for (size_t i = 0; i <= COUNT(sequence_cases); i++) {
        clipt_plan_options o;
        forced(&o, i < COUNT(sequence_cases) ? sequence_cases[i].seq : CLIPT_SEQUENCE_AUTO);
        for (size_t qi = 0; qi < COUNT(queue_counts); qi++)
            expect_host_exact(TEST_ENV(state)->ctx, TEST_ENV(state)->cl.queue, 360, 240,
                              elem_sizes[(i + qi) % COUNT(elem_sizes)],
                              queue_counts[qi], &o);
    }
}

/* Automatic plans of every element size, on a shape that is not square. */
static void test_every_element_size(void **state)
{
    for (size_t e = 0; e < COUNT(elem_sizes); e++)
        for (size_t qi = 0; qi < COUNT(queue_counts); qi++)
            expect_host_exact(TEST_ENV(state)->ctx, TEST_ENV(state)->cl.queue, 300, 182,
                              elem_sizes[e], queue_counts[qi], NULL);
}

/* ---- padding ------------------------------------------------------------------- */

typedef enum { PAD_ROWS = 1, PAD_COLS = 2 } padded_side;

/* With a GPU's 48 KiB of local memory these prime-sided shapes pad: rows
 * only (the last upload pieces hold padding), columns only (the last
 * read-back pieces hold padding), or both.  Each kind must turn up. */
static void test_padded_shapes(void **state)
{
    static const struct {
        size_t rows, cols;
        clipt_sequence seq;
    } shapes[] = {{4099, 17, CLIPT_SEQUENCE_3_2}, {17, 4099, CLIPT_SEQUENCE_3_1},
                  {1201, 1103, CLIPT_SEQUENCE_AUTO}, {4099, 4099, CLIPT_SEQUENCE_3_2},
                  {1103, 1201, CLIPT_SEQUENCE_4_1}, {997, 1009, CLIPT_SEQUENCE_4_2}};
    clipt_context gpu = test_context_limited(TEST_ENV(state), 48 * 1024);
    unsigned seen = 0;
    for (size_t i = 0; i < COUNT(shapes); i++) {
        clipt_plan_options o;
        clipt_plan p = NULL;
        clipt_plan_options_init(&o);
        o.sequence = shapes[i].seq;
        assert_status(clipt_plan_create(gpu, shapes[i].rows, shapes[i].cols, 2, &o, &p),
                      CLIPT_SUCCESS);
        seen |= 1u << ((p->choice.prows != p->rows ? PAD_ROWS : 0) |
                       (p->choice.pcols != p->cols ? PAD_COLS : 0));
        clipt_plan_release(p);
        for (size_t qi = 0; qi < COUNT(queue_counts); qi++)
            expect_host_exact(gpu, TEST_ENV(state)->cl.queue, shapes[i].rows,
                              shapes[i].cols, elem_sizes[(i + qi) % 4], queue_counts[qi],
                              &o);
    }
    clipt_context_release(gpu);
    if ((seen & 0xe) != 0xe)
        fail_msg("padding kinds seen (bit 1 rows, 2 cols, 3 both): 0x%x; the "
                 "candidate shapes no longer cover them", seen);
}

/* ---- vectors and queues ------------------------------------------------------------ */

static void test_vectors(void **state)
{
    static const size_t shapes[][2] = {{1, 1}, {1, 1000}, {1000, 1}, {1, 7}, {7, 1}};
    for (size_t i = 0; i < COUNT(shapes); i++)
        for (size_t qi = 0; qi < COUNT(queue_counts); qi++)
            expect_host_exact(TEST_ENV(state)->ctx, TEST_ENV(state)->cl.queue,
                              shapes[i][0], shapes[i][1], elem_sizes[(i + qi) % 5],
                              queue_counts[qi], NULL);
}

/* More queues than pieces, and the largest number of queues allowed. */
static void test_many_queues(void **state)
{
    clipt_plan_options o;
    forced(&o, CLIPT_SEQUENCE_4_1);
    expect_host_exact(TEST_ENV(state)->ctx, TEST_ENV(state)->cl.queue, 360, 240, 4,
                      CLIPT_HOST_MAX_QUEUES, &o);
    expect_host_exact(TEST_ENV(state)->ctx, TEST_ENV(state)->cl.queue, 48, 32, 8, 20, NULL);
}

/* The caller's queue may be out of order: clipt chains by events. */
static void test_host_out_of_order_queue(void **state)
{
    test_env *env = TEST_ENV(state);
    cl_command_queue q = test_out_of_order_queue(env);
    clipt_plan_options o;
    if (!q)
        skip(); /* the reason is printed by test_out_of_order_queue */
    forced(&o, CLIPT_SEQUENCE_4_2);
    expect_host_exact(env->ctx, q, 360, 240, 2, 1, &o);
    expect_host_exact(env->ctx, q, 360, 240, 16, 4, &o);
    clReleaseCommandQueue(q);
}

/* A thread's work and what it found: the thread records, the main thread
 * asserts (cmocka's assertions are not for other threads). */
typedef struct thread_job {
    test_env *env;
    unsigned queues;
    int exact;          /* transpositions found exact */
    char failure[512];  /* the first failure, empty if none */
} thread_job;

static void *transpose_three(void *arg)
{
    thread_job *job = arg;
    clipt_plan_options o;
    forced(&o, CLIPT_SEQUENCE_3_1);
    for (int i = 0; i < 3 && !job->failure[0]; i++)
        if (host_exact(job->env->ctx, job->env->cl.queue, 360, 240, 4, job->queues, &o,
                       job->failure, sizeof job->failure))
            job->exact++;
    return NULL;
}

/* Two threads at once on one context and one queue. */
static void test_threads_share_context_and_queue(void **state)
{
    pthread_t t;
    thread_job a = {TEST_ENV(state), 2, 0, ""}, b = {TEST_ENV(state), 3, 0, ""};
    assert_int_equal(pthread_create(&t, NULL, transpose_three, &a), 0);
    transpose_three(&b);
    assert_int_equal(pthread_join(t, NULL), 0);
    if (a.failure[0] || b.failure[0])
        fail_msg("%s%s%s", a.failure, a.failure[0] && b.failure[0] ? "; " : "", b.failure);
    assert_int_equal(a.exact, 3);
    assert_int_equal(b.exact, 3);
}

/* ---- bad input ------------------------------------------------------------------- */

typedef struct bad_case {
    const char *what;
    int null_context, null_queue, null_data, other_queue;
    size_t rows, cols, elem;
    unsigned queues;
    int option; /* 0 none, 1 a reserved field set, 2 a tile that does not divide */
    clipt_status want;
} bad_case;

static const bad_case bad_cases[] = {
    {"NULL context", 1, 0, 0, 0, 64, 48, 4, 2, 0, CLIPT_ERROR_NULL_ARGUMENT},
    {"NULL queue", 0, 1, 0, 0, 64, 48, 4, 2, 0, CLIPT_ERROR_NULL_ARGUMENT},
    {"NULL data", 0, 0, 1, 0, 64, 48, 4, 2, 0, CLIPT_ERROR_NULL_ARGUMENT},
    {"no queues", 0, 0, 0, 0, 64, 48, 4, 0, 0, CLIPT_ERROR_INVALID_OPTION},
    {"too many queues", 0, 0, 0, 0, 64, 48, 4, CLIPT_HOST_MAX_QUEUES + 1, 0,
     CLIPT_ERROR_INVALID_OPTION},
    {"queue of another context", 0, 0, 0, 1, 64, 48, 4, 2, 0, CLIPT_ERROR_DEVICE_MISMATCH},
    {"3-byte elements", 0, 0, 0, 0, 64, 48, 3, 2, 0, CLIPT_ERROR_INVALID_ELEM_SIZE},
    {"no rows", 0, 0, 0, 0, 0, 48, 4, 2, 0, CLIPT_ERROR_INVALID_SHAPE},
    {"no columns", 0, 0, 0, 0, 64, 0, 4, 2, 0, CLIPT_ERROR_INVALID_SHAPE},
    {"size overflow", 0, 0, 0, 0, SIZE_MAX / 2, 3, 4, 2, 0, CLIPT_ERROR_SHAPE_OVERFLOW},
    {"reserved option", 0, 0, 0, 0, 64, 48, 4, 2, 1, CLIPT_ERROR_INVALID_OPTION},
    {"tile not dividing (padding NONE)", 0, 0, 0, 0, 64, 48, 4, 2, 2,
     CLIPT_ERROR_INCOMPATIBLE_OPTIONS},
};

/* Each bad call returns its status and leaves the array byte for byte as it
 * was (the array is the 64 x 48 x 4 bytes every case points at). */
static void test_bad_input(void **state)
{
    test_env *env = TEST_ENV(state);
    const size_t bytes = 64 * 48 * 4;
    unsigned char *data = malloc(bytes), *orig = malloc(bytes);
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &env->cl.device, NULL, NULL, &err);
    cl_command_queue other_queue = NULL;
    assert_status(err, CL_SUCCESS);
    other_queue = clCreateCommandQueue(other, env->cl.device, 0, &err);
    assert_status(err, CL_SUCCESS);
    assert_non_null(data);
    assert_non_null(orig);
    test_fill_pattern(orig, 64 * 48, 4, 99);
    for (size_t i = 0; i < COUNT(bad_cases); i++) {
        const bad_case *k = &bad_cases[i];
        clipt_plan_options o;
        size_t first = 0;
        clipt_status s;
        clipt_plan_options_init(&o);
        o.reserved[0] = k->option == 1;
        o.tile_m = k->option == 2 ? 7 : 0;
        o.padding = k->option == 2 ? CLIPT_PADDING_NONE : CLIPT_PADDING_AUTO;
        memcpy(data, orig, bytes);
        s = clipt_transpose_host(k->null_context ? NULL : env->ctx,
                                 k->null_queue ? NULL
                                               : k->other_queue ? other_queue : env->cl.queue,
                                 k->null_data ? NULL : data, k->rows, k->cols, k->elem,
                                 k->queues, &o);
        if (s != k->want)
            fail_msg("%s: %s, expected %s", k->what, clipt_status_string(s),
                     clipt_status_string(k->want));
        if (test_mismatches(data, orig, bytes, &first))
            fail_msg("%s: the array changed (first at byte %zu)", k->what, first);
    }
    clReleaseCommandQueue(other_queue);
    clReleaseContext(other);
    free(data);
    free(orig);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pieces_tile_the_matrix),
        cmocka_unit_test(test_split_of_each_sequence),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_every_sequence),
        cmocka_unit_test(test_every_element_size),
        cmocka_unit_test(test_many_queues),
        cmocka_unit_test(test_host_out_of_order_queue),
        cmocka_unit_test(test_threads_share_context_and_queue),
        cmocka_unit_test(test_padded_shapes),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
