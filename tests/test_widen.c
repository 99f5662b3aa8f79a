/* Widened passes (clipt_permute_widen, issue 15): a pass (A, B, C, D)
 * whose runs of D elements make 2, 4, 8 or 16 bytes moves them as single
 * elements, one batched B x C transposition instead of a tile pass and a
 * transposition.  The rule and its cost on the host; whole plans bit-exact
 * against hostmat_permute for every element size and run length that is
 * and is not widenable (odd D, D * elem over 16 bytes), alone, batched and
 * inside plans of several passes, at offsets aligned to the wide element
 * and not (those run the plan's twin without widening, made at the first
 * such enqueue: from then on scratch_size counts it, and profile reports
 * the stages of whichever ran last); describe's words. */
#include "support.h"
#include "internal.h"
#include "permute.h"
#include "plan.h"

#include <stdio.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};
static const uint64_t run_lengths[] = {2, 3, 4, 5, 8, 16};

static int kernel_size(uint64_t bytes)
{
    return bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16;
}

static void host_rule(void **state)
{
    (void)state;
    for (size_t e = 0; e < COUNT(elem_sizes); e++)
        for (uint64_t d = 1; d <= 20; d++) {
            const clipt_permute_pass ps = {7, 3, 5, d};
            const uint64_t want = d > 1 && kernel_size(d * elem_sizes[e]) ? d : 1;
            const clipt_permute_costs wide = {24, 4096, elem_sizes[e]}, narrow = {24, 4096, 0};
            assert_int_equal(clipt_permute_widen(&ps, elem_sizes[e]), want);
            assert_int_equal(clipt_permute_widen(&ps, 0), 1);
            /* a widened pass costs what a batched transposition that fits
             * a tile does; unwidened, a small D adds the tile pass */
            if (d > 1 && d < 24)
                assert_int_equal(clipt_permute_pass_cost(&ps, &wide), want > 1 ? 10 : 20);
            if (d > 1 && d < 24)
                assert_int_equal(clipt_permute_pass_cost(&ps, &narrow), 20);
        }
}

/* Runs a fresh plan at offsets 0, one element, the wide element and three
 * elements: exact every time, the twin run exactly when the offset is not
 * a multiple of the widest element and made at the first such run (none
 * before, none for a plan that widens nothing), scratch_size counting it
 * from then on, and profile reporting the stages that ran. */
static void check_plan_offsets(test_env *env, clipt_plan p, unsigned ndim, const size_t *dims,
                               const unsigned *perm, size_t elem)
{
    const size_t offsets[] = {0, elem, p->word_bytes, 3 * elem};
    const size_t own = p->scratch_bytes + p->aux_bytes + p->tail_bytes;
    assert_null(p->narrow);
    assert_int_equal(clipt_plan_scratch_size(p), own);
    for (size_t o = 0; o < COUNT(offsets); o++) {
        size_t bad = 0;
        unsigned stages = 0;
        clipt_status s = test_check_permute(env, p, ndim, dims, perm, elem, offsets[o], &bad);
        if (s != CLIPT_SUCCESS || bad)
            fail_msg("ndim %u (%zu, %zu, ...), %zu-byte elements at byte offset %zu "
                     "(widest %zu): %s, %zu bytes wrong",
                     ndim, dims[0], dims[1], elem, offsets[o], p->word_bytes,
                     clipt_status_string(s), bad);
        assert_int_equal(p->last_ran_narrow, offsets[o] % p->word_bytes != 0);
        assert_status(clipt_plan_profile(p, NULL, NULL, 0, &stages), CLIPT_SUCCESS);
        assert_int_equal(stages, p->last_ran_narrow ? p->narrow->num_stages : p->num_stages);
        assert_int_equal(clipt_plan_scratch_size(p),
                         own + (p->narrow ? clipt_plan_scratch_size(p->narrow) : 0));
        if (p->narrow) {
            assert_int_equal(p->narrow->word_bytes, elem); /* nothing widened there */
            assert_null(p->narrow->narrow);
        }
    }
    /* a plan reading nothing wider than its element never needs the twin */
    assert_true((p->narrow != NULL) == (p->word_bytes > elem));
}

/* (B, C, D) -> (C, B, D) and the batch (A, B, C, D) -> (A, C, B, D): one
 * batched transposition of D * elem-byte elements where that is an
 * element size, else the tile pass and the transposition. */
static void single_pass(void **state)
{
    test_env *env = TEST_ENV(state);
    static const unsigned swap[3] = {1, 0, 2}, batch[4] = {0, 2, 1, 3};
    for (size_t e = 0; e < COUNT(elem_sizes); e++)
        for (size_t r = 0; r < COUNT(run_lengths); r++) {
            const size_t elem = elem_sizes[e], d = run_lengths[r];
            const int wide = kernel_size(d * elem);
            const size_t three[3] = {5, 7, d}, four[4] = {3, 4, 9, d};
            clipt_plan p = NULL;
            assert_status(clipt_plan_create_permute(env->ctx, 3, three, swap, elem, NULL, &p),
                          CLIPT_SUCCESS);
            assert_int_equal(p->word_bytes, wide ? d * elem : elem);
            assert_int_equal(p->stages[0].elem, wide ? d * elem : elem);
            check_plan_offsets(env, p, 3, three, swap, elem);
            clipt_plan_release(p);
            assert_status(clipt_plan_create_permute(env->ctx, 4, four, batch, elem, NULL, &p),
                          CLIPT_SUCCESS);
            assert_int_equal(p->word_bytes, wide ? d * elem : elem);
            check_plan_offsets(env, p, 4, four, batch, elem);
            clipt_plan_release(p);
        }
}

/* Every permutation of 4-D shapes whose last axis is a short run: widened
 * passes inside plans of several passes, next to unwidened ones; at least
 * one plan of several passes must widen one of them. */
static void every_4d_permutation(void **state)
{
    test_env *env = TEST_ENV(state);
    static const size_t shapes[][4] = {{3, 5, 7, 2}, {2, 3, 5, 4}, {5, 2, 3, 3}};
    static const size_t elems[] = {4, 2, 8};
    unsigned widened_multi = 0;
    for (size_t s = 0; s < COUNT(shapes); s++) {
        unsigned perm[4] = {0, 1, 2, 3};
        for (unsigned k = 0; k < 24; k++) {
            clipt_plan p = NULL;
            /* the k-th permutation in lexicographic order */
            unsigned left[4] = {0, 1, 2, 3}, n = 4, code = k, f = 6;
            for (unsigned i = 0; i < 4; i++) {
                const unsigned pick = code / f;
                perm[i] = left[pick];
                for (unsigned j = pick; j + 1 < n; j++)
                    left[j] = left[j + 1];
                n--;
                code %= f;
                f = n > 1 ? f / n : 1;
            }
            assert_status(clipt_plan_create_permute(env->ctx, 4, shapes[s], perm, elems[s],
                                                    NULL, &p),
                          CLIPT_SUCCESS);
            if (p->nd.num_passes > 1 && p->word_bytes > elems[s])
                widened_multi++;
            check_plan_offsets(env, p, 4, shapes[s], perm, elems[s]);
            clipt_plan_release(p);
        }
    }
    assert_true(widened_multi > 0);
}

/* describe's text for the (5, 7, d) -> (7, 5, d) fp32 plan */
static const char *describe_swap(test_env *env, size_t d)
{
    static char text[16384];
    const size_t dims[3] = {5, 7, d};
    const unsigned swap[3] = {1, 0, 2};
    clipt_plan p = NULL;
    assert_status(clipt_plan_create_permute(env->ctx, 3, dims, swap, 4, NULL, &p),
                  CLIPT_SUCCESS);
    clipt_plan_describe(p, text, sizeof text);
    clipt_plan_release(p);
    return text;
}

/* describe names the widened element; a plan without it does not. */
static void describe_widened(void **state)
{
    test_env *env = TEST_ENV(state);
    const char *text = describe_swap(env, 2);
    assert_non_null(strstr(text, "2-D transposition of 8-byte elements (each run of D = 2"));
    assert_non_null(strstr(text, "ELEM_TYPE=ulong"));
    text = describe_swap(env, 3);
    assert_null(strstr(text, "read as one"));
    assert_non_null(strstr(text, "0010! of C x D tiles"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(host_rule),
        cmocka_unit_test(describe_widened),
        cmocka_unit_test(single_pass),
        cmocka_unit_test(every_4d_permutation),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
