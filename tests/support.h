/* Helpers shared by the tests: device, patterns, CPU references. */
#ifndef CLIPT_TEST_SUPPORT_H
#define CLIPT_TEST_SUPPORT_H

#include "clipt.h"
#include "cl_select.h"

#include <stddef.h>
#include <stdint.h>

/* Opens the device chosen by CLIPT_PLATFORM/CLIPT_DEVICE (GPU first, else
 * PoCL) and a clipt context on it; aborts the test program with a message
 * if there is none. */
typedef struct test_env {
    clipt_cl_env cl;
    clipt_context ctx;
} test_env;

void test_env_open(test_env *env);
void test_env_close(test_env *env);

/* Deterministic bytes that differ for every element index and byte, so any
 * misplaced element shows. */
void test_fill_pattern(unsigned char *data, size_t count, size_t elem, uint64_t seed);

/* Out-of-place CPU transpose of a rows x cols matrix: the reference. */
void test_reference_transpose(const unsigned char *in, unsigned char *out,
                              size_t rows, size_t cols, size_t elem);

/* Runs `opts` (NULL = defaults) on a rows x cols matrix at byte offset
 * `offset` in a buffer that has `slack` extra bytes beyond the plan's
 * buffer size, and compares the result with the reference byte for byte,
 * also checking that the bytes before the offset are untouched.  Returns
 * CLIPT_SUCCESS and sets *mismatch (0 = exact).  On a clipt error returns
 * it. */
clipt_status test_run_transpose(test_env *env, size_t rows, size_t cols,
                                size_t elem, size_t offset,
                                const clipt_plan_options *opts,
                                size_t *mismatch, char *describe, size_t dlen);

/* A small deterministic PRNG (splitmix64). */
uint64_t test_rand(uint64_t *state);

#endif

#include "stages.h"

/* CPU reference of one elementary transposition (see clipt_stage_spec). */
void test_reference_stage(const clipt_stage_spec *sp, const unsigned char *in,
                          unsigned char *out, size_t elem);

/* Prepares and runs one stage on a random region at element offset
 * `offset`, compares it with test_reference_stage; returns the number of
 * mismatching bytes in *mismatch. */
clipt_status test_run_stage(test_env *env, const clipt_stage_spec *sp,
                            size_t elem, size_t offset, const clipt_tuning *tuning,
                            size_t *mismatch);
