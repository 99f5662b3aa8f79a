/*
 * clipt — in-place transposition of rectangular matrices held in OpenCL
 * buffers.
 *
 * A row-major rows x cols matrix of fixed-size elements, stored in a cl_mem at
 * a byte offset, is rearranged so that the same bytes hold the row-major
 * cols x rows transpose.  No second copy of the matrix is made: the library
 * needs only a small scratch buffer (flag bits and counters) per plan.
 *
 * Usage follows plan -> enqueue:
 *
 *     clipt_context cx;  clipt_context_create(cl_ctx, cl_dev, &cx);
 *     clipt_plan    p;   clipt_plan_create(cx, rows, cols, 4, NULL, &p);
 *     clipt_enqueue(p, queue, buf, 0, 0, NULL, &done);
 *     ...
 *     clipt_plan_release(p);  clipt_context_release(cx);
 *
 * Buffers: a plan may pad the matrix for better tile factors.  Then `buf`
 * must hold clipt_plan_buffer_size(p) bytes from the offset, more than
 * rows*cols*elem_size, and the transposition WRITES into that extra room.
 * So do not loop one plan over matrices packed back to back in one buffer:
 * each run would overwrite the start of the next matrix, with no error.
 * For matrices packed back to back, make one plan for the whole batch
 * (clipt_plan_create_permute, dims {B, rows, cols}, perm {0, 2, 1}), or
 * loop a plan made with CLIPT_PADDING_NONE, which never writes outside
 * rows*cols*elem_size bytes (clipt_plan_buffer_size(p) ==
 * rows*cols*elem_size tells which you have).
 *
 * Every function returns a clipt_status: CLIPT_SUCCESS (0), an OpenCL error
 * code (CL_*, passed through unchanged from the runtime), or one of the
 * CLIPT_ERROR_* codes below, all in [-1099, -1000].  The library never
 * prints and never exits.
 *
 * Thread rules, in one place:
 *   - a clipt_context may be used by several threads at once (its program
 *     cache is locked internally);
 *   - a clipt_plan is immutable after creation and may be enqueued from
 *     several threads, but enqueues of one plan are serialised by the plan
 *     itself (each waits for the previous one to finish on the device),
 *     because the plan's scratch buffer is reused;
 *   - releasing an object while another thread uses it is undefined;
 *   - the one-shot calls' caches (see "Caching" below) are locked
 *     internally: clipt_transpose, clipt_transpose_host and the cache
 *     clearing functions may run in any threads at once;
 *   - tests/test_threads.c checks these rules (also under ThreadSanitizer).
 *
 * Caching, in one place (plans: the one-shot calls only; clipt_plan_create
 * always makes a new plan, with its own scratch, enqueue order and
 * profile):
 *   - each clipt_context keeps a pool of the OpenCL objects its released
 *     plans no longer need: their kernels (per program and kernel name) and
 *     their device buffers (scratch, padded tail, cycle-segment tables, by
 *     size).  A new plan takes them instead of creating its own, which
 *     spares the runtime's object creation and release (about 0.17 ms per
 *     plan on NVIDIA's).  A plan owns what it took until
 *     clipt_plan_release, so live plans never share a kernel or a buffer;
 *     a buffer given back while the plan's last enqueue still runs is taken
 *     again only once that run (and its tables' upload) has completed or
 *     failed, whichever queue it ran on.  A cycle-segment table comes back
 *     with its contents: a later plan with a stage of the same shape takes
 *     it as it is (once the run that made it has completed; a failed one
 *     loses it) and neither lists the cycles on the host nor cuts them on
 *     the device (a new table is cut by a kernel at the plan's first run,
 *     from one record per cycle), so a pipeline that meets a shape again
 *     creates and first runs its plan at a fraction of the first one's
 *     cost.  Free buffers hold together at
 *     most clipt_context_set_pool_limit's bytes (default a 64th of the
 *     device's global memory; oldest released first), free kernels at most
 *     128; both go with the context (clipt_context_release, after its last
 *     plan) or with clipt_context_plan_cache_clear;
 *   - each clipt_context keeps the plans of the last
 *     CLIPT_PLAN_CACHE_SIZE shapes its one-shot calls ran (keyed by rows,
 *     cols, element size and the options as the plan runs them), least
 *     recently used dropped first, holding together at most a sixteenth of
 *     the device's global memory in scratch buffers and tables; they go
 *     with the context (clipt_context_release) or with
 *     clipt_context_plan_cache_clear;
 *   - clipt_transpose keeps, for the whole process, a clipt_context (with
 *     its built programs and its plan cache) for each of the last
 *     CLIPT_TRANSPOSE_CACHE_SIZE (cl_context, cl_device_id) pairs it was
 *     called on, least recently used dropped first.  An entry retains its
 *     cl_context and device: after the application's clReleaseContext the
 *     OpenCL context and the device memory of its cached plans stay alive
 *     until the entry is dropped — by clipt_transpose_cache_clear, by the
 *     calls on CLIPT_TRANSPOSE_CACHE_SIZE other pairs, or at process exit
 *     (never released then: the memory stays reachable, as a leak checker
 *     sees it).  Call clipt_transpose_cache_clear before releasing a
 *     context whose memory must come back, and before unloading the
 *     library;
 *   - a call that fails for any reason but a bad argument (a CL_* status,
 *     a kernel error, host memory) drops what it used from the caches (the
 *     plan, and for clipt_transpose the context), so that the next call
 *     starts afresh; a bad argument returns its status and leaves the
 *     caches as they were;
 *   - a cached plan is shared by the calls that use its shape: calls of the
 *     same shape on one context run one after the other (each waits for
 *     the previous one to finish on the device), calls of different shapes
 *     run side by side.
 *
 * This header does not define CL_TARGET_OPENCL_VERSION: include it after
 * your own OpenCL configuration.  clipt needs OpenCL 1.2 entry points.
 */
#ifndef CLIPT_H
#define CLIPT_H

#include <stddef.h>

#if defined(__APPLE__)
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(CLIPT_BUILDING_SHARED)
#define CLIPT_API __declspec(dllexport)
#elif defined(__GNUC__) && defined(CLIPT_BUILDING)
#define CLIPT_API __attribute__((visibility("default")))
#else
#define CLIPT_API
#endif

/* ------------------------------------------------------------------ */
/* Version                                                             */
/* ------------------------------------------------------------------ */

#define CLIPT_VERSION_MAJOR 0
#define CLIPT_VERSION_MINOR 1
#define CLIPT_VERSION_PATCH 0
#define CLIPT_VERSION_NUMBER \
    (CLIPT_VERSION_MAJOR * 10000 + CLIPT_VERSION_MINOR * 100 + CLIPT_VERSION_PATCH)

/** Version of the library actually linked, as "MAJOR.MINOR.PATCH".
 *  Returns a static string (never NULL, never to be freed).  Thread-safe. */
CLIPT_API const char *clipt_version_string(void);

/** CLIPT_VERSION_NUMBER of the library actually linked.  Thread-safe. */
CLIPT_API unsigned clipt_version_number(void);

/* ------------------------------------------------------------------ */
/* Status codes                                                        */
/* ------------------------------------------------------------------ */

/** 0 on success; a CL_* code (negative, > -1000) when an OpenCL call failed;
 *  a CLIPT_ERROR_* code in [-1099, -1000] for the library's own errors. */
typedef int clipt_status;

#define CLIPT_SUCCESS 0

/* One table generates the codes and their strings.  Codes are stable: a code
 * is never renumbered or reused; new ones are appended. */
#define CLIPT_ERROR_TABLE(X)                                                   \
    X(CLIPT_ERROR_INVALID_SHAPE, -1000, "rows or cols is zero")                \
    X(CLIPT_ERROR_SHAPE_OVERFLOW, -1001,                                       \
      "rows*cols*elem_size (or the padded size) does not fit in size_t")       \
    X(CLIPT_ERROR_INVALID_ELEM_SIZE, -1002,                                    \
      "element size is not 1, 2, 4, 8 or 16 bytes")                            \
    X(CLIPT_ERROR_NULL_ARGUMENT, -1003, "a required pointer or handle is NULL") \
    X(CLIPT_ERROR_BUFFER_TOO_SMALL, -1004,                                     \
      "buffer holds fewer bytes from the offset than clipt_plan_buffer_size")   \
    X(CLIPT_ERROR_MISALIGNED_OFFSET, -1005,                                    \
      "byte offset is not a multiple of the element size")                     \
    X(CLIPT_ERROR_DEVICE_MISMATCH, -1006,                                      \
      "queue or buffer belongs to another context or device than the plan")    \
    X(CLIPT_ERROR_INVALID_OPTION, -1007, "a plan option is out of range")      \
    X(CLIPT_ERROR_KERNEL_NOT_FOUND, -1008,                                     \
      "a kernel source file was not found (see clipt_context_error_detail)")   \
    X(CLIPT_ERROR_KERNEL_BUILD, -1009,                                         \
      "a kernel failed to build (log in clipt_context_error_detail)")          \
    X(CLIPT_ERROR_OUT_OF_HOST_MEMORY, -1010, "host memory allocation failed")  \
    X(CLIPT_ERROR_UNSUPPORTED_DEVICE, -1011,                                   \
      "the device lacks a feature clipt needs")                                \
    X(CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS, -1012,                                \
      "the plan would exceed a device limit (allocation or launch size)")      \
    X(CLIPT_ERROR_READ_ONLY_BUFFER, -1013,                                     \
      "the buffer was created without write access for kernels")               \
    X(CLIPT_ERROR_INVALID_WAIT_LIST, -1014,                                    \
      "event wait list and its count disagree")                                \
    X(CLIPT_ERROR_TRUNCATED, -1015,                                            \
      "the output buffer was too small; the text was cut")                     \
    X(CLIPT_ERROR_INCOMPATIBLE_OPTIONS, -1016,                                 \
      "the forced sequence or tile sizes cannot transpose this shape")         \
    X(CLIPT_ERROR_NO_DEVICE, -1017, "no OpenCL platform or device found")    \
    X(CLIPT_ERROR_WRITE_ONLY_BUFFER, -1018,                                    \
      "the buffer was created without read access for kernels")                \
    X(CLIPT_ERROR_WAIT_EVENT_FAILED, -1019,                                    \
      "an event of the wait list has already failed")                          \
    X(CLIPT_ERROR_INVALID_NDIM, -1020,                                         \
      "ndim is 0 or more than CLIPT_MAX_DIMS")                                 \
    X(CLIPT_ERROR_INVALID_PERMUTATION, -1021,                                  \
      "perm is not a permutation of 0..ndim-1 (an axis repeated or out of range)")

enum clipt_error_code {
#define CLIPT_ENUM_ENTRY_(name, value, text) name = value,
    CLIPT_ERROR_TABLE(CLIPT_ENUM_ENTRY_)
#undef CLIPT_ENUM_ENTRY_
    CLIPT_ERROR_LAST_ = -1099
};

/** A short English description of `s`.  Knows CLIPT_SUCCESS, every
 *  CLIPT_ERROR_* and the OpenCL 1.2 error codes; for any other value returns
 *  a generic "unknown status" string.  Never returns NULL; the string is
 *  static.  Thread-safe. */
CLIPT_API const char *clipt_status_string(clipt_status s);

/* ------------------------------------------------------------------ */
/* Context                                                             */
/* ------------------------------------------------------------------ */

/** One per (cl_context, cl_device_id): the device profile (limits, SIMD
 *  width, tuning entry) and the cache of built kernel programs. */
typedef struct clipt_context_s *clipt_context;

/** Creates a clipt context for device `dev` of OpenCL context `ctx`.
 *  Queries the device; builds no kernel yet (plans build what they need).
 *  `ctx` and `dev` are retained and released by clipt_context_release.
 *  On success stores the new context in *out; on failure *out is NULL.
 *  `dev` may be a sub-device (clCreateSubDevices) of one of ctx's devices:
 *  some runtimes (PoCL) list the parent device in a context made for a
 *  sub-device.
 *  Errors: CLIPT_ERROR_NULL_ARGUMENT, CLIPT_ERROR_DEVICE_MISMATCH (dev is not
 *  in ctx, nor a sub-device of a device in it),
 *  CLIPT_ERROR_UNSUPPORTED_DEVICE, CLIPT_ERROR_OUT_OF_HOST_MEMORY,
 *  CL_* from the queries.  Blocking only on device queries.  Thread-safe. */
CLIPT_API clipt_status clipt_context_create(cl_context ctx, cl_device_id dev,
                                            clipt_context *out);

/** Releases a context, its program cache and its plan cache.  NULL is
 *  accepted.  Plans made from it hold their own reference, so it may be
 *  released before them.  Must not race with other calls on the same
 *  context. */
CLIPT_API void clipt_context_release(clipt_context c);

/** Plans a context's cache keeps at most (see "Caching" at the top). */
#define CLIPT_PLAN_CACHE_SIZE 8

/** Releases the plans c's cache holds for clipt_transpose_host (their
 *  scratch buffers and tables); calls running one of them keep it until
 *  they return.  The next call makes its plan again.  Then releases the
 *  free kernels and buffers of c's pool (see "Caching" at the top); plans
 *  alive keep theirs and give them back to the pool at their release.
 *  NULL is accepted.  Non-blocking.  Thread-safe. */
CLIPT_API void clipt_context_plan_cache_clear(clipt_context c);

/** Sets the device memory that the free buffers of c's pool may hold
 *  together (see "Caching" at the top), releasing the oldest free ones
 *  beyond it at once.  0 turns the pool off: every plan then creates and
 *  releases its own kernels and buffers, and the free ones are released.
 *  Buffers that live plans hold are not counted (their plans' sizes, see
 *  clipt_plan_scratch_size).  NULL is accepted.  Non-blocking.
 *  Thread-safe. */
CLIPT_API void clipt_context_set_pool_limit(clipt_context c, size_t max_bytes);

/** Copies into buf (at most len bytes, NUL-terminated) the detail of the most
 *  recent failure in this context: the paths searched for a missing kernel
 *  file, or the compiler's build log.  Empty when nothing failed.
 *  Returns CLIPT_ERROR_TRUNCATED if the text was cut (buf still holds the
 *  cut, terminated text), CLIPT_ERROR_NULL_ARGUMENT for NULL c/buf or len 0.
 *  Thread-safe (the detail is shared by the context's threads: read it from
 *  the thread that failed before others fail again). */
CLIPT_API clipt_status clipt_context_error_detail(clipt_context c, char *buf,
                                                  size_t len);

/** The device profile clipt derived, as one human-readable line per item
 *  (name, vendor, local memory, SIMD width, work-group limits, tuning entry).
 *  Same buffer rules as clipt_context_error_detail.  Thread-safe. */
CLIPT_API clipt_status clipt_context_describe(clipt_context c, char *buf,
                                              size_t len);

/* ------------------------------------------------------------------ */
/* Plan options                                                        */
/* ------------------------------------------------------------------ */

/** Sequences of elementary tiled transpositions (Gómez-Luna et al., TPDS
 *  2016, Fig. 2).  AUTO lets the plan choose. */
typedef enum clipt_sequence {
    CLIPT_SEQUENCE_AUTO = 0,
    CLIPT_SEQUENCE_1 = 1,     /* one whole-matrix cycle-following pass */
    CLIPT_SEQUENCE_2_1 = 21,  /* 010! on m x N tiles, then 100!        */
    CLIPT_SEQUENCE_2_2 = 22,  /* 100! of n-element rows, then 010!     */
    CLIPT_SEQUENCE_3_1 = 31,  /* 100!, 0010!, 0100!  (m < n)           */
    CLIPT_SEQUENCE_3_2 = 32,  /* 0100!, 0010!, 100!  (m >= n)          */
    CLIPT_SEQUENCE_4_1 = 41,  /* 0100!, 0010!, 1000!, 0100!            */
    CLIPT_SEQUENCE_4_2 = 42,  /* 0100!, 1000!, 0010!, 0100!            */
    CLIPT_SEQUENCE_4_3 = 43   /* 0100!, (1000! fused with 0010!), 0100! */
} clipt_sequence;

/** Algorithm family of a plan.  AUTO lets the plan choose: for a single
 *  2-D matrix (not a batch, not an N-D pass) of elements of at least 4
 *  bytes whose sides are coprime, when no sequence or tile is forced, C2R
 *  if its columns (rows * elem_size bytes) are at most the tuning's
 *  c2r_column_bytes and its rows fit in local memory and a work-group's
 *  registers, else R2C if the same holds with rows and columns swapped
 *  (c2r_column_bytes is 1 by default: never; measured entries such as the
 *  H100's set it where they were faster); else the TPDS sequences.
 *  C2R (Catanzaro, Keller and Garland, PPoPP 2014) permutes only inside
 *  rows and columns: a column rotation (when gcd(rows, cols) > 1), a row
 *  shuffle and a column shuffle.  R2C is its inverse run on the cols x
 *  rows view: the same kinds of passes in reverse order, whose column
 *  passes run along the matrix's rows (short for a tall matrix, as C2R's
 *  are for a wide one).  Both never pad, need no room and ignore the
 *  padding option (a forced sequence or tile with either is
 *  CLIPT_ERROR_INCOMPATIBLE_OPTIONS); their scratch is O(max(rows, cols))
 *  elements per work-group that does not find room for a row or a column
 *  block in local memory. */
typedef enum clipt_algorithm {
    CLIPT_ALGORITHM_AUTO = 0,
    CLIPT_ALGORITHM_TPDS = 1, /* the sequences of elementary transpositions */
    CLIPT_ALGORITHM_C2R = 2,  /* the C2R decomposition: 2 or 3 passes        */
    CLIPT_ALGORITHM_R2C = 3   /* its inverse on the cols x rows view: 2 or 3 */
} clipt_algorithm;

/** Whether the plan may pad the matrix with extra rows/columns to obtain
 *  better tile factors, and where the padding lives.  With NONE, SCRATCH
 *  and OFF the buffer holds exactly rows*cols*elem_size bytes and nothing
 *  outside them is written; a plan that pads then keeps the padded tail of
 *  the matrix (the elements past rows*cols of the padded matrix: a median
 *  0.04 %, at most about 1.4 % of it for automatic plans) in a buffer of
 *  its own, counted in clipt_plan_scratch_size ("room-less padding"). */
typedef enum clipt_padding {
    CLIPT_PADDING_AUTO = 0,   /* pad when it helps; needs the room reported by
                                 clipt_plan_buffer_size                       */
    CLIPT_PADDING_NONE = 1,   /* exact-size buffer: the plan chooses, by its
                                 cost model, between SCRATCH's plan and
                                 OFF's; forced tile factors must divide
                                 their dimension                             */
    CLIPT_PADDING_SCRATCH = 2,/* exact-size buffer, padded as AUTO would pad
                                 (a forced factor that does not divide its
                                 dimension pads it), the tail in the plan   */
    CLIPT_PADDING_OFF = 3     /* exact-size buffer, never padded: factors of
                                 the sides as they are (NONE's plan before
                                 room-less padding)                          */
} clipt_padding;

/** Rule that picks the tile factors m (of rows) and n (of cols). */
typedef enum clipt_tile_rule {
    CLIPT_TILE_RULE_AUTO = 0,     /* the cost model's choice among Algorithm
                                     5's (with the sequence rule) and its
                                     neighbours (default)                 */
    CLIPT_TILE_RULE_ALG5 = 5,     /* smallest factor in [Min, sqrt(LM)), the
                                     sequence by Algorithm 3 alone        */
    CLIPT_TILE_RULE_ALG2 = 2,     /* best local-memory use, Min < f < Max   */
    CLIPT_TILE_RULE_ALG1 = 1      /* Catanzaro et al.: largest factor <= 72 */
} clipt_tile_rule;

/** Options for clipt_plan_create.  Always initialise with
 *  clipt_plan_options_init, then change fields: zero / AUTO means
 *  "choose automatically" everywhere. */
typedef struct clipt_plan_options {
    clipt_sequence sequence;  /* forced sequence, or AUTO                    */
    size_t tile_m;            /* forced factor of rows, 0 = automatic; one   */
                              /* not dividing rows pads them to its next     */
                              /* multiple (padding AUTO or SCRATCH; NONE   */
                              /* and OFF refuse it)                          */
    size_t tile_n;            /* forced factor of cols, 0 = automatic (same) */
    clipt_padding padding;    /* padding policy                              */
    clipt_tile_rule tile_rule;/* automatic tile rule                         */
    unsigned min_super;       /* Min of Algorithms 2/5, 0 = default (24)     */
    /* Tuning overrides; 0 = take the device's tuning table entry.          */
    unsigned wg_010;          /* work-group size of 010! (BS)               */
    unsigned wg_100;          /* work-group size of 100!/0100!              */
    unsigned simd_100;        /* work-items per super-element in 100!       */
    unsigned groups_100;      /* work-groups launched for 100! (persistent) */
    unsigned pttwac_spread;   /* PTTWAC spreading factor R: 1..32, pow2      */
    unsigned pttwac_pad;      /* PTTWAC flag padding P words per 32          */
    unsigned tile_elems_010;  /* 010! batch: elements of 16 bytes aimed at  */
                              /* (narrower: as many bytes; CPU: elements)   */
    unsigned groups_per_cu_100; /* resident 100! work-groups per compute unit */
    unsigned groups_per_cu_010; /* resident 010! work-groups per compute unit */
    unsigned skinny_super;    /* 2.1/2.2: largest super-element (elements)   */
    unsigned walk_unroll;     /* 100! segment walks: steps read ahead, 1..32 */
    unsigned walk_item_bytes; /* 100! segment walks: bytes per work-item step */
    unsigned align_bytes;     /* prefer tile factors whose bytes are a     */
                              /* multiple of this (1 = none), up to 4096  */
    unsigned kernel_style;    /* 1: work-groups with local memory and     */
                              /* barriers (GPU kernels); 2: one work-item */
                              /* per group running loops (CPU kernels)    */
    unsigned wide_bytes;      /* super-element moves and padding: widest  */
                              /* word (2, 4, 8, 16 bytes; 1 = the element)*/
                              /* their whole units are moved in          */
    unsigned c2r_column_bytes;/* automatic algorithm: C2R for a single     */
                              /* matrix with coprime sides whose columns  */
                              /* (rows * elem_size) are at most this many */
                              /* bytes, else R2C if its rows (cols *      */
                              /* elem_size) are; 1 = never (TPDS)         */
    /* Cost model values (predicted stage times, the plan's choice among
     * candidate sequences and tiles); 0 = the device's entry.  Efficiencies
     * and shares in thousandths (permille): efficiencies up to 4000,
     * shares up to 1000 (sector + step together), *_elem up to 2^20.      */
    unsigned model_copy_gbs;    /* copy bandwidth, GB/s read + written     */
    unsigned model_launch_ns;   /* fixed cost of one kernel launch, ns     */
    unsigned model_tiles_eff;   /* 010!/0010!: permille of copy (4 bytes)  */
    unsigned model_tiles_elem;  /* permille of copy per (4 / elem - 1)     */
    unsigned model_tiles_small; /* 1-/2-byte tiles under 4 KiB: permille   */
                                /* of copy per 4 / elem at 0 bytes, less  */
                                /* in proportion to 4 KiB                 */
    unsigned model_move_eff;    /* 100!/0100!: permille of copy            */
    unsigned model_move_sector; /* permille of that time per sector        */
    unsigned model_move_step;   /* permille of that time per item step     */
    unsigned model_run_bytes;   /* 100!/0100!: a super-element of fewer    */
                                /* bytes costs what one this long does     */
    unsigned model_pad_eff;     /* padding: permille of copy (4 bytes)     */
    unsigned model_unpad_eff;   /* unpadding: permille of copy (4 bytes)   */
    unsigned model_rows_elem;   /* pad/unpad: the same                     */
    unsigned model_wait_ps;     /* pad/unpad: ps per flag waited for       */
    unsigned model_slow_eff;    /* fallback families: permille of copy     */
    unsigned model_c2r_eff;     /* C2R/R2C: permille of copy per pass      */
    clipt_algorithm algorithm; /* algorithm family, AUTO = the plan's choice */
    unsigned reserved[1];     /* must stay zero                              */
} clipt_plan_options;

/** Fills *o with the defaults (automatic everything).  NULL is ignored.
 *  Thread-safe. */
CLIPT_API void clipt_plan_options_init(clipt_plan_options *o);

/** Sets the tuning override called `name` (the field's name above, e.g.
 *  "walk_unroll") to `value`, so that tools can pass tuning values by name.
 *  The value's range is checked by clipt_plan_create, as for fields set
 *  directly.  Errors: CLIPT_ERROR_NULL_ARGUMENT, CLIPT_ERROR_INVALID_OPTION
 *  (no tuning field has that name; *o is then unchanged).  Thread-safe for
 *  distinct `o`. */
CLIPT_API clipt_status clipt_plan_options_set_tuning(clipt_plan_options *o,
                                                     const char *name,
                                                     unsigned value);

/* ------------------------------------------------------------------ */
/* Plan                                                                */
/* ------------------------------------------------------------------ */

/** A baked transposition of one shape and element size on one context. */
typedef struct clipt_plan_s *clipt_plan;

/** Plans the in-place transposition of a row-major rows x cols matrix of
 *  elem_size-byte elements (1, 2, 4, 8 or 16).  Chooses factors, padding and
 *  sequence, builds every kernel the plan needs (through the context's
 *  cache) and allocates the plan's scratch buffer, so that clipt_enqueue
 *  can only fail on its own arguments or on the runtime.
 *  `opts` may be NULL (defaults); it is copied, not kept.
 *  The plan keeps a reference to `c`.  On failure *out is NULL.
 *  Errors: CLIPT_ERROR_NULL_ARGUMENT, CLIPT_ERROR_INVALID_SHAPE,
 *  CLIPT_ERROR_SHAPE_OVERFLOW, CLIPT_ERROR_INVALID_ELEM_SIZE,
 *  CLIPT_ERROR_INVALID_OPTION, CLIPT_ERROR_INCOMPATIBLE_OPTIONS,
 *  CLIPT_ERROR_KERNEL_NOT_FOUND, CLIPT_ERROR_KERNEL_BUILD,
 *  CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS, CLIPT_ERROR_OUT_OF_HOST_MEMORY, CL_*.
 *  Every device limit is checked here, not at enqueue: one allocation's
 *  size (padded matrix, scratch), the device's memory (matrix, scratch and
 *  tables together), work-group and global work sizes, local memory.
 *  Blocking (kernel builds).  Thread-safe for distinct `out`. */
CLIPT_API clipt_status clipt_plan_create(clipt_context c, size_t rows,
                                         size_t cols, size_t elem_size,
                                         const clipt_plan_options *opts,
                                         clipt_plan *out);

/** Most dimensions clipt_plan_create_permute accepts. */
#define CLIPT_MAX_DIMS 8

/** Plans the in-place axis permutation of a dense row-major array of `ndim`
 *  dimensions dims[0..ndim-1] of elem_size-byte elements: afterwards the
 *  same bytes hold numpy.transpose(a, axes=perm) made contiguous, i.e. the
 *  row-major array of dimensions dims[perm[0]], ..., dims[perm[ndim-1]]
 *  whose element (i_0, ..., i_{ndim-1}) is the input's element with index
 *  i_t on axis perm[t].  A batch of B rows x cols matrices is ndim = 3,
 *  dims = {B, rows, cols}, perm = {0, 2, 1}; the 2-D transpose is
 *  dims = {rows, cols}, perm = {1, 0}, and gives the same plan as
 *  clipt_plan_create.
 *  Axes of size 1 are dropped and axes that stay neighbours in the same
 *  order are merged first; what remains is done in passes, each a batched
 *  transposition of two adjacent groups of axes, (A, B, C, D) ->
 *  (A, C, B, D) (clipt_plan_describe lists them; clipt_plan_query gives
 *  their number).  An identity permutation makes a plan with no stages,
 *  whose enqueue only chains the events.  Only a plan whose single pass is
 *  a plain 2-D transposition (A = D = 1) may pad (with padding AUTO;
 *  clipt_plan_buffer_size says how much room it needs); forced sequence and
 *  tile options apply to the passes without super-elements (D = 1) and
 *  fail with CLIPT_ERROR_INCOMPATIBLE_OPTIONS where they cannot.
 *  A pass whose runs of D elements make 2, 4, 8 or 16 bytes moves each
 *  run as one element of that size (a batched transposition of wider
 *  elements instead of two passes; describe says so).  Such a plan runs
 *  as planned at offsets that are multiples of its widest element; at any
 *  other offset clipt_enqueue runs the same permutation planned without
 *  widening (its twin, made at the first such enqueue: see clipt_enqueue).
 *  `dims` and `perm` are read, not kept; `opts` as in clipt_plan_create.
 *  Errors, checked in this order, with *out NULL and nothing allocated:
 *  CLIPT_ERROR_NULL_ARGUMENT (c, out, dims or perm NULL),
 *  CLIPT_ERROR_INVALID_ELEM_SIZE, CLIPT_ERROR_INVALID_NDIM (0 or more than
 *  CLIPT_MAX_DIMS), CLIPT_ERROR_INVALID_PERMUTATION (an axis repeated or
 *  not below ndim), CLIPT_ERROR_INVALID_SHAPE (a dimension of 0),
 *  CLIPT_ERROR_SHAPE_OVERFLOW (the product of the dimensions times
 *  elem_size does not fit size_t), CLIPT_ERROR_INVALID_OPTION; then those
 *  of clipt_plan_create.  Blocking (kernel builds).  Thread-safe for
 *  distinct `out`. */
CLIPT_API clipt_status clipt_plan_create_permute(clipt_context c, unsigned ndim,
                                                 const size_t *dims, const unsigned *perm,
                                                 size_t elem_size,
                                                 const clipt_plan_options *opts,
                                                 clipt_plan *out);

/** Bytes the buffer must hold from the offset: rows*cols*elem_size, plus the
 *  room for padded rows/columns when the plan pads with CLIPT_PADDING_AUTO
 *  (the other policies keep the padding in the plan).  0 for NULL.
 *  Thread-safe. */
CLIPT_API size_t clipt_plan_buffer_size(clipt_plan p);

/** Bytes of device memory the plan owns besides the matrix: its scratch
 *  buffer (flags, counters, saved cycle heads), its cycle-segment tables
 *  and, for a plan that pads without room (CLIPT_PADDING_NONE, SCRATCH),
 *  the padded tail of the matrix, and all of that for its twin without
 *  widening once a misaligned enqueue has made it (see clipt_enqueue:
 *  a fresh plan never counts a twin); under 1 % of the matrix on the automatic
 *  plans' common paths (4 MiB or so for small matrices; the padded tail
 *  adds a median 0.04 %, at most about 1.4 %).  A C2R plan whose rows or
 *  column blocks do not fit local memory holds one per work-group: at most
 *  an eighth of the matrix, or 4 MiB.  0 for NULL.  Thread-safe. */
CLIPT_API size_t clipt_plan_scratch_size(clipt_plan p);

/** Writes a human-readable description of the plan into buf: shape, element
 *  size, sequence (for C2R and R2C: the algorithm and its number of passes), m, n, padded shape, scratch bytes, tuning entry (with any
 *  tuning values the options replaced), the cost model's predicted time
 *  ("predicted: X ms (model ...)"), and one
 *  line per stage with its kernel and launch sizes.  Same buffer rules as
 *  clipt_context_error_detail.  Thread-safe. */
CLIPT_API clipt_status clipt_plan_describe(clipt_plan p, char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Reading a plan back                                                 */
/* ------------------------------------------------------------------ */

/** What a stage does to its region, independent of how it is computed.
 *  A region is `instances` consecutive a x b matrices whose elements are
 *  super-elements of s matrix elements. */
typedef enum clipt_stage_op {
    CLIPT_OP_TRANSPOSE_TILES = 1, /* each a x b tile becomes its b x a
                                     transpose (the papers' 010!, 0010!)  */
    CLIPT_OP_MOVE_SUPER = 2,      /* each a x b matrix of super-elements is
                                     transposed by moving whole super-elements
                                     along cycles (100!, 0100!, 1000!)    */
    CLIPT_OP_PAD = 3,             /* rows spread apart to make room for
                                     padding columns                      */
    CLIPT_OP_UNPAD = 4,           /* padding squeezed out after the
                                     transposition                        */
    /* The passes of the C2R decomposition over `instances` a x b matrices
     * (a = rows, b = cols, s = 1): */
    CLIPT_OP_ROTATE_COLUMNS = 5,  /* column j rotated by floor(j / (b/gcd)) */
    CLIPT_OP_SHUFFLE_ROWS = 6,    /* every row permuted on its own         */
    CLIPT_OP_SHUFFLE_COLUMNS = 7, /* every column permuted on its own      */
    /* R2C's passes, the inverses of those three, over the cols x rows view
     * (a = cols, b = rows of the matrix): */
    CLIPT_OP_UNSHUFFLE_COLUMNS = 8, /* undoes SHUFFLE_COLUMNS                */
    CLIPT_OP_UNSHUFFLE_ROWS = 9,    /* undoes SHUFFLE_ROWS                   */
    CLIPT_OP_UNROTATE_COLUMNS = 10  /* undoes ROTATE_COLUMNS                 */
} clipt_stage_op;

/** How a stage is computed: the kernel family (one file under cl/). */
typedef enum clipt_kernel_family {
    CLIPT_FAMILY_TILE_LOCAL = 1,     /* transpose010.cl: tiles staged whole
                                        in local memory (BS)              */
    CLIPT_FAMILY_TILE_CYCLES = 2,    /* pttwac010.cl: cycles inside a tile,
                                        flag bits in local memory (PTTWAC) */
    CLIPT_FAMILY_SUPER_LOCAL = 3,    /* shift100.cl: super-elements through
                                        local memory, claim flags          */
    CLIPT_FAMILY_SUPER_SLICES = 4,   /* shift100_slices.cl: independent
                                        register slices, flags in global
                                        memory                            */
    CLIPT_FAMILY_SUPER_SEGMENTS = 5, /* shift100_segments.cl: cycles cut
                                        into segments at plan creation    */
    CLIPT_FAMILY_ROWS = 6,           /* pad.cl: rows moved to a new pitch */
    CLIPT_FAMILY_C2R = 7             /* c2r.cl: a row or a column block
                                        gathered through local memory or
                                        global scratch                    */
} clipt_kernel_family;

/** One stage of a plan, as clipt_plan_query_stage reports it.  The strings
 *  are static or owned by the plan (valid until it is released). */
typedef struct clipt_stage_info {
    clipt_stage_op op;
    clipt_kernel_family family;
    const char *label;        /* the papers' name: "0010!", "100!", "pad"   */
    const char *kernels;      /* kernel name(s), e.g. "walk_segments"       */
    cl_ulong instances, a, b, s; /* the region (for PAD/UNPAD: instances
                                    rows of a elements, b = s = 1)        */
    cl_ulong pitch_from, pitch_to; /* PAD/UNPAD: row pitch in elements
                                      before and after; otherwise 0       */
    int super_transposed;     /* MOVE_SUPER: each super-element is also
                                 transposed (fused 1000! + 0010!)         */
    size_t global_size, local_size; /* one 1-D launch (the largest, if the
                                       family launches more than once)    */
    size_t local_bytes;       /* local memory passed as kernel arguments    */
    size_t scratch_bytes;     /* part of the plan's scratch buffer it uses  */
    size_t table_bytes;       /* device memory of its own (segment tables)  */
    const char *build_options; /* its kernels' build options ("-D...")     */
    size_t word_bytes;        /* bytes its kernels move as one element: the
                                 element size, or a multiple of it in a
                                 permutation's widened pass, or when the
                                 stage's contiguous units allow (a
                                 super-element move or padding stage
                                 "widened"; the option wide_bytes)         */
} clipt_stage_info;

/** A plan's choices, as clipt_plan_query reports them.  The strings are
 *  static or owned by the plan (valid until it is released). */
typedef struct clipt_plan_info {
    size_t rows, cols, elem_size;
    clipt_sequence sequence;  /* the sequence run (AUTO for C2R, or a single row or
                                 column, where nothing moves)             */
    int sequence_forced;      /* 1 when the options forced it              */
    size_t tile_m, tile_n;    /* factors of padded_rows and padded_cols     */
    const char *tile_reason;  /* why these tiles                            */
    size_t padded_rows, padded_cols; /* == rows, cols when not padded      */
    size_t buffer_bytes;      /* clipt_plan_buffer_size                     */
    size_t scratch_bytes;     /* clipt_plan_scratch_size                    */
    unsigned num_stages;      /* stages run (identities are skipped)        */
    const char *tuning_entry; /* the device's tuning table entry            */
    double predicted_seconds; /* the cost model's time for one run (device
                                 time, from the tuning entry's model_*
                                 values; 0 when nothing moves)            */
    clipt_algorithm algorithm; /* TPDS, C2R or R2C (never AUTO)            */
    /* The array as given to clipt_plan_create_permute (clipt_plan_create:
     * ndim 2, dims {rows, cols}, perm {1, 0}) and the number of passes.  rows and cols above are then the 2-D transposition the plan
     * runs when it is one (num_passes 1, A = D = 1), else the number of
     * elements and 1. */
    unsigned ndim;
    size_t dims[CLIPT_MAX_DIMS];
    unsigned perm[CLIPT_MAX_DIMS];
    unsigned num_passes;
} clipt_plan_info;

/** Fills *info with the plan's choices.  Errors: CLIPT_ERROR_NULL_ARGUMENT.
 *  Thread-safe. */
CLIPT_API clipt_status clipt_plan_query(clipt_plan p, clipt_plan_info *info);

/** Fills *info with stage `index` (0-based, in the order they run) of the
 *  plan.  Errors: CLIPT_ERROR_NULL_ARGUMENT, CLIPT_ERROR_INVALID_OPTION
 *  (index >= num_stages).  Thread-safe. */
CLIPT_API clipt_status clipt_plan_query_stage(clipt_plan p, unsigned index,
                                              clipt_stage_info *info);

/** Number of tuning values (the tuning fields of clipt_plan_options), and
 *  the name of value `index` in the library's own order (NULL past the
 *  end; the string is static).  Thread-safe. */
CLIPT_API unsigned clipt_tuning_count(void);
CLIPT_API const char *clipt_tuning_name(unsigned index);

/** The value of tuning field `name` that a context's device entry gives
 *  (clipt_context_tuning), or that a plan runs with after its options'
 *  overrides (clipt_plan_tuning).  Errors: CLIPT_ERROR_NULL_ARGUMENT,
 *  CLIPT_ERROR_INVALID_OPTION (no such field; *value unchanged).
 *  Thread-safe. */
CLIPT_API clipt_status clipt_context_tuning(clipt_context c, const char *name,
                                            unsigned *value);
CLIPT_API clipt_status clipt_plan_tuning(clipt_plan p, const char *name,
                                         unsigned *value);

/** The label of the device's tuning table entry (static or owned by the
 *  context; valid until it is released).  NULL for a NULL context.
 *  Thread-safe. */
CLIPT_API const char *clipt_context_tuning_entry(clipt_context c);

/** Enqueues the whole transposition on `q`, which must belong to the plan's
 *  context and device.  The matrix starts `offset_bytes` (a multiple of the
 *  element size) into `buf`, which must hold clipt_plan_buffer_size(p) bytes
 *  from there and be writable by kernels.
 *
 *  Every argument is checked before anything is enqueued: on any
 *  CLIPT_ERROR_* return nothing was enqueued and the buffer is untouched
 *  (see the last paragraph for runtime failures).
 *  Non-blocking.  Works on in-order and out-of-order queues: the stages are
 *  chained with events, the first waits for `event_wait_list` (which follows
 *  the OpenCL rules: NULL iff num_events_in_wait_list is 0).  If `event` is
 *  not NULL it receives one new event that completes when the whole
 *  transposition has; the caller releases it.  Enqueues of the same plan are
 *  serialised on the device (the plan reuses its scratch buffer).
 *  Widening: a plan may read the buffer as elements wider than
 *  elem_size, in two ways: a permutation's pass whose runs of D elements
 *  make 2, 4, 8 or 16 bytes moves each run as one element
 *  (clipt_plan_create_permute), and a stage whose whole units allow it
 *  moves them as wider words (clipt_stage_info.word_bytes, at most 16
 *  bytes; the option wide_bytes).  At an offset that is not a multiple of
 *  the widest such element, the plan runs its twin instead: the same
 *  permutation and options with neither widening, made at the first such
 *  call (blocking then: kernel builds, once) and kept by the plan, in
 *  order with the plan's other runs.  From then on clipt_plan_scratch_size
 *  counts the twin's device memory too; clipt_plan_profile reports the
 *  stages of whichever of the two ran last.
 *  Errors: CLIPT_ERROR_NULL_ARGUMENT, CLIPT_ERROR_DEVICE_MISMATCH,
 *  CLIPT_ERROR_BUFFER_TOO_SMALL, CLIPT_ERROR_MISALIGNED_OFFSET,
 *  CLIPT_ERROR_READ_ONLY_BUFFER, CLIPT_ERROR_WRITE_ONLY_BUFFER,
 *  CLIPT_ERROR_INVALID_WAIT_LIST, CLIPT_ERROR_WAIT_EVENT_FAILED (an event of
 *  the wait list has a negative execution status already: a command waiting
 *  for it would never run, and on some runtimes never complete either),
 *  CLIPT_ERROR_OUT_OF_HOST_MEMORY, CL_*.
 *  An event of the wait list that fails later makes this transposition fail
 *  (its event reports CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST and the
 *  buffer is untouched), and with it a later enqueue of the plan that was
 *  queued before the failure (it waits for this one); enqueues made after
 *  the failure do not wait for the failed run and go ahead.
 *  A CL_* error from the runtime while the stages are being enqueued (after
 *  every check passed and every kernel argument was set) can leave earlier
 *  stages queued: they still run, the
 *  plan's next enqueue waits for them, and the buffer then holds a partly
 *  transposed matrix; nothing clipt can check beforehand leads there.
 *  Thread-safe (see the header's thread rules). */
CLIPT_API clipt_status clipt_enqueue(clipt_plan p, cl_command_queue q,
                                     cl_mem buf, size_t offset_bytes,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list,
                                     cl_event *event);

/** Device time of the plan's most recent enqueue, from OpenCL event
 *  profiling: the queue must have CL_QUEUE_PROFILING_ENABLE and that enqueue
 *  must have completed.  *total_seconds (if not NULL) runs from the start of
 *  the first command to the end of the last, plus, when that enqueue was
 *  the plan's first, the time its cycle-segment tables took to be cut on
 *  the device (work that clipt_plan_create leaves to the first run, so
 *  that creation costs the host nothing in proportion to the matrix;
 *  none when the context's pool had them: see "Caching").  stage_seconds (if not NULL)
 *  receives up to max_stages per-stage times, each from the stage's first
 *  command (flag reset included) to its kernel's end; *num_stages (if not
 *  NULL) the number of stages.  When that enqueue ran the plan's twin
 *  without widening (a misaligned offset: see clipt_enqueue), the stages
 *  are the twin's.  Errors: CLIPT_ERROR_NULL_ARGUMENT,
 *  CL_PROFILING_INFO_NOT_AVAILABLE, CL_INVALID_OPERATION (never enqueued).
 *  Blocking: no (does not wait).  Not to race with an enqueue of the plan. */
CLIPT_API clipt_status clipt_plan_profile(clipt_plan p, double *total_seconds,
                                          double *stage_seconds,
                                          unsigned max_stages,
                                          unsigned *num_stages);

/** Releases a plan and its scratch buffer.  NULL is accepted.  Commands
 *  already enqueued keep what they need alive.  Must not race with other
 *  calls on the same plan. */
CLIPT_API void clipt_plan_release(clipt_plan p);

/* ------------------------------------------------------------------ */
/* One-shot                                                            */
/* ------------------------------------------------------------------ */

/** Transposes in place, blocking, the rows x cols matrix at offset_bytes in
 *  buf, which holds exactly rows*cols*elem_size bytes from there (no room
 *  for padding is needed: the plan is made with CLIPT_PADDING_NONE).
 *  The context of the queue's (cl_context, device) and the plan of the
 *  shape come from the process's cache (see "Caching" at the top): the
 *  first call on a device creates the context and builds the programs it
 *  needs, the first call of a shape makes its plan; later calls reuse them,
 *  so a repeated call costs about what clipt_enqueue of a kept plan does.
 *  Keep a plan of your own (clipt_plan_create) to choose its options, to
 *  profile it, or to run one shape on several queues side by side.
 *  Returns after the transposition has finished.
 *  Same errors as clipt_context_create, clipt_plan_create and
 *  clipt_enqueue, and CL_* from clWaitForEvents; a bad argument leaves the
 *  buffer untouched.  Thread-safe. */
CLIPT_API clipt_status clipt_transpose(cl_command_queue q, cl_mem buf,
                                       size_t offset_bytes, size_t rows,
                                       size_t cols, size_t elem_size);

/** (cl_context, cl_device_id) pairs clipt_transpose keeps contexts for. */
#define CLIPT_TRANSPOSE_CACHE_SIZE 4

/** Drops every context clipt_transpose keeps (with their programs and
 *  plans), releasing the cl_context and device each retained: after it, a
 *  context the application released is freed (once calls running on it
 *  return).  The next clipt_transpose starts afresh.  Thread-safe; may run
 *  while other threads call clipt_transpose. */
CLIPT_API void clipt_transpose_cache_clear(void);

/* ------------------------------------------------------------------ */
/* Host arrays                                                         */
/* ------------------------------------------------------------------ */

/** Most command queues clipt_transpose_host accepts. */
#define CLIPT_HOST_MAX_QUEUES 64

/** Transposes the row-major rows x cols matrix of elem_size-byte elements
 *  held in host memory at `data` (exactly rows*cols*elem_size bytes): copies
 *  it to a temporary device buffer, transposes it there with a plan made
 *  from `opts` (NULL = defaults; padding is allowed, the buffer has room:
 *  CLIPT_PADDING_SCRATCH, and NONE without forced tiles, run as AUTO),
 *  and copies the cols x rows transpose back into the same host memory.
 *  The buffer and the extra queues' scratch are made for the call and
 *  released before it returns; the plan comes from c's plan cache (made and
 *  cached on the first call of the shape and options; see "Caching" at
 *  the top), kernels from c's program cache.
 *
 *  `queues` = Q splits the work over Q in-order command queues: `q` and
 *  Q - 1 queues that clipt creates on q's context and device for the call
 *  (released before it returns).  The stages whose independent instances
 *  each cover a contiguous part of the matrix (the 010!/0010! tile batches
 *  and the 0100! instances) at the start and at the end of the plan are cut
 *  into up to Q pieces: each piece is uploaded and transposed on its own
 *  queue while the others still transfer, and each piece of the last stages
 *  is read back as soon as it is done, so transfers overlap compute (Sung
 *  et al., PPoPP 2014, Sec. 6).  Stages that span the whole matrix (100!
 *  of one instance, padding) run on q alone, and the upload or read-back
 *  next to them is one piece.  Q = 1 is the plain upload, transposition,
 *  read-back on q.
 *
 *  Errors, all returned before anything touches `data` (which is then
 *  unchanged): CLIPT_ERROR_NULL_ARGUMENT (c, q or data NULL),
 *  CLIPT_ERROR_INVALID_OPTION (Q = 0 or Q > CLIPT_HOST_MAX_QUEUES, or a bad
 *  option), CLIPT_ERROR_DEVICE_MISMATCH (q is not on c's context and
 *  device), every error of clipt_plan_create, and CL_* from creating the
 *  buffer, the queues and the scratch buffers.  A CL_* failure after that
 *  (an enqueue refused, or a command that fails on the device): the call
 *  still waits for every command it enqueued and returns the first failure;
 *  every byte of `data` then holds either its original value or its value
 *  in the transpose (the pieces read back before the failure).
 *
 *  Blocking: returns after every command it enqueued has finished, on
 *  success and on failure, so `data` is not touched after it returns.
 *  Commands the caller enqueued on q before come first only if q is
 *  in-order.  Thread-safe: several threads may call it at once with the same
 *  context and queue; nothing else may use `data` during the call.  Calls
 *  of the same shape and options on one context share the cached plan and
 *  run one after the other, transfers included (correct, but serialised:
 *  give each thread its own context to overlap them). */
CLIPT_API clipt_status clipt_transpose_host(clipt_context c, cl_command_queue q,
                                            void *data, size_t rows, size_t cols,
                                            size_t elem_size, unsigned queues,
                                            const clipt_plan_options *opts);

#ifdef __cplusplus
}
#endif

#endif /* CLIPT_H */
