/* Elementary tiled transpositions: one prepare function per kind, one
 * enqueue for all.  A stage is prepared once at plan creation (kernel built,
 * launch sizes chosen, limits checked) and enqueued many times. */
#ifndef CLIPT_STAGES_H
#define CLIPT_STAGES_H

#include "internal.h"

#include <stdint.h>

typedef enum clipt_stage_kind {
    CLIPT_STAGE_BS010,      /* 010!/0010! in local memory        */
    CLIPT_STAGE_SHIFT100,   /* 100!/0100!/1000! along cycles     */
    CLIPT_STAGE_SHIFT100_SLICES, /* the same by independent slices */
    CLIPT_STAGE_SHIFT100_SEGMENTS, /* the same along host-cut cycle segments */
    CLIPT_STAGE_PTTWAC010,  /* 010!/0010! along cycles in a tile  */
    CLIPT_STAGE_PAD,        /* insert padding columns/rows        */
    CLIPT_STAGE_UNPAD       /* remove them after transposition    */
} clipt_stage_kind;

/* What a stage does, independent of the device: the region is `instances`
 * consecutive a x b matrices of super-elements of s elements; each becomes
 * its b x a transpose.  For SHIFT100 with sa*sb == s, every super-element
 * (an sa x sb tile) is also transposed (fused 1000!+0010!).
 * For PAD and UNPAD: `instances` logical rows of `a` elements move from a row
 * pitch of sa elements to a pitch of sb (PAD: sb > sa, forward, from the
 * end; UNPAD: sb < sa, backward, from the start); b and s are 1. */
typedef struct clipt_stage_spec {
    clipt_stage_kind kind;
    const char *label;       /* "100!", "0100!", "0010!", ...        */
    uint64_t instances, a, b, s;
    uint64_t sa, sb;
} clipt_stage_spec;

typedef struct clipt_stage {
    clipt_stage_spec spec;
    clipt_stage_kind kind_used;    /* the kernel family that computes it  */
    const char *kernel_name;
    char options[256];
    cl_kernel kernel;
    size_t global, local;          /* 1-D launch                         */
    size_t local_bytes[2];         /* sizes of the __local arguments     */
    unsigned pitch, batch;         /* BS: local row pitch, tiles a batch */
    unsigned worker, workers;      /* SHIFT100: lanes per worker, per WG */
    unsigned spread, flag_pad;     /* PTTWAC flags                       */
    unsigned flag_words;           /* PTTWAC: local flag words per tile  */
    unsigned regs;                 /* PAD/UNPAD: elements per work-item  */
    cl_kernel kernel2;             /* SEGMENTS: the walk after the save  */
    cl_mem seg_start, seg_length, seg_slot; /* SEGMENTS: descriptors      */
    size_t seg_count, seg_saved;   /* SEGMENTS: segments, saved heads    */
    unsigned seg_len;              /* SEGMENTS: positions per segment    */
    size_t aux_bytes;              /* device memory owned by the stage   */
    size_t scratch_bytes;          /* flags/counters zeroed before launch */
} clipt_stage;

/* Whether the stage changes nothing (a or b is 1 and no inner transpose). */
int clipt_stage_is_identity(const clipt_stage_spec *spec);

/* Largest s*elem bytes (per worker) and tile bytes usable in local memory. */
size_t clipt_stage_local_budget(clipt_context c);

/* Prepares `st` for `spec` with elements of elem_size bytes: builds the
 * kernel and chooses the launch.  A BS010 spec whose tile does not fit local
 * memory becomes a PTTWAC010 stage (flags in local memory) or, if even its
 * flags do not fit, a SHIFT100 stage with 1-element super-elements (flags in
 * global memory): all three compute the same 010!.  Errors: kernel loading,
 * and CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS when a super-element does not fit. */
clipt_status clipt_stage_prepare(clipt_context c, const clipt_stage_spec *spec,
                                 size_t elem_size, const clipt_tuning *tuning,
                                 clipt_stage *st);

/* Sets the stage's kernel arguments for the matrix at element offset
 * `offset` of buf, with `scratch` holding st->scratch_bytes.  Enqueues
 * nothing: a plan sets every stage's arguments before it enqueues the
 * first stage, so that a failure here leaves the buffer untouched. */
clipt_status clipt_stage_set_args(const clipt_stage *st, cl_mem buf,
                                  cl_ulong offset, cl_mem scratch);

/* Enqueues the stage with the arguments clipt_stage_set_args set last
 * (`scratch` is the same buffer; it is zeroed here first).  Waits for the
 * given events; *done receives the stage's last command's event and, if
 * first is not NULL, *first its first command's (both owned by the caller;
 * they may be the same event, retained twice). */
clipt_status clipt_stage_enqueue(const clipt_stage *st, cl_command_queue q,
                                 cl_mem scratch, cl_uint num_wait,
                                 const cl_event *wait, cl_event *first,
                                 cl_event *done);

/* Elements of one instance of the stage: a * b * s. */
uint64_t clipt_stage_instance_elems(const clipt_stage *st);

/* Enqueues instances [first, first + count) of the stage as if they were the
 * whole region (its matrix starts first * clipt_stage_instance_elems(st)
 * elements further into buf).  Instances are independent and each touches
 * only its own elements, so disjoint sub-ranges may run at the same time on
 * different queues, each with its own scratch buffer of st->scratch_bytes.
 * Not for PAD and UNPAD, whose rows move across the whole region
 * (CLIPT_ERROR_INCOMPATIBLE_OPTIONS), nor for ranges outside the stage's
 * instances (CLIPT_ERROR_INVALID_SHAPE).  Events as clipt_stage_enqueue. */
clipt_status clipt_stage_enqueue_range(const clipt_stage *st, uint64_t first,
                                       uint64_t count, cl_command_queue q,
                                       cl_mem buf, cl_ulong offset, cl_mem scratch,
                                       cl_uint num_wait, const cl_event *wait,
                                       cl_event *done);

void clipt_stage_release(clipt_stage *st);

/* Text for describe: one line. */
int clipt_stage_format(const clipt_stage *st, char *buf, size_t len);

#endif
