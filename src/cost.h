/* The cost model (issue 12; after TTLG, Vedurada et al., IPDPS 2018, §V):
 * the predicted time of a stage from the bytes it moves and the device's
 * measured efficiency for that kind of stage, read from the tuning entry
 * (the model_* fields of tuning.h).  Pure host arithmetic on specs: no
 * OpenCL objects, no allocation, so that a plan can price many candidates.
 *
 * A stage of `bytes` bytes read plus written takes
 *     launches * model_launch_ns + bytes / model_copy_gbs * cost / 1000
 * where cost (thousandths of the time a copy takes) depends on its kind:
 *   tiles (010!/0010! in local memory, transpose010.cl):
 *     1e6 / model_tiles_eff + model_tiles_elem * (4 / elem - 1)
 *     (so model_tiles_eff is for 4-byte elements; smaller elements cost
 *     more per byte: work per element), plus for 1- and 2-byte elements
 *     model_tiles_small * 4 / elem * (1 - tile bytes / 4096) on tiles of
 *     fewer than 4 KiB (the H100 ran such tiles at 1.2-1.9 times the
 *     price of larger ones; 4-byte ones no slower);
 *   moves (100!/0100! segment walks, shift100_segments.cl):
 *     1e6 / model_move_eff * (1 - ms - mq + ms / sector_eff + mq * 16 / step)
 *     with ms, mq = model_move_sector, model_move_step: sector_eff is the
 *     geometric mean of two shares of the bytes of the memory sectors
 *     (align_bytes: 128-byte lines on the H100) touched that the walk uses:
 *     per step, from how each warp's work-items read slices of
 *     super-elements at random positions, and per whole super-element (the
 *     lines its run spans); times run / model_run_bytes
 *     when a super-element (the contiguous run each step moves) is shorter
 *     than model_run_bytes: a run at a random place costs the memory at
 *     least that much (tuning/scatter.c on the H100: 64-byte blocks at 52 %
 *     of copy, 128-byte ones at 83 %); step is the bytes a work-item
 *     moves per step;
 *   pad, unpad (pad.cl): 1e6 / model_pad_eff (or unpad) +
 *     model_rows_elem * (4 / elem - 1) (elem 4 for rows moved as 16-byte
 *     words: pad_rows_words), plus model_wait_ps per flag counted as the
 *     rows' shift spans chunks (what unpadding waited for until df7e971;
 *     the kernels now wait for one or two a chunk, but pricing them so was
 *     not shown to choose better: docs/performance.md, "Not kept either");
 *   the fallback families (PTTWAC, slices, fused 4.3): 1e6 / model_slow_eff;
 *   C2R's passes (c2r.cl): 1e6 / model_c2r_eff + model_tiles_elem *
 *     (4 / elem - 1) a pass (the CPU kernels: (4 / elem) * 1e6 /
 *     model_c2r_eff), a column shuffle whose column blocks local memory
 *     cannot hold being two (the reflection and the row walk, three
 *     launches).
 * The values are fitted per device from per-stage timings
 * (tuning/fit_model.py; tuning/README.md). */
#ifndef CLIPT_COST_H
#define CLIPT_COST_H

#include "spec.h"
#include "tuning.h"

#include <stddef.h>
#include <stdint.h>

/* What the model needs of a device besides its tuning. */
typedef struct clipt_cost_env {
    unsigned simd_width;     /* work-items that access memory together      */
    size_t tile_bytes;       /* local memory a tile may use (before a build) */
    size_t local_bytes;      /* the whole local-memory budget               */
} clipt_cost_env;

typedef enum clipt_cost_kind {
    CLIPT_COST_TILES = 1,
    CLIPT_COST_MOVE = 2,
    CLIPT_COST_PAD = 3,
    CLIPT_COST_UNPAD = 4,
    CLIPT_COST_SLOW = 5,
    CLIPT_COST_C2R = 6
} clipt_cost_kind;

/* A stage as the model sees it (also what tuning/model_calib prints). */
typedef struct clipt_cost_features {
    clipt_cost_kind kind;
    double bytes;       /* read + written                                   */
    double launches;    /* kernel launches and buffer fills                 */
    double elem;        /* element bytes                                    */
    double sector_eff;  /* moves: used share of the sector bytes, (0, 1]    */
    double run_bytes;   /* moves: bytes of one super-element, the contiguous */
                        /* run each step reads and writes at a random place */
    double step_bytes;  /* moves: bytes per work-item step                  */
    double waits;       /* pad, unpad: flags waited for, all chunks         */
    double tile_bytes;  /* tiles: bytes of one tile (a x b elements)        */
} clipt_cost_features;

/* The family the library will most likely run the spec with (stages.c's
 * first choice, without building anything): tiles in local memory when the
 * tile fits env->tile_bytes, else PTTWAC; segment walks for moves, the
 * fused kernel for 4.3's fused stage; rows for padding. */
clipt_kernel_family clipt_cost_family(const clipt_stage_spec *spec, size_t elem,
                                      const clipt_cost_env *env);

/* The features of a stage computed by `family`. */
void clipt_cost_features_of(const clipt_stage_spec *spec, clipt_kernel_family family,
                            size_t elem, const clipt_tuning *t, const clipt_cost_env *env,
                            clipt_cost_features *f);

/* Predicted seconds of a stage with features f. */
double clipt_cost_seconds(const clipt_cost_features *f, const clipt_tuning *t);

/* Predicted seconds of a stage (family by clipt_cost_family). */
double clipt_cost_stage_seconds(const clipt_stage_spec *spec, size_t elem,
                                const clipt_tuning *t, const clipt_cost_env *env);

/* Predicted seconds of a staged transposition (clipt_staged_specs), or a
 * negative value when the layout has no stages list (unknown sequence). */
double clipt_cost_staged_seconds(const clipt_staged_layout *l, size_t elem,
                                 const clipt_tuning *t, const clipt_cost_env *env);

/* Whether the segment walk takes a 100!/0100! of a x b super-elements:
 * stages.c gives one with more cycles than the host lists
 * (CLIPT_MAX_CYCLES: many short ones, e.g. 9216 x 96, 294880 cycles of 3
 * positions) to the slices kernel, whose flags in global memory made such
 * a stage 5 times slower on the H100.  Counts the cycles by number theory
 * (3-30 us), remembered per thread for the last pairs asked. */
int clipt_cost_walk_takes(uint64_t a, uint64_t b);

/* clipt_cost_staged_seconds with each move priced as the family it will
 * run with: the walk, or the fallback where the walk would not take it.
 * It counts cycles, so the plan's choice asks it of its choice only, and
 * of every candidate only when that choice has a move the walk refuses. */
double clipt_cost_staged_seconds_checked(const clipt_staged_layout *l, size_t elem,
                                         const clipt_tuning *t, const clipt_cost_env *env);

/* ---- passes of other algorithms (C2R and the like) ---------------------- *
 * A pass reads and writes `bytes` once each (bytes counts both).  STAGED:
 * through local memory with contiguous reads and writes, priced as tiles.
 * SCATTERED: straight from global memory in contiguous runs of run_bytes
 * at unrelated places (a column walk has runs of one element; a row
 * rotation, runs of a whole row), priced as moves whose work-items step
 * step_bytes at a time (0: 16). */
typedef enum clipt_cost_pass_kind {
    CLIPT_COST_PASS_STAGED = 1,
    CLIPT_COST_PASS_SCATTERED = 2
} clipt_cost_pass_kind;

typedef struct clipt_cost_pass {
    clipt_cost_pass_kind kind;
    double bytes;
    double run_bytes;    /* SCATTERED: bytes of each contiguous run         */
    double step_bytes;   /* SCATTERED: bytes per work-item step (0: 16)     */
    unsigned launches;
} clipt_cost_pass;

/* Predicted seconds of the passes together, elem-byte elements; negative
 * for an unknown pass kind. */
double clipt_cost_passes_seconds(const clipt_cost_pass *passes, unsigned count, size_t elem,
                                 const clipt_tuning *t, const clipt_cost_env *env);

#endif
