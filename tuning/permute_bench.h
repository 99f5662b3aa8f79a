/* clipt_permute_bench's parts (permute_bench.c: the cases next to copy and
 * the out-of-place kernel, the arguments; permute_batch.c: a batch as one
 * plan against B 2-D plans enqueued back to back). */
#ifndef CLIPT_TUNING_PERMUTE_BENCH_H
#define CLIPT_TUNING_PERMUTE_BENCH_H

#include "cl_select.h"
#include "plan_text.h"

#include <stdio.h>

#define PBENCH_MAX_REPEAT 100

typedef struct pbench {
    clipt_cl_env cl;
    clipt_context cx;
    size_t elem, repeat;
    unsigned threads;   /* of the host check */
    FILE *csv;
    int header_done;    /* the CSV header of the current mode is written */
} pbench;

/* A row to stdout and the CSV (a header once per mode: header_done). */
void pbench_emit(pbench *b, const char *header, const char *row);

/* Elements of the permutation's array; 0 when the product overflows. */
size_t pbench_count(const plan_text_permutation *q);

/* The pattern of `count` elements on the host and in `buf` (blocking). */
cl_int pbench_upload(pbench *b, cl_mem buf, const unsigned char *host, size_t bytes);

/* Reads buf back into got and checks it against the permuted pattern
 * (hostmat_compare_permuted): 1 correct, 0 wrong, -1 the read failed. */
int pbench_check(pbench *b, cl_mem buf, const plan_text_permutation *q,
                 const unsigned char *pattern, unsigned char *got, size_t count);

/* --batch-vs-plans: case q must be B x M x N with axes 0,2,1.  One CSV row
 * (see permute_batch.c); returns 1 when everything ran and verified. */
int pbench_batch_case(pbench *b, const plan_text_permutation *q, const char *name);

#endif
