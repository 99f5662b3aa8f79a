/* Host arrays (clipt_transpose_host): which of a plan's stages can be cut
 * into pieces that run on several command queues next to the transfers. */
#ifndef CLIPT_HOST_H
#define CLIPT_HOST_H

#include "plan.h"

/* A run of consecutive stages done piece by piece: the padded matrix is cut
 * at multiples of `unit` elements into `chunks` pieces, and every stage of
 * the run works on each piece's instances alone.  A run of no stages is one
 * piece (unit = the whole matrix). */
typedef struct clipt_host_run {
    unsigned first, count;  /* the plan's stages [first, first + count)   */
    uint64_t unit;          /* elements; a multiple of every instance size */
    unsigned chunks;        /* pieces, one per queue                       */
} clipt_host_run;

typedef struct clipt_host_split {
    clipt_host_run head;    /* upload piece by piece, each then these stages */
    clipt_host_run tail;    /* these stages piece by piece, each then read   */
    unsigned queues;        /* queues used: the larger number of pieces    */
} clipt_host_split;

/* Splits plan p's stages for up to `queues` (>= 1) queues: the head run is
 * the longest prefix, and the tail run the longest suffix after it, of
 * stages with several independent instances whose sizes nest (each divides
 * the next larger, so one cut serves them all); the stages between run
 * whole on one queue.  A transposition (rows, cols > 1) always has a stage
 * outside the head, since no cut keeps every element's destination inside
 * its piece: the read-back waits for it and is cut by the tail alone. */
void clipt_host_split_plan(const struct clipt_plan_s *p, unsigned queues,
                           clipt_host_split *out);

/* Elements [*begin, *end) of piece `chunk` of run r over a matrix of
 * `total` elements: the units are shared out as evenly as possible. */
void clipt_host_chunk(const clipt_host_run *r, uint64_t total, unsigned chunk,
                      uint64_t *begin, uint64_t *end);

#endif
