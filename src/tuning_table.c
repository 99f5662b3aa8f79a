/* Tuning table.  Every level has a default: values derived from the device
 * queries, overridden by entries matched on device type, runtime, vendor
 * substring and device-name substring, the most specific match winning.
 * Entries come from tuning/ (see tuning/README.md) and name their fields;
 * a field left out (zero) keeps the value of the level below. */
#include "tuning_table.h"

#include <stdio.h>
#include <string.h>

typedef struct tuning_entry {
    const char *label;
    cl_device_type type;    /* 0 = any */
    const char *vendor;     /* substring of CL_DEVICE_VENDOR, NULL = any */
    const char *name;       /* substring of CL_DEVICE_NAME, NULL = any */
    const char *runtime;    /* substring of CL_DEVICE_VERSION, e.g. "PoCL" */
    clipt_tuning values;
} tuning_entry;

#include "tuning_entries.inc"

static unsigned min_u(unsigned a, unsigned b) { return a < b ? a : b; }

/* The cost model without measurements (tuning/README.md says how to
 * measure them): GPU shares close to the H100's, CPU ones close to PoCL's;
 * the bandwidth and launch cost only scale the predicted time, the shares
 * decide the plan. */
static const clipt_tuning gpu_model = {
    .model_copy_gbs = 1000, .model_launch_ns = 5000, .model_tiles_eff = 850,
    .model_tiles_elem = 200, .model_move_eff = 750, .model_move_sector = 600,
    .model_move_step = 150, .model_run_bytes = 64, .model_pad_eff = 700,
    .model_unpad_eff = 700, .model_rows_elem = 200, .model_wait_ps = 600,
    .model_slow_eff = 100, .model_c2r_eff = 600};
static const clipt_tuning cpu_model = {
    .model_copy_gbs = 20, .model_launch_ns = 20000, .model_tiles_eff = 500,
    .model_tiles_elem = 200, .model_move_eff = 300, .model_move_sector = 1,
    .model_move_step = 300, .model_run_bytes = 1, .model_pad_eff = 500,
    .model_unpad_eff = 500, .model_rows_elem = 200, .model_wait_ps = 1000,
    .model_slow_eff = 100, .model_c2r_eff = 100};

static void derive_defaults(clipt_device_profile *p)
{
    clipt_tuning *t = &p->tuning;
    const int gpu = (p->type & CL_DEVICE_TYPE_GPU) != 0;
    const unsigned max_wg = (unsigned)(p->max_wg_size > 1024 ? 1024 : p->max_wg_size);
    t->wg_010 = min_u(gpu ? 256 : 64, max_wg);
    t->tile_elems_010 = gpu ? 4096 : 16384;
    t->wg_100 = min_u(gpu ? 256 : 64, max_wg);
    t->simd_100 = min_u(p->simd_width ? p->simd_width : 1, max_wg);
    t->groups_per_cu_100 = gpu ? 8 : 4;
    t->groups_per_cu_010 = gpu ? 8 : 4;
    t->pttwac_spread = 4;
    t->pttwac_pad = 1;
    t->min_super = 24;
    t->skinny_super = 128;
    t->walk_unroll = 4;
    t->walk_item_bytes = 16;
    /* GPUs write memory in 32-byte sectors: a super-element that covers
     * partial sectors costs extra traffic in the 100! stages (on an H100,
     * 148-byte super-elements moved at ~50 % of copy bandwidth, 128-byte
     * ones at 82 %); CPUs showed no such need */
    t->align_bytes = gpu ? 32 : 1;
    /* a CPU runtime runs a work-group's items one after another on one
     * thread and switches between them at every barrier: loops in one
     * work-item are its natural form (PoCL: 010! at 2-3 % of copy with
     * work-groups of 64, see docs/performance.md) */
    t->kernel_style = gpu ? CLIPT_KERNEL_STYLE_GROUPS : CLIPT_KERNEL_STYLE_LOOPS;
    /* a super-element of 37 bytes moved as 37 one-byte words costs a
     * memory access each; whole 16-byte words are 16 times fewer */
    t->wide_bytes = 16;
    /* C2R only where it was measured faster than the TPDS sequences (an
     * entry sets it): 1 byte is no column of a matrix with rows > 1 */
    t->c2r_column_bytes = 1;
    clipt_tuning_apply(t, gpu ? &gpu_model : &cpu_model);
}

/* How specific a matching entry is (-1: it does not match).  A runtime
 * (e.g. every PoCL CPU) is more specific than a device type, a vendor more
 * than a runtime, a device name most. */
static int specificity(const tuning_entry *e, const clipt_device_profile *p)
{
    int score = 0;
    if (e->type) {
        if (!(p->type & e->type))
            return -1;
        score += 1;
    }
    if (e->runtime) {
        if (!strstr(p->version, e->runtime))
            return -1;
        score += 2;
    }
    if (e->vendor) {
        if (!strstr(p->vendor, e->vendor))
            return -1;
        score += 4;
    }
    if (e->name) {
        if (!strstr(p->name, e->name))
            return -1;
        score += 8;
    }
    return score;
}

void clipt_tuning_select(clipt_device_profile *p)
{
    const size_t count = sizeof tuning_entries / sizeof tuning_entries[0];
    derive_defaults(p);
    snprintf(p->tuning_entry, sizeof p->tuning_entry, "derived from device queries");
    /* apply matches from least to most specific, so each level defaults to
     * the one below it */
    for (int level = 0; level <= 15; level++)
        for (size_t i = 0; i < count; i++)
            if (specificity(&tuning_entries[i], p) == level) {
                clipt_tuning_apply(&p->tuning, &tuning_entries[i].values);
                snprintf(p->tuning_entry, sizeof p->tuning_entry, "%s",
                         tuning_entries[i].label);
            }
    if (p->tuning.wg_010 > p->max_wg_size)
        p->tuning.wg_010 = (unsigned)p->max_wg_size;
    if (p->tuning.wg_100 > p->max_wg_size)
        p->tuning.wg_100 = (unsigned)p->max_wg_size;
}

void clipt_profile_as_gpu(clipt_device_profile *p, const char *name, const char *vendor,
                          cl_ulong local_mem)
{
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->vendor, sizeof p->vendor, "%s", vendor);
    p->type = CL_DEVICE_TYPE_GPU;
    p->local_mem_bytes = local_mem;
    p->simd_width = 32;
    clipt_tuning_select(p);
}
