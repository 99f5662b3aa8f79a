/* Plans: a list of prepared stages over a region of `batch` matrices (a
 * 2-D transposition is batch 1), with the choices that made the list and
 * the state of its enqueues.  Lifetime in plan.c, read-back and describe in
 * plan_query.c, enqueue in enqueue.c. */
#ifndef CLIPT_PLAN_H
#define CLIPT_PLAN_H

#include "choice.h"
#include "stages.h"

struct clipt_plan_s {
    clipt_context ctx;
    /* what: `batch` consecutive rows x cols matrices of elem-byte elements */
    size_t batch, rows, cols, elem;
    /* how: the stages, in order, over the region of buffer_bytes */
    clipt_stage stages[CLIPT_MAX_STAGES];
    unsigned num_stages;
    size_t buffer_bytes;
    size_t scratch_bytes;         /* the scratch buffer (shared by stages) */
    size_t aux_bytes;             /* stages' own buffers (segment tables)  */
    cl_mem scratch;
    /* why: the staged algorithm's choices, the options and the tuning */
    clipt_plan_choice choice;
    clipt_plan_options opts;
    clipt_tuning tuning;          /* device entry with overrides applied  */
    /* enqueues (enqueue.c) */
    pthread_mutex_t lock;         /* serialises enqueues of this plan      */
    cl_event last;                /* completion of the previous enqueue    */
    cl_event stage_first[CLIPT_MAX_STAGES]; /* last enqueue, for profiling */
    cl_event stage_done[CLIPT_MAX_STAGES];
};

/* Elements of the plan's region (the padded matrices). */
static inline uint64_t clipt_plan_region_elems(const struct clipt_plan_s *p)
{
    return p->buffer_bytes / p->elem;
}

#endif
