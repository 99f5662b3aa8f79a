/* The plan's host policy, all tile rules in one place: the algorithm (the
 * automatic C2R or R2C where the tuning's c2r_column_bytes takes it), the tile
 * factors (Algorithms 1, 2 and 5 of Gómez-Luna et al., TPDS 2016, and
 * clipt's refinements), the padding, and the sequence (Algorithm 3).  Pure: no
 * OpenCL calls, only the device profile's numbers. */
#ifndef CLIPT_CHOICE_H
#define CLIPT_CHOICE_H

#include "cost.h"
#include "device.h"

#include <stddef.h>

/* A chosen factor and the (possibly padded) dimension it divides. */
typedef struct clipt_tile_choice {
    size_t dim;     /* padded dimension (== the input when not padded) */
    size_t factor;  /* tile side, divides dim */
} clipt_tile_choice;

/* Algorithm 5: a dimension in [1, max] (or below min) is one whole tile;
 * otherwise the smallest divisor of dim in [min, max].  When there is none,
 * with allow_pad the dimension grows by one until there is (max >= min
 * guarantees this within min steps); without, the largest divisor <= max. */
clipt_tile_choice clipt_tile_alg5(size_t dim, size_t min, size_t max, int allow_pad);

/* Algorithm 5 preferring factors that are multiples of `step` (so that a
 * super-element of that many elements covers whole memory sectors): the
 * smallest such divisor of dim in [min, max] if there is one; else
 * Algorithm 5's unpadded choice if there is one; else, with allow_pad, the
 * smallest dim' > dim with such a divisor (padding that is needed anyway
 * then also aligns the super-elements) if dim' - dim <= dim / 50, and
 * Algorithm 5's padding if not.  step <= 1, or no multiple of step in
 * [min, max], is plain Algorithm 5. */
clipt_tile_choice clipt_tile_alg5_aligned(size_t dim, size_t min, size_t max,
                                          int allow_pad, size_t step);

/* Algorithm 1 (Catanzaro et al.'s heuristic): largest divisor <= limit. */
size_t clipt_tile_alg1(size_t dim, size_t limit);

/* Algorithm 2: among divisors m of M and n of N strictly inside (min, max)
 * with m*n <= lm_words, the pair that maximises local-memory use
 * floor(lm_words / (m*n)) * m * n.  Falls back to Algorithm 5 without padding
 * for a side with no eligible divisor.  Results in *m, *n. */
void clipt_tile_alg2(size_t M, size_t N, size_t min, size_t max,
                     size_t lm_words, size_t *m, size_t *n);

/* The factorisation and sequence of a staged plan. */
typedef struct clipt_plan_choice {
    size_t prows, pcols, m, n;    /* padded shape, tile factors of it  */
    clipt_sequence sequence;
    const char *why;              /* reason for the tiles              */
    clipt_algorithm algorithm;    /* TPDS, or C2R (then m = n = 1, no
                                     padding, no sequence)             */
    int roomless;                 /* padded, but the buffer holds rows x
                                     cols only: the padded tail lives in
                                     the plan's own buffer              */
} clipt_plan_choice;

/* What the cost model needs of the device (cost.h). */
clipt_cost_env clipt_cost_env_of(const clipt_device_profile *p);

/* Chooses for a rows x cols matrix of elem-byte elements, with the options
 * (already checked) and the plan's tuning.  C2R or R2C when forced, or
 * when nothing of the plan is forced, the elements have at least 4 bytes
 * and the sides are coprime: C2R with columns of at most
 * tuning->c2r_column_bytes and rows on chip, else R2C with rows and
 * columns swapped (the same choice for every padding policy: neither
 * pads).  Padding SCRATCH chooses as AUTO does,
 * room-less; NONE chooses, by the cost model, between that and OFF's
 * choice (no padding).  Errors: CLIPT_ERROR_INCOMPATIBLE_OPTIONS (a
 * forced tile that does not divide its dimension, padding NONE or OFF). */
clipt_status clipt_plan_choose(const clipt_device_profile *profile,
                               size_t rows, size_t cols, size_t elem,
                               const clipt_plan_options *opts,
                               const clipt_tuning *tuning,
                               clipt_plan_choice *choice);

/* The same for `batch` such matrices back to back, each transposed alone:
 * never padded (no stage pads matrices each apart), and the cost model
 * prices the whole batch, whose size shifts the balance between launches
 * and bytes moved (one stage on single elements may win for one small
 * matrix and lose for thousands); never the automatic C2R or R2C.  batch <= 1:
 * clipt_plan_choose. */
clipt_status clipt_plan_choose_batch(const clipt_device_profile *profile, size_t batch,
                                     size_t rows, size_t cols, size_t elem,
                                     const clipt_plan_options *opts,
                                     const clipt_tuning *tuning, clipt_plan_choice *choice);

/* The automatic plan's C2R or R2C where the rule (src/choice_c2r.c) takes
 * one for a batch of `batch` rows x cols matrices, else TPDS.  With a
 * common factor, only columns of at most CLIPT_C2R_GCD_MAX_COLUMN
 * elements. */
#define CLIPT_C2R_GCD_MAX_COLUMN 1800
clipt_algorithm clipt_c2r_chosen(const clipt_device_profile *profile, size_t batch,
                                 size_t rows, size_t cols, size_t elem,
                                 const clipt_plan_options *o, const clipt_tuning *t);

#endif
