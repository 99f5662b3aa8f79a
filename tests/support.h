/* Helpers shared by the tests: device, patterns, CPU references, checks.
 * Every test program is a cmocka program; this header brings cmocka in. */
#ifndef CLIPT_TEST_SUPPORT_H
#define CLIPT_TEST_SUPPORT_H

#include "clipt.h"
#include "cl_select.h"
#include "hostmat.h"
#include "random.h"
#include "stages.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* ---- device ------------------------------------------------------------ */

/* Opens the device chosen by CLIPT_PLATFORM/CLIPT_DEVICE (GPU first, else
 * PoCL) and a clipt context on it; aborts the test program with a message
 * if there is none. */
typedef struct test_env {
    clipt_cl_env cl;
    clipt_context ctx;
} test_env;

void test_env_open(test_env *env);
void test_env_close(test_env *env);

/* Runs only the tests whose names match $CLIPT_TEST_FILTER (a cmocka
 * pattern such as "test_sub*"), when it is set.  Call before running. */
void test_apply_filter(void);

/* cmocka group setup/teardown: *state becomes an opened test_env. */
int test_group_open(void **state);
int test_group_close(void **state);
#define TEST_ENV(state) ((test_env *)*(state))

/* An out-of-order profiling queue on env's device, or NULL after printing
 * why the device has none (the caller then skips). */
cl_command_queue test_out_of_order_queue(test_env *env);

/* A new clipt context on env's device whose profile claims only
 * `local_mem_bytes` of local memory (as a GPU would have), so that small
 * shapes take the plans and fallbacks of large ones.  Test-only: it writes
 * the library's internal profile. */
clipt_context test_context_limited(test_env *env, cl_ulong local_mem_bytes);

/* A context on the test device whose profile claims a GPU with 48 KiB of
 * local memory and warps of 32 named `name` by `vendor` (the tuning entry
 * follows: "NVIDIA H100 80GB HBM3" / "NVIDIA Corporation" selects the
 * H100's, another NVIDIA name the vendor level's (the H100's values), an
 * unknown vendor the derived GPU values), so that plans are chosen
 * as for that GPU and run on the test device. */
clipt_context test_context_gpu_like(test_env *env, const char *name, const char *vendor);

/* ---- data ---------------------------------------------------------------- */

/* A small deterministic PRNG (splitmix64, util/random.h), and a value in
 * [lo, hi]. */
static inline uint64_t test_rand(uint64_t *state) { return util_splitmix64(state); }
static inline size_t test_rand_range(uint64_t *state, size_t lo, size_t hi)
{
    return util_rand_range(state, lo, hi);
}

/* Deterministic bytes that differ for every element index and byte, so any
 * misplaced element shows. */
void test_fill_pattern(unsigned char *data, size_t count, size_t elem, uint64_t seed);

/* Out-of-place CPU transpose of a rows x cols matrix: the reference
 * (hostmat_transpose, util/hostmat.h, shared with the tool). */
static inline void test_reference_transpose(const unsigned char *in, unsigned char *out,
                                            size_t rows, size_t cols, size_t elem)
{
    hostmat_transpose(in, out, rows, cols, elem);
}

/* ---- buffers and checks ------------------------------------------------- */

/* Fails the current test, naming both statuses, when got != want. */
#define assert_status(got, want)                                               \
    test_assert_status_((got), (want), #got, __FILE__, __LINE__)
void test_assert_status_(clipt_status got, clipt_status want, const char *expr,
                         const char *file, int line);

/* A buffer of `bytes` (with `flags`) holding test_fill_pattern(seed); *host
 * (if not NULL) receives a malloc'ed copy of its contents.  Fails the test
 * if it cannot be made. */
cl_mem test_pattern_buffer(test_env *env, cl_mem_flags flags, size_t bytes,
                           uint64_t seed, unsigned char **host);

/* Blocking read of `bytes` of buf on env's queue into a new malloc'ed array,
 * after the given events. */
unsigned char *test_read_back(test_env *env, cl_mem buf, size_t bytes,
                              cl_uint num_wait, const cl_event *wait);

/* Fails the test (with `what`, the first differing byte and the count) when
 * buf's first `bytes` bytes differ from want. */
void test_expect_buffer(test_env *env, cl_mem buf, const unsigned char *want,
                        size_t bytes, const char *what);

/* Bytes that differ between a and b in [0, n); *first gets the index of the
 * first (n if none). */
size_t test_mismatches(const unsigned char *a, const unsigned char *b, size_t n,
                       size_t *first);

/* ---- whole transpositions ---------------------------------------------- */

/* Runs `opts` (NULL = defaults) on a rows x cols matrix at byte offset
 * `offset` in a buffer that has 64 extra bytes beyond the plan's buffer
 * size, and compares the result with the reference byte for byte, also
 * checking that the bytes before the offset and past the plan's buffer size
 * are untouched (the padding room may hold anything).  Returns
 * CLIPT_SUCCESS and sets *mismatch (0 = exact).  On a clipt error returns
 * it.  describe (if not NULL) receives clipt_plan_describe's text. */
clipt_status test_run_transpose(test_env *env, size_t rows, size_t cols,
                                size_t elem, size_t offset,
                                const clipt_plan_options *opts,
                                size_t *mismatch, char *describe, size_t dlen);

/* Runs a plan made with `opts` (which must need no room: its buffer size
 * the matrix) on the rows x cols matrix at byte offset `offset` of a
 * sub-buffer (at the device's base-address alignment of a pattern buffer,
 * 64 bytes before its end), waits, and fails unless the parent holds the
 * transpose there and its other bytes as they were. */
void test_run_on_sub_buffer(test_env *env, size_t rows, size_t cols, size_t elem,
                            size_t offset, const clipt_plan_options *opts, uint64_t seed);

/* Like test_run_transpose, for an axis permutation (clipt_plan_create_permute), against
 * hostmat_permute. */
clipt_status test_run_permute(test_env *env, unsigned ndim, const size_t *dims,
                              const unsigned *perm, size_t elem, size_t offset,
                              const clipt_plan_options *opts, size_t *mismatch,
                              char *describe, size_t dlen);

/* Runs an axis permutation's plan, made by the caller, as test_run_permute
 * runs its own (a pattern, byte offset `offset`), and counts the wrong
 * bytes into *mismatch. */
clipt_status test_check_permute(test_env *env, clipt_plan plan, unsigned ndim,
                                const size_t *dims, const unsigned *perm, size_t elem,
                                size_t offset, size_t *mismatch);

/* ---- single stages ------------------------------------------------------ */

/* Elements of the region a stage works on (see clipt_stage_spec). */
uint64_t test_stage_region(const clipt_stage_spec *sp);

/* Whether element k of the region has a defined value after the stage (the
 * gaps PAD opens and the tail UNPAD leaves hold anything). */
int test_stage_defined(const clipt_stage_spec *sp, uint64_t k);

/* CPU reference of one elementary transposition (see clipt_stage_spec):
 * writes every defined element of out (which holds a copy of in). */
void test_reference_stage(const clipt_stage_spec *sp, const unsigned char *in,
                          unsigned char *out, size_t elem);

/* Prepares and runs one stage on a pattern region at element offset
 * `offset`, compares it with test_reference_stage (and the bytes around the
 * region with what was there); returns the number of mismatching bytes in
 * *mismatch.  tuning NULL = the context's.  family_used (if not NULL)
 * receives the kernel family the stage was prepared as. */
clipt_status test_run_stage(test_env *env, const clipt_stage_spec *sp,
                            size_t elem, size_t offset, const clipt_tuning *tuning,
                            size_t *mismatch, clipt_kernel_family *family_used);

/* The same computed by `family` (clipt_stage_prepare_as). */
clipt_status test_run_stage_as(test_env *env, const clipt_stage_spec *sp,
                               clipt_kernel_family family, size_t elem, size_t offset,
                               const clipt_tuning *tuning, size_t *mismatch,
                               clipt_kernel_family *family_used);

/* The same with the region split as sp->split says (room-less padding; 0:
 * as test_run_stage_as): its first sp->split elements in the buffer,
 * followed there by guard elements the stage must leave alone (a changed
 * byte counts as a mismatch), the rest in a tail buffer. */
clipt_status test_run_stage_split(test_env *env, const clipt_stage_spec *sp,
                                  clipt_kernel_family family, size_t elem, size_t offset,
                                  const clipt_tuning *tuning, size_t *mismatch,
                                  clipt_kernel_family *family_used);

#endif
