/* The process's held runs (see held_events.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "held_events.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

/* How long a failed run stays held after a sweep first saw it failed: far
 * longer than the runtime's own walk along the failed commands takes. */
#define FAILED_GRACE_SECONDS 1.0

struct clipt_held_run {
    clipt_held_run *next;
    cl_event last;           /* settles after all the others              */
    double failed_seen;      /* when a sweep first saw it failed; 0: not  */
    unsigned count, max;
    cl_event events[];
};

static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static clipt_held_run *held; /* newest first */

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

clipt_held_run *clipt_held_run_new(unsigned max_events)
{
    clipt_held_run *run = malloc(sizeof *run + (size_t)max_events * sizeof run->events[0]);
    if (run) {
        run->next = NULL;
        run->last = NULL;
        run->failed_seen = 0;
        run->count = 0;
        run->max = max_events;
    }
    return run;
}

void clipt_held_run_add(clipt_held_run *run, cl_event e)
{
    if (run->count < run->max && clRetainEvent(e) == CL_SUCCESS)
        run->events[run->count++] = e;
}

static void release_run(clipt_held_run *run)
{
    for (unsigned i = 0; i < run->count; i++)
        clReleaseEvent(run->events[i]);
    free(run);
}

/* Whether the run's events may go now: its last command completed, or
 * failed at least the grace period ago.  Called with the lock held. */
static int settled(clipt_held_run *run, double now)
{
    cl_int state = CL_QUEUED;
    if (clGetEventInfo(run->last, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state,
                       NULL) != CL_SUCCESS || state > CL_COMPLETE)
        return 0;
    if (state == CL_COMPLETE)
        return 1;
    if (run->failed_seen == 0)
        run->failed_seen = now;
    return now - run->failed_seen >= FAILED_GRACE_SECONDS;
}

void clipt_held_sweep(void)
{
    clipt_held_run *gone = NULL;
    const double now = now_seconds();
    pthread_mutex_lock(&held_lock);
    for (clipt_held_run **at = &held; *at;) {
        clipt_held_run *run = *at;
        if (settled(run, now)) {
            *at = run->next;
            run->next = gone;
            gone = run;
        } else {
            at = &run->next;
        }
    }
    pthread_mutex_unlock(&held_lock);
    /* released outside the lock: a release may take the runtime's locks */
    while (gone) {
        clipt_held_run *next = gone->next;
        release_run(gone);
        gone = next;
    }
}

void clipt_held_run_submit(clipt_held_run *run, cl_event last)
{
    if (!last || run->count == 0) {
        release_run(run);
    } else {
        run->last = last;
        pthread_mutex_lock(&held_lock);
        run->next = held;
        held = run;
        pthread_mutex_unlock(&held_lock);
    }
    clipt_held_sweep();
}
