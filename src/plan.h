/* Plans: a list of prepared stages over a region of `batch` matrices (a
 * 2-D transposition is batch 1), with the choices that made the list and
 * the state of its enqueues.  Lifetime in plan.c, read-back and describe in
 * plan_query.c, enqueue in enqueue.c. */
#ifndef CLIPT_PLAN_H
#define CLIPT_PLAN_H

#include "choice.h"
#include "permute.h"
#include "stages.h"

/* A plan's stages: an axis permutation's passes, each up to a tile pass
 * and a staged transposition with padding. */
#define CLIPT_MAX_PLAN_STAGES (CLIPT_MAX_PASSES * (CLIPT_MAX_STAGES + 1))

struct clipt_plan_s {
    atomic_int refs;              /* the creator's + the plan cache's + one
                                     per one-shot call running it         */
    int holds_ctx;                /* 0 once in its context's plan cache  */
    clipt_context ctx;
    /* what: `batch` consecutive rows x cols matrices of elem-byte elements */
    size_t batch, rows, cols, elem;
    /* how: the stages, in order, over the region of buffer_bytes */
    clipt_stage stages[CLIPT_MAX_PLAN_STAGES];
    unsigned num_stages;
    size_t buffer_bytes;
    size_t scratch_bytes;         /* the scratch buffer (shared by stages) */
    size_t aux_bytes;             /* stages' own buffers (segment tables)  */
    size_t tail_bytes;            /* room-less padding: the padded region
                                     past buffer_bytes, in `tail`         */
    cl_mem scratch;
    cl_mem tail;                  /* NULL when the region fits the buffer */
    /* why: the staged algorithm's choices, the options and the tuning */
    clipt_plan_choice choice;
    clipt_plan_options opts;
    clipt_tuning tuning;          /* device entry with overrides applied  */
    int permute;                  /* more than a plain 2-D transposition  */
    clipt_permutation nd;         /* the array, reduction and passes     */
    clipt_plan_choice pass_choice[CLIPT_MAX_PASSES]; /* staged passes' */
    /* Widening: a pass's runs of D elements read as one wider element
     * (clipt_permute_widen, plan.c) and a stage's whole units moved as
     * wider words (clipt_spec_wide_bytes, stages.c): each stage's kernel
     * element is stages[i].elem, a multiple of elem.  word_bytes is the
     * widest of them, to which a run's offset must be aligned; a run at
     * another offset runs `narrow`, the same permutation made with both
     * widenings off (widen = 0), built at the first such enqueue (plan.c's
     * clipt_enqueue), owned by this plan, NULL until then. */
    int widen;                    /* 0: a twin, nothing widened          */
    size_t word_bytes;
    struct clipt_plan_s *narrow;
    int last_ran_narrow;          /* the last enqueue ran `narrow`: its
                                     stages are what clipt_plan_profile
                                     reports                              */
    /* enqueues (enqueue.c) */
    pthread_mutex_t lock;         /* serialises enqueues of this plan      */
    cl_event last;                /* completion of the previous enqueue    */
    cl_event stage_first[CLIPT_MAX_PLAN_STAGES]; /* last enqueue, for profiling */
    cl_event stage_done[CLIPT_MAX_PLAN_STAGES];
    cl_event stage_prep[CLIPT_MAX_PLAN_STAGES]; /* the tables made by the
                                     last enqueue (the first run's): their
                                     time counts in clipt_plan_profile's
                                     total; NULL: none                     */
};

static inline void clipt_plan_retain(struct clipt_plan_s *p)
{
    atomic_fetch_add(&p->refs, 1);
}

/* A plan of c's plan cache for these arguments (checked as
 * clipt_plan_create checks them), made and offered to the cache on a miss,
 * with a reference for the caller (clipt_plan_release).  The caller holds
 * a reference to c while it uses the plan.  Same errors as
 * clipt_plan_create. */
clipt_status clipt_plan_shared(clipt_context c, size_t rows, size_t cols, size_t elem_size,
                               const clipt_plan_options *opts, struct clipt_plan_s **out);

/* Whether a call that failed with `status` should drop the cached objects
 * it used: every failure but a bad argument (the caller's to fix; the
 * cache is not at fault) does, so that the next call starts afresh. */
int clipt_status_drops_cache(clipt_status status);

/* Whether the plan's stages are one 2-D transposition (its choice is
 * p->choice), not the passes of a permutation or batch. */
int clipt_plan_is_2d(const struct clipt_plan_s *p);

/* Writes the lines describe adds for an axis permutation (the array, its
 * reduction, the passes), snprintf-style (plan_permute.c; the plan is
 * made in plan.c). */
int clipt_permute_describe(struct clipt_plan_s *p, char *buf, size_t len);

/* Elements of the plan's region (the padded matrices, the tail of a
 * room-less plan included). */
static inline uint64_t clipt_plan_region_elems(const struct clipt_plan_s *p)
{
    return (p->buffer_bytes + p->tail_bytes) / p->elem;
}

#endif
