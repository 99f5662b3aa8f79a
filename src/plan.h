/* Plans: shape -> factors, padding, sequence, tuning -> prepared stages. */
#ifndef CLIPT_PLAN_H
#define CLIPT_PLAN_H

#include "sequences.h"

#define CLIPT_MAX_STAGES (CLIPT_MAX_SEQUENCE_STAGES + 2) /* + pad, unpad */

struct clipt_plan_s {
    clipt_context ctx;
    size_t rows, cols, elem;
    size_t prows, pcols;          /* padded shape (== rows, cols if none) */
    size_t m, n;                  /* tile factors of prows, pcols         */
    clipt_sequence sequence;
    const char *why;              /* reason for the sequence and tiles    */
    clipt_plan_options opts;
    clipt_tuning tuning;          /* device entry with overrides applied  */
    clipt_stage stages[CLIPT_MAX_STAGES];
    unsigned num_stages;
    size_t buffer_bytes;
    size_t scratch_bytes;         /* the scratch buffer (shared by stages) */
    size_t aux_bytes;             /* stages' own buffers (segment tables)  */
    cl_mem scratch;
    pthread_mutex_t lock;         /* serialises enqueues of this plan      */
    cl_event last;                /* completion of the previous enqueue    */
    cl_event stage_first[CLIPT_MAX_STAGES]; /* last enqueue, for profiling */
    cl_event stage_done[CLIPT_MAX_STAGES];
};

/* The factorisation and sequence a plan would use, without building it
 * (exposed for tests and tools). */
typedef struct clipt_plan_choice {
    size_t prows, pcols, m, n;
    clipt_sequence sequence;
    const char *why;
} clipt_plan_choice;

clipt_status clipt_plan_choose(const clipt_device_profile *profile,
                               size_t rows, size_t cols, size_t elem,
                               const clipt_plan_options *opts,
                               const clipt_tuning *tuning,
                               clipt_plan_choice *choice);

#endif
