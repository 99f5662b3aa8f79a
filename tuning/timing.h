/* Small helpers shared by the tuning programs (clipt_probe, clipt_tune). */
#ifndef CLIPT_TUNING_TIMING_H
#define CLIPT_TUNING_TIMING_H

#include "cl_select.h"

#include <stdint.h>

/* Median of v[0..n-1] (sorts v in place); n >= 1. */
double timing_median(double *v, int n);

/* Seconds from a completed command's start to its end (0 if profiling
 * information is not available). */
double timing_event_seconds(cl_event e);

/* splitmix64: the next pseudo-random number of *state, the same sequence
 * on every machine for a given seed. */
uint64_t splitmix64_next(uint64_t *state);

#endif
