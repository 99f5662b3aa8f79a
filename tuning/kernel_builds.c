/* clipt_kernel_builds: the kernel builds (file, build options) the library
 * makes for GPUs it cannot reach here, as the library itself decides them.
 *
 * For each synthetic device profile below (an AMD GPU of each generation
 * the compile matrix covers, NVIDIA GPUs), it opens a clipt context on the
 * test device (PoCL), makes its profile claim that GPU's type, vendor,
 * name, local memory, wavefront and work-group limits, selects the tuning
 * through the library's own table (tuning/tuning_entries.inc: the AMD
 * entries, or the values derived for that local memory and SIMD width),
 * and then makes plans over a representative set of shapes (general,
 * skinny, primes, padded, every element size, every forced sequence, both
 * tile rules, forced tiles that fall back from BS to PTTWAC to slices) and
 * prepares single stages of every kernel family over super-element sizes
 * and tile sizes that reach every slice width and PTTWAC spreading the
 * host can choose.  A second pass lowers the 32-bit index limit so that
 * the 64-bit index variants (SMALL_INDEX=0, chosen for matrices of 2^32
 * elements and more) are made on small shapes.  Every program is really
 * built (on PoCL), because a stage's choices depend on its kernels'
 * queried limits.
 *
 * Prints one line per distinct (profile, file, options), tab-separated:
 *     profile  targets  tuning-entry  file  options  max-wg  max-local-bytes
 * where targets are the compiler targets (clang -mcpu, or nvptx64) that
 * stand for that GPU, max-wg is the largest work-group any stage launches
 * with those options and max-local-bytes the largest dynamic local memory
 * it passes (0 and 0: built but not launched by any final stage, e.g. a
 * shift100 worker count tried before a smaller one).  Lines starting with
 * '#' are comments.  tuning/compile_matrix.py compiles what it prints.
 *
 * Uses the library's internals (internal.h, plan.h): it follows them. */
#include "internal.h"
#include "cl_select.h"
#include "plan.h"
#include "tuning_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A GPU as its OpenCL runtime describes it (the values the library reads). */
typedef struct gpu_profile {
    const char *label;
    const char *targets;    /* compile-matrix targets it stands for */
    const char *vendor;
    const char *name;
    cl_ulong local_mem;
    unsigned simd;
    size_t max_wg;
    cl_uint compute_units;
} gpu_profile;

#define AMD "Advanced Micro Devices, Inc."
#define NV "NVIDIA Corporation"

/* AMD: ROCm reports the gfx name, a wavefront of 64 (GCN, CDNA) or 32
 * (RDNA), 64 KiB of local memory (older drivers of GCN parts: 32 KiB) and
 * work-groups of up to 256.  GCN parts before gfx9 and any name no entry
 * knows take the derived defaults. */
static const gpu_profile profiles[] = {
    {"gfx701 (Hawaii), 32 KiB", "gfx701 gfx803", AMD, "gfx701", 32768, 64, 256, 44},
    {"gfx803 (Fiji), 64 KiB", "gfx701 gfx803", AMD, "gfx803", 65536, 64, 256, 64},
    {"gfx906 (MI50)", "gfx906 gfx90a", AMD, "gfx906:sramecc+:xnack-", 65536, 64, 256, 60},
    {"gfx90a (MI250X GCD)", "gfx906 gfx90a", AMD, "gfx90a:sramecc+:xnack-", 65536, 64, 256,
     110},
    {"gfx1030 (RX 6800 XT)", "gfx1030", AMD, "gfx1030", 65536, 32, 256, 72},
    {"gfx1100 (RX 7900 XTX)", "gfx1100", AMD, "gfx1100", 65536, 32, 256, 96},
    {"unknown RDNA, 32 KiB", "gfx1030 gfx1100", AMD, "gfx1200", 32768, 32, 256, 64},
    {"unknown RDNA, 64 KiB", "gfx1030 gfx1100", AMD, "gfx1201", 65536, 32, 256, 64},
    {"NVIDIA H100", "nvptx64", NV, "NVIDIA H100 80GB HBM3", 49152, 32, 1024, 132},
    {"other NVIDIA, 48 KiB", "nvptx64", NV, "NVIDIA GeForce RTX 3090", 49152, 32, 1024, 82},
};

/* ---- what a context built, and how stages launched it ------------------ */

typedef struct build_rec {
    char file[64];
    char options[256];
    size_t max_wg, max_local;
} build_rec;

typedef struct build_list {
    build_rec *recs;
    size_t count, cap;
} build_list;

static build_rec *find_or_add(build_list *l, const char *file, const char *options)
{
    for (size_t i = 0; i < l->count; i++)
        if (!strcmp(l->recs[i].file, file) && !strcmp(l->recs[i].options, options))
            return &l->recs[i];
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        build_rec *grown = realloc(l->recs, cap * sizeof *grown);
        if (!grown) {
            fprintf(stderr, "kernel_builds: out of memory\n");
            exit(1);
        }
        l->recs = grown;
        l->cap = cap;
    }
    memset(&l->recs[l->count], 0, sizeof l->recs[0]);
    snprintf(l->recs[l->count].file, sizeof l->recs[0].file, "%s", file);
    snprintf(l->recs[l->count].options, sizeof l->recs[0].options, "%s", options);
    return &l->recs[l->count++];
}

static void note_stage(build_list *l, const clipt_stage *st)
{
    build_rec *r = find_or_add(l, st->family->file, st->options);
    const size_t local = st->local_bytes[0] + st->local_bytes[1];
    if (st->local > r->max_wg)
        r->max_wg = st->local;
    if (local > r->max_local)
        r->max_local = local;
}

static void note_built(const char *file, const char *options, void *user)
{
    find_or_add(user, file, options);
}

/* ---- the sweeps ---------------------------------------------------------- */

static const size_t shapes[][2] = {
    {1, 1000}, {1000, 1}, {7, 13}, {37, 1000}, {1000, 37}, {97, 101}, {24, 25},
    {64, 64}, {1024, 768}, {720, 1280}, {999, 1001}, {3001, 5000}, {5000, 3001},
    {4096, 4096}, {12345, 67}, {67, 12345}, {7919, 7907}, {1000000, 16}, {16, 1000000},
    {300, 500}, {4099, 17}, {2048, 3}, {3, 2048}, {1500, 2000}, {100000, 7}, {7, 100000},
    {6203, 6607}, {1800, 7200}};
static const size_t elems[] = {1, 2, 4, 8, 16};
static const clipt_sequence seqs[] = {
    CLIPT_SEQUENCE_AUTO, CLIPT_SEQUENCE_1, CLIPT_SEQUENCE_2_1, CLIPT_SEQUENCE_2_2,
    CLIPT_SEQUENCE_3_1, CLIPT_SEQUENCE_3_2, CLIPT_SEQUENCE_4_1, CLIPT_SEQUENCE_4_2,
    CLIPT_SEQUENCE_4_3};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static size_t plans_made, plans_refused;

static void plan_one(clipt_context c, build_list *l, size_t rows, size_t cols, size_t elem,
                     const clipt_plan_options *o)
{
    clipt_plan p = NULL;
    if (clipt_plan_create(c, rows, cols, elem, o, &p) != CLIPT_SUCCESS) {
        plans_refused++; /* a forced sequence that cannot run this shape */
        return;
    }
    plans_made++;
    for (unsigned i = 0; i < p->num_stages; i++)
        note_stage(l, &p->stages[i]);
    clipt_plan_release(p);
}

/* Every shape with every element size and sequence, the tile rules, no
 * padding and C2R; forced tiles too large for local memory. */
static void sweep_plans(clipt_context c, build_list *l, int full)
{
    for (size_t i = 0; i < COUNT(shapes); i++)
        for (size_t e = 0; e < COUNT(elems); e++)
            for (size_t q = 0; q < COUNT(seqs); q++) {
                clipt_plan_options o;
                clipt_plan_options_init(&o);
                o.sequence = seqs[q];
                if (!full && (q + e + i) % 4)
                    continue;
                /* forced sequences and options on large shapes walk
                 * millions of cycle positions on the host and choose
                 * nothing that the smaller shapes and the stage sweep do
                 * not: automatic plans only */
                const int large = shapes[i][0] * shapes[i][1] > (1u << 21);
                if (q > 0 && large)
                    continue;
                plan_one(c, l, shapes[i][0], shapes[i][1], elems[e], &o);
                if (q == 0 && full && !large) {
                    o.padding = CLIPT_PADDING_NONE;
                    plan_one(c, l, shapes[i][0], shapes[i][1], elems[e], &o);
                    o.padding = CLIPT_PADDING_AUTO;
                    o.tile_rule = CLIPT_TILE_RULE_ALG1;
                    plan_one(c, l, shapes[i][0], shapes[i][1], elems[e], &o);
                    o.tile_rule = CLIPT_TILE_RULE_ALG2;
                    plan_one(c, l, shapes[i][0], shapes[i][1], elems[e], &o);
                }
            }
    /* the C2R decomposition and R2C: cheap to plan on any shape (no cycle
     * walks) */
    for (size_t i = 0; i < COUNT(shapes); i++)
        for (size_t e = 0; e < COUNT(elems); e++)
            for (int inverse = 0; inverse < 2; inverse++) {
                clipt_plan_options o;
                clipt_plan_options_init(&o);
                o.algorithm = inverse ? CLIPT_ALGORITHM_R2C : CLIPT_ALGORITHM_C2R;
                plan_one(c, l, shapes[i][0], shapes[i][1], elems[e], &o);
            }
    {
        static const size_t forced[][4] = {{600, 700, 600, 700}, {4096, 4096, 4096, 64},
                                           {5000, 3001, 5000, 3001}, {1500, 2000, 500, 400},
                                           {3000, 2000, 150, 100}};
        for (size_t i = 0; i < COUNT(forced); i++)
            for (size_t e = 0; e < COUNT(elems); e++)
                for (size_t q = 0; q < COUNT(seqs); q++) {
                    clipt_plan_options o;
                    clipt_plan_options_init(&o);
                    o.sequence = seqs[q];
                    o.tile_m = forced[i][2];
                    o.tile_n = forced[i][3];
                    plan_one(c, l, forced[i][0], forced[i][1], elems[e], &o);
                }
    }
}

static void stage_one(clipt_context c, build_list *l, const clipt_stage_spec *sp,
                      clipt_kernel_family family, size_t elem)
{
    clipt_stage st;
    if (clipt_stage_prepare_as(c, sp, family, elem, &c->profile.tuning, &st) ==
        CLIPT_SUCCESS)
        note_stage(l, &st);
    clipt_stage_release(&st);
}

/* Single stages: super-elements of 1..80 and a few large sizes by each
 * family that moves them (every slice width Q the host can pick), fused
 * super-elements, tiles of growing size by the tile families (every PTTWAC
 * spreading factor the local memory leaves), and padding. */
static void sweep_stages(clipt_context c, build_list *l)
{
    static const clipt_kernel_family super_families[] = {
        CLIPT_FAMILY_SUPER_SEGMENTS, CLIPT_FAMILY_SUPER_SLICES, CLIPT_FAMILY_SUPER_LOCAL};
    static const uint64_t big_s[] = {96, 100, 120, 128, 250, 256, 257, 1000, 1024, 4096};
    for (size_t e = 0; e < COUNT(elems); e++) {
        for (uint64_t s = 1; s <= 80 + COUNT(big_s); s++)
            for (size_t f = 0; f < COUNT(super_families); f++) {
                const uint64_t size = s <= 80 ? s : big_s[s - 81];
                clipt_stage_spec sp = {CLIPT_OP_MOVE_SUPER, "100!", 2, 27, 40, size, 0, 0, 0};
                stage_one(c, l, &sp, super_families[f], elems[e]);
            }
        for (uint64_t side = 4; side <= 512; side *= 2) {
            clipt_stage_spec tiles = {CLIPT_OP_TRANSPOSE_TILES, "010!", 2, side, side + 1,
                                      1, 0, 0, 0};
            clipt_stage_spec fused = {CLIPT_OP_MOVE_SUPER, "1000!", 1, 5, 7,
                                      side * (side + 1), side, side + 1, 0};
            stage_one(c, l, &tiles, CLIPT_FAMILY_AUTO, elems[e]);
            stage_one(c, l, &tiles, CLIPT_FAMILY_TILE_CYCLES, elems[e]);
            stage_one(c, l, &fused, CLIPT_FAMILY_AUTO, elems[e]);
        }
        {
            clipt_stage_spec pad = {CLIPT_OP_PAD, "pad", 1000, 999, 1, 1, 999, 1024, 0};
            clipt_stage_spec unpad = {CLIPT_OP_UNPAD, "unpad", 1000, 999, 1, 1, 1024, 999, 0};
            stage_one(c, l, &pad, CLIPT_FAMILY_AUTO, elems[e]);
            stage_one(c, l, &unpad, CLIPT_FAMILY_AUTO, elems[e]);
        }
    }
}

/* A context on env's device whose profile claims g. */
static clipt_context context_as(clipt_cl_env *env, const gpu_profile *g)
{
    clipt_context c = NULL;
    clipt_device_profile *p;
    if (clipt_context_create(env->context, env->device, &c) != CLIPT_SUCCESS) {
        fprintf(stderr, "kernel_builds: no clipt context on %s\n", env->device_name);
        exit(1);
    }
    p = &c->profile;
    p->type = CL_DEVICE_TYPE_GPU;
    snprintf(p->vendor, sizeof p->vendor, "%s", g->vendor);
    snprintf(p->name, sizeof p->name, "%s", g->name);
    snprintf(p->version, sizeof p->version, "OpenCL 2.0 (synthetic profile)");
    p->local_mem_bytes = g->local_mem;
    p->simd_width = g->simd;
    p->max_wg_size = p->max_item_size0 = g->max_wg;
    p->compute_units = g->compute_units;
    p->global_mem_bytes = (cl_ulong)64 << 30;
    p->max_alloc_bytes = (cl_ulong)16 << 30;
    p->max_global_size = UINT64_MAX;
    clipt_tuning_select(p);
    return c;
}

static void print_profile(const gpu_profile *g, const clipt_context c, const build_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        printf("%s\t%s\t%s\t%s\t%s\t%zu\t%zu\n", g->label, g->targets,
               c->profile.tuning_entry, l->recs[i].file, l->recs[i].options,
               l->recs[i].max_wg, l->recs[i].max_local);
}

int main(int argc, char **argv)
{
    clipt_cl_env env;
    char why[256];
    const char *only = argc > 1 ? argv[1] : NULL; /* a profile label substring */
    if (clipt_cl_env_open(&env, why, sizeof why) != CLIPT_SUCCESS) {
        fprintf(stderr, "kernel_builds: no device: %s\n", why);
        return 1;
    }
    printf("# clipt_kernel_builds on %s: profile, targets, tuning entry, file, options, "
           "max work-group, max dynamic local bytes\n", env.device_name);
    for (size_t g = 0; g < COUNT(profiles); g++) {
        build_list l = {NULL, 0, 0};
        clipt_context c;
        if (only && !strstr(profiles[g].label, only))
            continue;
        c = context_as(&env, &profiles[g]);
        sweep_plans(c, &l, 1);
        sweep_stages(c, &l);
        c->wide_index_from = 1000; /* the 64-bit index variants */
        sweep_plans(c, &l, 0);
        sweep_stages(c, &l);
        clipt_cache_visit(&c->cache, note_built, &l);
        print_profile(&profiles[g], c, &l);
        fflush(stdout);
        clipt_context_release(c);
        free(l.recs);
    }
    printf("# %zu plans made, %zu refused\n", plans_made, plans_refused);
    clipt_cl_env_close(&env);
    return 0;
}
