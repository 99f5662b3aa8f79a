/* The random tensor set (see tensor_set.h). */
#include "tensor_set.h"
#include "random.h"

#include <math.h>

enum { ORDER_SAME, ORDER_UP, ORDER_DOWN, ORDER_PEAK, ORDER_VALLEY, NUM_ORDERS };

static const size_t cnn_channels[] = {3, 16, 32, 64, 96, 128, 256, 512};
static const size_t cnn_sides[] = {7, 14, 28, 56, 112, 224};
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

void tensor_set_range(size_t max_bytes, double *lo, double *hi)
{
    *lo = TENSOR_SET_MIN_BYTES;
    *hi = TENSOR_SET_MAX_BYTES;
    if (max_bytes && (double)max_bytes < *hi) {
        const double floor_ = ceil((double)max_bytes / 100);
        *hi = (double)max_bytes;
        *lo = floor_ < *lo ? floor_ : *lo;
    }
}

/* A double in [0, 1) from the top 53 bits. */
static double uniform(uint64_t *state)
{
    return (double)(util_splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

static double log_uniform(uint64_t *state, double lo, double hi)
{
    return exp(log(lo) + uniform(state) * (log(hi) - log(lo)));
}

static double volume(const size_t *d, unsigned n)
{
    double v = 1;
    for (unsigned i = 0; i < n; i++)
        v *= (double)d[i];
    return v;
}

static double product(const double *w, unsigned n)
{
    double v = 1;
    for (unsigned i = 0; i < n; i++)
        v *= w[i];
    return v;
}

/* Moves the product of d[0..n) (elements) into [lo, hi] where it can:
 * the largest extent shrinks, or the smallest grows, by the factor missing
 * (extents stay >= 2). */
static void fit_volume(size_t *d, unsigned n, double lo, double hi)
{
    for (int round = 0; round < 64; round++) {
        const double v = volume(d, n);
        unsigned big = 0, small = 0;
        for (unsigned i = 1; i < n; i++) {
            big = d[i] > d[big] ? i : big;
            small = d[i] < d[small] ? i : small;
        }
        if (v > hi && d[big] > 2) {
            const size_t want = (size_t)((double)d[big] * hi / v);
            d[big] = want < 2 ? 2 : want < d[big] ? want : d[big] - 1;
        } else if (v < lo) {
            const size_t want = (size_t)ceil((double)d[small] * lo / v);
            d[small] = want > d[small] ? want : d[small] + 1;
        } else {
            return;
        }
    }
}

/* Sorts w[0..n) ascending (n <= 8: insertion sort). */
static void sort_up(double *w, unsigned n)
{
    for (unsigned i = 1; i < n; i++)
        for (unsigned j = i; j > 0 && w[j - 1] > w[j]; j--) {
            const double t = w[j];
            w[j] = w[j - 1];
            w[j - 1] = t;
        }
}

/* Relative extents in one of TTLG's orders. */
static void ordered_weights(uint64_t *state, unsigned n, int order, double *w)
{
    double s[CLIPT_MAX_DIMS];
    for (unsigned i = 0; i < n; i++)
        s[i] = order == ORDER_SAME ? 1.0 : log_uniform(state, 0.25, 4.0);
    sort_up(s, n);
    for (unsigned i = 0; i < n; i++) {
        /* peak: the largest in the middle, valley: the smallest */
        const unsigned from_end = i % 2 ? n - 1 - i / 2 : i / 2;
        const unsigned mid = i % 2 ? i / 2 : n - 1 - i / 2;
        switch (order) {
        case ORDER_DOWN: w[i] = s[n - 1 - i]; break;
        case ORDER_PEAK: w[from_end] = s[i]; break;
        case ORDER_VALLEY: w[mid] = s[n - 1 - i]; break;
        default: w[i] = s[i]; break;
        }
    }
}

static void random_permutation(uint64_t *state, unsigned n, unsigned *perm)
{
    int identity = 1;
    while (identity) {
        for (unsigned i = 0; i < n; i++)
            perm[i] = i;
        for (unsigned i = n - 1; i > 0; i--) { /* Fisher-Yates */
            const unsigned j = (unsigned)util_rand_range(state, 0, i), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        identity = 1;
        for (unsigned i = 0; i < n; i++)
            identity &= perm[i] == i;
    }
}

static void random_case(uint64_t *state, size_t elem, double lo, double hi,
                        plan_text_permutation *c)
{
    const unsigned n = (unsigned)util_rand_range(state, 3, 6);
    const int order = (int)util_rand_range(state, 0, NUM_ORDERS - 1);
    const double elems = log_uniform(state, lo, hi) / (double)elem;
    double w[CLIPT_MAX_DIMS], scale;
    ordered_weights(state, n, order, w);
    scale = pow(elems / product(w, n), 1.0 / n);
    c->ndim = n;
    for (unsigned i = 0; i < n; i++) {
        const double d = floor(w[i] * scale + 0.5);
        c->dims[i] = d < 2 ? 2 : (size_t)d;
    }
    fit_volume(c->dims, n, lo / (double)elem, hi / (double)elem);
    random_permutation(state, n, c->perm);
}

/* An entry v of list[0..n) with v^power * unit <= hi (the first one when
 * none has), uniformly among those. */
static size_t pick_fitting(uint64_t *state, const size_t *list, size_t n, int power,
                           double unit, double hi)
{
    size_t fit = 0;
    while (fit < n && pow((double)list[fit], power) * unit <= hi)
        fit++; /* the lists ascend */
    return list[fit ? util_rand_range(state, 0, fit - 1) : 0];
}

static void cnn_case(uint64_t *state, size_t k, size_t elem, double lo, double hi,
                     plan_text_permutation *c)
{
    static const unsigned to_nhwc[] = {0, 2, 3, 1}, to_nchw[] = {0, 3, 1, 2};
    const int nhwc_in = (k / 10) % 2 == 1;
    const double e = (double)elem;
    const size_t ch = pick_fitting(state, cnn_channels, COUNT_OF(cnn_channels), 1,
                                   e * (double)cnn_sides[0] * (double)cnn_sides[0], hi);
    const size_t side = pick_fitting(state, cnn_sides, COUNT_OF(cnn_sides), 2,
                                     e * (double)ch, hi);
    const double image = e * (double)ch * (double)side * (double)side;
    double n = floor(log_uniform(state, lo, hi) / image + 0.5);
    if (n * image > hi)
        n = floor(hi / image);
    c->ndim = 4;
    c->dims[0] = n < 1 ? 1 : (size_t)n;
    c->dims[1] = nhwc_in ? side : ch;
    c->dims[2] = side;
    c->dims[3] = nhwc_in ? ch : side;
    for (unsigned i = 0; i < 4; i++)
        c->perm[i] = nhwc_in ? to_nchw[i] : to_nhwc[i];
}

void tensor_set_make(uint64_t seed, size_t count, size_t elem, size_t max_bytes,
                     plan_text_permutation *out)
{
    uint64_t state = seed;
    double lo, hi;
    tensor_set_range(max_bytes, &lo, &hi);
    for (size_t k = 0; k < count; k++) {
        if (k % 10 == 0)
            cnn_case(&state, k, elem, lo, hi, &out[k]);
        else
            random_case(&state, elem, lo, hi, &out[k]);
    }
}
