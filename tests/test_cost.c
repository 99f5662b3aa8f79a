/* The cost model (src/cost.c) and the plan choice by it (src/choice_cost.c),
 * on the host: the sector share of segment walks, the pass-list form,
 * stage sums, and over many random shapes on an H100's profile that the
 * model's choices are valid plans, pad little, and take microseconds; the
 * NVIDIA levels of the tuning table (src/tuning_table.c): every NVIDIA GPU
 * gets the H100's kernel values, the H200 its own model. */
#include "support.h"
#include "choice.h"
#include "cost.h"
#include "timing.h"
#include "tuning_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* An H100 as NVIDIA's OpenCL reports it (no device needed). */
static void h100_profile(clipt_device_profile *p)
{
    memset(p, 0, sizeof *p);
    p->max_wg_size = 1024;
    p->compute_units = 132;
    p->max_alloc_bytes = (cl_ulong)20 << 30;
    clipt_profile_as_gpu(p, "NVIDIA H100 80GB HBM3", "NVIDIA Corporation", 48 * 1024);
}

/* The NVIDIA levels: the H100 and the H200 by name, any other NVIDIA GPU
 * by vendor, all with the H100's kernel values (measured on both: the
 * derived GPU defaults ran 0.72-0.94x as fast on an H200); each named one
 * with its own copy bandwidth; another vendor's GPU the derived values. */
static void test_nvidia_levels(void **state)
{
    static const struct {
        const char *name, *vendor, *entry;
        unsigned copy_gbs, align_bytes, c2r_column_bytes;
    } cases[] = {
        {"NVIDIA H100 80GB HBM3", "NVIDIA Corporation", "NVIDIA H100 80GB HBM3 (measured)", 2866,
         128, 12288},
        {"NVIDIA H200", "NVIDIA Corporation", "NVIDIA H200 (measured)", 4137, 128, 12288},
        {"NVIDIA GeForce RTX 3090", "NVIDIA Corporation", "NVIDIA GPU (the H100's values)", 2866,
         128, 12288},
        {"Some GPU", "Some Vendor", "generic GPU (untuned)", 1000, 32, 1}};
    clipt_device_profile h100;
    (void)state;
    h100_profile(&h100);
    for (size_t i = 0; i < COUNT(cases); i++) {
        clipt_device_profile p;
        memset(&p, 0, sizeof p);
        p.max_wg_size = 1024;
        p.compute_units = 132;
        clipt_profile_as_gpu(&p, cases[i].name, cases[i].vendor, 48 * 1024);
        assert_string_equal(p.tuning_entry, cases[i].entry);
        assert_int_equal(p.tuning.model_copy_gbs, cases[i].copy_gbs);
        assert_int_equal(p.tuning.align_bytes, cases[i].align_bytes);
        assert_int_equal(p.tuning.c2r_column_bytes, cases[i].c2r_column_bytes);
        if (i < 3) { /* the H100's kernel values */
            assert_int_equal(p.tuning.walk_unroll, h100.tuning.walk_unroll);
            assert_int_equal(p.tuning.tile_elems_010, h100.tuning.tile_elems_010);
            assert_int_equal(p.tuning.wg_100, h100.tuning.wg_100);
            assert_int_equal(p.tuning.simd_100, h100.tuning.simd_100);
            assert_int_equal(p.tuning.groups_per_cu_010, h100.tuning.groups_per_cu_010);
            assert_int_equal(p.tuning.model_run_bytes, h100.tuning.model_run_bytes);
            assert_int_equal(p.tuning.model_c2r_eff, h100.tuning.model_c2r_eff);
        }
    }
}

static double move_sector_eff(const clipt_device_profile *p, uint64_t s, size_t elem)
{
    const clipt_stage_spec spec = {CLIPT_OP_MOVE_SUPER, "100!", 1, 1000, 999, s, 0, 0, 0};
    const clipt_cost_env env = clipt_cost_env_of(p);
    clipt_cost_features f;
    clipt_cost_features_of(&spec, CLIPT_FAMILY_SUPER_SEGMENTS, elem, &p->tuning, &env, &f);
    return f.sector_eff;
}

/* The H100 prices moves in 128-byte lines: super-elements of whole lines
 * moved in 16-byte words (as the stages widen fp32 and fp64 ones) use every
 * byte; 144- and 160-byte ones touch parts of lines; 148-byte fp32
 * super-elements (s = 37), walked in 4-byte elements, waste more, and
 * 160-byte ones (s = 40: runs of 40 bytes a step) more still.  The share is
 * the geometric mean of a step's and the whole run's (cost.c).  With
 * 32-byte sectors 128-byte fp32 runs are whole; a CPU profile (align_bytes
 * 1) has no sectors. */
static void test_sector_share(void **state)
{
    clipt_device_profile p;
    (void)state;
    h100_profile(&p);
    assert_int_equal(p.tuning.align_bytes, 128);
    assert_true(move_sector_eff(&p, 8, 16) == 1.0);
    assert_true(move_sector_eff(&p, 32, 16) == 1.0);
    assert_true(move_sector_eff(&p, 9, 16) < 0.7 && move_sector_eff(&p, 10, 16) < 0.7);
    assert_true(move_sector_eff(&p, 37, 4) < 0.6 && move_sector_eff(&p, 37, 4) > 0.3);
    assert_true(move_sector_eff(&p, 40, 4) < move_sector_eff(&p, 37, 4));
    p.tuning.align_bytes = 32;
    assert_true(move_sector_eff(&p, 32, 4) == 1.0);
    assert_true(move_sector_eff(&p, 37, 4) < 0.9 && move_sector_eff(&p, 37, 4) > 0.6);
    assert_true(move_sector_eff(&p, 40, 4) < move_sector_eff(&p, 37, 4));
    p.tuning.align_bytes = 1;
    assert_true(move_sector_eff(&p, 37, 4) == 1.0);
}

/* Predicted seconds of a 100! of 1000 x 999 super-elements of s elements,
 * less its two launches (save the heads, walk). */
static double move_seconds(const clipt_device_profile *p, uint64_t s, size_t elem)
{
    const clipt_stage_spec spec = {CLIPT_OP_MOVE_SUPER, "100!", 1, 1000, 999, s, 0, 0, 0};
    const clipt_cost_env env = clipt_cost_env_of(p);
    return clipt_cost_stage_seconds(&spec, elem, &p->tuning, &env) -
           2 * p->tuning.model_launch_ns * 1e-9;
}

/* Super-elements shorter than model_run_bytes cost per byte as if they
 * were that long: with 32-byte sectors and a run of 128 bytes (the H100's
 * entry until its moves were priced in 128-byte lines), 32-byte ones of
 * 1-byte elements (whole, aligned sectors, moved as 16-byte words) cost
 * more per byte than 128-byte ones, as clipt bench --brute-force measured
 * (1-byte shapes whose best plan had m = 128 where the model took 32); from
 * 128 bytes on the run adds nothing.  Without it (1), and without the
 * price of small 1-byte tiles (model_tiles_small 0), the two cost the same
 * per byte, and the sectors take m < 128; priced in lines (the entry's
 * own values: align_bytes 128, model_run_bytes 1) the choice takes 128
 * again. */
static void test_run_bytes(void **state)
{
    clipt_device_profile p;
    clipt_tuning entry;
    clipt_plan_options o;
    clipt_plan_choice c;
    (void)state;
    h100_profile(&p);
    entry = p.tuning;
    p.tuning.align_bytes = 32;
    p.tuning.model_run_bytes = 128;
    p.tuning.model_tiles_small = 0;
    assert_true(move_seconds(&p, 32, 1) / 32 > 1.5 * move_seconds(&p, 128, 1) / 128);
    assert_true(fabs(move_seconds(&p, 256, 1) / 256 - move_seconds(&p, 128, 1) / 128) <
                1e-3 * move_seconds(&p, 128, 1) / 128);
    /* the choice: 17792 x 3741 bytes took m = n = 32 (0.55 ms on the H100)
     * before, m = 128 with the run priced (0.37 ms) */
    clipt_plan_options_init(&o);
    o.algorithm = CLIPT_ALGORITHM_TPDS;
    assert_status(clipt_plan_choose(&p, 17792, 3741, 1, &o, &p.tuning, &c), CLIPT_SUCCESS);
    assert_true(c.m >= 128 && c.m % 32 == 0);
    p.tuning.model_run_bytes = 1;
    assert_true(fabs(move_seconds(&p, 32, 1) / 32 - move_seconds(&p, 128, 1) / 128) <
                1e-3 * move_seconds(&p, 128, 1) / 128);
    assert_status(clipt_plan_choose(&p, 17792, 3741, 1, &o, &p.tuning, &c), CLIPT_SUCCESS);
    assert_true(c.m < 128 && c.n < 128);
    p.tuning = entry;
    assert_int_equal(p.tuning.model_run_bytes, 1);
    assert_status(clipt_plan_choose(&p, 17792, 3741, 1, &o, &p.tuning, &c), CLIPT_SUCCESS);
    assert_true(c.m >= 128 && c.m % 32 == 0);
}

/* Predicted seconds per byte of 0010! tiles of a x b elements, 2^24
 * elements in all, less the launch. */
static double tile_seconds_per_byte(const clipt_device_profile *p, uint64_t a, uint64_t b,
                                    size_t elem)
{
    const clipt_stage_spec spec = {CLIPT_OP_TRANSPOSE_TILES, "0010!", (1u << 24) / (a * b), a, b,
                                   1, 0, 0, 0};
    const clipt_cost_env env = clipt_cost_env_of(p);
    return (clipt_cost_stage_seconds(&spec, elem, &p->tuning, &env) -
            p->tuning.model_launch_ns * 1e-9) /
           ((double)(1u << 24) * (double)elem);
}

/* Tiles of 1- and 2-byte elements under 4 KiB cost more per byte (the
 * H100 ran them at 1.2-1.9 times the price of larger ones: skinny shapes,
 * whose tiles are a few elements wide); 4 KiB and more, or 4-byte
 * elements, cost the same per byte whatever the tile.  1-byte tiles moved
 * as 4 x 4 quads (sides multiples of 4, a >= 32) cost what 4-byte tiles
 * do; the small-tile cases have fewer than 32 rows or 2 columns: none. */
static void test_small_tiles(void **state)
{
    clipt_device_profile p;
    (void)state;
    h100_profile(&p);
    assert_true(p.tuning.model_tiles_small > 0);
    assert_true(tile_seconds_per_byte(&p, 16, 8, 1) > 1.2 * tile_seconds_per_byte(&p, 2, 2048, 1));
    assert_true(tile_seconds_per_byte(&p, 16, 8, 1) > tile_seconds_per_byte(&p, 16, 32, 1));
    assert_true(fabs(tile_seconds_per_byte(&p, 64, 64, 1) / tile_seconds_per_byte(&p, 64, 64, 4) -
                     1) < 1e-9);
    assert_true(tile_seconds_per_byte(&p, 64, 64, 1) < 0.8 * tile_seconds_per_byte(&p, 2, 2048, 1));
    assert_true(tile_seconds_per_byte(&p, 32, 8, 2) > 1.1 * tile_seconds_per_byte(&p, 64, 32, 2));
    assert_true(fabs(tile_seconds_per_byte(&p, 64, 64, 1) / tile_seconds_per_byte(&p, 128, 128, 1) -
                     1) < 1e-9);
    assert_true(fabs(tile_seconds_per_byte(&p, 16, 8, 4) / tile_seconds_per_byte(&p, 64, 64, 4) -
                     1) < 1e-9);
    p.tuning.model_tiles_small = 0;
    assert_true(fabs(tile_seconds_per_byte(&p, 16, 8, 1) / tile_seconds_per_byte(&p, 2, 2048, 1) -
                     1) < 1e-9);
}

/* Moves of the layout that the segment walk would not take (too many
 * short cycles: stages.c gives them to the slices kernel). */
static int refused_walks(const clipt_staged_layout *l)
{
    clipt_stage_spec specs[CLIPT_MAX_STAGES];
    const int count = clipt_staged_specs(l, specs);
    int refused = 0;
    for (int i = 0; i < count; i++)
        refused += specs[i].op == CLIPT_OP_MOVE_SUPER && !clipt_spec_transposes_super(&specs[i]) &&
                   !clipt_cost_walk_takes(specs[i].a, specs[i].b);
    return refused;
}

/* The walk's refusal, counted by number theory: 9216 x 96 has 294880
 * cycles of 3 positions (more than the host lists), 921 x 381 1088; small
 * ones are not counted.  9210 x 12167 bytes took m = n = 128, padded to
 * 9216 x 12288, whose 100! of 9216 x 96 ran on the slices kernel (0.64
 * ms of 1.12 on the H100); checked, the choice avoids it, and its price
 * counts the fallback. */
static void test_walk_refused(void **state)
{
    clipt_device_profile p;
    clipt_plan_options o;
    clipt_plan_choice c;
    const clipt_staged_layout refused = {1, 9210, 12167, 9216, 12288, 128, 128,
                                         CLIPT_SEQUENCE_3_1};
    clipt_cost_env env;
    (void)state;
    h100_profile(&p);
    env = clipt_cost_env_of(&p);
    assert_false(clipt_cost_walk_takes(9216, 96));
    assert_false(clipt_cost_walk_takes(9216, 96)); /* remembered */
    assert_true(clipt_cost_walk_takes(921, 381));
    assert_true(clipt_cost_walk_takes(3, 5));
    assert_int_equal(refused_walks(&refused), 1);
    assert_true(clipt_cost_staged_seconds_checked(&refused, 1, &p.tuning, &env) >
                1.5 * clipt_cost_staged_seconds(&refused, 1, &p.tuning, &env));
    clipt_plan_options_init(&o);
    o.algorithm = CLIPT_ALGORITHM_TPDS;
    assert_status(clipt_plan_choose(&p, 9210, 12167, 1, &o, &p.tuning, &c), CLIPT_SUCCESS);
    {
        const clipt_staged_layout l = {1, 9210, 12167, c.prows, c.pcols, c.m, c.n, c.sequence};
        assert_int_equal(refused_walks(&l), 0);
    }
}

/* The padding stage's features: padding in 16-byte words (GPU kernels,
 * element kernels' words narrower than 8 bytes) is priced as 4-byte
 * element kernels whatever the element; 8-byte rows keep the element
 * kernels (and their price), and so does the CPU form. */
static void test_words_padding(void **state)
{
    static const struct {
        size_t elem;
        int loops;
        double priced_as;
    } cases[] = {{1, 0, 4}, {2, 0, 4}, {4, 0, 4}, {8, 0, 8}, {1, 1, 1}};
    clipt_device_profile p;
    clipt_cost_env env;
    const clipt_staged_layout l = {1, 9210, 12167, 9210, 12288, 30, 128, CLIPT_SEQUENCE_3_1};
    clipt_stage_spec specs[CLIPT_MAX_STAGES];
    (void)state;
    h100_profile(&p);
    env = clipt_cost_env_of(&p);
    assert_true(clipt_staged_specs(&l, specs) > 0);
    assert_int_equal(specs[0].op, CLIPT_OP_PAD);
    for (size_t i = 0; i < COUNT(cases); i++) {
        clipt_tuning t = p.tuning;
        clipt_cost_features f;
        t.kernel_style = cases[i].loops ? CLIPT_KERNEL_STYLE_LOOPS : CLIPT_KERNEL_STYLE_GROUPS;
        clipt_cost_features_of(&specs[0], CLIPT_FAMILY_ROWS, cases[i].elem, &t, &env, &f);
        if (f.elem != cases[i].priced_as)
            fail_msg("%zu-byte rows, loops %d: priced as %g-byte elements, not %g",
                     cases[i].elem, cases[i].loops, f.elem, cases[i].priced_as);
    }
}

/* The pass form: a scattered pass of one-element runs costs more than one
 * of whole-sector runs, which costs what a move of aligned super-elements
 * does; a staged pass costs what tiles do; an unknown kind is refused. */
static void test_passes(void **state)
{
    clipt_device_profile p;
    const double bytes = 1e9;
    clipt_cost_env env;
    (void)state;
    h100_profile(&p);
    env = clipt_cost_env_of(&p);
    {
        const clipt_cost_pass narrow = {CLIPT_COST_PASS_SCATTERED, bytes, 4, 4, 1};
        const clipt_cost_pass wide = {CLIPT_COST_PASS_SCATTERED, bytes, 128, 16, 1};
        const clipt_cost_pass staged = {CLIPT_COST_PASS_STAGED, bytes, 0, 0, 1};
        const clipt_cost_pass two[] = {wide, staged};
        const clipt_cost_pass bad = {(clipt_cost_pass_kind)7, bytes, 0, 0, 1};
        const double t_narrow = clipt_cost_passes_seconds(&narrow, 1, 4, &p.tuning, &env);
        const double t_wide = clipt_cost_passes_seconds(&wide, 1, 4, &p.tuning, &env);
        const double t_staged = clipt_cost_passes_seconds(&staged, 1, 4, &p.tuning, &env);
        const double copy = bytes / (p.tuning.model_copy_gbs * 1e9);
        assert_true(t_narrow > 2 * t_wide);
        /* whole sectors, 16-byte steps: the move efficiency itself */
        assert_true(fabs(t_wide - (copy * 1000 / p.tuning.model_move_eff +
                                   p.tuning.model_launch_ns * 1e-9)) < 1e-9);
        assert_true(fabs(t_staged - (copy * 1000 / p.tuning.model_tiles_eff +
                                     p.tuning.model_launch_ns * 1e-9)) < 1e-9);
        assert_true(fabs(clipt_cost_passes_seconds(two, 2, 4, &p.tuning, &env) -
                         (t_wide + t_staged)) < 1e-12);
        assert_true(clipt_cost_passes_seconds(&bad, 1, 4, &p.tuning, &env) < 0);
    }
}

/* C2R's passes: 1 / model_c2r_eff of a copy each (the tiles' element term
 * for other sizes), one launch; a column shuffle whose column blocks local
 * memory cannot hold (3000 rows x one 32-byte sector of fp32: 96 KB) is
 * two passes in three launches, one that fits (1000 rows: 32 KB) one. */
static void test_c2r_passes(void **state)
{
    clipt_device_profile p;
    clipt_cost_env env;
    (void)state;
    h100_profile(&p);
    env = clipt_cost_env_of(&p);
    assert_int_equal(p.tuning.model_c2r_eff, 650);
    for (size_t elem = 4; elem <= 8; elem *= 2) {
        const clipt_stage_spec rows = {CLIPT_OP_SHUFFLE_ROWS, "rows", 1, 3000, 4001, 1, 0, 0, 0};
        const clipt_stage_spec tall = {CLIPT_OP_SHUFFLE_COLUMNS, "c", 1, 3000, 4001, 1, 0, 0, 0};
        const clipt_stage_spec r2c = {CLIPT_OP_UNSHUFFLE_COLUMNS, "c", 1, 3000, 4001, 1, 0, 0, 0};
        const clipt_stage_spec low = {CLIPT_OP_SHUFFLE_COLUMNS, "c", 1, 1000, 4001, 1, 0, 0, 0};
        const double launch = p.tuning.model_launch_ns * 1e-9;
        const double per_pass = 1000.0 / p.tuning.model_c2r_eff +
                                p.tuning.model_tiles_elem / 1000.0 * (4.0 / elem - 1);
        const double copy = 2.0 * 3000 * 4001 * elem / (p.tuning.model_copy_gbs * 1e9);
        clipt_cost_features f;
        clipt_cost_features_of(&rows, CLIPT_FAMILY_C2R, elem, &p.tuning, &env, &f);
        assert_int_equal(f.kind, CLIPT_COST_C2R);
        assert_true(fabs(clipt_cost_seconds(&f, &p.tuning) - (launch + copy * per_pass)) < 1e-12);
        clipt_cost_features_of(&tall, CLIPT_FAMILY_C2R, elem, &p.tuning, &env, &f);
        assert_true(fabs(clipt_cost_seconds(&f, &p.tuning) - (3 * launch + 2 * copy * per_pass)) <
                    1e-12);
        clipt_cost_features_of(&r2c, CLIPT_FAMILY_C2R, elem, &p.tuning, &env, &f);
        assert_int_equal(f.launches, 3);
        clipt_cost_features_of(&low, CLIPT_FAMILY_C2R, elem, &p.tuning, &env, &f);
        assert_int_equal(f.launches, 1);
        assert_true(fabs(f.bytes - 2.0 * 1000 * 4001 * elem) < 1);
    }
}

/* In the CPU kernels (kernel_style loops) a C2R pass costs 4 / elem times
 * 1 / model_c2r_eff of a copy: all of its work is per element. */
static void test_c2r_passes_cpu(void **state)
{
    clipt_device_profile p;
    clipt_cost_env env;
    (void)state;
    h100_profile(&p);
    p.tuning.kernel_style = CLIPT_KERNEL_STYLE_LOOPS;
    p.tuning.model_c2r_eff = 25;
    env = clipt_cost_env_of(&p);
    for (size_t elem = 1; elem <= 16; elem *= 2) {
        const clipt_stage_spec rows = {CLIPT_OP_SHUFFLE_ROWS, "rows", 1, 300, 401, 1, 0, 0, 0};
        const double copy = 2.0 * 300 * 401 * elem / (p.tuning.model_copy_gbs * 1e9);
        const double want = p.tuning.model_launch_ns * 1e-9 + copy * 40.0 * 4 / (double)elem;
        clipt_cost_features f;
        clipt_cost_features_of(&rows, CLIPT_FAMILY_C2R, elem, &p.tuning, &env, &f);
        assert_true(fabs(clipt_cost_seconds(&f, &p.tuning) - want) < 1e-12);
    }
}

/* A staged layout's price is the sum of its stages'; an unknown sequence
 * has none. */
static void test_staged_sum(void **state)
{
    clipt_device_profile p;
    clipt_staged_layout l = {1, 9545, 8276, 9545, 8280, 83, 40, CLIPT_SEQUENCE_3_2};
    clipt_stage_spec specs[CLIPT_MAX_STAGES];
    clipt_cost_env env;
    double sum = 0;
    int n;
    (void)state;
    h100_profile(&p);
    env = clipt_cost_env_of(&p);
    n = clipt_staged_specs(&l, specs);
    assert_int_equal(n, 4); /* pad, 0100!, 0010!, 100! */
    for (int i = 0; i < n; i++)
        sum += clipt_cost_stage_seconds(&specs[i], 4, &p.tuning, &env);
    assert_true(fabs(sum - clipt_cost_staged_seconds(&l, 4, &p.tuning, &env)) < 1e-12);
    /* the measured plan took 1.39 ms (docs/results/general_e4.csv) */
    assert_true(sum > 1.1e-3 && sum < 1.7e-3);
    l.sequence = (clipt_sequence)99;
    assert_true(clipt_cost_staged_seconds(&l, 4, &p.tuning, &env) < 0);
}

/* 2000 random general and skinny shapes, every element size, on an H100's
 * profile: the model's choice divides its padded sides, its tile fits local
 * memory, it pads by at most 2 % per side, it is never predicted slower
 * than Algorithm 5's, and choosing takes well under a millisecond. */
static void test_model_choices(void **state)
{
    static const size_t elems[] = {1, 2, 4, 8, 16};
    clipt_device_profile p;
    clipt_plan_options model, alg5;
    uint64_t seed = 1212;
    size_t changed = 0, refused_model = 0, refused_alg5 = 0;
    double spent = 0;
    (void)state;
    h100_profile(&p);
    clipt_plan_options_init(&model);
    clipt_plan_options_init(&alg5);
    /* the sequences' choices (the automatic C2R of coprime shapes with
     * short columns has no tiles to compare) */
    model.algorithm = CLIPT_ALGORITHM_TPDS;
    alg5.tile_rule = CLIPT_TILE_RULE_ALG5;
    for (size_t i = 0; i < 2000; i++) {
        const size_t elem = elems[i % COUNT(elems)];
        const int skinny = i % 4 == 0;
        const size_t lng = test_rand_range(&seed, skinny ? 10000 : 1000, skinny ? 5000000 : 20000);
        const size_t other = skinny ? test_rand_range(&seed, 2, 32)
                                    : test_rand_range(&seed, 1000, 20000);
        const size_t rows = i % 2 ? lng : other, cols = i % 2 ? other : lng;
        const size_t lm = clipt_local_budget(&p, CLIPT_OWN_LOCALS_UNKNOWN) / elem;
        const clipt_cost_env env = clipt_cost_env_of(&p);
        clipt_plan_choice a, m;
        double t0 = util_now_seconds(), pa, pm;
        assert_status(clipt_plan_choose(&p, rows, cols, elem, &model, &p.tuning, &m),
                      CLIPT_SUCCESS);
        spent += util_now_seconds() - t0;
        assert_status(clipt_plan_choose(&p, rows, cols, elem, &alg5, &p.tuning, &a),
                      CLIPT_SUCCESS);
        if (m.prows % m.m || m.pcols % m.n || m.prows < rows || m.pcols < cols ||
            (m.prows - rows) * 50 > rows + 50 || (m.pcols - cols) * 50 > cols + 50)
            fail_msg("%zu x %zu (%zu B): %s m=%zu n=%zu padded %zu x %zu", rows, cols, elem,
                     clipt_sequence_name(m.sequence), m.m, m.n, m.prows, m.pcols);
        if ((m.sequence == CLIPT_SEQUENCE_3_1 || m.sequence == CLIPT_SEQUENCE_3_2) &&
            m.m * m.n > lm)
            fail_msg("%zu x %zu: tile %zu x %zu beyond local memory", rows, cols, m.m, m.n);
        {
            const clipt_staged_layout la = {1, rows, cols, a.prows, a.pcols, a.m, a.n,
                                            a.sequence};
            const clipt_staged_layout lmo = {1, rows, cols, m.prows, m.pcols, m.m, m.n,
                                             m.sequence};
            pa = clipt_cost_staged_seconds(&la, elem, &p.tuning, &env);
            pm = clipt_cost_staged_seconds(&lmo, elem, &p.tuning, &env);
        }
        assert_true(pm <= pa * (1 + 1e-12));
        changed += pm < pa;
        {
            const clipt_staged_layout la = {1, rows, cols, a.prows, a.pcols, a.m, a.n,
                                            a.sequence};
            const clipt_staged_layout lmo = {1, rows, cols, m.prows, m.pcols, m.m, m.n,
                                             m.sequence};
            refused_model += refused_walks(&lmo);
            refused_alg5 += refused_walks(&la);
        }
    }
    print_message("2000 shapes on an H100 profile: %zu plans changed by the model, %.1f us "
                  "per choice; walks refused: %zu (Algorithm 5: %zu)\n",
                  changed, 1e6 * spent / 2000, refused_model, refused_alg5);
    assert_true(refused_model <= refused_alg5);
    assert_true(changed > 0);
    assert_true(spent / 2000 < 1e-3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvidia_levels),
        cmocka_unit_test(test_sector_share),
        cmocka_unit_test(test_small_tiles),
        cmocka_unit_test(test_run_bytes),
        cmocka_unit_test(test_walk_refused),
        cmocka_unit_test(test_words_padding),
        cmocka_unit_test(test_passes),
        cmocka_unit_test(test_c2r_passes),
        cmocka_unit_test(test_c2r_passes_cpu),
        cmocka_unit_test(test_staged_sum),
        cmocka_unit_test(test_model_choices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
