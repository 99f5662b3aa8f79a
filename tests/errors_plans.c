/* test_errors' rows that create contexts and plans: NULLs, shapes,
 * options, device limits (exact), broken kernel files, N-D plans. */
#define _POSIX_C_SOURCE 200809L
#include "errors.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- clipt_context_create ---- */


void run_context_case(const bad_input *row)
{
    const context_case *c = row->arg;
    clipt_context out = W->main.env.ctx; /* must be reset */
    if (c->foreign_device)
        skip_without_foreign_device();
    expect_status(row, clipt_context_create(c->null_context ? NULL : W->main.env.cl.context,
                                            c->null_device ? NULL
                                            : c->foreign_device ? W->foreign
                                                            : W->main.env.cl.device,
                                            c->null_out ? NULL : &out));
    if (!c->null_out && out != NULL)
        fail_msg("%s: the output handle was not set to NULL", row->test);
}

/* ---- clipt_plan_create ---- */


void run_plan_case(const bad_input *row)
{
    const plan_case *c = row->arg;
    clipt_context cx = c->local_mem ? test_context_limited(&W->main.env, c->local_mem)
                                    : W->main.env.ctx;
    clipt_plan out = W->main.plan; /* must be reset */
    expect_status(row, clipt_plan_create(c->null_context ? NULL : cx, c->rows, c->cols,
                                         c->elem, &c->o, c->null_out ? NULL : &out));
    if (!c->null_out && out != NULL)
        fail_msg("%s: the output handle was not set to NULL", row->test);
    if (c->local_mem)
        clipt_context_release(cx);
}

/* ---- device limits: refused at plan creation, exactly at the limit ---- */


static clipt_plan plan_on(clipt_context c, size_t rows, size_t cols, size_t elem,
                          clipt_sequence seq, clipt_padding padding)
{
    clipt_plan p = NULL;
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.sequence = seq;
    o.padding = padding;
    assert_status(clipt_plan_create(c, rows, cols, elem, &o, &p), CLIPT_SUCCESS);
    return p;
}

/* clipt_plan_create refuses (rows, cols, elem, options o) with the row's
 * status while the profile field holds `limit - 1`, and accepts it at
 * `limit`: the check is exact, and it is this limit that refused it. */
static void expect_limit_with(const bad_input *row, clipt_context c, cl_ulong *field,
                              cl_ulong limit, size_t rows, size_t cols, size_t elem,
                              clipt_plan_options o)
{
    clipt_plan p = W->main.plan;
    *field = limit - 1;
    expect_status(row, clipt_plan_create(c, rows, cols, elem, &o, &p));
    if (p != NULL)
        fail_msg("%s: the output handle was not set to NULL", row->test);
    *field = limit;
    assert_status(clipt_plan_create(c, rows, cols, elem, &o, &p), CLIPT_SUCCESS);
    clipt_plan_release(p);
}

/* The same for a plan of sequence seq with padding, the rest automatic. */
static void expect_limit(const bad_input *row, clipt_context c, cl_ulong *field,
                         cl_ulong limit, size_t rows, size_t cols, size_t elem,
                         clipt_sequence seq, clipt_padding padding)
{
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.sequence = seq;
    o.padding = padding;
    expect_limit_with(row, c, field, limit, rows, cols, elem, o);
}

/* A shape that the automatic plan pads on a GPU-sized local memory, its
 * plan's sequence and tiles forced: where the padded plan does not fit an
 * allocation, the automatic choice may take another that fits, if the
 * cost model finds it cheaper (which depends on the tuning entry's
 * values), so the padded plan is made by name. */
void run_limit_padded(const bad_input *row)
{
    static const size_t candidates[][2] = {
        {1201, 1103}, {4099, 17}, {17, 4099}, {997, 1009}};
    clipt_context c = own_context();
    c->profile.local_mem_bytes = 48 * 1024;
    for (size_t i = 0; i < COUNT(candidates); i++) {
        const size_t rows = candidates[i][0], cols = candidates[i][1];
        clipt_plan p = plan_on(c, rows, cols, 1, CLIPT_SEQUENCE_AUTO, CLIPT_PADDING_AUTO);
        const size_t padded = clipt_plan_buffer_size(p);
        clipt_plan_options o;
        clipt_plan_options_init(&o);
        o.sequence = p->choice.sequence;
        o.tile_m = p->choice.m;
        o.tile_n = p->choice.n;
        clipt_plan_release(p);
        if (padded > rows * cols) {
            /* the matrix itself fits one allocation, its padded room not */
            expect_limit_with(row, c, &c->profile.max_alloc_bytes, padded, rows, cols, 1, o);
            clipt_context_release(c);
            return;
        }
    }
    clipt_context_release(c);
    fail_msg("%s: none of the candidate shapes is padded", row->test);
}


/* The scratch buffer (the matrix is larger too: a runtime may allow that
 * for the user's own buffer, not for clipt's).  Sequence 1 walks long
 * cycles, so it saves segment heads. */
size_t scratch_of(clipt_plan p)
{
    return p->scratch_bytes;
}

/* Matrix, scratch buffer and segment tables, all three present. */
size_t memory_of(clipt_plan p)
{
    assert_true(p->scratch_bytes > 0 && p->aux_bytes > 0);
    return clipt_plan_buffer_size(p) + clipt_plan_scratch_size(p);
}

/* The largest global work size of its stages.  AUTO: with a forced
 * sequence the status would be INCOMPATIBLE_OPTIONS. */
size_t launch_of(clipt_plan p)
{
    size_t largest = 0;
    for (unsigned i = 0; i < p->num_stages; i++)
        if (p->stages[i].global > largest)
            largest = p->stages[i].global;
    return largest;
}

void run_limit_case(const bad_input *row)
{
    const limit_case *lc = row->arg;
    clipt_context c = own_context();
    clipt_plan p;
    /* the GPU kernels: the CPU ones (kernel_style loops) launch so few
     * work-items on this shape that no smaller global limit exists */
    c->profile.tuning.kernel_style = CLIPT_KERNEL_STYLE_GROUPS;
    p = plan_on(c, 300, 500, 4, lc->sequence, CLIPT_PADDING_NONE);
    const size_t limit = lc->measure(p);
    clipt_plan_release(p);
    assert_true(limit > 1);
    cl_ulong *field = (cl_ulong *)((char *)&c->profile + lc->field);
    expect_limit(row, c, field, limit, 300, 500, 4, lc->sequence, CLIPT_PADDING_NONE);
    clipt_context_release(c);
}


/* Bytes of the kernel files of KFILE_NO_MEMORY: their reading allocates
 * one more, an allocation nothing else near it makes. */
#define KFILE_SIZE 54321

/* A directory on CLIPT_KERNEL_PATH with a bad copy of every kernel file,
 * so that whichever family a plan takes meets it: clipt_plan_create in a
 * fresh context (no program built yet) fails with the row's status, and a
 * KERNEL_BUILD detail names the file's path. */
void run_kernel_file_case(const bad_input *row)
{
    static const char renamed[] = "__kernel void clipt_renamed(__global int *a) { a[0] = 0; }\n";
    const kernel_file_case c = *(const kernel_file_case *)row->arg;
    char dir[512], pattern[600], detail[8192];
    clipt_context cx;
    clipt_plan out = W->main.plan; /* must be reset */
    glob_t files;
    make_kernel_dir(dir, sizeof dir, NULL, NULL);
    snprintf(pattern, sizeof pattern, "%s/cl/*.cl", CLIPT_SOURCE_DIR);
    assert_int_equal(glob(pattern, 0, NULL, &files), 0);
    for (size_t i = 0; i < files.gl_pathc; i++) {
        char path[1200];
        FILE *f;
        snprintf(path, sizeof path, "%s/%s", dir, strrchr(files.gl_pathv[i], '/') + 1);
        assert_non_null(f = fopen(path, "w"));
        if (c != KFILE_EMPTY)
            fputs(renamed, f);
        for (long pad = ftell(f); c == KFILE_NO_MEMORY && pad < KFILE_SIZE; pad++)
            fputc(' ', f);
        fclose(f);
    }
    assert_int_equal(setenv("CLIPT_KERNEL_PATH", dir, 1), 0);
    cx = own_context();
    fail_malloc_size = c == KFILE_NO_MEMORY ? KFILE_SIZE + 1 : 0;
    expect_status(row, clipt_plan_create(cx, ROWS, COLS, ELEM, NULL, &out));
    fail_malloc_size = 0;
    unsetenv("CLIPT_KERNEL_PATH");
    if (out != NULL)
        fail_msg("%s: the output handle was not set to NULL", row->test);
    assert_status(clipt_context_error_detail(cx, detail, sizeof detail), CLIPT_SUCCESS);
    if (row->want == CLIPT_ERROR_KERNEL_BUILD &&
        (!strstr(detail, dir) || !strstr(detail, ".cl")))
        fail_msg("%s: the detail does not name the kernel file in %s: %s", row->test, dir,
                 detail);
    clipt_context_release(cx);
    for (size_t i = 0; i < files.gl_pathc; i++)
        remove_kernel_dir(dir, strrchr(files.gl_pathv[i], '/') + 1);
    globfree(&files);
}

/* ---- clipt_plan_create_permute ---- */


void run_permute_case(const bad_input *row)
{
    const permute_case *c = row->arg;
    clipt_plan out = W->main.plan; /* must be reset */
    expect_status(row, clipt_plan_create_permute(W->main.env.ctx, c->ndim,
                                                 c->null_dims ? NULL : c->dims,
                                                 c->null_perm ? NULL : c->perm, c->elem,
                                                 NULL, &out));
    if (out != NULL)
        fail_msg("%s: the output handle was not set to NULL", row->test);
}
