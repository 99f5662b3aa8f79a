/* Each elementary transposition alone, against its CPU reference. */
#include "support.h"
#include "internal.h"
#include "factor.h"
#include "sequences.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
/* Sets of kernel families a stage may be computed by. */
#define KIND(k) (1u << (k))
#define ANY_KIND (~0u)
/* the 100! family: kernels that follow cycles with flags in global memory */
#define GLOBAL_FLAGS (KIND(CLIPT_STAGE_SHIFT100) | KIND(CLIPT_STAGE_SHIFT100_SLICES) | \
                      KIND(CLIPT_STAGE_SHIFT100_SEGMENTS))

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};

static const char *kind_name(int kind)
{
    switch (kind) {
    case CLIPT_STAGE_BS010: return "BS010";
    case CLIPT_STAGE_SHIFT100: return "SHIFT100";
    case CLIPT_STAGE_SHIFT100_SLICES: return "SHIFT100_SLICES";
    case CLIPT_STAGE_SHIFT100_SEGMENTS: return "SHIFT100_SEGMENTS";
    case CLIPT_STAGE_PTTWAC010: return "PTTWAC010";
    case CLIPT_STAGE_PAD: return "PAD";
    case CLIPT_STAGE_UNPAD: return "UNPAD";
    default: return "?";
    }
}

static clipt_stage_spec spec_of(clipt_stage_kind kind, uint64_t instances,
                                uint64_t a, uint64_t b, uint64_t s,
                                uint64_t sa, uint64_t sb)
{
    clipt_stage_spec sp = {kind, "test", instances, a, b, s, sa, sb};
    return sp;
}

/* Runs one stage and fails with a full description unless it is exact and
 * was computed by one of the kernel families in `kinds`. */
static unsigned kinds_seen; /* every kernel family run so far */

static void run_stage(test_env *env, const clipt_stage_spec *sp, size_t elem,
                      size_t offset, const clipt_tuning *tuning, unsigned kinds)
{
    size_t bad = 0;
    clipt_stage_kind used = sp->kind;
    clipt_status s = test_run_stage(env, sp, elem, offset, tuning, &bad, &used);
    if (s != CLIPT_SUCCESS || bad != 0 || !(kinds & KIND(used)))
        fail_msg("%s %llu x (%llu x %llu) s=%llu sa=%llu sb=%llu, %zu-byte "
                 "elements at element offset %zu, run as %s: %s, %zu bytes wrong",
                 kind_name(sp->kind), (unsigned long long)sp->instances,
                 (unsigned long long)sp->a, (unsigned long long)sp->b,
                 (unsigned long long)sp->s, (unsigned long long)sp->sa,
                 (unsigned long long)sp->sb, elem, offset, kind_name((int)used),
                 clipt_status_string(s), bad);
    kinds_seen |= KIND(used);
}

/* Every element size, each at its own (mostly nonzero) element offset. */
static void run_all_elems(test_env *env, const clipt_stage_spec *sp,
                          const clipt_tuning *tuning, unsigned kinds)
{
    for (size_t i = 0; i < COUNT(elem_sizes); i++)
        run_stage(env, sp, elem_sizes[i], i * 3, tuning, kinds);
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
        clipt_stage_spec sp = spec_of(CLIPT_STAGE_BS010, tile_cases[i][0],
                                      tile_cases[i][1], tile_cases[i][2], 1, 0, 0);
        run_all_elems(TEST_ENV(state), &sp, NULL, KIND(CLIPT_STAGE_BS010));
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
            clipt_stage_spec sp = spec_of(CLIPT_STAGE_BS010, tile_cases[i][0],
                                          tile_cases[i][1], tile_cases[i][2], 1, 0, 0);
            run_stage(env, &sp, elem_sizes[(i + k) % COUNT(elem_sizes)], k + i,
                      &t[k], KIND(CLIPT_STAGE_BS010));
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
        clipt_stage_spec sp = spec_of(CLIPT_STAGE_PTTWAC010, tile_cases[i][0],
                                      tile_cases[i][1], tile_cases[i][2], 1, 0, 0);
        run_all_elems(env, &sp, NULL, KIND(CLIPT_STAGE_PTTWAC010));
    }
    for (size_t r = 0; r < COUNT(spreads); r++)
        for (size_t p = 0; p < COUNT(pads); p++) {
            clipt_tuning t = env->ctx->profile.tuning;
            clipt_stage_spec sp = spec_of(CLIPT_STAGE_PTTWAC010, 3, 33 + r, 65 - p, 1, 0, 0);
            /* tiles of 33..38 x 58..65: thousands of flag bits, so that
             * with every R the padding words really are inserted */
            t.pttwac_spread = spreads[r];
            t.pttwac_pad = pads[p];
            t.wg_010 = (unsigned)(1 + 31 * (p % 3));
            run_stage(env, &sp, elem_sizes[(r + p) % COUNT(elem_sizes)], r + p, &t,
                      KIND(CLIPT_STAGE_PTTWAC010));
        }
}

/* A BS tile bigger than local memory is computed by PTTWAC (flags in local
 * memory) and, when even the flags do not fit, by the cycle-following
 * kernel with flags in global memory: same result either way. */
static void test_bs010_fallbacks(void **state)
{
    test_env *env = TEST_ENV(state);
    const size_t lm = (size_t)env->ctx->profile.local_mem_bytes;
    const uint64_t side = clipt_isqrt(lm / 4) + 1;
    clipt_stage_spec big = spec_of(CLIPT_STAGE_BS010, 1, side, side + 1, 1, 0, 0);
    test_env small = *env;
    run_stage(env, &big, 4, 1, NULL, KIND(CLIPT_STAGE_PTTWAC010));

    /* the same decisions at a GPU-like scale */
    small.ctx = test_context_limited(env, 16384);
    {
        clipt_stage_spec fits = spec_of(CLIPT_STAGE_BS010, 5, 20, 25, 1, 0, 0);
        clipt_stage_spec flags_fit = spec_of(CLIPT_STAGE_BS010, 3, 130, 131, 1, 0, 0);
        clipt_stage_spec too_big = spec_of(CLIPT_STAGE_BS010, 2, 300, 301, 1, 0, 0);
        run_all_elems(&small, &fits, NULL, KIND(CLIPT_STAGE_BS010));
        run_all_elems(&small, &flags_fit, NULL, KIND(CLIPT_STAGE_PTTWAC010));
        small.ctx->profile.local_mem_bytes = 4096;
        run_all_elems(&small, &too_big, NULL, GLOBAL_FLAGS);
    }
    clipt_context_release(small.ctx);
}

/* ---- 100! / 0100! / 1000! ---------------------------------------------------- */

static const uint64_t super_sizes[] = {1, 2, 3, 24, 100, 257};
static const uint64_t shift_shapes[][2] = {{5, 7}, {27, 40}, {2, 2}, {1, 9}, {13, 1}, {64, 3}};

static void test_shift100(void **state)
{
    static const uint64_t instances[] = {1, 4};
    for (size_t s = 0; s < COUNT(super_sizes); s++)
        for (size_t k = 0; k < COUNT(instances); k++)
            for (size_t h = 0; h < COUNT(shift_shapes); h++) {
                clipt_stage_spec sp = spec_of(CLIPT_STAGE_SHIFT100, instances[k],
                                              shift_shapes[h][0], shift_shapes[h][1],
                                              super_sizes[s], 0, 0);
                run_all_elems(TEST_ENV(state), &sp, NULL, GLOBAL_FLAGS);
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
        clipt_stage_spec sp = spec_of(CLIPT_STAGE_SHIFT100, cases[i][0], cases[i][1],
                                      cases[i][2], cases[i][3], 0, 0);
        run_stage(TEST_ENV(state), &sp, elem_sizes[i % COUNT(elem_sizes)], 2 * i + 1,
                  NULL, GLOBAL_FLAGS);
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
            clipt_stage_spec sp = spec_of(CLIPT_STAGE_SHIFT100, shapes[h][0],
                                          shapes[h][1], shapes[h][2],
                                          inner[i][0] * inner[i][1], inner[i][0],
                                          inner[i][1]);
            run_all_elems(TEST_ENV(state), &sp, NULL, GLOBAL_FLAGS);
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
            clipt_stage_spec sp = spec_of(CLIPT_STAGE_SHIFT100, 1 + s % 3, 27, 40,
                                          super_sizes[s], 0, 0);
            clipt_stage_spec fused = spec_of(CLIPT_STAGE_SHIFT100, 1, 7, 5, 24, 4, 6);
            run_stage(env, &sp, elem_sizes[(k + s) % COUNT(elem_sizes)], s, &t[k],
                      GLOBAL_FLAGS);
            run_stage(env, &fused, elem_sizes[s % COUNT(elem_sizes)], k, &t[k],
                      GLOBAL_FLAGS);
        }
}

/* ---- padding -------------------------------------------------------------------- */

/* PAD: rows move from pitch sa to a larger sb (backward through memory);
 * UNPAD: from sa to a smaller sb.  Many chunks make work-groups wait for
 * one another through their dynamic ids. */
static void test_pad_unpad(void **state)
{
    static const uint64_t cases[][3] = { /* rows, width, wider pitch */
        {1, 5, 8}, {3, 5, 9}, {17, 4099, 4100}, {1000, 999, 1024},
        {300, 299, 325}, {4099, 17, 24}, {2, 1, 2}, {5000, 3, 4}};
    for (size_t i = 0; i < COUNT(cases); i++) {
        clipt_stage_spec pad = spec_of(CLIPT_STAGE_PAD, cases[i][0], cases[i][1], 1, 1,
                                       cases[i][1], cases[i][2]);
        clipt_stage_spec unpad = spec_of(CLIPT_STAGE_UNPAD, cases[i][0], cases[i][1], 1,
                                         1, cases[i][2], cases[i][1]);
        run_all_elems(TEST_ENV(state), &pad, NULL, KIND(CLIPT_STAGE_PAD));
        run_all_elems(TEST_ENV(state), &unpad, NULL, KIND(CLIPT_STAGE_UNPAD));
    }
}

/* ---- limits ----------------------------------------------------------------------- */

static void expect_prepare(clipt_context c, const clipt_stage_spec *sp, size_t elem,
                           clipt_status want)
{
    clipt_stage st;
    clipt_status s = clipt_stage_prepare(c, sp, elem, &c->profile.tuning, &st);
    clipt_stage_release(&st);
    if (s != want)
        fail_msg("prepare %s %llu x %llu s=%llu with %zu-byte elements: %s, "
                 "expected %s", kind_name(sp->kind), (unsigned long long)sp->a,
                 (unsigned long long)sp->b, (unsigned long long)sp->s, elem,
                 clipt_status_string(s), clipt_status_string(want));
}

/* A fused super-element (carried and transposed in local memory) that does
 * not fit local memory, PTTWAC flags that do not fit, and elements of an
 * unsupported size are refused. */
static void test_prepare_limits(void **state)
{
    test_env *env = TEST_ENV(state);
    const uint64_t lm = env->ctx->profile.local_mem_bytes;
    clipt_context small = test_context_limited(env, 4096);
    for (size_t i = 0; i < COUNT(elem_sizes); i++) {
        const uint64_t half = lm / elem_sizes[i] / 2 + 1;
        clipt_stage_spec fused = spec_of(CLIPT_STAGE_SHIFT100, 1, 3, 2, 2 * half, 2, half);
        clipt_stage_spec flags = spec_of(CLIPT_STAGE_PTTWAC010, 1, 300, 301, 1, 0, 0);
        expect_prepare(env->ctx, &fused, elem_sizes[i], CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS);
        expect_prepare(small, &flags, elem_sizes[i], CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS);
    }
    {
        clipt_stage_spec sp = spec_of(CLIPT_STAGE_BS010, 1, 4, 4, 1, 0, 0);
        expect_prepare(env->ctx, &sp, 3, CLIPT_ERROR_INVALID_ELEM_SIZE);
        expect_prepare(env->ctx, &sp, 32, CLIPT_ERROR_INVALID_ELEM_SIZE);
    }
    clipt_context_release(small);
}

/* ---- host-only: identities and the sequences' algebra ------------------------------ */

static void test_identity(void **state)
{
    static const struct { clipt_stage_spec sp; int identity; } cases[] = {
        {{CLIPT_STAGE_BS010, "", 4, 1, 9, 1, 0, 0}, 1},
        {{CLIPT_STAGE_BS010, "", 4, 9, 1, 1, 0, 0}, 1},
        {{CLIPT_STAGE_BS010, "", 0, 9, 9, 1, 0, 0}, 1},
        {{CLIPT_STAGE_BS010, "", 1, 2, 2, 1, 0, 0}, 0},
        {{CLIPT_STAGE_SHIFT100, "", 1, 1, 1, 6, 2, 3}, 0},
        {{CLIPT_STAGE_SHIFT100, "", 1, 1, 7, 6, 0, 0}, 1},
        {{CLIPT_STAGE_SHIFT100, "", 3, 2, 7, 6, 0, 0}, 0},
        {{CLIPT_STAGE_PAD, "", 5, 7, 1, 1, 7, 7}, 1},
        {{CLIPT_STAGE_PAD, "", 5, 7, 1, 1, 7, 8}, 0},
        {{CLIPT_STAGE_UNPAD, "", 5, 7, 1, 1, 8, 7}, 0}};
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++)
        if (clipt_stage_is_identity(&cases[i].sp) != cases[i].identity)
            fail_msg("case %zu: clipt_stage_is_identity should be %d", i,
                     cases[i].identity);
}

static const clipt_sequence all_sequences[] = {
    CLIPT_SEQUENCE_1,   CLIPT_SEQUENCE_2_1, CLIPT_SEQUENCE_2_2, CLIPT_SEQUENCE_3_1,
    CLIPT_SEQUENCE_3_2, CLIPT_SEQUENCE_4_1, CLIPT_SEQUENCE_4_2, CLIPT_SEQUENCE_4_3};

/* Applies the CPU references of seq's stages in turn; 0 if the result is
 * the transpose. */
static int sequence_transposes(clipt_sequence seq, size_t Mp, size_t m, size_t Np,
                               size_t n)
{
    const size_t M = Mp * m, N = Np * n, bytes = M * N * 4;
    clipt_stage_spec specs[CLIPT_MAX_SEQUENCE_STAGES];
    unsigned count = clipt_sequence_specs(seq, Mp, m, Np, n, specs);
    unsigned char *a = malloc(bytes), *b = malloc(bytes), *want = malloc(bytes);
    size_t first;
    int bad;
    assert_true(a && b && want && count > 0);
    test_fill_pattern(a, M * N, 4, 1);
    test_reference_transpose(a, want, M, N, 4);
    for (unsigned i = 0; i < count; i++) {
        unsigned char *t;
        assert_int_equal(test_stage_region(&specs[i]), M * N);
        memcpy(b, a, bytes);
        test_reference_stage(&specs[i], a, b, 4);
        t = a, a = b, b = t;
    }
    bad = test_mismatches(a, want, bytes, &first) != 0;
    free(a);
    free(b);
    free(want);
    return bad;
}

static void test_sequence_algebra(void **state)
{
    (void)state;
    for (size_t q = 0; q < COUNT(all_sequences); q++)
        for (size_t Mp = 1; Mp <= 4; Mp++)
            for (size_t m = 1; m <= 5; m++)
                for (size_t Np = 1; Np <= 4; Np++)
                    for (size_t n = 1; n <= 5; n++)
                        if (sequence_transposes(all_sequences[q], Mp, m, Np, n))
                            fail_msg("sequence %s with M'=%zu m=%zu N'=%zu n=%zu does "
                                     "not transpose",
                                     clipt_sequence_name(all_sequences[q]), Mp, m, Np, n);
    {
        clipt_stage_spec unused[CLIPT_MAX_SEQUENCE_STAGES];
        assert_int_equal(clipt_sequence_specs((clipt_sequence)99, 2, 2, 2, 2, unused), 0);
    }
}

/* Which kernel families ran (the choice is the library's: a note, not a
 * check). */
static void print_kernels_seen(void)
{
    print_message("kernel families exercised:");
    for (int k = CLIPT_STAGE_BS010; k <= CLIPT_STAGE_UNPAD; k++)
        if (kinds_seen & KIND(k))
            print_message(" %s", kind_name(k));
    print_message("\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identity),
        cmocka_unit_test(test_sequence_algebra),
        cmocka_unit_test(test_bs010),
        cmocka_unit_test(test_bs010_tunings),
        cmocka_unit_test(test_pttwac010),
        cmocka_unit_test(test_bs010_fallbacks),
        cmocka_unit_test(test_shift100),
        cmocka_unit_test(test_shift100_large),
        cmocka_unit_test(test_shift100_fused),
        cmocka_unit_test(test_shift100_tunings),
        cmocka_unit_test(test_pad_unpad),
        cmocka_unit_test(test_prepare_limits),
    };
    test_apply_filter();
    int failed = cmocka_run_group_tests(tests, test_group_open, test_group_close);
    print_kernels_seen();
    return failed;
}
