/* The plan's choice by predicted time: candidate sequences and tile pairs
 * around Algorithm 5's choice, each priced by the cost model (cost.h) on
 * its stage specs alone (no kernels, no allocation), the cheapest kept.
 * choice.c calls it with its own choice as the fallback candidate. */
#ifndef CLIPT_CHOICE_COST_H
#define CLIPT_CHOICE_COST_H

#include "cost.h"

#include <stddef.h>

/* What the search may do: the shape, the limits of a tile, the tuning. */
typedef struct clipt_cost_search {
    size_t rows, cols, elem;
    size_t lm;                 /* tile elements that fit local memory      */
    size_t min;                /* Algorithm 5's Min                         */
    size_t step;               /* preferred factor step (align_bytes)       */
    int pad;                   /* padding allowed                           */
    clipt_sequence sequence;   /* AUTO, or the one sequence to consider     */
    size_t max_elems;          /* padded matrix at most this many elements  */
    const clipt_tuning *tuning;
    clipt_cost_env env;
    size_t batch;              /* matrices of the batch, each so planned    */
    int checked;               /* price moves as the family they will get  */
                               /* (counts cycles: clipt_cost_choose sets   */
                               /* it when its plain choice needs it)        */
} clipt_cost_search;

/* The most padding a side takes for aligned tile factors (a step of
 * align_bytes), in Algorithm 5 and in the candidates alike: 2 % of the
 * side, the bound the choice's tests hold every plan to (128-byte steps of
 * 1-byte elements would pad sides of a few thousand by up to 4 %). */
static inline size_t clipt_aligned_pad_limit(size_t dim) { return dim / 50; }

/* Another candidate replaces the fallback only when predicted faster by
 * this share: below it the difference is within the model's error. */
#define CLIPT_COST_MARGIN 0.03

/* A candidate plan: padded shape, factors, sequence, predicted seconds. */
typedef struct clipt_cost_choice {
    size_t prows, pcols, m, n;
    clipt_sequence sequence;
    double seconds;
} clipt_cost_choice;

/* Prices `fallback` and the candidates around it; writes the cheapest to
 * *best, which stays `fallback` (with its price) unless another candidate
 * is predicted faster by more than a small margin: the model is not exact,
 * and Algorithm 5 with the sequence rule is the measured default.  When
 * the cheapest has a move that the segment walk would not take
 * (clipt_cost_walk_takes), the search runs again with every move so
 * priced.  Returns the number of candidates priced. */
unsigned clipt_cost_choose(const clipt_cost_search *s, const clipt_cost_choice *fallback,
                           clipt_cost_choice *best);

#endif
