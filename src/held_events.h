/* The events of enqueued runs, held by the library until the runs settle.
 *
 * A run's commands wait for one another, the first for the caller's wait
 * list.  When an event of that list fails, the runtime fails the commands
 * behind it one after the other; PoCL 3.1 does so through the events
 * themselves and aborts the process ("PTHREAD ERROR in
 * pocl_update_event_failed") when one of them has no reference left but
 * its own, as happens once clipt has released its events (a later enqueue
 * of the plan, or the plan released).  So every event of a run stays
 * referenced here until the run's last event has completed, or has failed
 * and a grace period has passed (PoCL touches a failed event once more
 * just after marking it failed, on the thread that failed it).  The list
 * is the process's, so that it outlives the plans; each sweep releases
 * what has settled.  Thread-safe. */
#ifndef CLIPT_HELD_EVENTS_H
#define CLIPT_HELD_EVENTS_H

#include "clipt.h"

typedef struct clipt_held_run clipt_held_run;

/* Room for up to max_events events of one run; NULL when out of host
 * memory (made before the run is enqueued, so that this failure enqueues
 * nothing). */
clipt_held_run *clipt_held_run_new(unsigned max_events);

/* Takes a reference of e (not NULL) for the run. */
void clipt_held_run_add(clipt_held_run *run, cl_event e);

/* Hands the run over to the list: its events are released once `last`
 * (one of them; NULL when nothing was enqueued) has settled.  A run with
 * no event is freed at once.  Then sweeps. */
void clipt_held_run_submit(clipt_held_run *run, cl_event last);

/* Releases the events of every run that has settled (plan release). */
void clipt_held_sweep(void);

#endif
