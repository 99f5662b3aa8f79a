/* The cost model (see cost.h for its form). */
#include "cost.h"
#include "cycles.h"
#include "factor.h"

#include <math.h>

/* Work-groups of the padding kernels move chunks of about this many bytes
 * (stage_pad.c: 16 KiB, at most half the local memory). */
#define COST_PAD_CHUNK_BYTES 16384
/* The element size whose element kernels pad as fast as the word kernels
 * (pad_rows_words, unpad_rows_words) do any element size. */
#define COST_WORDS_ROWS_ELEM 4.0
/* The step of a segment walk the move efficiency is measured at. */
#define COST_REFERENCE_STEP_BYTES 16.0
/* Tiles of 1- and 2-byte elements smaller than this cost more per byte
 * (model_tiles_small). */
#define COST_SMALL_TILE_BYTES 4096.0
/* Warp phases sampled for the sector share of a walk. */
#define COST_MAX_PHASES 16

static double permille(unsigned v) { return v / 1000.0; }

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

clipt_kernel_family clipt_cost_family(const clipt_stage_spec *spec, size_t elem,
                                      const clipt_cost_env *env)
{
    switch (spec->op) {
    case CLIPT_OP_TRANSPOSE_TILES:
        return (double)spec->a * (double)spec->b * (double)elem <= (double)env->tile_bytes
                   ? CLIPT_FAMILY_TILE_LOCAL
                   : CLIPT_FAMILY_TILE_CYCLES;
    case CLIPT_OP_MOVE_SUPER:
        return clipt_spec_transposes_super(spec) ? CLIPT_FAMILY_SUPER_LOCAL
                                                 : CLIPT_FAMILY_SUPER_SEGMENTS;
    default:
        return CLIPT_FAMILY_ROWS;
    }
}

/* Expected sectors of `sector` bytes that a run of `len` bytes touches
 * when it starts at `at` plus a random multiple of g (g divides sector):
 * 1, plus the share of starts whose run crosses each sector boundary. */
static double run_sectors(size_t at, size_t len, size_t g, size_t sector)
{
    const size_t rest = at % g;
    const size_t crossing = rest == 0 ? (len - 1) / g : (len - 1 + rest) / g;
    return 1.0 + (double)g * (double)crossing / (double)sector;
}

/* The share of the sector bytes a run of `len` bytes at a random multiple
 * of gcd(len, sector) uses. */
static double run_sector_share(size_t len, size_t sector)
{
    return (double)len / ((double)sector * run_sectors(0, len, clipt_gcd(len, sector), sector));
}

/* The sector boundaries that q runs of `len` bytes cross together, run e
 * starting at start + e * step plus a random multiple of g (g divides
 * sector): run_sectors' crossings summed.  They depend on the start modulo
 * g only, which repeats every g / gcd(g, step) runs, so one period is
 * counted (the CPU kernels' walks take whole super-elements: q can be
 * thousands, and a plan prices dozens of candidates). */
static uint64_t runs_crossings(size_t q, size_t step, size_t start, size_t len, size_t g)
{
    const size_t period = g / clipt_gcd(g, step % g);
    const size_t full = q / period, rest = q % period;
    uint64_t one = 0, part = 0;
    size_t at = start % g;
    for (size_t e = 0; e < period && e < q; e++) {
        const uint64_t crossing = at == 0 ? (len - 1) / g : (len - 1 + at) / g;
        one += crossing;
        if (e < rest)
            part += crossing;
        at = (at + step % g) % g;
    }
    return (uint64_t)full * one + part;
}

/* The used share of the sector bytes a segment walk touches: super-elements
 * of s elements sit at random positions (so at random multiples of
 * gcd(s * elem, sector) bytes); their W = s / q work-items each take q
 * elements, W apart, and a warp of `warp` consecutive work-items (spanning
 * super-elements) reads, per step, one run of adjacent elements per
 * super-element it covers.  Averaged over the warps' phases (sampled). */
static double count_walk_sector_eff(uint64_t s, size_t elem, size_t q, size_t warp,
                                    size_t sector)
{
    const size_t W = (size_t)(s / q);
    const size_t g = clipt_gcd(sector, (size_t)(s * elem % sector));
    const size_t G = clipt_gcd(warp, W), phases = W / G;
    const size_t stride = phases > COST_MAX_PHASES ? phases / COST_MAX_PHASES : 1;
    double used = 0, touched = 0;
    for (size_t k = 0; k < phases; k += stride)
        for (size_t t = k * G, end = k * G + warp; t < end;) {
            const size_t w0 = t % W, run = min_size(W - w0, end - t);
            /* q runs, run_sectors each: 1 + g * crossings / sector */
            used += (double)q * (double)(run * elem);
            touched += (double)q + (double)g *
                                       (double)runs_crossings(q, W * elem, w0 * elem,
                                                              run * elem, g) /
                                       (double)sector;
            t += run;
        }
    return touched > 0 ? used / ((double)sector * touched) : 1.0;
}

/* walk_sector_eff's answers, kept per thread: the plan choice asks for the
 * same few super-element sizes again and again (its candidates share them,
 * and a pipeline asks for the same shapes), and each answer costs a few
 * microseconds of sampling, against a creation of a few tens. */
#define SECTOR_MEMO 64
typedef struct sector_memo {
    int known;
    uint64_t s;
    size_t elem, q, warp, sector;
    double eff;
} sector_memo;

static double walk_sector_eff(uint64_t s, size_t elem, size_t q, size_t warp, size_t sector)
{
    static _Thread_local sector_memo memo[SECTOR_MEMO];
    sector_memo *m = &memo[(s * 31 + elem * 7 + q) % SECTOR_MEMO];
    if (!m->known || m->s != s || m->elem != elem || m->q != q || m->warp != warp ||
        m->sector != sector) {
        const sector_memo fresh = {1, s, elem, q, warp, sector,
                                   count_walk_sector_eff(s, elem, q, warp, sector)};
        *m = fresh;
    }
    return m->eff;
}

/* Flags the padding kernels' chunks wait for, all chunks together, as
 * the fitted entries count them: chunk d waits for as many chunks as the
 * rows' shift at d spans (the shift grows with the row, so on average half
 * the last row's).  That is what unpadding did until df7e971; the kernels
 * now wait for one or two a chunk, and the count the entries were fitted
 * with stays until a refit shows that the true one chooses better. */
static double pad_waits(const clipt_stage_spec *sp, size_t elem, const clipt_tuning *t,
                        const clipt_cost_env *env)
{
    const size_t chunk_bytes = min_size(COST_PAD_CHUNK_BYTES, env->local_bytes / 2);
    const size_t wg = t->wg_010 ? t->wg_010 : 1;
    size_t regs = chunk_bytes / (min_size(wg, 256) * elem);
    double chunk, chunks, shift;
    if (regs < 2)
        regs = 2;
    chunk = (double)wg * (double)regs;
    chunks = (double)sp->instances * (double)sp->a / chunk;
    shift = (double)sp->instances * (double)(sp->sa > sp->sb ? sp->sa - sp->sb : sp->sb - sp->sa);
    return chunks * shift / (2 * chunk);
}

static clipt_cost_kind kind_of(clipt_kernel_family family, clipt_stage_op op)
{
    switch (family) {
    case CLIPT_FAMILY_TILE_LOCAL:
        return CLIPT_COST_TILES;
    case CLIPT_FAMILY_SUPER_SEGMENTS:
        return CLIPT_COST_MOVE;
    case CLIPT_FAMILY_ROWS:
        return op == CLIPT_OP_PAD ? CLIPT_COST_PAD : CLIPT_COST_UNPAD;
    case CLIPT_FAMILY_C2R:
        return CLIPT_COST_C2R;
    default:
        return CLIPT_COST_SLOW;
    }
}

void clipt_cost_features_of(const clipt_stage_spec *sp, clipt_kernel_family family,
                            size_t elem, const clipt_tuning *t, const clipt_cost_env *env,
                            clipt_cost_features *f)
{
    const int rows = sp->op == CLIPT_OP_PAD || sp->op == CLIPT_OP_UNPAD;
    f->kind = kind_of(family, sp->op);
    f->elem = (double)elem;
    f->bytes = 2.0 * (double)elem *
               (rows ? (double)sp->instances * (double)sp->a : (double)clipt_spec_region_elems(sp));
    /* walks save heads first; padding and the flag families zero flags */
    f->launches = f->kind == CLIPT_COST_TILES || f->kind == CLIPT_COST_C2R ? 1 : 2;
    /* a C2R column shuffle too tall for local memory: two passes, three
     * launches (the reflection, the heads saved, the walk; or one launch
     * through scratch, for blocks up to half again as large as local
     * memory, about as slow) */
    if (f->kind == CLIPT_COST_C2R &&
        (sp->op == CLIPT_OP_SHUFFLE_COLUMNS || sp->op == CLIPT_OP_UNSHUFFLE_COLUMNS) &&
        !clipt_c2r_columns_on_chip(sp->a, sp->b, elem, env->local_bytes)) {
        f->bytes *= 2;
        f->launches = 3;
    }
    f->sector_eff = 1;
    f->run_bytes = 0;
    f->step_bytes = COST_REFERENCE_STEP_BYTES;
    f->tile_bytes = f->kind == CLIPT_COST_TILES ? (double)sp->a * (double)sp->b * (double)elem : 0;
    /* the CPU kernels (kernel_style loops) move rows in order without
     * waiting, and walk whole super-elements, one step each */
    f->waits = rows && !clipt_tuning_loops(t) ? pad_waits(sp, elem, t, env) : 0;
    /* padding in 16-byte words (clipt_spec_rows_in_words) costs what 4-byte
     * element kernels do, whatever the element: 1.2-1.5 copies' time on the
     * H100 for 1-, 2- and 4-byte elements.  Priced as the element kernels,
     * 1-byte plans were predicted within +-20 % for 37 % of the shapes;
     * so priced, 95 %, with the same plans to within 7 in 60 and the same
     * speed (docs/performance.md, "Small super-elements priced by their
     * bytes"; before small super-elements were priced by their bytes this
     * pricing took slower plans: "Padding in 16-byte words") */
    if (rows && clipt_spec_rows_in_words(sp, elem, clipt_tuning_loops(t), t->wide_bytes))
        f->elem = COST_WORDS_ROWS_ELEM;
    /* 1-byte tiles in 4 x 4 quads move 4-byte words through local memory:
     * on an H200 their 0010! stages took 1.01 copies' time, fp32 tiles'
     * 1.1-1.2, where 1-byte ones had taken 1.42 (docs/performance.md,
     * "1-byte tiles in 4 x 4 quads") */
    if (clipt_spec_tiles_in_quads(sp, elem, clipt_tuning_loops(t)))
        f->elem = 4;
    if (f->kind == CLIPT_COST_MOVE) {
        const size_t q = clipt_tuning_loops(t)
                             ? (size_t)sp->s
                             : clipt_walk_slice_elems((size_t)sp->s, elem, t->walk_item_bytes);
        const size_t sector = t->align_bytes ? t->align_bytes : 1;
        f->step_bytes = (double)(q * elem);
        f->run_bytes = (double)sp->s * (double)elem;
        /* A step of the walk touches the sectors of its slices (the first
         * share); the super-element's other slices, read in the steps that
         * follow, often find those lines still in the cache, so the memory
         * may fetch only the lines of the whole run (the second).  Neither
         * alone priced the H100's moves as well as their geometric mean:
         * with 128-byte lines, moves within +-10 %: 71 % (per step), 76 %
         * (whole run), 82 % (the mean); docs/performance.md, "Moves priced
         * in 128-byte lines". */
        const double step_share =
            walk_sector_eff(sp->s, elem, q, env->simd_width ? env->simd_width : 1, sector);
        f->sector_eff = sqrt(step_share * run_sector_share((size_t)(sp->s * elem), sector));
    }
}

/* The share of a move's memory traffic that its runs use: the sectors'
 * share, less for a run shorter than model_run_bytes, which costs what one
 * that long does (run_bytes 0: not known; model_run_bytes 0 or 1: off). */
static double move_traffic_eff(const clipt_cost_features *f, const clipt_tuning *t)
{
    const double least = t->model_run_bytes ? (double)t->model_run_bytes : 1;
    return f->run_bytes > 0 && f->run_bytes < least ? f->sector_eff * f->run_bytes / least
                                                    : f->sector_eff;
}

double clipt_cost_seconds(const clipt_cost_features *f, const clipt_tuning *t)
{
    const double copy_s = f->bytes / ((double)t->model_copy_gbs * 1e9);
    const double launch_s = f->launches * (double)t->model_launch_ns * 1e-9;
    const double per_elem = 4.0 / f->elem;
    double cost;
    switch (f->kind) {
    case CLIPT_COST_TILES:
        cost = 1 / permille(t->model_tiles_eff) +
               permille(t->model_tiles_elem) * (per_elem - 1);
        /* small tiles of small elements: fewer bytes per work-group for
         * the same fixed work (tile_bytes 0: not known) */
        if (per_elem > 1 && f->tile_bytes > 0 && f->tile_bytes < COST_SMALL_TILE_BYTES)
            cost += permille(t->model_tiles_small) * per_elem *
                    (1 - f->tile_bytes / COST_SMALL_TILE_BYTES);
        break;
    case CLIPT_COST_MOVE: {
        const double ms = permille(t->model_move_sector), mq = permille(t->model_move_step);
        const double rest = ms + mq < 1 ? 1 - ms - mq : 0;
        cost = (rest + ms / move_traffic_eff(f, t) +
                mq * COST_REFERENCE_STEP_BYTES / f->step_bytes) /
               permille(t->model_move_eff);
        break;
    }
    case CLIPT_COST_PAD:
    case CLIPT_COST_UNPAD:
        cost = 1 / permille(f->kind == CLIPT_COST_PAD ? t->model_pad_eff : t->model_unpad_eff) +
               permille(t->model_rows_elem) * (per_elem - 1);
        break;
    case CLIPT_COST_C2R:
        /* GPU kernels: work per element as the tiles' (fp64 passes ran at
         * 0.85-0.9 of the fp32 ones' time per byte on the H100); CPU
         * kernels: all of it per element (PoCL, forced C2R, 6-12 fresh
         * shapes a size: a pass took 160, 80, 38, 24 and 10 copies' time
         * for 1- to 16-byte elements, docs/performance.md) */
        cost = clipt_tuning_loops(t) ? per_elem / permille(t->model_c2r_eff)
                                     : 1 / permille(t->model_c2r_eff) +
                                           permille(t->model_tiles_elem) * (per_elem - 1);
        break;
    default:
        cost = 1 / permille(t->model_slow_eff);
        break;
    }
    /* wide elements cannot make a stage faster than a tenth of a copy */
    if (cost < 0.1)
        cost = 0.1;
    return launch_s + copy_s * cost + f->waits * (double)t->model_wait_ps * 1e-12;
}

/* walk_takes' answers, kept per thread (a choice asks again for the
 * pairs of the candidates it keeps). */
#define WALK_MEMO 32
typedef struct walk_memo {
    uint64_t a, b;
    int takes;
} walk_memo;

int clipt_cost_walk_takes(uint64_t a, uint64_t b)
{
    static _Thread_local walk_memo memo[WALK_MEMO];
    walk_memo *m = &memo[(a * 31 + b) % WALK_MEMO];
    clipt_cycle_structure cs;
    /* a x b positions hold at most a*b/2 cycles that move */
    if (a > UINT32_MAX || b > UINT32_MAX || a * b / 2 <= CLIPT_MAX_CYCLES)
        return 1;
    if (m->a == a && m->b == b)
        return m->takes;
    /* where the algebra fails, the stage's listing fails as well */
    m->takes = clipt_cycle_structure_init(a, b, &cs) == 0 && cs.cycles <= CLIPT_MAX_CYCLES;
    clipt_cycle_structure_free(&cs);
    m->a = a;
    m->b = b;
    return m->takes;
}

/* A stage's price; `checked`: a move that the walk would not take priced
 * as its fallback's. */
static double stage_seconds(const clipt_stage_spec *spec, size_t elem, const clipt_tuning *t,
                            const clipt_cost_env *env, int checked)
{
    /* priced as it will run: on the words stages.c widens it to (the
     * padding stages' cost falls with the word; the split is not known
     * here, nor the offset) */
    const size_t word = clipt_spec_wide_bytes(spec, elem, t->wide_bytes);
    const clipt_stage_spec wide = clipt_spec_widened(spec, word / elem);
    clipt_kernel_family family = clipt_cost_family(&wide, word, env);
    clipt_cost_features f;
    if (checked && family == CLIPT_FAMILY_SUPER_SEGMENTS &&
        !clipt_cost_walk_takes(spec->a, spec->b))
        family = CLIPT_FAMILY_SUPER_SLICES;
    clipt_cost_features_of(&wide, family, word, t, env, &f);
    return clipt_cost_seconds(&f, t);
}

double clipt_cost_stage_seconds(const clipt_stage_spec *spec, size_t elem,
                                const clipt_tuning *t, const clipt_cost_env *env)
{
    return stage_seconds(spec, elem, t, env, 0);
}

static double staged_seconds(const clipt_staged_layout *l, size_t elem, const clipt_tuning *t,
                             const clipt_cost_env *env, int checked)
{
    clipt_stage_spec specs[CLIPT_MAX_STAGES];
    const int count = clipt_staged_specs(l, specs);
    double total = 0;
    if (count < 0)
        return -1;
    for (int i = 0; i < count; i++)
        total += stage_seconds(&specs[i], elem, t, env, checked);
    return total;
}

double clipt_cost_staged_seconds(const clipt_staged_layout *l, size_t elem,
                                 const clipt_tuning *t, const clipt_cost_env *env)
{
    return staged_seconds(l, elem, t, env, 0);
}

double clipt_cost_staged_seconds_checked(const clipt_staged_layout *l, size_t elem,
                                         const clipt_tuning *t, const clipt_cost_env *env)
{
    return staged_seconds(l, elem, t, env, 1);
}

double clipt_cost_passes_seconds(const clipt_cost_pass *passes, unsigned count, size_t elem,
                                 const clipt_tuning *t, const clipt_cost_env *env)
{
    const size_t sector = t->align_bytes ? t->align_bytes : 1;
    double total = 0;
    (void)env;
    for (unsigned i = 0; i < count; i++) {
        const clipt_cost_pass *p = &passes[i];
        /* tile_bytes 0: a pass's tiles are not known (no small-tile term) */
        clipt_cost_features f = {CLIPT_COST_TILES, p->bytes, p->launches, (double)elem, 1, 0,
                                 COST_REFERENCE_STEP_BYTES, 0, 0};
        if (p->kind == CLIPT_COST_PASS_SCATTERED) {
            const size_t run = p->run_bytes >= 1 ? (size_t)p->run_bytes : 1;
            f.kind = CLIPT_COST_MOVE;
            f.sector_eff = run_sector_share(run, sector);
            f.run_bytes = (double)run;
            if (p->step_bytes > 0)
                f.step_bytes = p->step_bytes;
        } else if (p->kind != CLIPT_COST_PASS_STAGED) {
            return -1;
        }
        total += clipt_cost_seconds(&f, t);
    }
    return total;
}
