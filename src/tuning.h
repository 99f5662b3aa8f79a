/* The tuning fields: execution settings of the elementary transpositions.
 * One list, CLIPT_TUNING_FIELDS, drives the struct, the public names
 * (clipt_tuning_name), the describe texts, the plan options' overrides
 * (clipt_plan_options has a member of each name) and the table entries
 * (tuning/tuning_entries.inc names its fields).  The list's order is the
 * order of every text that prints them. */
#ifndef CLIPT_TUNING_H
#define CLIPT_TUNING_H

#include "clipt.h"

/* X(name) per field.  After the table lookup every field but groups_100 is
 * nonzero (derived defaults; in an entry or an option 0 keeps the level
 * below), so no user of a tuning needs a fallback for 0. */
#define CLIPT_TUNING_FIELDS(X)                                                 \
    X(wg_010)            /* work-group size of the BS 010! kernel          */  \
    X(tile_elems_010)    /* 16-byte elements a BS batch aims at (bytes)    */  \
    X(wg_100)            /* work-group size of 100!                        */  \
    X(simd_100)          /* max work-items per super-element in 100!       */  \
    X(groups_per_cu_100) /* resident 100! work-groups per compute unit     */  \
    X(groups_100)        /* total work-groups of 100!, 0 = per-CU rule     */  \
    X(groups_per_cu_010) /* resident 010! work-groups per compute unit     */  \
    X(pttwac_spread)     /* PTTWAC spreading factor R                      */  \
    X(pttwac_pad)        /* PTTWAC padding words per 32 flag words         */  \
    X(min_super)         /* Min of Algorithms 2 and 5                      */  \
    X(skinny_super)      /* 2.1/2.2: largest super-element (elements)      */  \
    X(walk_unroll)       /* 100! segment walks: steps read ahead           */  \
    X(walk_item_bytes)   /* 100! segment walks: bytes per work-item step   */  \
    X(align_bytes)       /* tile factors preferred as multiples of this    */  \
                         /* many bytes (whole memory sectors for the 100!  */  \
                         /* super-elements); 1 = no preference; the cost   */  \
                         /* model's sector size                            */  \
    X(kernel_style)      /* 1: work-groups sharing local memory through    */  \
                         /* barriers (GPUs); 2: one work-item per group    */  \
                         /* running loops, no barrier (CPUs: 010! and      */  \
                         /* padding kernels)                               */  \
    X(wide_bytes)        /* 100!/0100! and pad/unpad: widest word their    */  \
                         /* whole units are moved in (1 = the element)     */  \
    X(c2r_column_bytes)  /* automatic plans take C2R for coprime sides     */  \
                         /* whose columns (rows * elem) are at most this   */  \
                         /* many bytes, else R2C if the rows are (1 =      */  \
                         /* never; else also longer columns whose rows     */  \
                         /* fit local memory: the split column pass)       */  \
    /* The cost model (src/cost.h): a stage's time is its launches plus    */  \
    /* the bytes it reads and writes at a share of the copy bandwidth that */  \
    /* depends on its kind and shape.  "permille" values are thousandths.  */  \
    X(model_copy_gbs)    /* copy bandwidth, GB/s (read + written)          */  \
    X(model_launch_ns)   /* fixed cost of one kernel launch, ns            */  \
    X(model_tiles_eff)   /* 010!/0010! in local memory: permille of copy,  */  \
                         /* 4-byte elements                                */  \
    X(model_tiles_elem)  /* permille of a copy per 4/elem - 1 (elements)   */  \
    X(model_tiles_small) /* 1-/2-byte tiles of fewer than 4 KiB: permille   */  \
                         /* per 4/elem, times 1 - tile bytes / 4096        */  \
    X(model_move_eff)    /* 100!/0100! segment walks: permille of copy,    */  \
                         /* whole sectors and 16-byte work-item steps      */  \
    X(model_move_sector) /* permille of that time per sector touched       */  \
    X(model_move_step)   /* permille of that time per work-item step       */  \
    X(model_run_bytes)   /* moves: a super-element of fewer bytes costs    */  \
                         /* the sector share of one this long (1 = none)   */  \
    X(model_pad_eff)     /* padding: permille of copy, 4-byte elements     */  \
    X(model_unpad_eff)   /* unpadding: the same                            */  \
    X(model_rows_elem)   /* pad/unpad: the same                            */  \
    X(model_wait_ps)     /* pad/unpad: ps per flag a chunk waits for       */  \
    X(model_slow_eff)    /* PTTWAC, slices, fused 4.3: permille of copy    */  \
    X(model_c2r_eff)     /* C2R/R2C: permille of copy per pass (a split    */  \
                         /* column shuffle is two)                         */

/* The values of kernel_style. */
#define CLIPT_KERNEL_STYLE_GROUPS 1
#define CLIPT_KERNEL_STYLE_LOOPS 2

typedef struct clipt_tuning {
#define CLIPT_TUNING_MEMBER(f) unsigned f;
    CLIPT_TUNING_FIELDS(CLIPT_TUNING_MEMBER)
#undef CLIPT_TUNING_MEMBER
} clipt_tuning;

/* Whether t runs the CPU kernels (kernel_style loops): the stages and the
 * cost model's view of them ask this one question. */
static inline int clipt_tuning_loops(const clipt_tuning *t)
{
    return t->kernel_style == CLIPT_KERNEL_STYLE_LOOPS;
}

/* Every nonzero field of v replaces that of t (a table level over the one
 * below, or a plan's options over the device's entry). */
void clipt_tuning_apply(clipt_tuning *t, const clipt_tuning *v);

/* The tuning overrides of plan options (0 = none). */
clipt_tuning clipt_tuning_of_options(const clipt_plan_options *o);

/* The value of field `name` of t.  Errors: CLIPT_ERROR_NULL_ARGUMENT,
 * CLIPT_ERROR_INVALID_OPTION (no such field). */
clipt_status clipt_tuning_get(const clipt_tuning *t, const char *name, unsigned *value);

/* Writes "<before>name=value<after>" for every field of t (only the nonzero
 * ones when nonzero_only), in list order, snprintf-style: as much as fits
 * in buf[len] (NUL-terminated when len > 0), and returns the length of the
 * whole text. */
int clipt_tuning_format(const clipt_tuning *t, const char *before, const char *after,
                        int nonzero_only, char *buf, size_t len);

#endif
