/* Enqueueing a plan's stages: the argument checks, the one path that
 * enqueues stages (for clipt_enqueue and for host arrays alike), event
 * chaining and profiling. */
#ifndef CLIPT_ENQUEUE_H
#define CLIPT_ENQUEUE_H

#include "plan.h"

/* CLIPT_ERROR_DEVICE_MISMATCH unless q belongs to c's context and device;
 * CL_* when it cannot be asked. */
clipt_status clipt_check_queue(clipt_context c, cl_command_queue q);

/* A run of consecutive stages of a plan, on part of its region. */
typedef struct clipt_stage_run {
    unsigned first, count;   /* the plan's stages [first, first + count)    */
    uint64_t begin, end;     /* elements of the region whose instances each
                                stage does (multiples of its instance
                                size); begin == end: all of them          */
    cl_command_queue queue;
    cl_mem buf;              /* the region starts `offset` elements in     */
    cl_ulong offset;
    cl_mem scratch;          /* NULL: the plan's scratch buffer            */
} clipt_stage_run;

/* Enqueues the run: every stage's arguments first (a failure there leaves
 * nothing enqueued), then the stages in order, each waiting for the one
 * before (out-of-order queues keep the order), the first for `wait`.
 * Stage i's first and last commands' events go to first_events[i] and
 * done_events[i] (either array may be NULL; the caller owns the events).
 * *done receives the last stage's event (retained for the caller) or, when
 * a stage fails to enqueue, the last one that was enqueued, NULL if none:
 * the stages before it still run and whatever comes next must wait for
 * them.  An empty run enqueues a marker after `wait`. */
clipt_status clipt_plan_run_stages(struct clipt_plan_s *p, const clipt_stage_run *run,
                                   cl_uint num_wait, const cl_event *wait,
                                   cl_event *first_events, cl_event *done_events,
                                   cl_event *done);

/* The scratch bytes a run's stages need at most (the size of a scratch
 * buffer to pass in clipt_stage_run). */
size_t clipt_plan_run_scratch(const struct clipt_plan_s *p, unsigned first, unsigned count);

/* Whether a plan's previous run, whose last event is `last`, failed: a
 * run that failed (say, an event of its wait list failed) touched nothing
 * the next one needs, and a command waiting for its failed event would
 * never run on some runtimes, so the next run does not wait for it. */
int clipt_run_failed(cl_event last);

/* A new (malloc'ed) wait list: the *n events of `list`, then p's last
 * run unless it failed (clipt_run_failed); *n becomes its length.  NULL
 * when out of memory.  Called with p->lock held. */
cl_event *clipt_plan_wait_list(const struct clipt_plan_s *p, const cl_event *list, cl_uint *n);

/* clipt_enqueue of p's own stages (the checks, then every stage, chained
 * to p's previous run), for an offset its widened stages can take
 * (plan.c's clipt_enqueue chooses). */
clipt_status clipt_plan_enqueue_stages(clipt_plan p, cl_command_queue q, cl_mem buf,
                                       size_t offset_bytes, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event);

/* Releases the events kept from the plan's last enqueue (plan release). */
void clipt_plan_drop_events(struct clipt_plan_s *p);

/* Test hook (reachable through this internal header only): from now on,
 * the k-th stage that clipt_plan_run_stages enqueues (k = 1: the next one)
 * fails with CL_OUT_OF_RESOURCES instead of being enqueued, as a runtime
 * failure would; k = 0 disarms it.  For tests of the partial-enqueue path;
 * not for use while other threads enqueue. */
void clipt_test_fail_stage_enqueue(unsigned k);

#endif
