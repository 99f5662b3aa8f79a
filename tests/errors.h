/* test_errors: the bad-input catalogue of docs/errors.md, one cmocka test
 * per row.  This header holds what its files share: the world the rows run
 * in (errors_world.c), the rows' case types and the functions that run them
 * (errors_plans.c: contexts, plans, device limits, kernel files, N-D plans;
 * errors_runs.c: enqueue, one-shot calls, text, profiles, queries), the
 * table itself (errors_catalogue.c), and test_errors.c's checks of it. */
#ifndef CLIPT_TEST_ERRORS_H
#define CLIPT_TEST_ERRORS_H

#include "support.h"
#include "internal.h"
#include "plan.h"

#include <stddef.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define ROWS 64
#define COLS 48
#define ELEM 4
#define SLACK 16

/* Bytes of the kernel files of KFILE_NO_MEMORY: their reading allocates
 * one more, an allocation nothing else near it makes. */
#define KFILE_SIZE 54321

/* A plan and the device it runs on. */
typedef struct target {
    test_env env;
    clipt_plan plan;
    size_t bytes;                 /* the plan's buffer size */
} target;

/* Everything the cases draw on: the main target; a second OpenCL context
 * on the same device with a queue and an event of its own; and, where the
 * device can be partitioned, a context holding the device and one of its
 * sub-devices (a queue of another device of the plan's context). */
typedef struct world {
    target main;
    cl_context other;
    cl_command_queue other_queue;
    cl_event other_event;         /* a complete user event of `other` */
    cl_event done_event;          /* a complete user event of main's context */
    cl_device_id sub;             /* NULL when the device cannot be partitioned */
    cl_device_id foreign;         /* a root device besides main's, or NULL */
    target pair;                  /* on the device, in a context with `sub` */
    cl_command_queue sub_queue;   /* on `sub`, in pair's context */
} world;

typedef struct bad_input bad_input;
struct bad_input {
    const char *test;      /* the cmocka test, last column of the docs' table */
    const char *call;      /* the API function called                          */
    const char *what;      /* the case, first column of the docs' table         */
    const char *want_name; /* the expected status, as spelled in the docs       */
    clipt_status want;
    void (*run)(const bad_input *row);
    const void *arg;       /* the case's details, for run                        */
};

typedef struct context_case {
    int null_context, null_device, null_out, foreign_device;
} context_case;

typedef struct plan_case {
    size_t rows, cols, elem;
    int null_context, null_out;
    cl_ulong local_mem;          /* a context limited to this, 0 = as is */
    clipt_plan_options o;        /* zero = clipt_plan_options_init's defaults */
} plan_case;

/* A limit of the profile and what it bounds in a plan of 300 x 500 with
 * `sequence`, measured on a plan made without the limit lowered. */
typedef struct limit_case {
    size_t field;                   /* offset of a cl_ulong in the profile */
    clipt_sequence sequence;
    size_t (*measure)(clipt_plan p);
} limit_case;

typedef enum { Q_GOOD, Q_NULL, Q_OTHER, Q_SUB } queue_kind;
typedef enum { B_GOOD, B_NULL, B_SMALL, B_READ_ONLY, B_WRITE_ONLY, B_OTHER } buffer_kind;
typedef enum { W_NONE, W_NULL_LIST, W_ONE, W_NULL_EVENT, W_OTHER } wait_kind;

typedef struct enqueue_case {
    int null_plan;
    queue_kind queue;
    buffer_kind buffer;
    size_t offset;
    cl_uint num_wait;
    wait_kind wait;
} enqueue_case;

typedef struct transpose_case {
    size_t rows, cols, elem, offset;
    buffer_kind buffer;
    int null_queue;
} transpose_case;

typedef enum { TEXT_PLAN, TEXT_CONTEXT, TEXT_DETAIL } text_call;

typedef struct text_case {
    text_call call;
    int null_object, null_buffer;
    size_t len;
} text_case;

typedef enum { PROFILE_NULL_PLAN, PROFILE_NEVER_RUN, PROFILE_NO_PROFILING } profile_case;

typedef enum { QUERY_PLAN, QUERY_STAGE, TUNING_OF_CONTEXT, TUNING_OF_PLAN, TUNING_SET } query_call;
typedef enum { STAGE_FIRST, STAGE_PAST_END, STAGE_OF_VECTOR } stage_index;

typedef struct query_case {
    query_call call;
    int null_object;      /* NULL plan, context or options                  */
    int null_out;         /* NULL info or value pointer                     */
    const char *name;     /* the tuning field's name                        */
    stage_index stage;    /* QUERY_STAGE: which index of which plan         */
} query_case;

typedef enum { KFILE_EMPTY, KFILE_RENAMED, KFILE_NO_MEMORY } kernel_file_case;

typedef struct permute_case {
    unsigned ndim;
    size_t dims[CLIPT_MAX_DIMS + 1];
    unsigned perm[CLIPT_MAX_DIMS + 1];
    size_t elem;
    int null_dims, null_perm;
} permute_case;

/* the world of the running program (errors_world.c) */
extern world *W;
/* test_errors is linked with --wrap=malloc: an allocation of exactly
 * fail_malloc_size bytes by clipt's code fails (0: none does) */
extern size_t fail_malloc_size;
/* the catalogue's rows, in docs/errors.md's order (errors_catalogue.c) */
extern bad_input catalogue[];
extern const size_t catalogue_rows;

/* errors_world.c: the group setup and what every row draws on */
int world_open(void **state);
int world_close(void **state);
void expect_status(const bad_input *row, clipt_status got);
void skip_without_foreign_device(void);
void skip_without_sub_device(void);
clipt_context own_context(void);
void make_kernel_dir(char *dir, size_t len, const char *file, const char *text);
void remove_kernel_dir(const char *dir, const char *file);

/* errors_plans.c: rows of context and plan creation */
void run_context_case(const bad_input *row);
void run_plan_case(const bad_input *row);
void run_limit_padded(const bad_input *row);
void run_limit_case(const bad_input *row);
void run_kernel_file_case(const bad_input *row);
void run_permute_case(const bad_input *row);
size_t scratch_of(clipt_plan p);
size_t memory_of(clipt_plan p);
size_t launch_of(clipt_plan p);

/* errors_runs.c: rows of runs, one-shot calls, text and queries */
void run_enqueue_case(const bad_input *row);
void run_failed_wait_event(const bad_input *row);
void run_wait_already_failed(const bad_input *row);
void run_transpose_case(const bad_input *row);
void run_text_case(const bad_input *row);
void run_profile_case(const bad_input *row);
void run_query_case(const bad_input *row);

#endif
