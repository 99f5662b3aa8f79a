/* The BS tile kernel's packed path (cl/transpose010.cl, PACK): 1-byte
 * elements moved as 32-bit words (64-bit on output rows of 32 or more),
 * 2- and 4-byte ones as 64-bit words,
 * with the elements before the first aligned word and after the last
 * moved alone.  Bit-exact against the
 * CPU reference on the GPU kernels (kernel_style 1, forced on PoCL): single
 * 0010! stages over odd and even tiles, batches of one and many tiles (so
 * that batches start at odd element addresses), every element offset of a
 * word; whole batched plans (B, M, N) -> (B, N, M) and 2-D plans; and the
 * build options that select the path. */
#include "support.h"
#include "internal.h"
#include "stages.h"

#include <stdio.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const size_t elem_sizes[] = {1, 2, 4};

/* instances, a, b: odd and even tiles, 1 x N, N x 1, a tile of 64 x 100,
 * output rows of 32 or more (1-byte elements in 64-bit words); 1-byte
 * quads (sides multiples of 4, a >= 32; at offset 0): rows of 4 to 33
 * words, so that the rotation spreads over 1 to 32 words and wraps where
 * the row's words are no power of two */
static const uint64_t tile_cases[][3] = {{1, 1, 1}, {3, 1, 7}, {5, 7, 1}, {4, 2, 2},
                                         {9, 3, 5}, {3, 64, 100}, {7, 31, 37}, {6, 4, 6},
                                         {11, 5, 5}, {2, 16, 16}, {1, 1, 3}, {2, 33, 40},
                                         {3, 40, 9}, {3, 32, 4}, {2, 128, 128}, {3, 36, 132},
                                         {5, 44, 12}, {2, 64, 96}};

static clipt_tuning groups_tuning(test_env *env, unsigned tile_elems)
{
    clipt_tuning t = env->ctx->profile.tuning;
    t.kernel_style = CLIPT_KERNEL_STYLE_GROUPS;
    t.wg_010 = 32;
    t.tile_elems_010 = tile_elems;
    return t;
}

/* Every tile case, element size, element offset 0-4 and batch size (one
 * tile per work-group, or many) by the BS kernel: 1-byte quads load 8
 * bytes at a time at offset 0 where rows are whole 8-byte words, 4 at
 * offset 4 (and elsewhere), and none at offsets 1-3. */
static void stages_packed(void **state)
{
    test_env *env = TEST_ENV(state);
    static const unsigned tile_elems[] = {1, 4096};
    for (size_t c = 0; c < COUNT(tile_cases); c++)
        for (size_t e = 0; e < COUNT(elem_sizes); e++)
            for (size_t off = 0; off < 5; off++)
                for (size_t te = 0; te < COUNT(tile_elems); te++) {
                    const clipt_stage_spec sp = {CLIPT_OP_TRANSPOSE_TILES, "test",
                                                 tile_cases[c][0], tile_cases[c][1],
                                                 tile_cases[c][2], 1, 0, 0, 0};
                    const clipt_tuning t = groups_tuning(env, tile_elems[te]);
                    size_t bad = 0;
                    clipt_kernel_family used = CLIPT_FAMILY_AUTO;
                    clipt_status s = test_run_stage_as(env, &sp, CLIPT_FAMILY_TILE_LOCAL,
                                                       elem_sizes[e], off, &t, &bad, &used);
                    if (s != CLIPT_SUCCESS || bad || used != CLIPT_FAMILY_TILE_LOCAL)
                        fail_msg("%llu x (%llu x %llu), %zu-byte elements at offset %zu, "
                                 "tile_elems %u: %s, %zu bytes wrong, family %d",
                                 (unsigned long long)sp.instances, (unsigned long long)sp.a,
                                 (unsigned long long)sp.b, elem_sizes[e], off, tile_elems[te],
                                 clipt_status_string(s), bad, (int)used);
                }
}

/* The BS kernel gets 8-byte words of 1-byte elements on output rows of 32
 * or more and 4-byte words on shorter ones, 8-byte words of 2- and 4-byte
 * elements, nothing for wider ones and for the loops kernel: a test that
 * the path above is really the packed one.  1-byte tiles of 64 x 100 are
 * quads (QUAD), 31 x 100 and 64 x 99 are not. */
static void pack_options(void **state)
{
    test_env *env = TEST_ENV(state);
    static const size_t sizes[] = {1, 2, 4, 8, 16};
    /* by element size, for output rows of 64 and of 31 */
    static const char *want[][2] = {{"-DPACK=8 -DWORD_TYPE=ulong", "-DPACK=4"},
                                    {"-DPACK=4 -DWORD_TYPE=ulong", "-DPACK=4 -DWORD_TYPE=ulong"},
                                    {"-DPACK=2 -DWORD_TYPE=ulong", "-DPACK=2 -DWORD_TYPE=ulong"},
                                    {NULL, NULL},
                                    {NULL, NULL}};
    static const uint64_t rows_of[] = {64, 31};
    for (size_t r = 0; r < COUNT(rows_of); r++)
        for (size_t e = 0; e < COUNT(sizes); e++)
            for (unsigned style = CLIPT_KERNEL_STYLE_GROUPS; style <= CLIPT_KERNEL_STYLE_LOOPS;
                 style++) {
                const clipt_stage_spec sp = {CLIPT_OP_TRANSPOSE_TILES, "test", 3, rows_of[r],
                                             100, 1, 0, 0, 0};
                clipt_tuning t = groups_tuning(env, 1024);
                clipt_stage st;
                memset(&st, 0, sizeof st);
                t.kernel_style = style;
                assert_status(clipt_stage_prepare_as(env->ctx, &sp, CLIPT_FAMILY_TILE_LOCAL,
                                                     sizes[e], &t, &st),
                              CLIPT_SUCCESS);
                if (style == CLIPT_KERNEL_STYLE_GROUPS && want[e][r]) {
                    assert_non_null(strstr(st.options, want[e][r]));
                    if (sizes[e] == 1 && r == 1)
                        assert_null(strstr(st.options, "WORD_TYPE"));
                } else {
                    assert_null(strstr(st.options, "PACK"));
                }
                if (style == CLIPT_KERNEL_STYLE_GROUPS && sizes[e] == 1 && r == 0) {
                    assert_non_null(strstr(st.options, "-DQUAD=1"));
                    assert_int_equal(st.f.tiles.pitch, 100); /* rotated, not padded */
                } else {
                    assert_null(strstr(st.options, "QUAD"));
                }
                clipt_stage_release(&st);
            }
    { /* output rows of 64 whose input rows are no multiple of 4: no quads */
        const clipt_stage_spec sp = {CLIPT_OP_TRANSPOSE_TILES, "test", 3, 64, 99, 1, 0, 0, 0};
        clipt_tuning t = groups_tuning(env, 1024);
        clipt_stage st;
        memset(&st, 0, sizeof st);
        assert_status(clipt_stage_prepare_as(env->ctx, &sp, CLIPT_FAMILY_TILE_LOCAL, 1, &t, &st),
                      CLIPT_SUCCESS);
        assert_non_null(strstr(st.options, "-DPACK=8"));
        assert_null(strstr(st.options, "QUAD"));
        clipt_stage_release(&st);
    }
}

static void run_permute(test_env *env, unsigned ndim, const size_t *dims, const unsigned *perm,
                        size_t elem, size_t offset)
{
    static char describe[16384];
    clipt_plan_options o;
    size_t bad = 0;
    clipt_status s;
    clipt_plan_options_init(&o);
    o.kernel_style = CLIPT_KERNEL_STYLE_GROUPS;
    describe[0] = '\0';
    s = test_run_permute(env, ndim, dims, perm, elem, offset, &o, &bad, describe,
                         sizeof describe);
    if (s != CLIPT_SUCCESS || bad)
        fail_msg("%zu x %zu x %zu, %zu-byte elements at byte offset %zu: %s, %zu bytes "
                 "wrong\n%s",
                 dims[0], dims[1], ndim > 2 ? dims[2] : 1, elem, offset,
                 clipt_status_string(s), bad, describe);
}

/* Batches (B, M, N) -> (B, N, M) of odd and even sizes (the fp16 target's
 * 64 x 100 among them), at every element offset of a word; and 2-D plans,
 * whose 010! stages run the same kernel. */
static void batches_packed(void **state)
{
    test_env *env = TEST_ENV(state);
    static const size_t shapes[][3] = {{10, 64, 100}, {7, 31, 37}, {5, 3, 1},
                                       {13, 2, 9},    {4, 33, 32}, {1, 9, 11}};
    static const unsigned swap[3] = {0, 2, 1}, swap2[2] = {1, 0};
    static const size_t mats[][2] = {{64, 100}, {37, 31}, {1, 5}, {250, 97}};
    for (size_t c = 0; c < COUNT(shapes); c++)
        for (size_t e = 0; e < 2; e++)
            for (size_t off = 0; off < 4; off++)
                run_permute(env, 3, shapes[c], swap, elem_sizes[e], off * elem_sizes[e]);
    for (size_t c = 0; c < COUNT(mats); c++)
        for (size_t e = 0; e < 2; e++)
            run_permute(env, 2, mats[c], swap2, elem_sizes[e], (c % 4) * elem_sizes[e]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pack_options),
        cmocka_unit_test(stages_packed),
        cmocka_unit_test(batches_packed),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
