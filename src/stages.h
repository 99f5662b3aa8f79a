/* Stages: one elementary transposition (a spec: what it does) computed by
 * one kernel family (how).  A stage is prepared once at plan creation
 * (family chosen, kernel built, launch sizes chosen, limits checked) and
 * enqueued many times.
 *
 * Each family lives in its own module, stage_<file>.c beside cl/<file>.cl,
 * behind the interface clipt_family below; stages.c chooses the family and
 * dispatches to it. */
#ifndef CLIPT_STAGES_H
#define CLIPT_STAGES_H

#include "internal.h"
#include "spec.h"

#include <stdint.h>

/* No family requested: the library's choice (clipt_stage_prepare). */
#define CLIPT_FAMILY_AUTO ((clipt_kernel_family)0)

typedef struct clipt_stage clipt_stage;

/* How one kernel argument is passed (and declared in the kernel):
 * ULONG, UINT, UINT4 by value; GLOBAL a buffer; LOCAL a __local array of
 * the given bytes. */
typedef enum clipt_arg_kind {
    CLIPT_ARG_ULONG,
    CLIPT_ARG_UINT,
    CLIPT_ARG_UINT4,
    CLIPT_ARG_GLOBAL,
    CLIPT_ARG_LOCAL
} clipt_arg_kind;

/* One argument as the host declares it: its name and type in the kernel's
 * signature (as clGetKernelArgInfo reports them). */
typedef struct clipt_arg_decl {
    const char *name;
    clipt_arg_kind kind;
    const char *type;     /* "ulong", "uint4", "elem_t*", ... */
} clipt_arg_decl;

/* A kernel of a family and its argument list. */
typedef struct clipt_kernel_decl {
    const char *name;
    const clipt_arg_decl *args;
    unsigned num_args;
} clipt_kernel_decl;

/* What a stage's kernels work on when enqueued: `instances` instances from
 * element `offset` of buf (a sub-range of the stage's own instances, or all
 * of them), with `scratch` holding the stage's scratch_bytes.  A split
 * stage's region (spec.split) continues in `tail` after `split` elements
 * (signed: negative for a sub-range that starts in the tail); otherwise
 * tail is buf and split unused. */
typedef struct clipt_stage_args {
    cl_mem buf;
    cl_ulong offset;
    cl_mem tail;
    cl_ulong split;
    cl_ulong instances;
    cl_mem scratch;
} clipt_stage_args;

/* A kernel family: the one interface of the modules stage_*.c. */
typedef struct clipt_family {
    clipt_kernel_family id;
    const char *file;                   /* its kernel file under cl/        */
    unsigned ops;                       /* 1 << op for every op it computes */
    int transposes_super;               /* computes the fused 1000!+0010!   */
    const clipt_kernel_decl *kernels;   /* its kernels' argument lists       */
    unsigned num_kernels;
    /* Builds st's kernels and chooses the launch for st->spec (set, and
     * st->family) with elem-byte elements.  CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS
     * when the device cannot run it this way (the dispatcher may then try
     * another family); kernel loading errors. */
    clipt_status (*prepare)(clipt_context c, size_t elem, const clipt_tuning *t,
                            clipt_stage *st);
    /* Sets the arguments of every kernel of st. */
    clipt_status (*set_args)(const clipt_stage *st, const clipt_stage_args *args);
    /* Enqueues st as clipt_stage_enqueue does; NULL: zero the scratch bytes
     * (if any), then one launch of st->kernel. */
    clipt_status (*enqueue)(const clipt_stage *st, cl_command_queue q, cl_mem scratch,
                            cl_uint num_wait, const cl_event *wait, cl_event *first,
                            cl_event *done);
    /* Enqueues on q, without blocking, the move to the device of the
     * stage's own buffers (its tables), setting st->uploaded to an event
     * that completes with it.  Called once per stage, at its plan's first
     * run, under the plan's lock.  NULL: nothing to move. */
    clipt_status (*upload)(clipt_stage *st, cl_command_queue q);
    /* Writes what describe adds for this family ("; flags spread 4 pad 1"),
     * snprintf-style; NULL: nothing. */
    int (*describe)(const clipt_stage *st, char *buf, size_t len);
    /* Releases (or gives back to st->ctx's pool) what prepare made
     * besides st->kernel; NULL: nothing. */
    void (*release)(clipt_stage *st);
} clipt_family;

/* Every family, for tests and tools that go through them all. */
extern const clipt_family *const clipt_families[];
extern const unsigned clipt_num_families;

/* The families' own state, each owned by its module. */
typedef struct clipt_tiles_state {      /* stage_transpose010.c */
    unsigned pitch;                     /* local row pitch of a tile     */
    unsigned batch;                     /* tiles a work-group takes      */
} clipt_tiles_state;

typedef struct clipt_pttwac_state {     /* stage_pttwac010.c */
    unsigned spread, pad;               /* flag layout R and P           */
    unsigned flag_words;                /* local flag words per tile     */
} clipt_pttwac_state;

typedef struct clipt_workers_state {    /* stage_shift100.c */
    unsigned worker;                    /* work-items per super-element  */
    unsigned workers;                   /* workers per work-group        */
} clipt_workers_state;

typedef struct clipt_slices_state {     /* stage_shift100_slices.c */
    unsigned q;                         /* elements per slice            */
} clipt_slices_state;

typedef struct clipt_segments_state {   /* stage_shift100_segments.c */
    cl_kernel walk;                     /* the walk, after the saving    */
    cl_kernel cut;                      /* cuts the table on the device
                                           at the first run; NULL: none
                                           to cut                        */
    size_t cut_local, cut_global;       /* its launch: the same for every
                                           plan of the context (see
                                           cut_on_device)                */
    cl_mem table;                       /* segment descriptors (pooled)  */
    cl_mem records;                     /* the cycle records the cutting
                                           reads (pooled); NULL: none    */
    void *host;                         /* what the first run writes: the
                                           cycle records (or the walk's
                                           whole table); NULL when the
                                           pool had the table            */
    size_t host_bytes;
    cl_event writing;                   /* the last write enqueued       */
    size_t count, saved, cycles;        /* segments, saved heads, cycle
                                           records                       */
    uint64_t leap, n_mod;               /* the cutting's factor (a^len),
                                           modulus (a*b - 1)             */
    unsigned len;                       /* positions per segment at most */
    unsigned q;                         /* elements per work-item        */
    uint64_t key[CLIPT_POOL_KEY_WORDS]; /* what the table holds (pool.h) */
} clipt_segments_state;

typedef struct clipt_rows_state {       /* stage_pad.c */
    unsigned regs;                      /* elements (words) per work-item */
    int words;                          /* the 16-byte word kernels      */
} clipt_rows_state;

typedef struct clipt_c2r_state {        /* stage_c2r.c */
    unsigned width;                     /* columns of a block (1: rows)  */
    int variant;                        /* its kernel (stage_c2r.c)      */
    size_t in_local;                    /* elements of a unit in local
                                           memory (the rows kept when the
                                           rotation streams)             */
    /* the column shuffle split in a reflection and a row walk
     * (cl/c2r_columns.h); st->kernel saves the segments' heads */
    cl_kernel reflect, walk;
    size_t reflect_global, reflect_local, save_global;
    unsigned height;                    /* pairs of a reflected strip    */
    unsigned walk_rows;                 /* rows of a walk segment at most */
    cl_mem table;                       /* the walk's segments (pooled)  */
    void *host;                         /* the table, until written      */
    size_t host_bytes, segments, slots;
    cl_event writing;                   /* the table's write             */
} clipt_c2r_state;

struct clipt_stage {
    clipt_context ctx;             /* whose pool its kernels and buffers
                                      go back to (clipt_stage_release)   */
    cl_event retire;               /* set by the plan just before its
                                      release: the plan's last run, which
                                      a pooled buffer must outlast       */
    clipt_stage_spec spec;         /* what its kernels do, in units of
                                      `unit` of the elements it was
                                      prepared on (the plan's, or a
                                      widened pass's; see
                                      clipt_spec_wide_bytes)              */
    unsigned unit;                 /* prepared elements per kernel element */
    size_t elem;                   /* bytes of the kernel's element: the
                                      elem_size prepared with, times unit */
    const clipt_family *family;    /* how: the kernel family computing it */
    const char *kernel_name;       /* its kernel(s), for describe         */
    char options[256];             /* build options                       */
    cl_kernel kernel;              /* the (first) kernel launched         */
    size_t global, local;          /* 1-D launch                          */
    size_t local_bytes[2];         /* sizes of the __local arguments      */
    size_t scratch_bytes;          /* of the plan's scratch buffer: zeroed
                                      before launch (flags, counters) or,
                                      for segments, the saved heads      */
    size_t aux_bytes;              /* device memory owned by the stage    */
    cl_event uploaded;             /* its tables' move to the device (the
                                      family's upload), NULL before the
                                      plan's first run or when it has none */
    union {
        clipt_tiles_state tiles;
        clipt_pttwac_state pttwac;
        clipt_workers_state workers;
        clipt_slices_state slices;
        clipt_segments_state segments;
        clipt_rows_state rows;
        clipt_c2r_state c2r;
    } f;                           /* the family's own state              */
};

/* Prepares `st` for `spec` with elements of elem_size bytes, computed by
 * the family the library chooses: tiles by transpose010 when a tile fits
 * local memory, else pttwac010 (flags in local memory), else
 * shift100_slices with 1-element super-elements (flags in global memory),
 * all three computing the same 010!; super-elements by shift100_segments,
 * else shift100_slices (too many short cycles, or too large to walk), and
 * the fused form by shift100; rows by pad; the C2R passes by c2r.  Errors:
 * CLIPT_ERROR_INVALID_ELEM_SIZE, kernel loading, and
 * CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS when the device cannot run it (a
 * super-element or a launch too large).  On failure st holds nothing to
 * release (releasing it is harmless).  A super-element move or a padding
 * stage whose units allow it runs on wider elements (at most
 * tuning->wide_bytes bytes; clipt_spec_wide_bytes): st->spec is then in
 * those units, and the buffer offset it runs at must be a multiple of
 * st->elem bytes (set_args refuses another, CLIPT_ERROR_MISALIGNED_OFFSET). */
clipt_status clipt_stage_prepare(clipt_context c, const clipt_stage_spec *spec,
                                 size_t elem_size, const clipt_tuning *tuning,
                                 clipt_stage *st);

/* The same computed by `family` (CLIPT_FAMILY_AUTO: as above), with no
 * fallback; CLIPT_ERROR_INCOMPATIBLE_OPTIONS when that family does not
 * compute the spec's op (or its fused form). */
clipt_status clipt_stage_prepare_as(clipt_context c, const clipt_stage_spec *spec,
                                    clipt_kernel_family family, size_t elem_size,
                                    const clipt_tuning *tuning, clipt_stage *st);

/* The stage's spec in the plan's elements (spec as asked, before any
 * widening), and the elements of one of its instances. */
clipt_stage_spec clipt_stage_plan_spec(const clipt_stage *st);
uint64_t clipt_stage_instance_elems(const clipt_stage *st);

/* Sets the stage's kernel arguments for the region at element offset
 * `offset` of buf, with `scratch` holding st->scratch_bytes; a split stage
 * (spec.split > 0) finds the rest of its region in `tail` (NULL for a
 * stage that is not split).  Enqueues nothing: a plan sets every stage's
 * arguments before it enqueues the first stage, so that a failure here
 * leaves the buffer untouched. */
clipt_status clipt_stage_set_args(const clipt_stage *st, cl_mem buf,
                                  cl_ulong offset, cl_mem tail, cl_mem scratch);

/* The same for instances [first, first + count) of the stage only, as if
 * they were the whole region (it starts first * instance elements further
 * into buf).  Instances are independent and each touches only its own
 * elements, so disjoint sub-ranges may run at the same time on different
 * queues, each with its own scratch buffer of st->scratch_bytes.  Not for
 * PAD and UNPAD, whose rows move across the whole region
 * (CLIPT_ERROR_INCOMPATIBLE_OPTIONS), nor for ranges outside the stage's
 * instances or empty (CLIPT_ERROR_INVALID_SHAPE). */
clipt_status clipt_stage_set_part_args(const clipt_stage *st, uint64_t first,
                                       uint64_t count, cl_mem buf, cl_ulong offset,
                                       cl_mem tail, cl_mem scratch);

/* Enqueues, once per stage, the move of its tables to the device (see the
 * family's upload), if it has any; the stage's enqueues wait for it.  A
 * plan calls it for every stage before its first stage runs. */
clipt_status clipt_stage_upload(clipt_stage *st, cl_command_queue q);

/* Enqueues the stage with the arguments set last (`scratch` is the same
 * buffer; zeroed here first when the family needs it), its tables' move
 * first if not done yet (clipt_stage_upload).  Waits for the given
 * events; *done receives the stage's last command's event and, if first is
 * not NULL, *first its first command's (both owned by the caller; they may
 * be the same event, retained twice). */
clipt_status clipt_stage_enqueue(clipt_stage *st, cl_command_queue q,
                                 cl_mem scratch, cl_uint num_wait,
                                 const cl_event *wait, cl_event *first,
                                 cl_event *done);

/* Gives the stage's kernels and buffers back to its context's pool (its
 * buffers free once st->retire, if set, has settled), frees the rest. */
void clipt_stage_release(clipt_stage *st);

/* Text for describe: one line, snprintf-style. */
int clipt_stage_format(const clipt_stage *st, char *buf, size_t len);

#endif
