/* clipt bench --brute-force: next to the automatic plan, the automatic
 * plan of each other algorithm (TPDS, C2R, R2C: where the automatic choice
 * took one, the others), then forced plans for sequences 2.1, 2.2, 3.1
 * and 3.2 and pairs of tile factors whose tile fits local memory -- the
 * divisors of each side, and the aligned factors that pad it by at most
 * 1/32 (a forced factor that does not divide its side pads it to its next
 * multiple) -- created ahead by the plan factory and timed nearest to the
 * automatic TPDS plan's factors first; the best is run once more and
 * checked. */
#include "bench.h"
#include "divisors.h"
#include "timing.h"

#include <math.h>
#include <string.h>

#define BRUTE_CHEAP_SECONDS 1e-3 /* below: candidates get --repeat runs */

typedef struct candidate_list {
    candidate *v;
    size_t n, cap;
} candidate_list;

/* Statuses with which clipt_plan_create turns down a forced combination. */
static int is_rejection(clipt_status st)
{
    return st == CLIPT_ERROR_INCOMPATIBLE_OPTIONS || st == CLIPT_ERROR_INVALID_OPTION ||
           st == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
}

/* Nearest to the automatic plan first; ties in a fixed order, so runs are
 * reproducible. */
static int compare_candidates(const void *x, const void *y)
{
    const candidate *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    if (a->algorithm != b->algorithm)
        return a->algorithm < b->algorithm ? -1 : 1;
    return (a->m > b->m) - (a->m < b->m);
}

int bench_is_auto(const candidate *c)
{
    return c->seq == CLIPT_SEQUENCE_AUTO && c->algorithm == CLIPT_ALGORITHM_AUTO;
}

/* The automatic candidate leaves everything to the plan, an algorithm's
 * the rest to that algorithm; the others force sequence and tiles
 * (padding AUTO: a factor that does not divide its side pads it). */
static void candidate_options(const bench_args *a, const candidate *c,
                              clipt_plan_options *o)
{
    bench_options(a, o);
    if (c->algorithm != CLIPT_ALGORITHM_AUTO)
        o->algorithm = c->algorithm;
    if (c->seq == CLIPT_SEQUENCE_AUTO)
        return;
    o->sequence = c->seq;
    o->tile_m = c->m;
    o->tile_n = c->n;
}

/* dim rounded up to a multiple of f. */
static size_t padded_to(size_t dim, size_t f)
{
    return (dim + f - 1) / f * f;
}

static int same_as_auto(const candidate *c, const shape *sh, const plan_facts *f)
{
    return f && c->seq == f->seq && c->m == f->m && c->n == f->n &&
           f->prows == padded_to(sh->rows, c->m) && f->pcols == padded_to(sh->cols, c->n);
}

/* How far the factors are from the automatic plan's (ratios, either way). */
static double rank_of(const candidate *c, const plan_facts *f)
{
    if (!f || !f->m || !f->n)
        return 0;
    return fabs(log((double)c->m / (double)f->m)) + fabs(log((double)c->n / (double)f->n));
}

/* The factors of one side: its divisors, then the multiples of `step` in
 * [lo, hi] that do not divide it and pad it by at most 1/32.  *out is
 * allocated (free it); returns the count, 0 when out of memory. */
static size_t side_factors(size_t dim, size_t lo, size_t hi, size_t step, size_t **out)
{
    const size_t nd = util_divisors(dim, NULL, 0);
    size_t n = nd, *v;
    step = step ? step : 1;
    v = malloc((nd + (hi >= lo ? hi / step + 1 : 0)) * sizeof *v);
    if (!(*out = v))
        return 0;
    util_divisors(dim, v, nd);
    for (size_t f = (lo + step - 1) / step * step; f && f <= hi && f < dim; f += step)
        if (dim % f && padded_to(dim, f) - dim <= dim / 32)
            v[n++] = f;
    return n;
}

static int push_candidate(candidate_list *l, candidate c)
{
    if (!bench_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v))
        return 0;
    l->v[l->n++] = c;
    return 1;
}

/* Adds the candidates of one sequence: 2.1 tiles m x N (n = cols), 2.2
 * M x n (m = rows), 3.x every pair; each tile within local memory, ranked
 * by its distance to the factors of `near`. */
static int add_sequence(const bench *b, const shape *sh, const plan_facts *auto_facts,
                        const plan_facts *near, clipt_sequence seq, const size_t *dr,
                        size_t nr, const size_t *dc, size_t nc, candidate_list *l)
{
    const size_t lm_elems = (size_t)(b->lim.local_mem / b->a->elem);
    const size_t *ms = seq == CLIPT_SEQUENCE_2_2 ? &sh->rows : dr;
    const size_t *ns = seq == CLIPT_SEQUENCE_2_1 ? &sh->cols : dc;
    const size_t nm = seq == CLIPT_SEQUENCE_2_2 ? 1 : nr;
    const size_t nn = seq == CLIPT_SEQUENCE_2_1 ? 1 : nc;
    for (size_t i = 0; i < nm; i++)
        for (size_t j = 0; j < nn; j++) {
            candidate c = {seq, ms[i], ns[j], 0, CLIPT_ALGORITHM_AUTO};
            if (ns[j] > lm_elems / ms[i])
                continue; /* the tile does not fit local memory */
            c.rank = rank_of(&c, near);
            /* the automatic plan is candidate 0 already */
            if (!same_as_auto(&c, sh, auto_facts) && !push_candidate(l, c))
                return 0;
        }
    return 1;
}

/* The padded factors' range and step from the device's tuning: Min to
 * what leaves room for a Min partner, multiples of align_bytes. */
static void padded_range(const bench *b, size_t *lo, size_t *hi, size_t *step)
{
    unsigned min = 0, align = 0;
    const size_t lm = (size_t)(b->lim.local_mem / b->a->elem);
    if (clipt_context_tuning(b->s.cx, "min_super", &min) != CLIPT_SUCCESS || !min)
        min = 24;
    if (clipt_context_tuning(b->s.cx, "align_bytes", &align) != CLIPT_SUCCESS || !align)
        align = 1;
    *lo = min;
    *hi = lm / min;
    *step = align % b->a->elem ? 1 : align / b->a->elem;
    if (*step < 1)
        *step = 1;
}

/* Whether the automatic plan (facts f) is of algorithm `alg`. */
static int auto_is(const plan_facts *f, clipt_algorithm alg)
{
    const int c2r = !strcmp(f->sequence, "c2r"), r2c = !strcmp(f->sequence, "r2c");
    return alg == CLIPT_ALGORITHM_C2R ? c2r : alg == CLIPT_ALGORITHM_R2C ? r2c : !c2r && !r2c;
}

/* The automatic plan first, then the other algorithms' automatic plans
 * (unless --algorithm chose one), then the forced ones, nearest to `near`
 * first.  Without auto_facts (NULL), every forced candidate is listed
 * unsorted. */
static int build_candidates(const bench *b, const shape *sh, const plan_facts *auto_facts,
                            const plan_facts *near, candidate_list *l, bench_error *e)
{
    static const clipt_sequence seqs[] = {CLIPT_SEQUENCE_2_1, CLIPT_SEQUENCE_2_2,
                                          CLIPT_SEQUENCE_3_1, CLIPT_SEQUENCE_3_2};
    static const clipt_algorithm algs[] = {CLIPT_ALGORITHM_TPDS, CLIPT_ALGORITHM_C2R,
                                           CLIPT_ALGORITHM_R2C};
    const candidate automatic = {CLIPT_SEQUENCE_AUTO, 0, 0, -1, CLIPT_ALGORITHM_AUTO};
    size_t lo, hi, step, *dr = NULL, *dc = NULL, nr, nc;
    int ok;
    padded_range(b, &lo, &hi, &step);
    nr = side_factors(sh->rows, lo, hi, step, &dr);
    nc = side_factors(sh->cols, lo, hi, step, &dc);
    ok = nr && nc && push_candidate(l, automatic);
    for (size_t i = 0; ok && auto_facts && b->a->algorithm == CLIPT_ALGORITHM_AUTO &&
                       i < sizeof algs / sizeof algs[0];
         i++) {
        const candidate other = {CLIPT_SEQUENCE_AUTO, 0, 0, -1, algs[i]};
        if (!auto_is(auto_facts, algs[i]))
            ok = push_candidate(l, other);
    }
    for (size_t i = 0; ok && i < sizeof seqs / sizeof seqs[0]; i++)
        ok = add_sequence(b, sh, auto_facts, near, seqs[i], dr, nr, dc, nc, l);
    free(dr);
    free(dc);
    if (!ok)
        return bench_check(e, "host memory for brute-force candidates",
                                 CLIPT_ERROR_OUT_OF_HOST_MEMORY);
    if (auto_facts)
        qsort(l->v + 1, l->n - 1, sizeof *l->v, compare_candidates);
    return 1;
}

/* The automatic TPDS plan of the shape (the bench's options otherwise). */
static clipt_status automatic_tpds(const bench *b, const shape *sh, clipt_plan *plan)
{
    clipt_plan_options o;
    bench_options(b->a, &o);
    o.algorithm = CLIPT_ALGORITHM_TPDS;
    return clipt_plan_create(b->s.cx, sh->rows, sh->cols, b->a->elem, &o, plan);
}

/* The factors the forced candidates are ranked by: the automatic plan's,
 * or where that is C2R or R2C (no tiles), the automatic TPDS plan's. */
static void ranking_facts(bench *b, const shape *sh, const plan_facts *auto_facts,
                          plan_facts *near)
{
    clipt_plan plan = NULL;
    *near = *auto_facts;
    if (auto_is(auto_facts, CLIPT_ALGORITHM_TPDS))
        return;
    if (automatic_tpds(b, sh, &plan) == CLIPT_SUCCESS)
        bench_plan_facts(plan, sh, near);
    clipt_plan_release(plan);
}

size_t bench_brute_buffer_bytes(const bench *b, const shape *sh)
{
    candidate_list l = {NULL, 0, 0};
    bench_error e = {NULL, CLIPT_SUCCESS};
    size_t most = sh->rows * sh->cols;
    if (build_candidates(b, sh, NULL, NULL, &l, &e))
        for (size_t i = 1; i < l.n; i++) {
            const size_t rows = l.v[i].seq == CLIPT_SEQUENCE_2_2 ? sh->rows
                                                                 : padded_to(sh->rows, l.v[i].m);
            const size_t cols = l.v[i].seq == CLIPT_SEQUENCE_2_1 ? sh->cols
                                                                 : padded_to(sh->cols, l.v[i].n);
            if (rows * cols > most)
                most = rows * cols;
        }
    free(l.v);
    most *= b->a->elem;
    /* the automatic TPDS plan, a candidate where the automatic plan is C2R
     * or R2C (their buffers are the matrix), may pad more than the forced
     * ones (an H100 run: 1223 x 2138 2-byte, CLIPT_ERROR_BUFFER_TOO_SMALL) */
    if (b->a->algorithm == CLIPT_ALGORITHM_AUTO) {
        clipt_plan plan = NULL;
        if (automatic_tpds(b, sh, &plan) == CLIPT_SUCCESS && clipt_plan_buffer_size(plan) > most)
            most = clipt_plan_buffer_size(plan);
        clipt_plan_release(plan);
    }
    return most;
}

/* Device seconds of one plan: a warm-up run, then one timed run, or the
 * median of --repeat when the warm-up was cheap. */
static int time_plan(bench *b, const shape *sh, const shape_bufs *bf, clipt_plan plan,
                     double *seconds, bench_error *e)
{
    run_sample warm;
    size_t runs;
    if (!bench_timed_run(b, sh, bf, plan, &warm, e))
        return 0;
    runs = warm.device_s < BRUTE_CHEAP_SECONDS ? b->a->repeat : 1;
    for (size_t k = 0; k < runs; k++) {
        if (!bench_timed_run(b, sh, bf, plan, &b->runs[k], e))
            return 0;
        b->scratch[k] = b->runs[k].device_s;
    }
    *seconds = util_median(b->scratch, runs);
    return 1;
}

/* Times candidate c from its slot and keeps the best; a combination that
 * clipt_plan_create turned down only counts as rejected. */
static int try_plan(bench *b, const shape *sh, const shape_bufs *bf, const candidate *c,
                    plan_slot *s, shape_result *r, bench_error *e)
{
    double seconds = 0, gbs;
    plan_facts f;
    int ok;
    r->create_s += s->create_s;
    if (!bench_is_auto(c) && is_rejection(s->st)) {
        r->rejected++;
        return 1;
    }
    if (!bench_check(e, "clipt_plan_create (brute force)", s->st))
        return 0;
    bench_plan_facts(s->plan, sh, &f);
    ok = time_plan(b, sh, bf, s->plan, &seconds, e);
    clipt_plan_release(s->plan);
    if (!ok)
        return 0;
    r->tried++;
    gbs = bench_gbs(sh, b->a->elem, seconds);
    if (bench_is_auto(c))
        r->auto_gbs = gbs;
    if (gbs > r->best_gbs) {
        r->best_gbs = gbs;
        r->best = f;
        r->best_cand = *c;
    }
    return 1;
}

/* Runs the best forced plan once more and checks its result: a plan that
 * is fast because it is wrong must not pass for the best.  (The automatic
 * plan was checked by the timed runs.) */
static int verify_best(bench *b, const shape *sh, const shape_bufs *bf, shape_result *r,
                       bench_error *e)
{
    clipt_plan_options o;
    clipt_plan plan = NULL;
    run_sample run;
    int ok;
    if (bench_is_auto(&r->best_cand) || b->a->no_verify)
        return 1;
    candidate_options(b->a, &r->best_cand, &o);
    if (!bench_check(e, "clipt_plan_create (brute-force best)",
                     clipt_plan_create(b->s.cx, sh->rows, sh->cols, b->a->elem, &o, &plan)))
        return 0;
    ok = bench_timed_run(b, sh, bf, plan, &run, e) &&
         bench_verify(b, sh, bf, &r->best, "brute-force best", &r->best_check, e);
    clipt_plan_release(plan);
    return ok;
}

/* The options of every candidate, for the plan factory. */
static clipt_plan_options *candidates_options(const bench_args *a, const candidate_list *l)
{
    clipt_plan_options *opts = malloc((l->n ? l->n : 1) * sizeof *opts);
    for (size_t i = 0; opts && i < l->n; i++)
        candidate_options(a, &l->v[i], &opts[i]);
    return opts;
}

int bench_brute_force(bench *b, const shape *sh, const shape_bufs *bf, shape_result *r,
                      bench_error *e)
{
    candidate_list l = {NULL, 0, 0};
    clipt_plan_options *opts = NULL;
    plan_factory *f = NULL;
    const char *what = "host memory for brute-force plans";
    const double t0 = util_now_seconds();
    plan_facts near;
    int ok;
    ranking_facts(b, sh, &r->facts, &near);
    ok = build_candidates(b, sh, &r->facts, &near, &l, e);
    if (ok && (!(opts = candidates_options(b->a, &l)) ||
               !(f = plan_factory_start(b->s.cx, sh->rows, sh->cols, b->a->elem, opts, l.n,
                                        b->threads, &what))))
        ok = bench_check(e, what, CLIPT_ERROR_OUT_OF_HOST_MEMORY);
    for (size_t i = 0; ok && i < l.n && r->tried < b->a->brute_limit; i++) {
        plan_slot s = plan_factory_take(f, i);
        ok = try_plan(b, sh, bf, &l.v[i], &s, r, e);
    }
    if (f)
        plan_factory_stop(f);
    free(opts);
    free(l.v);
    ok = ok && verify_best(b, sh, bf, r, e);
    r->brute_s = util_now_seconds() - t0;
    return ok;
}
