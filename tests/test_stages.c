/* Each elementary transposition alone, against its CPU reference, with the
 * kernel family that computed it pinned (the spec algebra on the host:
 * test_spec_algebra.c). */
#include "support.h"
#include "internal.h"
#include "factor.h"
#include "stages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define AUTO CLIPT_FAMILY_AUTO
#define TILE_LOCAL CLIPT_FAMILY_TILE_LOCAL
#define TILE_CYCLES CLIPT_FAMILY_TILE_CYCLES
#define SUPER_LOCAL CLIPT_FAMILY_SUPER_LOCAL
#define SUPER_SLICES CLIPT_FAMILY_SUPER_SLICES
#define SUPER_SEGMENTS CLIPT_FAMILY_SUPER_SEGMENTS
#define ROWS CLIPT_FAMILY_ROWS

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};

static const char *op_name(clipt_stage_op op)
{
    switch (op) {
    case CLIPT_OP_TRANSPOSE_TILES: return "TILES";
    case CLIPT_OP_MOVE_SUPER: return "MOVE_SUPER";
    case CLIPT_OP_PAD: return "PAD";
    case CLIPT_OP_UNPAD: return "UNPAD";
    default: return "?";
    }
}

/* A family by its kernel file; "auto" for the library's choice. */
static const char *family_name(clipt_kernel_family id)
{
    for (unsigned i = 0; i < clipt_num_families; i++)
        if (clipt_families[i]->id == id)
            return clipt_families[i]->file;
    return id == AUTO ? "auto" : "?";
}

static clipt_stage_spec spec_of(clipt_stage_op op, uint64_t instances,
                                uint64_t a, uint64_t b, uint64_t s,
                                uint64_t sa, uint64_t sb)
{
    clipt_stage_spec sp = {op, "test", instances, a, b, s, sa, sb, 0};
    return sp;
}

static unsigned families_seen; /* 1 << family of every family run so far */

/* Runs one stage computed by `family` (AUTO: the library's choice) and
 * fails with a full description unless it is exact and was computed by
 * the family `want`. */
static void run_stage_as(test_env *env, const clipt_stage_spec *sp,
                         clipt_kernel_family family, size_t elem, size_t offset,
                         const clipt_tuning *tuning, clipt_kernel_family want)
{
    size_t bad = 0;
    clipt_kernel_family used = AUTO;
    clipt_status s = test_run_stage_as(env, sp, family, elem, offset, tuning, &bad, &used);
    if (s != CLIPT_SUCCESS || bad != 0 || used != want)
        fail_msg("%s %llu x (%llu x %llu) s=%llu sa=%llu sb=%llu, %zu-byte "
                 "elements at element offset %zu, asked of %s, run by %s (want %s): "
                 "%s, %zu bytes wrong",
                 op_name(sp->op), (unsigned long long)sp->instances,
                 (unsigned long long)sp->a, (unsigned long long)sp->b,
                 (unsigned long long)sp->s, (unsigned long long)sp->sa,
                 (unsigned long long)sp->sb, elem, offset, family_name(family),
                 family_name(used), family_name(want), clipt_status_string(s), bad);
    families_seen |= 1u << used;
}

/* The library's choice, which must be `want`. */
static void run_stage(test_env *env, const clipt_stage_spec *sp, size_t elem,
                      size_t offset, const clipt_tuning *tuning, clipt_kernel_family want)
{
    run_stage_as(env, sp, AUTO, elem, offset, tuning, want);
}

/* Every element size, each at its own (mostly nonzero) element offset, by
 * `family` (AUTO: the library's choice), which must be `want`. */
static void run_all_elems_as(test_env *env, const clipt_stage_spec *sp,
                             clipt_kernel_family family, const clipt_tuning *tuning,
                             clipt_kernel_family want)
{
    for (size_t i = 0; i < COUNT(elem_sizes); i++)
        run_stage_as(env, sp, family, elem_sizes[i], i * 3, tuning, want);
}

static void run_all_elems(test_env *env, const clipt_stage_spec *sp,
                          const clipt_tuning *tuning, clipt_kernel_family want)
{
    run_all_elems_as(env, sp, AUTO, tuning, want);
}

/* ---- 010! / 0010! ---------------------------------------------------------- */

/* instances, a, b: 1x1 tiles, 1xN, Nx1, primes, many small tiles that need
 * several batches per work-group, odd and even b (row pitch b or b+1). */
static const uint64_t tile_cases[][3] = {
    {1, 1, 1},  {7, 1, 1},    {1, 1, 37},   {1, 37, 1},  {5, 1, 9},
    {1, 7, 13}, {3, 13, 7},   {11, 17, 19}, {1, 64, 64}, {2, 100, 37},
    {20000, 5, 6}, {999, 4, 7}, {999, 7, 4}, {7, 31, 32}, {3, 32, 31},
    {1, 2, 2},  {40, 24, 25}};

static void test_bs010(void **state)
{
    for (size_t i = 0; i < COUNT(tile_cases); i++) {
        clipt_stage_spec sp = spec_of(CLIPT_OP_TRANSPOSE_TILES, tile_cases[i][0],
                                      tile_cases[i][1], tile_cases[i][2], 1, 0, 0);
        run_all_elems(TEST_ENV(state), &sp, NULL, TILE_LOCAL);
    }
}

/* Launch shapes the tuning table does not choose on this device: one
 * work-item, an odd work-group, one tile per batch, a single work-group. */
static void test_bs010_tunings(void **state)
{
    test_env *env = TEST_ENV(state);
    const clipt_tuning base = env->ctx->profile.tuning;
    clipt_tuning t[4] = {base, base, base, base};
    t[0].wg_010 = 1;
    t[1].wg_010 = 7;
    t[1].tile_elems_010 = 1;
    t[2].groups_per_cu_010 = 1;
    t[2].tile_elems_010 = 100000;
    t[3].wg_010 = 33;
    t[3].tile_elems_010 = 250;
    for (size_t k = 0; k < COUNT(t); k++)
        for (size_t i = 0; i < COUNT(tile_cases); i += 2) {
            clipt_stage_spec sp = spec_of(CLIPT_OP_TRANSPOSE_TILES, tile_cases[i][0],
                                          tile_cases[i][1], tile_cases[i][2], 1, 0, 0);
            run_stage(env, &sp, elem_sizes[(i + k) % COUNT(elem_sizes)], k + i,
                      &t[k], TILE_LOCAL);
        }
}

/* The same tiles by PTTWAC; then every spreading factor R with flag
 * paddings P of 0-4, 8, 16 and 32 words (the option's range is 0..32). */
static void test_pttwac010(void **state)
{
    test_env *env = TEST_ENV(state);
    static const unsigned spreads[] = {1, 2, 4, 8, 16, 32};
    static const unsigned pads[] = {0, 1, 2, 3, 4, 8, 16, 32};
    for (size_t i = 0; i < COUNT(tile_cases); i++) {
        clipt_stage_spec sp = spec_of(CLIPT_OP_TRANSPOSE_TILES, tile_cases[i][0],
                                      tile_cases[i][1], tile_cases[i][2], 1, 0, 0);
        run_all_elems_as(env, &sp, TILE_CYCLES, NULL, TILE_CYCLES);
    }
    for (size_t r = 0; r < COUNT(spreads); r++)
        for (size_t p = 0; p < COUNT(pads); p++) {
            clipt_tuning t = env->ctx->profile.tuning;
            clipt_stage_spec sp = spec_of(CLIPT_OP_TRANSPOSE_TILES, 3, 33 + r, 65 - p, 1, 0, 0);
            /* tiles of 33..38 x 58..65: thousands of flag bits, so that
             * with every R the padding words really are inserted */
            t.pttwac_spread = spreads[r];
            t.pttwac_pad = pads[p];
            t.wg_010 = (unsigned)(1 + 31 * (p % 3));
            run_stage_as(env, &sp, TILE_CYCLES, elem_sizes[(r + p) % COUNT(elem_sizes)],
                         r + p, &t, TILE_CYCLES);
        }
}

/* A BS tile bigger than local memory is computed by PTTWAC (flags in local
 * memory) and, when even the flags do not fit, by the slices kernel with
 * flags in global memory: same result either way. */
static void test_bs010_fallbacks(void **state)
{
    test_env *env = TEST_ENV(state);
    const size_t lm = (size_t)env->ctx->profile.local_mem_bytes;
    const uint64_t side = clipt_isqrt(lm / 4) + 1;
    clipt_stage_spec big = spec_of(CLIPT_OP_TRANSPOSE_TILES, 1, side, side + 1, 1, 0, 0);
    test_env small = *env;
    run_stage(env, &big, 4, 1, NULL, TILE_CYCLES);

    /* the same decisions at a GPU-like scale */
    small.ctx = test_context_limited(env, 16384);
    {
        clipt_stage_spec fits = spec_of(CLIPT_OP_TRANSPOSE_TILES, 5, 20, 25, 1, 0, 0);
        clipt_stage_spec flags_fit = spec_of(CLIPT_OP_TRANSPOSE_TILES, 3, 130, 131, 1, 0, 0);
        clipt_stage_spec too_big = spec_of(CLIPT_OP_TRANSPOSE_TILES, 2, 300, 301, 1, 0, 0);
        run_all_elems(&small, &fits, NULL, TILE_LOCAL);
        run_all_elems(&small, &flags_fit, NULL, TILE_CYCLES);
        small.ctx->profile.local_mem_bytes = 4096;
        run_all_elems(&small, &too_big, NULL, SUPER_SLICES);
    }
    clipt_context_release(small.ctx);
}

/* ---- 100! / 0100! / 1000! ---------------------------------------------------- */

static const uint64_t super_sizes[] = {1, 2, 3, 24, 100, 257};
static const uint64_t shift_shapes[][2] = {{5, 7}, {27, 40}, {2, 2}, {1, 9}, {13, 1}, {64, 3}};

/* A super-element stage by the library's choice, which must be `want`, and
 * then forced through the other two families that compute it unfused:
 * slices (flags per slice in global memory) and workers through local
 * memory (shift100.cl without TRANSPOSE_SUPER), which no plan chooses. */
static void run_super_families(test_env *env, const clipt_stage_spec *sp, size_t elem,
                               size_t offset, const clipt_tuning *tuning,
                               clipt_kernel_family want)
{
    run_stage(env, sp, elem, offset, tuning, want);
    run_stage_as(env, sp, SUPER_SLICES, elem, offset, tuning, SUPER_SLICES);
    run_stage_as(env, sp, SUPER_LOCAL, elem, offset, tuning, SUPER_LOCAL);
}

static void test_shift100(void **state)
{
    static const uint64_t instances[] = {1, 4};
    for (size_t s = 0; s < COUNT(super_sizes); s++)
        for (size_t k = 0; k < COUNT(instances); k++)
            for (size_t h = 0; h < COUNT(shift_shapes); h++) {
                clipt_stage_spec sp = spec_of(CLIPT_OP_MOVE_SUPER, instances[k],
                                              shift_shapes[h][0], shift_shapes[h][1],
                                              super_sizes[s], 0, 0);
                for (size_t i = 0; i < COUNT(elem_sizes); i++)
                    run_super_families(TEST_ENV(state), &sp, elem_sizes[i], i * 3, NULL,
                                       SUPER_SEGMENTS);
            }
}

/* Larger cycle-following cases: a whole matrix element by element (the
 * stage of sequence 1) and many instances. */
static void test_shift100_large(void **state)
{
    static const uint64_t cases[][4] = {
        {1, 1000, 999, 1}, {1, 97, 4099, 1}, {1, 640, 480, 3}, {300, 17, 19, 2},
        {1, 4099, 17, 24}};
    for (size_t i = 0; i < COUNT(cases); i++) {
        clipt_stage_spec sp = spec_of(CLIPT_OP_MOVE_SUPER, cases[i][0], cases[i][1],
                                      cases[i][2], cases[i][3], 0, 0);
        run_super_families(TEST_ENV(state), &sp, elem_sizes[i % COUNT(elem_sizes)],
                           2 * i + 1, NULL, SUPER_SEGMENTS);
    }
}

/* The slices kernel with super-elements of several elements: Q elements
 * per slice (the largest divisor of s within 64 bytes of registers, where
 * a 1- or 2-byte element fills a 4-byte register) and s / Q slices per
 * super-element, both above 1 in most cases here. */
static void test_shift100_slices(void **state)
{
    static const struct { uint64_t s; size_t elem, q; } cases[] = {
        {24, 4, 12}, {100, 1, 10}, {257, 8, 1}, {6, 16, 3}, {96, 2, 16},
        {3, 16, 3}, {1000, 4, 10}, {36, 8, 6}, {2, 1, 2}, {64, 1, 16}};
    static const uint64_t shapes[][3] = {{1, 5, 7}, {3, 27, 40}, {1, 64, 3}, {2, 13, 1}};
    test_env *env = TEST_ENV(state);
    clipt_tuning elements = env->ctx->profile.tuning;
    elements.wide_bytes = 1; /* Q of the elements themselves, unwidened */
    for (size_t i = 0; i < COUNT(cases); i++) {
        clipt_stage st;
        clipt_stage_spec sp = spec_of(CLIPT_OP_MOVE_SUPER, 1, 5, 7, cases[i].s, 0, 0);
        assert_status(clipt_stage_prepare_as(env->ctx, &sp, SUPER_SLICES, cases[i].elem,
                                             &elements, &st),
                      CLIPT_SUCCESS);
        if (st.f.slices.q != cases[i].q)
            fail_msg("s=%llu, %zu-byte elements: %u elements per slice, want %zu",
                     (unsigned long long)cases[i].s, cases[i].elem, st.f.slices.q,
                     cases[i].q);
        clipt_stage_release(&st);
        for (size_t h = 0; h < COUNT(shapes); h++) {
            sp = spec_of(CLIPT_OP_MOVE_SUPER, shapes[h][0], shapes[h][1], shapes[h][2],
                         cases[i].s, 0, 0);
            run_stage_as(env, &sp, SUPER_SLICES, cases[i].elem, h + i, NULL, SUPER_SLICES);
        }
    }
}

/* Fused 1000!+0010!: every sa x sb super-element also lands transposed
 * (sequence 4.3), fixed points included. */
static void test_shift100_fused(void **state)
{
    static const uint64_t inner[][2] = {{2, 3}, {4, 6}, {6, 4}, {10, 10}, {5, 7}, {24, 25}};
    static const uint64_t shapes[][3] = {{1, 5, 7}, {1, 1, 1}, {1, 4, 4}, {3, 6, 2}, {1, 9, 1}};
    for (size_t i = 0; i < COUNT(inner); i++)
        for (size_t h = 0; h < COUNT(shapes); h++) {
            clipt_stage_spec sp = spec_of(CLIPT_OP_MOVE_SUPER, shapes[h][0],
                                          shapes[h][1], shapes[h][2],
                                          inner[i][0] * inner[i][1], inner[i][0],
                                          inner[i][1]);
            run_all_elems(TEST_ENV(state), &sp, NULL, SUPER_LOCAL);
        }
}

/* Worker and work-group shapes the tuning table does not choose here. */
static void test_shift100_tunings(void **state)
{
    test_env *env = TEST_ENV(state);
    const clipt_tuning base = env->ctx->profile.tuning;
    clipt_tuning t[4] = {base, base, base, base};
    t[0].simd_100 = 1;
    t[0].wg_100 = 1;
    t[1].simd_100 = 4;
    t[1].wg_100 = 12;
    t[2].groups_per_cu_100 = 1;
    t[3].simd_100 = 32;
    t[3].wg_100 = 256;
    for (size_t k = 0; k < COUNT(t); k++)
        for (size_t s = 0; s < COUNT(super_sizes); s++) {
            clipt_stage_spec sp = spec_of(CLIPT_OP_MOVE_SUPER, 1 + s % 3, 27, 40,
                                          super_sizes[s], 0, 0);
            clipt_stage_spec fused = spec_of(CLIPT_OP_MOVE_SUPER, 1, 7, 5, 24, 4, 6);
            run_super_families(env, &sp, elem_sizes[(k + s) % COUNT(elem_sizes)], s, &t[k],
                               SUPER_SEGMENTS);
            run_stage(env, &fused, elem_sizes[s % COUNT(elem_sizes)], k, &t[k],
                      SUPER_LOCAL);
        }
}

/* ---- padding -------------------------------------------------------------------- */

/* PAD: rows move from pitch sa to a larger sb (backward through memory);
 * UNPAD: from sa to a smaller sb.  Many chunks make work-groups wait for
 * one another through their dynamic ids. */
/* A case's padding and unpadding: rows of `width` to the wider pitch and
 * back (case: rows, width, wider pitch). */
static void rows_specs(const uint64_t c[3], clipt_stage_spec *pad, clipt_stage_spec *unpad)
{
    *pad = spec_of(CLIPT_OP_PAD, c[0], c[1], 1, 1, c[1], c[2]);
    *unpad = spec_of(CLIPT_OP_UNPAD, c[0], c[1], 1, 1, c[2], c[1]);
}

static void test_pad_unpad(void **state)
{
    static const uint64_t cases[][3] = { /* rows, width, wider pitch */
        {1, 5, 8}, {3, 5, 9}, {17, 4099, 4100}, {1000, 999, 1024},
        {300, 299, 325}, {4099, 17, 24}, {2, 1, 2}, {5000, 3, 4}};
    for (size_t i = 0; i < COUNT(cases); i++) {
        clipt_stage_spec pad, unpad;
        rows_specs(cases[i], &pad, &unpad);
        run_all_elems(TEST_ENV(state), &pad, NULL, ROWS);
        run_all_elems(TEST_ENV(state), &unpad, NULL, ROWS);
    }
}

/* The GPU kernels move rows whose element kernels would take words of
 * fewer than 8 bytes as 16-byte words (pad_rows_words, unpad_rows_words):
 * a window of aligned source words in local memory, each destination word
 * shifted out of it, byte by byte at a row's edges, a gap and the region's
 * ends.  Rows shorter than a word, a word's width, one more;
 * gaps of 1 to 40 elements; every element size at offsets that put the
 * region at each byte of the 16-byte grid; one row and many chunks; and
 * the element kernels (wide_bytes below 16) for the same cases. */
static void test_pad_unpad_words(void **state)
{
    test_env *env = TEST_ENV(state);
    static const uint64_t cases[][3] = { /* rows, width, wider pitch */
        {1, 5, 8},     {3, 1, 2},      {7, 3, 5},       {9, 15, 16},     {9, 16, 17},
        {9, 17, 19},   {40, 33, 73},   {5, 64, 65},     {17, 4099, 4100}, {300, 299, 325},
        {4099, 17, 24}, {5000, 3, 4},  {2, 20000, 20001}, {700, 1023, 1040}};
    clipt_tuning words = env->ctx->profile.tuning, elements;
    words.kernel_style = CLIPT_KERNEL_STYLE_GROUPS;
    words.wide_bytes = 16;
    elements = words;
    elements.wide_bytes = 8;
    for (size_t i = 0; i < COUNT(cases); i++) {
        clipt_stage_spec pad, unpad;
        rows_specs(cases[i], &pad, &unpad);
        for (size_t e = 0; e < COUNT(elem_sizes); e++) {
            /* offsets 0..16 elements of 1 byte cover the grid's 16 places;
             * larger elements take fewer (their own multiples) */
            const size_t offsets = 16 / elem_sizes[e] + 1;
            for (size_t o = 0; o < offsets; o += e == 0 ? 1 : (i % 3) + 1) {
                clipt_stage st;
                assert_int_equal(clipt_stage_prepare(env->ctx, &pad, elem_sizes[e], &words,
                                                     &st),
                                 CLIPT_SUCCESS);
                /* rows the element kernels would move in 8-byte words
                 * or wider stay theirs */
                assert_string_equal(st.kernel_name, elem_sizes[e] < 8 ? "pad_rows_words"
                                                                      : "pad_rows");
                clipt_stage_release(&st);
                run_stage(env, &pad, elem_sizes[e], o, &words, ROWS);
                run_stage(env, &unpad, elem_sizes[e], o + 1, &words, ROWS);
            }
            run_stage(env, &pad, elem_sizes[e], e, &elements, ROWS);
            run_stage(env, &unpad, elem_sizes[e], e, &elements, ROWS);
        }
    }
    {
        /* a padding chunk wholly inside one gap (no sources, no waits), and
         * a launch with a work-group more than the offset's chunks (idle) */
        clipt_stage_spec gap = spec_of(CLIPT_OP_PAD, 3, 5, 1, 1, 5, 40000);
        clipt_stage_spec idle = spec_of(CLIPT_OP_PAD, 2, 8183, 1, 1, 8183, 8201);
        run_stage(env, &gap, 1, 1, &words, ROWS);
        run_stage(env, &gap, 1, 7, &words, ROWS);
        run_stage(env, &idle, 1, 0, &words, ROWS);
        run_stage(env, &idle, 1, 15, &words, ROWS);
    }
    {
        /* small work-groups: chunks of many words a work-item */
        clipt_tuning small = words;
        clipt_stage_spec pad = spec_of(CLIPT_OP_PAD, 17, 41, 1, 1, 41, 48);
        clipt_stage_spec unpad = spec_of(CLIPT_OP_UNPAD, 17, 41, 1, 1, 48, 41);
        small.wg_010 = 16;
        for (size_t e = 0; e < 3; e++) {
            run_stage(env, &pad, elem_sizes[e], e, &small, ROWS);
            run_stage(env, &unpad, elem_sizes[e], e + 1, &small, ROWS);
        }
    }
    /* 64-bit indices (SMALL_INDEX=0), as for regions of 2^32 elements and
     * more: the first cases, 1- and 4-byte elements */
    env->ctx->wide_index_from = 0;
    for (size_t i = 0; i < COUNT(cases); i += 1 + (i >= 5)) {
        clipt_stage_spec pad, unpad;
        rows_specs(cases[i], &pad, &unpad);
        run_stage(env, &pad, 1 + 3 * (i % 2), i, &words, ROWS);
        run_stage(env, &unpad, 1 + 3 * (i % 2), i + 3, &words, ROWS);
    }
    env->ctx->wide_index_from = CLIPT_WIDE_INDEX_FROM;
}

/* The word kernels with little local memory (4 KiB): chunks of about 1.5
 * KiB, so that hundreds of chunk boundaries fall inside rows and gaps, at
 * every lead; and unpadding rows far narrower than their gaps, whose
 * chunks' sources would not fit local memory: the element kernel moves
 * them, on the widest words the rows allow (4 bytes for the second). */
static void test_pad_unpad_words_small_local(void **state)
{
    test_env *env = TEST_ENV(state), limited = *env;
    static const uint64_t many[][3] = {{700, 1023, 1040}, {4099, 17, 24}, {60, 997, 1400}};
    static const uint64_t narrow[][3] = {{50, 1, 3000}, {30, 4, 4000}};
    clipt_context small = test_context_limited(env, 4096);
    clipt_tuning t = small->profile.tuning;
    limited.ctx = small;
    t.kernel_style = CLIPT_KERNEL_STYLE_GROUPS;
    t.wide_bytes = 16;
    t.wg_010 = 32;
    for (size_t i = 0; i < COUNT(many); i++)
        for (size_t o = 0; o < 16; o += 1 + i) {
            const size_t elem = i == 2 ? 4 : 1 + i;
            clipt_stage_spec pad, unpad;
            clipt_stage st;
            rows_specs(many[i], &pad, &unpad);
            assert_int_equal(clipt_stage_prepare(small, &unpad, elem, &t, &st), CLIPT_SUCCESS);
            assert_string_equal(st.kernel_name, "unpad_rows_words");
            clipt_stage_release(&st);
            run_stage(&limited, &pad, elem, o, &t, ROWS);
            run_stage(&limited, &unpad, elem, o, &t, ROWS);
        }
    for (size_t i = 0; i < COUNT(narrow); i++) {
        clipt_stage_spec pad, unpad;
        clipt_stage st;
        rows_specs(narrow[i], &pad, &unpad);
        assert_int_equal(clipt_stage_prepare(small, &unpad, 1, &t, &st), CLIPT_SUCCESS);
        assert_string_equal(st.kernel_name, "unpad_rows");
        assert_int_equal(st.elem, i ? 4 : 1);
        clipt_stage_release(&st);
        run_stage(&limited, &unpad, 1, 4 * i, &t, ROWS);
    }
    clipt_context_release(small);
}

/* ---- limits ----------------------------------------------------------------------- */

static void expect_prepare(clipt_context c, const clipt_stage_spec *sp,
                           clipt_kernel_family family, size_t elem, clipt_status want)
{
    clipt_stage st;
    clipt_status s = clipt_stage_prepare_as(c, sp, family, elem, &c->profile.tuning, &st);
    clipt_stage_release(&st);
    if (s != want)
        fail_msg("prepare %s %llu x %llu s=%llu sa=%llu sb=%llu by %s with %zu-byte "
                 "elements: %s, expected %s",
                 op_name(sp->op), (unsigned long long)sp->a, (unsigned long long)sp->b,
                 (unsigned long long)sp->s, (unsigned long long)sp->sa,
                 (unsigned long long)sp->sb, family_name(family), elem,
                 clipt_status_string(s), clipt_status_string(want));
}

/* A fused super-element (carried and transposed in local memory) that does
 * not fit local memory, PTTWAC flags that do not fit, and elements of an
 * unsupported size are refused; so is a family asked for an op it does not
 * compute. */
static void test_prepare_limits(void **state)
{
    test_env *env = TEST_ENV(state);
    const uint64_t lm = env->ctx->profile.local_mem_bytes;
    clipt_context small = test_context_limited(env, 4096);
    for (size_t i = 0; i < COUNT(elem_sizes); i++) {
        const uint64_t half = lm / elem_sizes[i] / 2 + 1;
        clipt_stage_spec fused = spec_of(CLIPT_OP_MOVE_SUPER, 1, 3, 2, 2 * half, 2, half);
        clipt_stage_spec flags = spec_of(CLIPT_OP_TRANSPOSE_TILES, 1, 300, 301, 1, 0, 0);
        expect_prepare(env->ctx, &fused, AUTO, elem_sizes[i],
                       CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS);
        expect_prepare(small, &flags, TILE_CYCLES, elem_sizes[i],
                       CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS);
    }
    {
        clipt_stage_spec sp = spec_of(CLIPT_OP_TRANSPOSE_TILES, 1, 4, 4, 1, 0, 0);
        clipt_stage_spec fused = spec_of(CLIPT_OP_MOVE_SUPER, 1, 3, 2, 6, 2, 3);
        clipt_stage_spec pad = spec_of(CLIPT_OP_PAD, 3, 5, 1, 1, 5, 8);
        expect_prepare(env->ctx, &sp, AUTO, 3, CLIPT_ERROR_INVALID_ELEM_SIZE);
        expect_prepare(env->ctx, &sp, AUTO, 32, CLIPT_ERROR_INVALID_ELEM_SIZE);
        expect_prepare(env->ctx, &sp, ROWS, 4, CLIPT_ERROR_INCOMPATIBLE_OPTIONS);
        expect_prepare(env->ctx, &sp, (clipt_kernel_family)99, 4,
                       CLIPT_ERROR_INCOMPATIBLE_OPTIONS);
        expect_prepare(env->ctx, &fused, SUPER_SLICES, 4, CLIPT_ERROR_INCOMPATIBLE_OPTIONS);
        expect_prepare(env->ctx, &fused, SUPER_SEGMENTS, 4,
                       CLIPT_ERROR_INCOMPATIBLE_OPTIONS);
        expect_prepare(env->ctx, &fused, TILE_LOCAL, 4, CLIPT_ERROR_INCOMPATIBLE_OPTIONS);
        expect_prepare(env->ctx, &pad, TILE_CYCLES, 4, CLIPT_ERROR_INCOMPATIBLE_OPTIONS);
        expect_prepare(env->ctx, &pad, ROWS, 4, CLIPT_SUCCESS);
    }
    clipt_context_release(small);
}

/* Which kernel families ran (a note; each test pins its own). */
static void print_families_seen(void)
{
    print_message("kernel families exercised:");
    for (unsigned i = 0; i < clipt_num_families; i++)
        if (families_seen & 1u << clipt_families[i]->id)
            print_message(" %s", clipt_families[i]->file);
    print_message("\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bs010),
        cmocka_unit_test(test_bs010_tunings),
        cmocka_unit_test(test_pttwac010),
        cmocka_unit_test(test_bs010_fallbacks),
        cmocka_unit_test(test_shift100),
        cmocka_unit_test(test_shift100_large),
        cmocka_unit_test(test_shift100_slices),
        cmocka_unit_test(test_shift100_fused),
        cmocka_unit_test(test_shift100_tunings),
        cmocka_unit_test(test_pad_unpad),
        cmocka_unit_test(test_pad_unpad_words),
        cmocka_unit_test(test_pad_unpad_words_small_local),
        cmocka_unit_test(test_prepare_limits),
    };
    test_apply_filter();
    int failed = cmocka_run_group_tests(tests, test_group_open, test_group_close);
    print_families_seen();
    return failed;
}
