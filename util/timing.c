/* CLOCK_MONOTONIC is POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L
#include "timing.h"

#include <stdlib.h>
#include <time.h>

double util_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

double util_percentile(double *v, size_t n, double p)
{
    const double at = p * (double)(n - 1);
    const size_t lo = (size_t)at;
    qsort(v, n, sizeof *v, compare_double);
    if (lo + 1 >= n)
        return v[n - 1];
    return v[lo] + (at - (double)lo) * (v[lo + 1] - v[lo]);
}

double util_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
