/* Reading a plan back: the structured form (clipt_plan_query), the text
 * that formats it (clipt_plan_describe), and the tuning values by name. */
#include "choice.h"
#include "cost.h"
#include "factor.h"
#include "plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

clipt_status clipt_context_tuning(clipt_context c, const char *name, unsigned *value)
{
    return c ? clipt_tuning_get(&c->profile.tuning, name, value) : CLIPT_ERROR_NULL_ARGUMENT;
}

clipt_status clipt_plan_tuning(clipt_plan p, const char *name, unsigned *value)
{
    return p ? clipt_tuning_get(&p->tuning, name, value) : CLIPT_ERROR_NULL_ARGUMENT;
}

const char *clipt_context_tuning_entry(clipt_context c)
{
    return c ? c->profile.tuning_entry : NULL;
}

/* The cost model's time of the plan's stages, with the families they run
 * with (cost.h). */
static double predicted_seconds(clipt_plan p)
{
    const clipt_cost_env env = clipt_cost_env_of(&p->ctx->profile);
    double total = 0;
    for (unsigned i = 0; i < p->num_stages; i++) {
        clipt_cost_features f;
        clipt_cost_features_of(&p->stages[i].spec, p->stages[i].family->id, p->stages[i].elem,
                               &p->tuning, &env, &f);
        total += clipt_cost_seconds(&f, &p->tuning);
    }
    return total;
}

clipt_status clipt_plan_query(clipt_plan p, clipt_plan_info *info)
{
    if (!p || !info)
        return CLIPT_ERROR_NULL_ARGUMENT;
    memset(info, 0, sizeof *info);
    info->rows = p->rows;
    info->cols = p->cols;
    info->elem_size = p->elem;
    info->sequence = p->choice.sequence;
    info->sequence_forced = p->opts.sequence != CLIPT_SEQUENCE_AUTO;
    info->algorithm = p->choice.algorithm;
    info->tile_m = p->choice.m;
    info->tile_n = p->choice.n;
    info->tile_reason = p->choice.why;
    info->padded_rows = p->choice.prows;
    info->padded_cols = p->choice.pcols;
    info->buffer_bytes = p->buffer_bytes;
    info->scratch_bytes = clipt_plan_scratch_size(p);
    info->num_stages = p->num_stages;
    info->tuning_entry = p->ctx->profile.tuning_entry;
    info->predicted_seconds = predicted_seconds(p);
    info->ndim = p->nd.ndim; /* the array as given, and its passes */
    for (unsigned i = 0; i < p->nd.ndim; i++) {
        info->dims[i] = p->nd.dims[i];
        info->perm[i] = p->nd.perm[i];
    }
    info->num_passes = p->nd.num_passes;
    return CLIPT_SUCCESS;
}

clipt_status clipt_plan_query_stage(clipt_plan p, unsigned index,
                                    clipt_stage_info *info)
{
    const clipt_stage *st;
    clipt_stage_spec sp;
    if (!p || !info)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if (index >= p->num_stages)
        return CLIPT_ERROR_INVALID_OPTION;
    st = &p->stages[index];
    sp = clipt_stage_plan_spec(st); /* in the plan's elements, widened or not */
    memset(info, 0, sizeof *info);
    info->op = sp.op;
    info->family = st->family->id;
    info->label = sp.label;
    info->kernels = st->kernel_name;
    info->instances = sp.instances;
    info->a = sp.a;
    info->b = sp.b;
    info->s = sp.s;
    if (info->op == CLIPT_OP_PAD || info->op == CLIPT_OP_UNPAD) {
        info->pitch_from = sp.sa;
        info->pitch_to = sp.sb;
    }
    info->super_transposed = clipt_spec_transposes_super(&sp);
    info->global_size = st->global;
    info->local_size = st->local;
    info->local_bytes = st->local_bytes[0] + st->local_bytes[1];
    info->scratch_bytes = st->scratch_bytes;
    info->table_bytes = st->aux_bytes;
    info->build_options = st->options;
    info->word_bytes = st->elem;
    return CLIPT_SUCCESS;
}

/* ---- describe ------------------------------------------------------------ */

/* A text of fixed capacity, cut (NUL-terminated) where it is full. */
typedef struct text {
    char s[8192];
    size_t used;
} text;

static void add_length(text *t, int n)
{
    if (n > 0)
        t->used = t->used + (size_t)n < sizeof t->s ? t->used + (size_t)n : sizeof t->s - 1;
}

static void add(text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_length(t, vsnprintf(t->s + t->used, sizeof t->s - t->used, fmt, ap));
    va_end(ap);
}

/* The buffer's size, and what writes into the room beyond the matrix: the
 * trap of looping one padded plan over matrices packed back to back. */
static void add_buffer_line(text *t, const clipt_plan_info *info)
{
    const size_t matrix = info->rows * info->cols * info->elem_size;
    if (info->buffer_bytes == matrix)
        add(t, "buffer bytes: %zu (exactly rows*cols*elem: nothing outside the matrix is "
            "written)\n", info->buffer_bytes);
    else
        add(t, "buffer bytes: %zu (rows*cols*elem = %zu plus %zu bytes of room that the "
            "transposition overwrites: matrices packed back to back must not share it; for "
            "those make the plan with CLIPT_PADDING_NONE)\n",
            info->buffer_bytes, matrix, info->buffer_bytes - matrix);
}

/* Whether `length` elements are within the tuning's c2r_column_bytes. */
static int c2r_within(clipt_plan p, size_t length, size_t elem)
{
    return length * elem <= p->tuning.c2r_column_bytes;
}

/* Whether the automatic C2R's columns (R2C's rows) of `length` elements
 * were short enough for the tuning's c2r_column_bytes (elements of 4 bytes
 * or more), or took the split column pass as rows in local memory
 * (src/choice_c2r.c). */
static int c2r_short(clipt_plan p, size_t length, size_t elem)
{
    return elem >= 4 && c2r_within(p, length, elem);
}

/* Why the automatic rule took a C2R (R2C, `inverse`) whose columns (rows)
 * of `length` elements were long: its rows (columns) on chip, 16-byte ones
 * in local memory and registers (src/choice_c2r.c). */
static const char *c2r_long_why(clipt_plan p, size_t length, size_t elem, int inverse)
{
    if (c2r_short(p, length, elem))
        return "";
    if (elem >= 16)
        return inverse ? ", columns on chip" : ", rows on chip";
    return inverse ? ", columns in local memory" : ", rows in local memory";
}

/* "coprime sides", or their common factor (the automatic C2R takes short
 * columns with one, R2C short rows: src/choice_c2r.c). */
static const char *c2r_sides(const clipt_plan_info *info, int inverse, char *buf, size_t len)
{
    const size_t g = clipt_gcd(info->rows, info->cols);
    if (g == 1)
        return "coprime sides";
    snprintf(buf, len, "sides with the common factor %zu, %s of at most %d elements", g,
             inverse ? "rows" : "columns", CLIPT_C2R_GCD_MAX_COLUMN);
    return buf;
}

clipt_status clipt_plan_describe(clipt_plan p, char *buf, size_t len)
{
    char sides[96];
    text t = {"", 0};
    clipt_plan_info info;
    clipt_tuning overrides;
    size_t tables = 0;
    if (!p)
        return CLIPT_ERROR_NULL_ARGUMENT;
    clipt_plan_query(p, &info);
    for (unsigned i = 0; i < info.num_stages; i++) {
        clipt_stage_info stage;
        clipt_plan_query_stage(p, i, &stage);
        tables += stage.table_bytes;
    }
    add(&t, "shape: %zu x %zu, %zu-byte elements\n", info.rows, info.cols, info.elem_size);
    if (p->permute)
        add_length(&t, clipt_permute_describe(p, t.s + t.used, sizeof t.s - t.used));
    if (clipt_plan_is_2d(p)) { /* else each pass says its own */
        if (info.algorithm == CLIPT_ALGORITHM_C2R && p->opts.algorithm == CLIPT_ALGORITHM_C2R)
            add(&t, "algorithm: C2R (forced): %u passes (column rotation when gcd > 1, row "
                    "shuffle, column shuffle)\n", info.num_stages);
        else if (info.algorithm == CLIPT_ALGORITHM_R2C && p->opts.algorithm == CLIPT_ALGORITHM_R2C)
            add(&t, "algorithm: R2C (forced): %u passes (column unshuffle, row unshuffle, "
                    "column unrotation when gcd > 1, on the %zu x %zu view)\n",
                info.num_stages, info.cols, info.rows);
        else if (info.algorithm == CLIPT_ALGORITHM_C2R)
            add(&t, "algorithm: C2R (automatic: %s, columns of %zu bytes, %s "
                    "c2r_column_bytes=%u%s): %u passes (%srow shuffle, column shuffle)\n",
                c2r_sides(&info, 0, sides, sizeof sides), info.rows * info.elem_size,
                c2r_within(p, info.rows, info.elem_size) ? "at most" : "more than",
                p->tuning.c2r_column_bytes,
                c2r_long_why(p, info.rows, info.elem_size, 0),
                info.num_stages, info.num_stages > 2 ? "column rotation, " : "");
        else if (info.algorithm == CLIPT_ALGORITHM_R2C)
            add(&t, "algorithm: R2C (automatic: %s, rows of %zu bytes, %s "
                    "c2r_column_bytes=%u%s): %u passes (column unshuffle, row unshuffle%s, on "
                    "the %zu x %zu view)\n",
                c2r_sides(&info, 1, sides, sizeof sides), info.cols * info.elem_size,
                c2r_within(p, info.cols, info.elem_size) ? "at most" : "more than",
                p->tuning.c2r_column_bytes,
                c2r_long_why(p, info.cols, info.elem_size, 1),
                info.num_stages, info.num_stages > 2 ? ", column unrotation" : "", info.cols,
                info.rows);
        else
            add(&t, "sequence: %s%s\n", clipt_sequence_name(info.sequence),
                info.sequence_forced ? " (forced)" : " (automatic)");
        add(&t, "tiles: m=%zu n=%zu (%s)\n", info.tile_m, info.tile_n, info.tile_reason);
        add(&t, "padded shape: %zu x %zu%s\n", info.padded_rows, info.padded_cols,
            (info.padded_rows != info.rows || info.padded_cols != info.cols)
                ? ""
                : " (no padding)");
    }
    add_buffer_line(&t, &info);
    /* the twin without widening, once a misaligned enqueue made it */
    const size_t twin = info.scratch_bytes - p->scratch_bytes - tables - p->tail_bytes;
    add(&t, "scratch bytes: %zu (scratch buffer %zu, cycle-segment tables %zu",
        info.scratch_bytes, p->scratch_bytes, tables);
    if (p->tail_bytes)
        add(&t, ", padded tail %zu = %.3f %% of the matrix: room-less padding, the padded "
            "matrix's elements past the buffer",
            p->tail_bytes, 100.0 * (double)p->tail_bytes / (double)p->buffer_bytes);
    if (twin)
        add(&t, ", the twin without widening %zu", twin);
    add(&t, ")\n");
    add(&t, "tuning entry: %s", info.tuning_entry);
    /* the plan options that replaced values of that entry */
    overrides = clipt_tuning_of_options(&p->opts);
    add_length(&t, clipt_tuning_format(&overrides, " [option ", "]", 1, t.s + t.used,
                                       sizeof t.s - t.used));
    add(&t, "\n");
    add(&t, "predicted: %.3f ms (model: %u GB/s copy, tuning entry's model_* values)\n",
        1e3 * info.predicted_seconds, p->tuning.model_copy_gbs);
    if (info.num_stages == 0)
        add(&t, "stages: none (the transpose has the same bytes)\n");
    for (unsigned i = 0; i < info.num_stages; i++) {
        char line[1024];
        clipt_stage_format(&p->stages[i], line, sizeof line);
        add(&t, "stage %u: %s\n", i + 1, line);
    }
    return clipt_copy_text(t.s, buf, len);
}
