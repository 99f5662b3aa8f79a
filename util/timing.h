/* Wall-clock time and summary statistics of timings, for the clipt tool,
 * the tests and the tuning programs. */
#ifndef CLIPT_UTIL_TIMING_H
#define CLIPT_UTIL_TIMING_H

#include <stddef.h>

/* Seconds on a monotonic clock (CLOCK_MONOTONIC): only differences mean
 * anything. */
double util_now_seconds(void);

/* Percentile p in [0, 1] of v[0..n-1], n > 0, with linear interpolation
 * between order statistics.  Sorts v in place. */
double util_percentile(double *v, size_t n, double p);

/* The median of v[0..n-1], n > 0 (the mean of the two middle values for
 * even n).  Sorts v in place. */
double util_median(double *v, size_t n);

#endif
