/* The context's pool of kernels and buffers (src/pool.h): plans made from
 * pooled objects give the results and the plans of fresh ones, bit-exact;
 * live plans never share a kernel or a buffer; a buffer given back while
 * its plan's run is still pending is not taken again before the run
 * settles; a plan released before its first run gives back what it took;
 * segment tables come back named by their contents and a plan of the same
 * stage shape takes them whole (never unwritten or failed ones); the cap
 * bounds the pool and clearing empties it. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "support.h"
#include "plan.h"
#include "stage_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Shapes of every kind of plan on the default (PoCL) and an H100-like
 * profile: tiles alone, segment walks (tables and saved heads), PTTWAC,
 * padding, single rows and columns, several element sizes. */
static const size_t shapes[][3] = { /* rows, cols, elem */
    {1, 1, 4},    {1, 300, 4},  {257, 1, 8},  {64, 64, 4},   {301, 517, 4},
    {1200, 1500, 4}, {97, 89, 2}, {131, 640, 1}, {480, 97, 16}, {1111, 2003, 4}};

/* Default options but the algorithm. */
static clipt_plan_options with_algorithm(clipt_algorithm algorithm)
{
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.algorithm = algorithm;
    return o;
}

/* A pattern buffer of p's size in *buf; returns its host copy. */
static unsigned char *fill(test_env *env, clipt_plan p, uint64_t seed, cl_mem *buf)
{
    unsigned char *host = NULL;
    *buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, clipt_plan_buffer_size(p), seed, &host);
    return host;
}

/* Enqueues p on a new pattern buffer and fails unless the transpose comes
 * out. */
static void run_and_check(test_env *env, clipt_plan p, size_t rows, size_t cols, size_t elem,
                          uint64_t seed)
{
    const size_t bytes = rows * cols * elem;
    cl_mem buf;
    unsigned char *host = fill(env, p, seed, &buf);
    unsigned char *want = malloc(bytes ? bytes : 1);
    assert_non_null(want);
    test_reference_transpose(host, want, rows, cols, elem);
    assert_status(clipt_enqueue(p, env->cl.queue, buf, 0, 0, NULL, NULL), CLIPT_SUCCESS);
    test_expect_buffer(env, buf, want, bytes, "a plan of pooled objects");
    clReleaseMemObject(buf);
    free(host);
    free(want);
}

static void describe(clipt_plan p, char *text, size_t len)
{
    assert_status(clipt_plan_describe(p, text, len), CLIPT_SUCCESS);
}

/* Each shape twice on `pooled` (the second plan from the first one's
 * kernels and buffers) and once on `fresh` (no pool), with `algorithm`:
 * all three exact, and the plans alike (describe: launch sizes, local
 * memory, options). */
static void pooled_like_fresh(test_env *env, clipt_context pooled, clipt_context fresh,
                              clipt_algorithm algorithm)
{
    static char a[1 << 14], b[1 << 14];
    const clipt_plan_options o = with_algorithm(algorithm);
    clipt_context_set_pool_limit(fresh, 0);
    for (size_t i = 0; i < COUNT(shapes); i++) {
        const size_t rows = shapes[i][0], cols = shapes[i][1], elem = shapes[i][2];
        clipt_plan p, q;
        for (int round = 0; round < 2; round++) {
            assert_status(clipt_plan_create(pooled, rows, cols, elem, &o, &p), CLIPT_SUCCESS);
            run_and_check(env, p, rows, cols, elem, 7 * i + (size_t)round);
            describe(p, a, sizeof a);
            clipt_plan_release(p);
        }
        assert_status(clipt_plan_create(fresh, rows, cols, elem, &o, &q), CLIPT_SUCCESS);
        run_and_check(env, q, rows, cols, elem, 7 * i + 5);
        describe(q, b, sizeof b);
        clipt_plan_release(q);
        if (strcmp(a, b) != 0)
            fail_msg("%zu x %zu: the pooled plan differs from a fresh one:\n%s\n--\n%s", rows,
                     cols, a, b);
    }
    assert_true(pooled->pool.kernels_reused > 0);
    assert_true(pooled->pool.buffers_reused > 0);
    assert_int_equal(fresh->pool.kernels_reused + fresh->pool.buffers_reused, 0);
    assert_int_equal(fresh->pool.num_kernels + fresh->pool.num_buffers, 0);
}

static void test_pooled_plans_match_fresh_ones(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context pooled, fresh;
    assert_status(clipt_context_create(env->cl.context, env->cl.device, &pooled),
                  CLIPT_SUCCESS);
    assert_status(clipt_context_create(env->cl.context, env->cl.device, &fresh),
                  CLIPT_SUCCESS);
    pooled_like_fresh(env, pooled, fresh, CLIPT_ALGORITHM_AUTO);
    clipt_context_release(pooled);
    clipt_context_release(fresh);
    /* plans as the H100 makes them: the TPDS sequences (segment tables,
     * tiles in local memory), then the automatic plans (C2R's for the
     * coprime shapes with short columns) */
    for (int round = 0; round < 2; round++) {
        pooled = test_context_gpu_like(env, "NVIDIA H100 80GB HBM3", "NVIDIA Corporation");
        fresh = test_context_gpu_like(env, "NVIDIA H100 80GB HBM3", "NVIDIA Corporation");
        pooled_like_fresh(env, pooled, fresh,
                          round ? CLIPT_ALGORITHM_AUTO : CLIPT_ALGORITHM_TPDS);
        clipt_context_release(pooled);
        clipt_context_release(fresh);
    }
}

/* Every kernel and buffer of a and b differ. */
static void assert_nothing_shared(clipt_plan a, clipt_plan b)
{
    if (a->scratch || b->scratch)
        assert_ptr_not_equal(a->scratch, b->scratch);
    for (unsigned i = 0; i < a->num_stages; i++)
        for (unsigned k = 0; k < b->num_stages; k++) {
            const clipt_stage *s = &a->stages[i], *t = &b->stages[k];
            assert_ptr_not_equal(s->kernel, t->kernel);
            if (s->family == &clipt_family_shift100_segments &&
                t->family == &clipt_family_shift100_segments) {
                assert_ptr_not_equal(s->f.segments.walk, t->f.segments.walk);
                assert_ptr_not_equal(s->f.segments.table, t->f.segments.table);
            }
        }
}

/* The H100-like plan of 1111 x 2003: a segment walk (tables, saved heads
 * in the scratch buffer) and tiles, the TPDS sequences forced (the
 * automatic plan of these coprime sides with short columns is C2R's). */
static clipt_context walk_context(test_env *env)
{
    return test_context_gpu_like(env, "NVIDIA H100 80GB HBM3", "NVIDIA Corporation");
}
#define WR 1111
#define WC 2003

static clipt_status create_walk(clipt_context c, size_t rows, size_t cols, size_t elem,
                                clipt_plan *p)
{
    const clipt_plan_options o = with_algorithm(CLIPT_ALGORITHM_TPDS);
    return clipt_plan_create(c, rows, cols, elem, &o, p);
}

static int has_walk(clipt_plan p)
{
    for (unsigned i = 0; i < p->num_stages; i++)
        if (p->stages[i].family == &clipt_family_shift100_segments)
            return 1;
    return 0;
}

/* Whether every segment walk of p cut its segments at creation (else it
 * took its table whole from the pool). */
static int cut_here(clipt_plan p)
{
    int walks = 0;
    for (unsigned i = 0; i < p->num_stages; i++)
        if (p->stages[i].family == &clipt_family_shift100_segments) {
            walks++;
            if (!p->stages[i].f.segments.host)
                return 0;
        }
    return walks > 0;
}

static void test_live_plans_share_nothing(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context c = walk_context(env);
    clipt_plan p1, p2, p3;
    assert_status(create_walk(c, WR, WC, 4, &p1), CLIPT_SUCCESS);
    assert_true(has_walk(p1) && p1->scratch);
    run_and_check(env, p1, WR, WC, 4, 1);
    assert_status(create_walk(c, WR, WC, 4, &p2), CLIPT_SUCCESS);
    assert_nothing_shared(p1, p2);
    clipt_plan_release(p1);
    /* p3 takes what p1 gave back, never what p2 holds */
    assert_status(create_walk(c, WR, WC, 4, &p3), CLIPT_SUCCESS);
    assert_true(c->pool.buffers_reused > 0 && c->pool.kernels_reused > 0);
    assert_nothing_shared(p2, p3);
    run_and_check(env, p3, WR, WC, 4, 2);
    run_and_check(env, p2, WR, WC, 4, 3);
    clipt_plan_release(p2);
    clipt_plan_release(p3);
    clipt_context_release(c);
}

static void test_release_before_first_run(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context c = walk_context(env);
    clipt_plan p;
    assert_status(create_walk(c, WR, WC, 4, &p), CLIPT_SUCCESS);
    clipt_plan_release(p); /* its tables never written: given back as they are */
    assert_true(c->pool.num_buffers > 0 && c->pool.num_kernels > 0);
    assert_status(create_walk(c, WR, WC, 4, &p), CLIPT_SUCCESS);
    assert_true(c->pool.buffers_reused > 0);
    /* ... but not as holding segments: this plan lists and cuts its own */
    assert_int_equal(c->pool.contents_reused, 0);
    assert_true(cut_here(p));
    run_and_check(env, p, WR, WC, 4, 4);
    clipt_plan_release(p);
    clipt_context_release(c);
}

/* The buffers of p (scratch and tables), into out; returns how many. */
static unsigned buffers_of(clipt_plan p, cl_mem *out)
{
    unsigned n = 0;
    if (p->scratch)
        out[n++] = p->scratch;
    for (unsigned i = 0; i < p->num_stages; i++)
        if (p->stages[i].family == &clipt_family_shift100_segments) {
            out[n++] = p->stages[i].f.segments.table;
        }
    return n;
}

static int holds_any(clipt_plan p, const cl_mem *mems, unsigned n)
{
    cl_mem own[CLIPT_MAX_PLAN_STAGES + 1];
    const unsigned k = buffers_of(p, own);
    for (unsigned i = 0; i < k; i++)
        for (unsigned j = 0; j < n; j++)
            if (own[i] == mems[j])
                return 1;
    return 0;
}

/* Whether no segment walk of p cut anything (all tables from the pool). */
static int all_taken_whole(clipt_plan p)
{
    for (unsigned i = 0; i < p->num_stages; i++)
        if (p->stages[i].family == &clipt_family_shift100_segments &&
            p->stages[i].f.segments.host)
            return 0;
    return has_walk(p);
}

/* A plan of a shape made before takes the tables that plan wrote, with
 * its segments, and lists and cuts nothing; the result and the plan are those of a
 * plan that cut its own.  Another shape, another element size's budget or
 * the walk's order never take them. */
static void test_tables_taken_whole(void **state)
{
    test_env *env = TEST_ENV(state);
    static char a[1 << 14], b[1 << 14];
    clipt_context c = walk_context(env);
    clipt_plan p;
    assert_status(create_walk(c, WR, WC, 4, &p), CLIPT_SUCCESS);
    assert_true(cut_here(p));
    run_and_check(env, p, WR, WC, 4, 20);
    describe(p, a, sizeof a);
    clipt_plan_release(p);
    for (int round = 0; round < 3; round++) {
        const unsigned long before = c->pool.contents_reused;
        assert_status(create_walk(c, WR, WC, 4, &p), CLIPT_SUCCESS);
        assert_true(all_taken_whole(p));
        assert_true(c->pool.contents_reused > before);
        describe(p, b, sizeof b);
        assert_string_equal(a, b);
        run_and_check(env, p, WR, WC, 4, 21 + (uint64_t)round);
        clipt_plan_release(p);
    }
    /* other shapes: their own segments, right */
    assert_status(create_walk(c, WC, WR, 4, &p), CLIPT_SUCCESS);
    assert_true(cut_here(p));
    run_and_check(env, p, WC, WR, 4, 24);
    clipt_plan_release(p);
    assert_status(create_walk(c, WR, WC, 2, &p), CLIPT_SUCCESS);
    if (has_walk(p))
        assert_true(cut_here(p));
    run_and_check(env, p, WR, WC, 2, 25);
    clipt_plan_release(p);
    /* the walk's segment order is another table */
    setenv("CLIPT_CYCLE_WALK", "1", 1);
    assert_status(create_walk(c, WR, WC, 4, &p), CLIPT_SUCCESS);
    unsetenv("CLIPT_CYCLE_WALK");
    assert_true(cut_here(p));
    run_and_check(env, p, WR, WC, 4, 26);
    clipt_plan_release(p);
    /* clearing drops them: the next plan cuts again */
    clipt_context_plan_cache_clear(c);
    assert_status(create_walk(c, WR, WC, 4, &p), CLIPT_SUCCESS);
    assert_true(cut_here(p));
    run_and_check(env, p, WR, WC, 4, 27);
    clipt_plan_release(p);
    clipt_context_release(c);
}

/* ---- the name is the cut ----------------------------------------------- */

/* A segment walk's spec: instances x (a x b) of s-element super-elements. */
static clipt_stage_spec walk_spec(uint64_t instances, uint64_t s)
{
    clipt_stage_spec sp = {CLIPT_OP_MOVE_SUPER, "test", instances, 1009, 1013, s, 0, 0, 0};
    return sp;
}

/* sp prepared as a segment walk on c: its segment length, whether it cut
 * its own table (else it took one whole from the pool), and the pool's
 * named takes so far; released unrun. */
static unsigned prepared_len(clipt_context c, const clipt_stage_spec *sp, size_t elem,
                             int *cut, unsigned long *taken)
{
    clipt_stage st;
    unsigned len;
    assert_status(clipt_stage_prepare_as(c, sp, CLIPT_FAMILY_SUPER_SEGMENTS, elem,
                                         &c->profile.tuning, &st), CLIPT_SUCCESS);
    len = st.f.segments.len;
    *cut = st.f.segments.host != NULL;
    *taken = c->pool.contents_reused;
    clipt_stage_release(&st);
    return len;
}

/* sp run as a segment walk on env's context, exact. */
static void run_walk_stage(test_env *env, const clipt_stage_spec *sp, size_t elem)
{
    size_t bad = 0;
    assert_status(test_run_stage_as(env, sp, CLIPT_FAMILY_SUPER_SEGMENTS, elem, 0, NULL, &bad,
                                    NULL), CLIPT_SUCCESS);
    assert_int_equal(bad, 0);
}

/* The pool names a table by what its cut depends on: a x b and the bytes
 * of one position (instances x s x elem; with a x b they set the memory
 * rule's budget too).  1009 x 1013 with 64 bytes a position (65 MB) and
 * with 4 (4 MB) both stay under the budget's 4 MiB floor, yet are cut
 * with other segment lengths: neither takes the other's table (a name on
 * the budget gave both one name).  A stage of 64 bytes a position made
 * of other instances, s and elem is cut alike and takes the table. */
static void test_tables_named_by_their_cut(void **state)
{
    const clipt_stage_spec wide = walk_spec(1, 4), narrow = walk_spec(1, 1),
                           alike = walk_spec(2, 4);
    test_env env = *TEST_ENV(state);
    clipt_context fresh = env.ctx;
    unsigned long taken = 0, before;
    unsigned wide_len, narrow_len;
    int cut = 0;
    /* the premise: on a context with nothing pooled, other lengths */
    clipt_context_plan_cache_clear(fresh);
    wide_len = prepared_len(fresh, &wide, 16, &cut, &taken);
    narrow_len = prepared_len(fresh, &narrow, 4, &cut, &taken);
    if (wide_len == narrow_len)
        fail_msg("both stages cut with length %u: the test needs other lengths", wide_len);
    assert_status(clipt_context_create(env.cl.context, env.cl.device, &env.ctx),
                  CLIPT_SUCCESS);
    run_walk_stage(&env, &wide, 16); /* its table goes back named */
    before = env.ctx->pool.contents_reused;
    assert_int_equal(prepared_len(env.ctx, &narrow, 4, &cut, &taken), narrow_len);
    assert_true(cut && taken == before);
    run_walk_stage(&env, &narrow, 4);
    before = env.ctx->pool.contents_reused;
    assert_int_equal(prepared_len(env.ctx, &wide, 16, &cut, &taken), wide_len);
    assert_true(!cut && taken == before + 1);
    /* 2 x (1009 x 1013) of 2 x 16 bytes: 64 bytes a position, as `wide` */
    assert_int_equal(prepared_len(env.ctx, &alike, 8, &cut, &taken), wide_len);
    assert_true(!cut && taken == before + 2);
    run_walk_stage(&env, &alike, 8);
    clipt_context_release(env.ctx);
}

/* A table whose plan's last run failed (it waited for an event that failed)
 * is given back as plain memory: the next plan lists and cuts again. */
static void test_failed_run_loses_the_tables(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context c = walk_context(env);
    clipt_plan p;
    cl_mem buf;
    cl_int err;
    cl_event gate = clCreateUserEvent(env->cl.context, &err);
    unsigned char *host;
    assert_status(err, CL_SUCCESS);
    assert_status(create_walk(c, WR, WC, 4, &p), CLIPT_SUCCESS);
    host = fill(env, p, 30, &buf);
    assert_status(clipt_enqueue(p, env->cl.queue, buf, 0, 1, &gate, NULL), CLIPT_SUCCESS);
    clFlush(env->cl.queue);
    clipt_plan_release(p);
    /* the run fails: its events end in an error */
    assert_status(clSetUserEventStatus(gate, -1), CL_SUCCESS);
    clFinish(env->cl.queue);
    assert_status(create_walk(c, WR, WC, 4, &p), CLIPT_SUCCESS);
    assert_int_equal(c->pool.contents_reused, 0);
    assert_true(cut_here(p));
    run_and_check(env, p, WR, WC, 4, 31);
    clipt_plan_release(p);
    clReleaseEvent(gate);
    clReleaseMemObject(buf);
    free(host);
    clipt_context_release(c);
}

/* A plan released while its run waits for an event: its buffers stay out
 * of reach until the run settles; its run still comes out right. */
static void test_release_while_pending(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context c = walk_context(env);
    const size_t bytes = (size_t)WR * WC * 4;
    cl_mem old[CLIPT_MAX_PLAN_STAGES + 1];
    unsigned char *host, *want = malloc(bytes);
    clipt_plan p1, p2, p3;
    cl_mem buf;
    cl_int err;
    cl_event gate = clCreateUserEvent(env->cl.context, &err);
    unsigned n;
    assert_status(err, CL_SUCCESS);
    assert_non_null(want);
    assert_status(create_walk(c, WR, WC, 4, &p1), CLIPT_SUCCESS);
    host = fill(env, p1, 9, &buf);
    test_reference_transpose(host, want, WR, WC, 4);
    assert_status(clipt_enqueue(p1, env->cl.queue, buf, 0, 1, &gate, NULL), CLIPT_SUCCESS);
    clFlush(env->cl.queue);
    n = buffers_of(p1, old);
    assert_true(n >= 2);
    clipt_plan_release(p1);
    /* the run waits for the gate: none of its buffers may be taken */
    assert_status(create_walk(c, WR, WC, 4, &p2), CLIPT_SUCCESS);
    assert_false(holds_any(p2, old, n));
    assert_status(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    test_expect_buffer(env, buf, want, bytes, "the run of a plan released before it ran");
    /* settled now: the next plan takes them */
    assert_status(create_walk(c, WR, WC, 4, &p3), CLIPT_SUCCESS);
    assert_true(holds_any(p3, old, n));
    run_and_check(env, p3, WR, WC, 4, 10);
    run_and_check(env, p2, WR, WC, 4, 11);
    clipt_plan_release(p2);
    clipt_plan_release(p3);
    clReleaseEvent(gate);
    clReleaseMemObject(buf);
    free(host);
    free(want);
    clipt_context_release(c);
}

static void test_cap_and_clear(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context c = walk_context(env);
    clipt_plan p;
    unsigned long reused;
    /* one byte: no buffer fits, kernels still pooled */
    clipt_context_set_pool_limit(c, 1);
    assert_status(create_walk(c, WR, WC, 4, &p), CLIPT_SUCCESS);
    clipt_plan_release(p);
    assert_int_equal(c->pool.num_buffers, 0);
    assert_int_equal(c->pool.held_bytes, 0);
    assert_true(c->pool.num_kernels > 0);
    /* a cap the plan's buffers fit: kept, within the cap */
    clipt_context_set_pool_limit(c, (size_t)1 << 26);
    assert_status(create_walk(c, WR, WC, 4, &p), CLIPT_SUCCESS);
    clipt_plan_release(p);
    assert_true(c->pool.num_buffers > 0);
    assert_true(c->pool.held_bytes > 0 && c->pool.held_bytes <= (size_t)1 << 26);
    /* lowering the cap releases at once what exceeds it */
    clipt_context_set_pool_limit(c, c->pool.held_bytes - 1);
    assert_true(c->pool.held_bytes <= c->pool.cap_bytes);
    /* clearing empties it; plans made then create everything again */
    clipt_context_plan_cache_clear(c);
    assert_int_equal(c->pool.num_buffers + c->pool.num_kernels + c->pool.num_infos, 0);
    assert_int_equal(c->pool.held_bytes, 0);
    reused = c->pool.buffers_reused;
    assert_status(create_walk(c, WR, WC, 4, &p), CLIPT_SUCCESS);
    assert_int_equal(c->pool.buffers_reused, reused);
    run_and_check(env, p, WR, WC, 4, 12);
    clipt_plan_release(p);
    /* 0: nothing pooled, nothing kept */
    clipt_context_set_pool_limit(c, 0);
    assert_int_equal(c->pool.num_buffers + c->pool.num_kernels + c->pool.num_infos, 0);
    assert_status(create_walk(c, WR, WC, 4, &p), CLIPT_SUCCESS);
    run_and_check(env, p, WR, WC, 4, 13);
    clipt_plan_release(p);
    assert_int_equal(c->pool.num_buffers + c->pool.num_kernels, 0);
    clipt_context_set_pool_limit(NULL, 0); /* accepted */
    /* plans alive when the context's handle goes give back into it, and it
     * goes after them (leak checkers see the pool released) */
    clipt_context_set_pool_limit(c, (size_t)1 << 26);
    assert_status(create_walk(c, WR, WC, 4, &p), CLIPT_SUCCESS);
    clipt_context_release(c);
    run_and_check(env, p, WR, WC, 4, 14);
    clipt_plan_release(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pooled_plans_match_fresh_ones),
        cmocka_unit_test(test_live_plans_share_nothing),
        cmocka_unit_test(test_release_before_first_run),
        cmocka_unit_test(test_release_while_pending),
        cmocka_unit_test(test_tables_taken_whole),
        cmocka_unit_test(test_tables_named_by_their_cut),
        cmocka_unit_test(test_failed_run_loses_the_tables),
        cmocka_unit_test(test_cap_and_clear),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
