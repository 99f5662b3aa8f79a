/* clipt_model_calib: the cost model's view of measured plans, for fitting
 * the model's tuning values (tuning/fit_model.py) and for checking what the
 * model changes in the plan choice.
 *
 *   clipt_model_calib [--profile h100|device] [--compare] BENCH.csv...
 *
 * Reads `clipt bench --csv` files (rows, cols, elem, sequence, m, n, padded
 * shape, stages_ms, copy_gbs).  For every verified shape it creates the
 * plan that ran -- sequence and tiles forced, padding AUTO, so that a tile
 * that does not divide its side pads it as the measured plan did -- on the
 * selected OpenCL device with the profile of `--profile`: `h100` (default)
 * fakes an H100 (name and vendor that select the H100 tuning entry, 48 KiB
 * of local memory, warps of 32, 132 compute units), `device` keeps the
 * device's own (for timings taken on it, e.g. by clipt_tune --model).  It
 * prints one CSV line per stage: the plan's stage as the model sees it
 * (kind, bytes, launches, sector share, run bytes, step bytes, flag waits,
 * tile bytes), the measured time and copy bandwidth, and the time the
 * current tuning values predict.
 *
 * --compare instead chooses a plan for every shape of the files twice, by
 * Algorithm 5 with the sequence rule and by the cost model, and prints
 * for each shape whose plan changes the two plans and their predicted
 * times, then the count and the predicted gain.
 *
 * Uses the library's internal modules (links clipt_internal). */
#include "choice.h"
#include "cl_select.h"
#include "cost.h"
#include "internal.h"
#include "plan.h"
#include "tuning_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 32
#define MAX_LINE 4096

typedef struct bench_row {
    size_t rows, cols, elem, m, n, prows, pcols;
    clipt_sequence sequence;
    double copy_gbs, stage_ms[CLIPT_MAX_STAGES];
    unsigned stages;
    int verified;
} bench_row;

/* Splits a CSV line (no quoting in clipt bench's files) in place. */
static unsigned split(char *line, char **field, unsigned cap)
{
    unsigned n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; n < cap;) {
        field[n++] = p;
        p = strchr(p, ',');
        if (!p)
            break;
        *p++ = '\0';
    }
    return n;
}

static int column(char **names, unsigned count, const char *name)
{
    for (unsigned i = 0; i < count; i++)
        if (strcmp(names[i], name) == 0)
            return (int)i;
    return -1;
}

static clipt_sequence sequence_of(const char *name)
{
    static const clipt_sequence all[] = {
        CLIPT_SEQUENCE_1,   CLIPT_SEQUENCE_2_1, CLIPT_SEQUENCE_2_2, CLIPT_SEQUENCE_3_1,
        CLIPT_SEQUENCE_3_2, CLIPT_SEQUENCE_4_1, CLIPT_SEQUENCE_4_2, CLIPT_SEQUENCE_4_3};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(clipt_sequence_name(all[i]), name) == 0)
            return all[i];
    return CLIPT_SEQUENCE_AUTO;
}

/* The columns calibration needs, by name. */
enum { C_ROWS, C_COLS, C_ELEM, C_SEQ, C_M, C_N, C_PROWS, C_PCOLS, C_COPY, C_VERIFIED,
       C_STAGES, C_COUNT };
static const char *const wanted[C_COUNT] = {"rows", "cols", "elem", "sequence", "m", "n",
                                            "padded_rows", "padded_cols", "copy_gbs",
                                            "verified", "stages_ms"};

static int parse_row(char **f, const int *at, bench_row *r)
{
    char *stages = f[at[C_STAGES]];
    r->rows = strtoull(f[at[C_ROWS]], NULL, 10);
    r->cols = strtoull(f[at[C_COLS]], NULL, 10);
    r->elem = strtoull(f[at[C_ELEM]], NULL, 10);
    r->sequence = sequence_of(f[at[C_SEQ]]);
    r->m = strtoull(f[at[C_M]], NULL, 10);
    r->n = strtoull(f[at[C_N]], NULL, 10);
    r->prows = strtoull(f[at[C_PROWS]], NULL, 10);
    r->pcols = strtoull(f[at[C_PCOLS]], NULL, 10);
    r->copy_gbs = strtod(f[at[C_COPY]], NULL);
    r->verified = strcmp(f[at[C_VERIFIED]], "yes") == 0;
    r->stages = 0;
    for (char *t = stages; *t && r->stages < CLIPT_MAX_STAGES; t += *t == ';') {
        char *end = NULL;
        r->stage_ms[r->stages++] = strtod(t, &end);
        if (end == t)
            break;
        t = end;
    }
    return r->rows && r->cols && r->elem;
}

/* Calls fn for every row of the file; returns the rows read, -1 on error. */
static long each_row(const char *path, void (*fn)(const bench_row *, void *), void *arg)
{
    FILE *in = fopen(path, "r");
    char line[MAX_LINE], *f[MAX_FIELDS];
    int at[C_COUNT];
    long count = 0;
    unsigned n;
    if (!in || !fgets(line, sizeof line, in)) {
        fprintf(stderr, "clipt_model_calib: cannot read %s\n", path);
        if (in)
            fclose(in);
        return -1;
    }
    n = split(line, f, MAX_FIELDS);
    for (int c = 0; c < C_COUNT; c++)
        if ((at[c] = column(f, n, wanted[c])) < 0) {
            fprintf(stderr, "clipt_model_calib: %s has no column %s\n", path, wanted[c]);
            fclose(in);
            return -1;
        }
    while (fgets(line, sizeof line, in)) {
        bench_row r;
        if (split(line, f, MAX_FIELDS) == n && parse_row(f, at, &r)) {
            fn(&r, arg);
            count++;
        }
    }
    fclose(in);
    return count;
}

/* ---- the profile ----------------------------------------------------------- */

/* An H100 as NVIDIA's OpenCL reports it, on whatever device runs this. */
static void fake_h100(clipt_device_profile *p)
{
    snprintf(p->version, sizeof p->version, "OpenCL 3.0 CUDA");
    p->compute_units = 132;
    p->max_wg_size = 1024;
    clipt_profile_as_gpu(p, "NVIDIA H100 80GB HBM3", "NVIDIA Corporation", 48 * 1024);
}

/* ---- stage lines ------------------------------------------------------------ */

typedef struct calib {
    clipt_context cx;
    const char *set;
    size_t shapes, failed;
} calib;

static const char *kind_name(clipt_cost_kind k)
{
    static const char *const names[] = {"?", "tiles", "move", "pad", "unpad", "slow"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

static void print_stages(const calib *c, const bench_row *r, clipt_plan p)
{
    const clipt_cost_env env = clipt_cost_env_of(&c->cx->profile);
    for (unsigned i = 0; i < p->num_stages; i++) {
        const clipt_stage *st = &p->stages[i];
        clipt_cost_features f;
        clipt_cost_features_of(&st->spec, st->family->id, st->elem, &p->tuning, &env, &f);
        printf("%s,%zu,%zu,%zu,%s,%zu,%zu,%zu,%zu,%u,%s,%s,%d,%.0f,%.0f,%.6f,%.0f,%.1f,%.1f,"
               "%.9g,%.0f,%.6f,%.4f,%.6f\n",
               c->set, r->rows, r->cols, r->elem, clipt_sequence_name(r->sequence), r->m,
               r->n, r->prows, r->pcols, i, st->spec.label, kind_name(f.kind),
               (int)st->family->id, f.bytes, f.launches, f.sector_eff, f.run_bytes, f.step_bytes,
               f.elem, f.waits, f.tile_bytes, r->stage_ms[i], r->copy_gbs,
               1e3 * clipt_cost_seconds(&f, &p->tuning));
    }
}

static void calibrate_row(const bench_row *r, void *arg)
{
    calib *c = arg;
    clipt_plan_options o;
    clipt_plan p = NULL;
    clipt_status st;
    if (!r->verified || r->sequence == CLIPT_SEQUENCE_AUTO)
        return;
    clipt_plan_options_init(&o);
    o.sequence = r->sequence;
    o.tile_m = r->sequence == CLIPT_SEQUENCE_2_2 ? 0 : r->m;
    o.tile_n = r->sequence == CLIPT_SEQUENCE_2_1 ? 0 : r->n;
    st = clipt_plan_create(c->cx, r->rows, r->cols, r->elem, &o, &p);
    if (st != CLIPT_SUCCESS || p->choice.prows != r->prows || p->choice.pcols != r->pcols ||
        p->num_stages != r->stages) {
        fprintf(stderr, "%s: %zu x %zu (%zu bytes) seq %s m=%zu n=%zu: %s\n", c->set,
                r->rows, r->cols, r->elem, clipt_sequence_name(r->sequence), r->m, r->n,
                st != CLIPT_SUCCESS ? clipt_status_string(st)
                                    : "not the plan measured (padding or stage count)");
        c->failed++;
    } else {
        print_stages(c, r, p);
        c->shapes++;
    }
    clipt_plan_release(p);
}

/* ---- --compare -------------------------------------------------------------- */

typedef struct comparison {
    const clipt_device_profile *profile;
    size_t shapes, changed;
    double alg5_s, model_s;   /* predicted, all shapes */
} comparison;

static double predicted(const clipt_device_profile *p, const bench_row *r,
                        const clipt_plan_choice *ch)
{
    const clipt_staged_layout l = {1,     r->rows, r->cols,      ch->prows,
                                   ch->pcols, ch->m, ch->n, ch->sequence};
    const clipt_cost_env env = clipt_cost_env_of(p);
    return clipt_cost_staged_seconds(&l, r->elem, &p->tuning, &env);
}

static void compare_row(const bench_row *r, void *arg)
{
    comparison *k = arg;
    clipt_plan_options o;
    clipt_plan_choice alg5, model;
    double ta, tm;
    clipt_plan_options_init(&o);
    o.algorithm = CLIPT_ALGORITHM_TPDS; /* the model prices the sequences */
    if (clipt_plan_choose(k->profile, r->rows, r->cols, r->elem, &o, &k->profile->tuning,
                          &model) != CLIPT_SUCCESS)
        return;
    o.tile_rule = CLIPT_TILE_RULE_ALG5;
    if (clipt_plan_choose(k->profile, r->rows, r->cols, r->elem, &o, &k->profile->tuning,
                          &alg5) != CLIPT_SUCCESS)
        return;
    ta = predicted(k->profile, r, &alg5);
    tm = predicted(k->profile, r, &model);
    k->shapes++;
    k->alg5_s += ta;
    k->model_s += tm;
    if (alg5.prows == model.prows && alg5.pcols == model.pcols && alg5.m == model.m &&
        alg5.n == model.n && alg5.sequence == model.sequence)
        return;
    k->changed++;
    printf("%zu x %zu (%zu B): %s m=%zu n=%zu padded %zu x %zu %.3f ms -> %s m=%zu n=%zu "
           "padded %zu x %zu %.3f ms (%+.1f %%)\n",
           r->rows, r->cols, r->elem, clipt_sequence_name(alg5.sequence), alg5.m, alg5.n,
           alg5.prows, alg5.pcols, 1e3 * ta, clipt_sequence_name(model.sequence), model.m,
           model.n, model.prows, model.pcols, 1e3 * tm, 100 * (tm / ta - 1));
}

/* ---- main ---------------------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr, "usage: clipt_model_calib [--profile h100|device] [--compare] BENCH.csv...\n");
    return 2;
}

int main(int argc, char **argv)
{
    clipt_cl_env env;
    calib c = {NULL, NULL, 0, 0};
    char why[512];
    int fake = 1, compare = 0, first = 1, status = 0;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (strcmp(argv[first], "--compare") == 0)
            compare = 1;
        else if (strcmp(argv[first], "--profile") == 0 && first + 1 < argc)
            fake = strcmp(argv[++first], "device") != 0;
        else
            return usage();
    }
    if (first >= argc)
        return usage();
    if (clipt_cl_env_open(&env, why, sizeof why) != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_model_calib: %s\n", why);
        return 1;
    }
    if (clipt_context_create(env.context, env.device, &c.cx) != CLIPT_SUCCESS) {
        clipt_cl_env_close(&env);
        return 1;
    }
    if (fake)
        fake_h100(&c.cx->profile);
    fprintf(stderr, "profile: %s (tuning entry %s)\n", c.cx->profile.name,
            c.cx->profile.tuning_entry);
    if (compare) {
        comparison k = {&c.cx->profile, 0, 0, 0, 0};
        for (int i = first; i < argc; i++)
            status |= each_row(argv[i], compare_row, &k) < 0;
        printf("compare: %zu shapes, %zu change plan; predicted total %.3f ms (Algorithm 5) "
               "-> %.3f ms (model), %.1f %%\n",
               k.shapes, k.changed, 1e3 * k.alg5_s, 1e3 * k.model_s,
               k.alg5_s > 0 ? 100 * (k.model_s / k.alg5_s - 1) : 0);
    } else {
        printf("set,rows,cols,elem,sequence,m,n,padded_rows,padded_cols,stage,label,kind,"
               "family,bytes,launches,sector_eff,run_bytes,step_bytes,elem_bytes,waits,tile_bytes,"
               "measured_ms,"
               "copy_gbs,predicted_ms\n");
        for (int i = first; i < argc; i++) {
            const char *slash = strrchr(argv[i], '/');
            c.set = slash ? slash + 1 : argv[i];
            status |= each_row(argv[i], calibrate_row, &c) < 0;
        }
        fprintf(stderr, "%zu shapes, %zu not reconstructed\n", c.shapes, c.failed);
    }
    clipt_context_release(c.cx);
    clipt_cl_env_close(&env);
    return status;
}
