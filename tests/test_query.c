/* Reading plans back (clipt_plan_query, clipt_plan_query_stage) and the
 * tuning values by name (clipt_tuning_count/name, clipt_context_tuning,
 * clipt_plan_tuning, clipt_context_tuning_entry): for plans of many shapes
 * (vectors, padded and not, every element size, every forced sequence) the
 * answers agree with what the plan does (buffer and scratch sizes, the
 * stages clipt_plan_profile times), with each other (tiles divide the
 * padded shape, each stage covers it, ops and families match) and with
 * clipt_plan_describe's lines, which the tool prints in its own layout
 * through util/plan_text.h.  Bad arguments are in test_errors' catalogue. */
#include "support.h"
#include "plan_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_STAGES 8

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};

/* Kernel families (bit 1 << family) and stage ops (bit 1 << op) seen by
 * the test running. */
static unsigned families_seen, ops_seen;

/* What one plan was asked for. */
typedef struct request {
    clipt_context ctx;
    size_t rows, cols, elem;
    clipt_plan_options o;
} request;

/* ---- one stage ------------------------------------------------------------ */

/* Tiles too large for local memory are transposed as 0100! of 1-element
 * super-elements, with flags in global memory (the slices family). */
static int family_fits_op(const clipt_stage_info *s)
{
    switch (s->op) {
    case CLIPT_OP_TRANSPOSE_TILES:
        return s->family == CLIPT_FAMILY_TILE_LOCAL || s->family == CLIPT_FAMILY_TILE_CYCLES ||
               (s->family == CLIPT_FAMILY_SUPER_SLICES && s->s == 1);
    case CLIPT_OP_MOVE_SUPER:
        return s->family == CLIPT_FAMILY_SUPER_LOCAL ||
               s->family == CLIPT_FAMILY_SUPER_SLICES ||
               s->family == CLIPT_FAMILY_SUPER_SEGMENTS;
    case CLIPT_OP_PAD:
    case CLIPT_OP_UNPAD:
        return s->family == CLIPT_FAMILY_ROWS;
    default:
        return 0;
    }
}

/* A piece of the kernel names each family's file holds. */
static const char *family_kernel(clipt_kernel_family f)
{
    switch (f) {
    case CLIPT_FAMILY_TILE_LOCAL: return "transpose010";
    case CLIPT_FAMILY_TILE_CYCLES: return "pttwac";
    case CLIPT_FAMILY_SUPER_LOCAL: return "shift100";
    case CLIPT_FAMILY_SUPER_SLICES: return "slices";
    case CLIPT_FAMILY_SUPER_SEGMENTS: return "segments";
    default: return "pad";
    }
}

/* The papers' names: 010!/0010! transpose tiles, 100!/0100!/1000! move
 * super-elements, "pad" and "unpad" move rows. */
static int label_fits_op(const clipt_stage_info *s)
{
    switch (s->op) {
    case CLIPT_OP_TRANSPOSE_TILES: return strstr(s->label, "010!") && !strstr(s->label, "100");
    case CLIPT_OP_MOVE_SUPER: return strstr(s->label, "100") != NULL;
    case CLIPT_OP_PAD: return strcmp(s->label, "pad") == 0;
    default: return strcmp(s->label, "unpad") == 0;
    }
}

/* Stage k of n of plan p (its info in *s) against the plan's info. */
static void check_stage(const clipt_plan_info *p, const clipt_stage_info *s, unsigned k,
                        unsigned n, const char *what)
{
    const cl_ulong padded = (cl_ulong)p->padded_rows * p->padded_cols;
    if (!s->label || !s->kernels || !family_fits_op(s) || !label_fits_op(s) ||
        !strstr(s->kernels, family_kernel(s->family)))
        fail_msg("%s stage %u: op %d, family %d, label %s, kernels %s do not fit together",
                 what, k, (int)s->op, (int)s->family, s->label ? s->label : "(null)",
                 s->kernels ? s->kernels : "(null)");
    if (s->local_size == 0 || s->global_size == 0 || s->global_size % s->local_size)
        fail_msg("%s stage %u: launch %zu / %zu", what, k, s->global_size, s->local_size);
    if (s->op == CLIPT_OP_PAD || s->op == CLIPT_OP_UNPAD) {
        const int pad = s->op == CLIPT_OP_PAD;
        /* pad spreads the rows x cols original first, unpad squeezes the
         * cols x padded_rows result last */
        if (k != (pad ? 0 : n - 1) || s->b != 1 || s->s != 1 || s->super_transposed ||
            s->instances != (pad ? p->rows : p->cols) || s->a != (pad ? p->cols : p->rows) ||
            s->pitch_from != (pad ? p->cols : p->padded_rows) ||
            s->pitch_to != (pad ? p->padded_cols : p->rows))
            fail_msg("%s stage %u (%s): %llu rows of %llu, pitch %llu -> %llu", what, k,
                     s->label, (unsigned long long)s->instances, (unsigned long long)s->a,
                     (unsigned long long)s->pitch_from, (unsigned long long)s->pitch_to);
        return;
    }
    /* every elementary transposition rearranges the whole padded matrix */
    if (s->instances * s->a * s->b * s->s != padded || s->pitch_from || s->pitch_to ||
        (s->super_transposed &&
         (s->op != CLIPT_OP_MOVE_SUPER || p->sequence != CLIPT_SEQUENCE_4_3)))
        fail_msg("%s stage %u (%s): %llu x (%llu x %llu) of %llu, super transposed %d, for "
                 "%zu x %zu", what, k, s->label, (unsigned long long)s->instances,
                 (unsigned long long)s->a, (unsigned long long)s->b,
                 (unsigned long long)s->s, s->super_transposed, p->padded_rows,
                 p->padded_cols);
}

/* ---- the plan's own facts -------------------------------------------------- */

static int keeps_rows_whole(clipt_sequence s)
{
    return s == CLIPT_SEQUENCE_1 || s == CLIPT_SEQUENCE_2_2;
}

static int keeps_cols_whole(clipt_sequence s)
{
    return s == CLIPT_SEQUENCE_1 || s == CLIPT_SEQUENCE_2_1;
}

static void check_plan_info(const request *q, clipt_plan plan, const clipt_plan_info *p,
                            const char *what)
{
    const int vector = q->rows == 1 || q->cols == 1;
    if (p->rows != q->rows || p->cols != q->cols || p->elem_size != q->elem)
        fail_msg("%s: reports %zu x %zu, %zu-byte elements", what, p->rows, p->cols,
                 p->elem_size);
    if (p->sequence_forced != (q->o.sequence != CLIPT_SEQUENCE_AUTO) ||
        (q->o.sequence != CLIPT_SEQUENCE_AUTO && p->sequence != q->o.sequence) ||
        (q->o.sequence == CLIPT_SEQUENCE_AUTO && (p->sequence == CLIPT_SEQUENCE_AUTO) != vector))
        fail_msg("%s: sequence %d, forced %d", what, (int)p->sequence, p->sequence_forced);
    if (p->tile_m == 0 || p->tile_n == 0 || p->padded_rows < p->rows ||
        p->padded_cols < p->cols || p->padded_rows % p->tile_m ||
        p->padded_cols % p->tile_n || !p->tile_reason)
        fail_msg("%s: tiles %zu x %zu of the padded %zu x %zu", what, p->tile_m, p->tile_n,
                 p->padded_rows, p->padded_cols);
    /* a forced factor holds, except where the sequence moves whole rows
     * (2.1: n = cols), whole columns (2.2: m = rows) or elements (1) */
    if ((q->o.tile_m && p->tile_m != (keeps_rows_whole(p->sequence) ? p->rows : q->o.tile_m)) ||
        (q->o.tile_n && p->tile_n != (keeps_cols_whole(p->sequence) ? p->cols : q->o.tile_n)))
        fail_msg("%s: tiles %zu x %zu, forced %zu x %zu", what, p->tile_m, p->tile_n,
                 q->o.tile_m, q->o.tile_n);
    if (p->buffer_bytes != clipt_plan_buffer_size(plan) ||
        p->buffer_bytes != p->padded_rows * p->padded_cols * p->elem_size ||
        p->scratch_bytes != clipt_plan_scratch_size(plan))
        fail_msg("%s: buffer %zu (clipt_plan_buffer_size %zu), scratch %zu "
                 "(clipt_plan_scratch_size %zu)", what, p->buffer_bytes,
                 clipt_plan_buffer_size(plan), p->scratch_bytes, clipt_plan_scratch_size(plan));
    if (!p->tuning_entry || strcmp(p->tuning_entry, clipt_context_tuning_entry(q->ctx)) != 0)
        fail_msg("%s: tuning entry %s", what, p->tuning_entry ? p->tuning_entry : "(null)");
    if (vector != (p->num_stages == 0))
        fail_msg("%s: %u stages", what, p->num_stages);
}

/* The stages: each consistent, pad first and unpad last exactly when the
 * plan pads that side, the scratch they use adding up to the plan's (one
 * scratch buffer shared, the segment tables each their own). */
static void check_stages(clipt_plan plan, const clipt_plan_info *p, clipt_stage_info *st,
                         const char *what)
{
    size_t largest = 0, tables = 0;
    for (unsigned k = 0; k < p->num_stages; k++) {
        assert_status(clipt_plan_query_stage(plan, k, &st[k]), CLIPT_SUCCESS);
        check_stage(p, &st[k], k, p->num_stages, what);
        families_seen |= 1u << st[k].family;
        ops_seen |= 1u << st[k].op;
        largest = st[k].scratch_bytes > largest ? st[k].scratch_bytes : largest;
        tables += st[k].table_bytes;
    }
    if (p->num_stages &&
        ((st[0].op == CLIPT_OP_PAD) != (p->padded_cols != p->cols) ||
         (st[p->num_stages - 1].op == CLIPT_OP_UNPAD) != (p->padded_rows != p->rows)))
        fail_msg("%s: padded %zu x %zu of %zu x %zu, first stage %s, last %s", what,
                 p->padded_rows, p->padded_cols, p->rows, p->cols, st[0].label,
                 st[p->num_stages - 1].label);
    if (largest + tables != p->scratch_bytes)
        fail_msg("%s: stages use %zu scratch bytes and %zu of tables, the plan has %zu",
                 what, largest, tables, p->scratch_bytes);
}

/* ---- against clipt_plan_describe -------------------------------------------- */

static void expect_line(const char *text, const char *line, const char *what)
{
    if (!strstr(text, line))
        fail_msg("%s: the description lacks \"%s\":\n%s", what, line, text);
}

/* The buffer line warns where the plan writes beyond rows*cols*elem (a
 * padded plan looped over matrices packed back to back corrupts the next
 * one) and says so where it does not. */
static void check_buffer_line(const char *text, const clipt_plan_info *p, const char *what)
{
    const size_t matrix = p->rows * p->cols * p->elem_size;
    char line[256];
    snprintf(line, sizeof line, "\nbuffer bytes: %zu (", p->buffer_bytes);
    expect_line(text, line, what);
    if (p->buffer_bytes == matrix) {
        expect_line(text, "(exactly rows*cols*elem: nothing outside the matrix is written)\n",
                    what);
        return;
    }
    snprintf(line, sizeof line, " = %zu plus %zu bytes of room that the transposition "
             "overwrites", matrix, p->buffer_bytes - matrix);
    expect_line(text, line, what);
    expect_line(text, "make the plan with CLIPT_PADDING_NONE)\n", what);
}

/* Every fact the query reports, as describe words it (util/plan_text.h
 * words the tool's lines the same way). */
static void check_describe(clipt_plan plan, const clipt_plan_info *p,
                           const clipt_stage_info *st, const char *what)
{
    static char text[16384];
    char line[1024], part[600];
    assert_status(clipt_plan_describe(plan, text, sizeof text), CLIPT_SUCCESS);
    snprintf(line, sizeof line, "shape: %zu x %zu, %zu-byte elements\n", p->rows, p->cols,
             p->elem_size);
    expect_line(text, line, what);
    plan_text_choice(p, part, sizeof part);
    snprintf(line, sizeof line, "\nsequence: %s\n", part);
    expect_line(text, line, what);
    plan_text_tiles(p, part, sizeof part);
    snprintf(line, sizeof line, "\ntiles: %s (%s)\n", part, p->tile_reason);
    expect_line(text, line, what);
    plan_text_padded(p, part, sizeof part);
    snprintf(line, sizeof line, "\npadded shape: %s\n", part);
    expect_line(text, line, what);
    check_buffer_line(text, p, what);
    snprintf(line, sizeof line, "\nscratch bytes: %zu (", p->scratch_bytes);
    expect_line(text, line, what);
    snprintf(line, sizeof line, "\ntuning entry: %s", p->tuning_entry);
    expect_line(text, line, what);
    /* the cost model's time: positive exactly when something moves */
    snprintf(line, sizeof line, "\npredicted: %.3f ms (model: ", 1e3 * p->predicted_seconds);
    expect_line(text, line, what);
    if ((p->num_stages > 0) != (p->predicted_seconds > 0))
        fail_msg("%s: %u stages, predicted %g s", what, p->num_stages, p->predicted_seconds);
    for (unsigned k = 0; k < p->num_stages; k++) {
        plan_text_stage(&st[k], part, sizeof part);
        snprintf(line, sizeof line, "\nstage %u: %s;", k + 1, part);
        expect_line(text, line, what);
    }
    snprintf(line, sizeof line, "\nstage %u:", p->num_stages + 1);
    if (strstr(text, line) || (p->num_stages == 0 && !strstr(text, "\nstages: none")))
        fail_msg("%s: %u stages, but the description says otherwise:\n%s", what,
                 p->num_stages, text);
}

/* ---- against a run ----------------------------------------------------------- */

/* Runs the plan once: clipt_plan_profile times as many stages as the query
 * reports. */
static void check_profile(test_env *env, clipt_plan plan, const clipt_plan_info *p,
                          const char *what)
{
    double total = -1, stages[MAX_STAGES];
    unsigned timed = 99;
    cl_mem buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, p->buffer_bytes, p->rows, NULL);
    cl_event done = NULL;
    assert_status(clipt_enqueue(plan, env->cl.queue, buf, 0, 0, NULL, &done), CLIPT_SUCCESS);
    assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
    assert_status(clipt_plan_profile(plan, &total, stages, MAX_STAGES, &timed), CLIPT_SUCCESS);
    if (timed != p->num_stages)
        fail_msg("%s: clipt_plan_profile timed %u stages, the query reports %u", what, timed,
                 p->num_stages);
    clReleaseEvent(done);
    clReleaseMemObject(buf);
}

/* Creates the plan, checks every answer, runs it; returns whether the
 * plan pads (0 also when clipt_plan_create turned a forced request down,
 * which *refused counts). */
static int check_request(test_env *env, const request *q, size_t *refused)
{
    clipt_stage_info st[MAX_STAGES];
    clipt_plan_info p;
    clipt_plan plan = NULL;
    char what[160];
    clipt_status s = clipt_plan_create(q->ctx, q->rows, q->cols, q->elem, &q->o, &plan);
    snprintf(what, sizeof what, "%zu x %zu, %zu-byte elements, sequence %s", q->rows, q->cols,
             q->elem, plan_text_sequence(q->o.sequence));
    if (s == CLIPT_ERROR_INCOMPATIBLE_OPTIONS && q->o.sequence != CLIPT_SEQUENCE_AUTO) {
        ++*refused;
        return 0;
    }
    if (s != CLIPT_SUCCESS)
        fail_msg("%s: clipt_plan_create: %s", what, clipt_status_string(s));
    assert_status(clipt_plan_query(plan, &p), CLIPT_SUCCESS);
    if (p.num_stages > MAX_STAGES)
        fail_msg("%s: %u stages", what, p.num_stages);
    check_plan_info(q, plan, &p, what);
    check_stages(plan, &p, st, what);
    check_describe(plan, &p, st, what);
    check_profile(env, plan, &p, what);
    clipt_plan_release(plan);
    return p.padded_rows != p.rows || p.padded_cols != p.cols;
}

/* ---- the cases ---------------------------------------------------------------- */

/* Automatic plans on the device's own local memory and on a GPU's and a
 * small one's (so that plans tile, pad and take several stages); every
 * element size on every context. */
static void test_query_automatic_plans(void **state)
{
    static const size_t shapes[][2] = {
        {1, 1},     {1, 1000},  {1000, 1},  {7, 1},     {64, 48},   {97, 89},
        {360, 240}, {300, 500}, {4099, 17}, {17, 4099}, {1201, 1103}, {997, 1009}};
    static const cl_ulong local_mem[] = {0, 48 * 1024, 4 * 1024};
    test_env *env = TEST_ENV(state);
    size_t padded = 0, refused = 0, plans = 0;
    families_seen = ops_seen = 0;
    for (size_t c = 0; c < COUNT(local_mem); c++) {
        request q;
        memset(&q, 0, sizeof q);
        q.ctx = local_mem[c] ? test_context_limited(env, local_mem[c]) : env->ctx;
        clipt_plan_options_init(&q.o);
        for (size_t i = 0; i < COUNT(shapes); i++)
            for (size_t e = 0; e < COUNT(elem_sizes); e++) {
                /* each shape with one element size, except on the GPU's
                 * local memory, where every shape takes every size */
                if (local_mem[c] != 48 * 1024 && e != (i + c) % COUNT(elem_sizes))
                    continue;
                q.rows = shapes[i][0];
                q.cols = shapes[i][1];
                q.elem = elem_sizes[e];
                padded += (size_t)check_request(env, &q, &refused);
                plans++;
            }
        if (local_mem[c])
            clipt_context_release(q.ctx);
    }
    print_message("%zu automatic plans read back, %zu padded; kernel families 0x%x, "
                  "ops 0x%x\n", plans, padded, families_seen, ops_seen);
    /* pad, unpad, tile transpositions and super-element moves all ran */
    assert_true(padded > 0 && refused == 0 && ops_seen == 0x1e);
}

/* Every sequence forced, with tiles that make every stage move data, and
 * with the plan's own tiles on a shape that pads. */
static void test_query_forced_sequences(void **state)
{
    static const clipt_sequence seqs[] = {
        CLIPT_SEQUENCE_1,   CLIPT_SEQUENCE_2_1, CLIPT_SEQUENCE_2_2, CLIPT_SEQUENCE_3_1,
        CLIPT_SEQUENCE_3_2, CLIPT_SEQUENCE_4_1, CLIPT_SEQUENCE_4_2, CLIPT_SEQUENCE_4_3};
    test_env *env = TEST_ENV(state);
    clipt_context gpu = test_context_limited(env, 48 * 1024);
    size_t refused = 0, refused_tiled = 0, padded = 0;
    families_seen = ops_seen = 0;
    for (size_t i = 0; i < COUNT(seqs); i++) {
        request q;
        memset(&q, 0, sizeof q);
        q.ctx = gpu;
        clipt_plan_options_init(&q.o);
        q.o.sequence = seqs[i];
        q.rows = 360;
        q.cols = 240;
        q.o.tile_m = 24;
        q.o.tile_n = 16;
        for (size_t e = 0; e < COUNT(elem_sizes); e += 2) { /* 1, 4 and 16 bytes */
            q.elem = elem_sizes[e];
            check_request(env, &q, &refused_tiled);
        }
        q.o.tile_m = q.o.tile_n = 0;
        /* Algorithm 5's tiles (the cost model may pick others, which
         * need not reach every family) */
        q.o.tile_rule = CLIPT_TILE_RULE_ALG5;
        q.rows = 1201;
        q.cols = 1103;
        q.elem = elem_sizes[i % COUNT(elem_sizes)];
        padded += (size_t)check_request(env, &q, &refused);
    }
    clipt_context_release(gpu);
    print_message("forced sequences on 1201 x 1103: %zu refused, %zu padded; kernel "
                  "families 0x%x, ops 0x%x\n", refused, padded, families_seen, ops_seen);
    /* 360 x 240 with 24 x 16 tiles fits every sequence; between them the
     * plans use every kernel family (bits 1 to 6) and every op */
    assert_true(refused_tiled == 0 && padded > 0);
    assert_int_equal(families_seen, 0x7e);
    assert_int_equal(ops_seen, 0x1e);
}

/* ---- tuning values by name -------------------------------------------------------- */

/* The names: as many as clipt_tuning_count says, distinct, each one
 * clipt_plan_options_set_tuning knows; NULL past the end. */
static void test_tuning_names(void **state)
{
    const unsigned n = clipt_tuning_count();
    unsigned value;
    assert_true(n > 0);
    for (unsigned i = 0; i < n; i++) {
        const char *name = clipt_tuning_name(i);
        clipt_plan_options o;
        assert_non_null(name);
        for (unsigned j = 0; j < i; j++)
            assert_string_not_equal(name, clipt_tuning_name(j));
        clipt_plan_options_init(&o);
        assert_status(clipt_plan_options_set_tuning(&o, name, 1), CLIPT_SUCCESS);
        assert_status(clipt_context_tuning(TEST_ENV(state)->ctx, name, &value), CLIPT_SUCCESS);
    }
    assert_null(clipt_tuning_name(n));
    assert_null(clipt_tuning_name(n + 1000));
}

/* A plan runs with the context's values except those its options set:
 * each name set alone to two values on a single-row plan (no kernels to
 * build), every value read back. */
static void test_tuning_round_trip(void **state)
{
    static const unsigned values[] = {8, 16};
    clipt_context c = TEST_ENV(state)->ctx;
    const unsigned n = clipt_tuning_count();
    for (unsigned i = 0; i < n; i++)
        for (size_t v = 0; v < COUNT(values); v++) {
            clipt_plan_options o;
            clipt_plan p;
            /* kernel_style has two values only: 1 and 2 */
            const unsigned value = strcmp(clipt_tuning_name(i), "kernel_style") == 0
                                       ? (unsigned)v + 1
                                       : values[v];
            clipt_plan_options_init(&o);
            assert_status(clipt_plan_options_set_tuning(&o, clipt_tuning_name(i), value),
                          CLIPT_SUCCESS);
            assert_status(clipt_plan_create(c, 1, 7, 4, &o, &p), CLIPT_SUCCESS);
            for (unsigned k = 0; k < n; k++) {
                unsigned got = 0, device = 0;
                assert_status(clipt_plan_tuning(p, clipt_tuning_name(k), &got), CLIPT_SUCCESS);
                assert_status(clipt_context_tuning(c, clipt_tuning_name(k), &device),
                              CLIPT_SUCCESS);
                if (got != (k == i ? value : device))
                    fail_msg("%s=%u set: the plan runs with %s=%u (the device's: %u)",
                             clipt_tuning_name(i), value, clipt_tuning_name(k), got,
                             device);
            }
            clipt_plan_release(p);
        }
}

/* On a plan with stages: no option, the device's values; one option, that
 * value, named in describe's tuning line. */
static void test_tuning_of_a_plan(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context gpu = test_context_limited(env, 48 * 1024);
    clipt_plan_options o;
    clipt_plan p;
    char text[8192], want[256];
    unsigned got = 0, device = 0;
    assert_status(clipt_plan_create(gpu, 97, 89, 4, NULL, &p), CLIPT_SUCCESS);
    for (unsigned k = 0; k < clipt_tuning_count(); k++) {
        assert_status(clipt_plan_tuning(p, clipt_tuning_name(k), &got), CLIPT_SUCCESS);
        assert_status(clipt_context_tuning(gpu, clipt_tuning_name(k), &device), CLIPT_SUCCESS);
        assert_int_equal(got, device);
    }
    clipt_plan_release(p);
    clipt_plan_options_init(&o);
    assert_status(clipt_context_tuning(gpu, "walk_unroll", &device), CLIPT_SUCCESS);
    assert_status(clipt_plan_options_set_tuning(&o, "walk_unroll", device == 2 ? 4 : 2),
                  CLIPT_SUCCESS);
    assert_status(clipt_plan_create(gpu, 97, 89, 4, &o, &p), CLIPT_SUCCESS);
    assert_status(clipt_plan_tuning(p, "walk_unroll", &got), CLIPT_SUCCESS);
    assert_int_equal(got, device == 2 ? 4 : 2);
    assert_status(clipt_plan_describe(p, text, sizeof text), CLIPT_SUCCESS);
    snprintf(want, sizeof want, "tuning entry: %s [option walk_unroll=%u]\n",
             clipt_context_tuning_entry(gpu), got);
    expect_line(text, want, "97 x 89 with walk_unroll set");
    clipt_plan_release(p);
    clipt_context_release(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tuning_names),
        cmocka_unit_test(test_tuning_round_trip),
        cmocka_unit_test(test_tuning_of_a_plan),
        cmocka_unit_test(test_query_forced_sequences),
        cmocka_unit_test(test_query_automatic_plans),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
