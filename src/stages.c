/* Elementary tiled transpositions: kernel choice, launch sizes, enqueue. */
#include "stages.h"
#include "cycles.h"

#include <stdio.h>
#include <string.h>

/* Largest slice a 100! work-item carries in registers. */
#define CLIPT_SLICE_MAX_BYTES 64

static const char *elem_type_name(size_t elem_size)
{
    switch (elem_size) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    case 8: return "ulong";
    case 16: return "uint4";
    default: return NULL;
    }
}

/* Magic numbers for dividing any 32-bit n by d with a multiply and shifts
 * (Granlund and Montgomery's round-up method). */
static void divisor_magic(uint64_t d, cl_uint *magic, cl_uint *sh1, cl_uint *sh2)
{
    unsigned l = 0;
    while (l < 32 && ((uint64_t)1 << l) < d)
        l++;
    *magic = (cl_uint)((((uint64_t)1 << 32) * (((uint64_t)1 << l) - d)) / d + 1);
    *sh1 = l < 1 ? l : 1;
    *sh2 = l > 0 ? l - 1 : 0;
}

static cl_uint4 divisor_vector(uint64_t d)
{
    cl_uint4 v;
    divisor_magic(d, &v.s[0], &v.s[1], &v.s[2]);
    v.s[3] = (cl_uint)d;
    return v;
}

/* Work-groups a 100! launch keeps busy: the explicit total if the plan set
 * one, else enough to fill every compute unit. */
static size_t groups_cap_100(clipt_context c, const clipt_tuning *t)
{
    if (t->groups_100)
        return t->groups_100;
    return (size_t)c->profile.compute_units * t->groups_per_cu_100;
}

static size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

/* Whether kernels may index a region of `count` elements with 32-bit
 * arithmetic (their SMALL_INDEX build option). */
static int small_index(clipt_context c, uint64_t count)
{
    return count < c->wide_index_from;
}

int clipt_stage_is_identity(const clipt_stage_spec *spec)
{
    if (spec->kind == CLIPT_STAGE_PAD || spec->kind == CLIPT_STAGE_UNPAD)
        return spec->sa == spec->sb || spec->instances == 0;
    if (spec->kind == CLIPT_STAGE_SHIFT100 && spec->sa > 1 && spec->sb > 1)
        return 0; /* super-elements still get transposed */
    return spec->instances == 0 || spec->a <= 1 || spec->b <= 1;
}

size_t clipt_stage_local_budget(clipt_context c)
{
    return (size_t)c->profile.local_mem_bytes;
}

/* Creates the kernel and reads its limits. */
static clipt_status make_kernel(clipt_context c, const char *file,
                                clipt_stage *st, size_t *wg_limit,
                                size_t *static_local)
{
    cl_ulong local_used = 0;
    clipt_status status = clipt_loader_kernel(c, file, st->options,
                                              st->kernel_name, &st->kernel);
    if (status != CLIPT_SUCCESS)
        return status;
    status = clGetKernelWorkGroupInfo(st->kernel, c->device,
                                      CL_KERNEL_WORK_GROUP_SIZE,
                                      sizeof *wg_limit, wg_limit, NULL);
    if (status == CL_SUCCESS)
        status = clGetKernelWorkGroupInfo(st->kernel, c->device,
                                          CL_KERNEL_LOCAL_MEM_SIZE,
                                          sizeof local_used, &local_used, NULL);
    *static_local = (size_t)local_used;
    if (status != CL_SUCCESS) {
        clReleaseKernel(st->kernel);
        st->kernel = NULL;
    }
    return status;
}

static clipt_status prepare_bs010(clipt_context c, size_t elem,
                                  const clipt_tuning *t, clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    const size_t budget = clipt_stage_local_budget(c);
    size_t wg_limit = 0, static_local = 0, usable;
    clipt_status status;
    const size_t ab = (size_t)(sp->a * sp->b);

    st->kernel_name = "transpose010_bs";
    snprintf(st->options, sizeof st->options, "-DELEM_TYPE=%s",
             elem_type_name(elem));
    if (sp->a * sp->b * elem > budget || sp->a * sp->b > UINT32_MAX)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    status = make_kernel(c, "transpose010.cl", st, &wg_limit, &static_local);
    if (status != CLIPT_SUCCESS)
        return status;
    usable = budget > static_local ? budget - static_local : 0;
    if (ab * elem > usable)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    /* an odd row pitch spreads the column reads over the banks */
    st->pitch = (unsigned)sp->b;
    if (sp->b % 2 == 0 && sp->a * (sp->b + 1) * elem <= usable)
        st->pitch = (unsigned)sp->b + 1;
    {
        size_t slots = (size_t)sp->a * st->pitch;
        size_t by_target = t->tile_elems_010 / ab;
        size_t by_memory = usable / (slots * elem);
        size_t batch = min_sz(by_target ? by_target : 1, by_memory);
        batch = min_sz(batch ? batch : 1, (size_t)sp->instances);
        st->batch = (unsigned)batch;
        st->local_bytes[0] = batch * slots * elem;
    }
    st->local = min_sz(t->wg_010, wg_limit);
    if (st->local < 1)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    {
        size_t batches = (size_t)((sp->instances + st->batch - 1) / st->batch);
        size_t cap = (size_t)c->profile.compute_units * t->groups_per_cu_010;
        size_t groups = min_sz(batches, cap ? cap : 1);
        st->global = groups * st->local;
    }
    return CLIPT_SUCCESS;
}

static size_t pow2_at_least(size_t x)
{
    size_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

/* Largest divisor of s whose slice of q elements stays within max_bytes. */
static size_t slice_elems(size_t s, size_t elem, size_t max_bytes)
{
    size_t best = 1;
    for (size_t q = 1; q <= s && q * elem <= max_bytes; q++)
        if (s % q == 0)
            best = q;
    return best;
}

/* Elements per segment-walk work-item: the largest divisor of s within
 * `bytes`; but when s's divisors leave that under 8 bytes (s = 125 allows
 * only 4-byte items within 16), up to twice as much: measured on an H100,
 * 125-element super-elements moved 15 % faster with 20-byte items than with
 * 4-byte ones, while 32-byte items slowed 30-40-element ones down. */
static size_t walk_slice_elems(size_t s, size_t elem, size_t bytes)
{
    size_t q = slice_elems(s, elem, bytes);
    if (q * elem < 8)
        q = slice_elems(s, elem, 2 * bytes);
    return q;
}

/* 100! by independent slices held in registers (shift100_slices.cl). */
static clipt_status prepare_shift100_slices(clipt_context c, size_t elem,
                                            const clipt_tuning *t, clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    const size_t q = slice_elems((size_t)sp->s, elem, CLIPT_SLICE_MAX_BYTES);
    const uint64_t work = sp->instances * sp->a * sp->b * (sp->s / q);
    size_t wg_limit = 0, static_local = 0, wg, groups, cap;
    clipt_status status;
    st->kernel_name = "shift100_slices";
    if (sp->s / q > UINT32_MAX) /* slices per super-element: a uint argument */
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    st->worker = (unsigned)q; /* elements per slice */
    snprintf(st->options, sizeof st->options, "-DELEM_TYPE=%s -DELEM_WORDS=%d -DQ=%zu",
             elem_type_name(elem), elem == 16 ? 4 : 1, q);
    status = make_kernel(c, "shift100_slices.cl", st, &wg_limit, &static_local);
    if (status != CLIPT_SUCCESS)
        return status;
    wg = min_sz(t->wg_100, wg_limit);
    cap = groups_cap_100(c, t);
    groups = (size_t)((work + wg - 1) / wg);
    groups = min_sz(groups, cap ? cap : 1);
    st->local = wg;
    st->global = (groups ? groups : 1) * wg;
    st->local_bytes[0] = st->local_bytes[1] = 0;
    st->scratch_bytes = (size_t)((work + 31) / 32) * 4;
    return CLIPT_SUCCESS;
}

static clipt_status upload(clipt_context c, const void *data, size_t bytes,
                           cl_mem *out)
{
    cl_int err;
    *out = clCreateBuffer(c->cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          bytes ? bytes : 4, (void *)(uintptr_t)data, &err);
    return err;
}

/* Device bytes a segment walk keeps: the saved heads of every instance and
 * the descriptors (start, length, slot: 16 bytes) of every segment. */
static uint64_t segment_bytes(const clipt_stage_spec *sp, size_t elem,
                              const clipt_segments *segs)
{
    return sp->instances * segs->saved * sp->s * elem +
           segs->count * (uint64_t)(sizeof *segs->start + sizeof *segs->length +
                                    sizeof *segs->slot);
}

/* 100! along host-cut cycle segments (shift100_segments.cl).  Segments are
 * as short as the memory rule allows: the saved heads and the descriptors
 * together stay under 0.95 % of the stage's data (or 4 MiB for small
 * stages).
 * The segment length comes from an estimate (one head and one descriptor
 * per seg_len positions) and is doubled, and the cycles walked again, in
 * the rare case where short cycles make the real tables larger. */
static clipt_status prepare_shift100_segments(clipt_context c, size_t elem,
                                              const clipt_tuning *t,
                                              clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    const size_t q = walk_slice_elems((size_t)sp->s, elem,
                                      t->walk_item_bytes ? t->walk_item_bytes : 16);
    const uint64_t stage_bytes = sp->instances * sp->a * sp->b * sp->s * elem;
    /* 0.95 %: stages share the plan's scratch buffer (the largest heads)
     * but each keeps its own tables, so the plan stays under 1 % */
    const uint64_t share = stage_bytes / 10000 * 95;
    const uint64_t budget = share > (4u << 20) ? share : (4u << 20);
    clipt_segments segs;
    size_t wg_limit = 0, static_local = 0, wg, groups, cap;
    uint64_t work;
    unsigned seg_len = 16;
    clipt_status status;
    if (sp->s / q > UINT32_MAX) /* slices per super-element: a uint argument */
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    while (sp->a * sp->b / seg_len * (sp->instances * sp->s * elem + 16) > budget &&
           seg_len < (1u << 16))
        seg_len *= 2;
    for (;;) {
        status = clipt_cycle_segments(sp->a, sp->b, seg_len, (size_t)(budget / 16), &segs);
        if (status != CLIPT_SUCCESS)
            return status;
        if (segment_bytes(sp, elem, &segs) <= budget || seg_len >= (1u << 16))
            break;
        clipt_segments_free(&segs);
        seg_len *= 2;
    }
    st->seg_len = seg_len;
    st->seg_count = segs.count;
    st->seg_saved = segs.saved;
    st->worker = (unsigned)q;
    st->kernel_name = "walk_segments";
    snprintf(st->options, sizeof st->options,
             "-DELEM_TYPE=%s -DQ=%zu -DUNROLL=%u -DSMALL_INDEX=%d",
             elem_type_name(elem), q, t->walk_unroll ? t->walk_unroll : 4,
             small_index(c, sp->a * sp->b));
    if ((status = upload(c, segs.start, segs.count * sizeof *segs.start, &st->seg_start)) ||
        (status = upload(c, segs.length, segs.count * sizeof *segs.length, &st->seg_length)) ||
        (status = upload(c, segs.slot, segs.count * sizeof *segs.slot, &st->seg_slot)))
        goto done;
    st->aux_bytes = segs.count * (sizeof *segs.start + sizeof *segs.length + sizeof *segs.slot);
    if ((status = make_kernel(c, "shift100_segments.cl", st, &wg_limit, &static_local)))
        goto done;
    st->kernel2 = st->kernel;
    st->kernel_name = "save_segment_heads";
    if ((status = make_kernel(c, "shift100_segments.cl", st, &wg_limit, &static_local)))
        goto done;
    st->kernel_name = "save_segment_heads + walk_segments";
    work = sp->instances * segs.count * (sp->s / q);
    wg = min_sz(t->wg_100, wg_limit);
    cap = groups_cap_100(c, t);
    groups = (size_t)((work + wg - 1) / wg);
    groups = min_sz(groups ? groups : 1, cap ? cap : 1);
    st->local = wg;
    st->global = groups * wg;
    st->scratch_bytes = (size_t)(sp->instances * segs.saved * sp->s * elem);
done:
    clipt_segments_free(&segs);
    return status;
}

static clipt_status prepare_shift100(clipt_context c, size_t elem,
                                     const clipt_tuning *t, clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    const size_t budget = clipt_stage_local_budget(c);
    const int fused = sp->sa > 1 && sp->sb > 1;
    const size_t per_worker = (size_t)sp->s * elem * (fused ? 2 : 1);
    /* per-worker bookkeeping in local memory (see shift100.cl) */
    const size_t per_worker_state = 3 * 8 + 2 * 4;
    size_t worker = min_sz(pow2_at_least((size_t)sp->s), t->simd_100 ? t->simd_100 : 1);
    size_t wg = t->wg_100 > worker ? t->wg_100 / worker * worker : worker;
    const uint64_t total = sp->instances * sp->a * sp->b;

    st->kernel_name = "shift100";
    if (sp->s > UINT32_MAX || per_worker + per_worker_state + 64 > budget)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    for (;;) {
        size_t workers = wg / worker;
        size_t wg_limit = 0, static_local = 0;
        clipt_status status;
        /* fewer workers when their super-elements overflow local memory */
        while (workers > 1 && workers * (per_worker + per_worker_state) + 64 > budget)
            workers /= 2;
        wg = workers * worker;
        snprintf(st->options, sizeof st->options,
                 "-DELEM_TYPE=%s -DWORKER_SIZE=%zu -DMAX_WORKERS=%zu "
                 "-DTRANSPOSE_SUPER=%d",
                 elem_type_name(elem), worker, workers, fused);
        status = make_kernel(c, "shift100.cl", st, &wg_limit, &static_local);
        if (status != CLIPT_SUCCESS)
            return status;
        if (wg <= wg_limit &&
            static_local + workers * per_worker <= budget) {
            st->worker = (unsigned)worker;
            st->workers = (unsigned)workers;
            st->local = wg;
            st->local_bytes[0] = workers * (size_t)sp->s * elem;
            st->local_bytes[1] = fused ? st->local_bytes[0] : elem;
            break;
        }
        clReleaseKernel(st->kernel);
        st->kernel = NULL;
        if (workers > 1)
            wg = (workers / 2) * worker;
        else if (worker > 1)
            worker /= 2, wg = worker;
        else
            return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    }
    {
        uint64_t needed = (total + st->workers - 1) / st->workers;
        size_t cap = groups_cap_100(c, t);
        size_t groups = (size_t)(needed < cap ? needed : cap);
        st->global = (groups ? groups : 1) * st->local;
    }
    st->scratch_bytes = (size_t)((total + 31) / 32) * 4;
    return CLIPT_SUCCESS;
}

/* PTTWAC flag words for an ab-element tile with spreading R and padding P. */
static size_t pttwac_flag_words(size_t ab, unsigned spread, unsigned pad)
{
    size_t words = (ab * spread + 31) / 32;
    return words + (words / 32) * pad + 1;
}

static clipt_status prepare_pttwac010(clipt_context c, size_t elem,
                                      const clipt_tuning *t, clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    const size_t budget = clipt_stage_local_budget(c);
    const size_t ab = (size_t)(sp->a * sp->b);
    unsigned spread = t->pttwac_spread ? t->pttwac_spread : 1;
    size_t wg_limit = 0, static_local = 0, words;
    clipt_status status;

    if (sp->a * sp->b > UINT32_MAX / 32)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    /* a smaller spreading factor when the spread flags overflow */
    while (spread > 1 && pttwac_flag_words(ab, spread, t->pttwac_pad) * 4 > budget)
        spread /= 2;
    words = pttwac_flag_words(ab, spread, t->pttwac_pad);
    if (words * 4 > budget)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    st->kind_used = CLIPT_STAGE_PTTWAC010;
    st->kernel_name = "pttwac010";
    st->spread = spread;
    st->flag_pad = t->pttwac_pad;
    st->flag_words = (unsigned)words;
    snprintf(st->options, sizeof st->options,
             "-DELEM_TYPE=%s -DSPREAD=%u -DFLAG_PAD=%u", elem_type_name(elem),
             spread, t->pttwac_pad);
    status = make_kernel(c, "pttwac010.cl", st, &wg_limit, &static_local);
    if (status != CLIPT_SUCCESS)
        return status;
    if (static_local + words * 4 > budget)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    st->local = min_sz(t->wg_010, wg_limit);
    st->local_bytes[0] = words * 4;
    {
        size_t cap = (size_t)c->profile.compute_units * t->groups_per_cu_010;
        st->global = min_sz((size_t)sp->instances, cap ? cap : 1) * st->local;
    }
    return CLIPT_SUCCESS;
}

static clipt_status prepare_move_rows(clipt_context c, size_t elem,
                                      const clipt_tuning *t, clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    size_t wg_limit = 0, static_local = 0, chunk, chunks;
    const uint64_t count = sp->instances * sp->a;
    /* chunks of about 16 KiB: each chunk pays one announce-and-wait, so
     * larger chunks amortise it (2048-element chunks ran at ~50 % of copy
     * bandwidth on an H100) while staying well inside local memory; at
     * most half of it, so that devices with 16 KiB or less still pad */
    const size_t chunk_bytes = min_sz(16384, clipt_stage_local_budget(c) / 2);
    clipt_status status;
    st->kernel_name = sp->kind == CLIPT_STAGE_PAD ? "pad_rows" : "unpad_rows";
    st->regs = (unsigned)(chunk_bytes / (min_sz(t->wg_010, 256) * elem));
    if (st->regs < 2)
        st->regs = 2;
    snprintf(st->options, sizeof st->options, "-DELEM_TYPE=%s -DREGS=%u -DSMALL_INDEX=%d",
             elem_type_name(elem), st->regs, small_index(c, count));
    status = make_kernel(c, "pad.cl", st, &wg_limit, &static_local);
    if (status != CLIPT_SUCCESS)
        return status;
    st->local = min_sz(t->wg_010, wg_limit);
    chunk = st->local * st->regs;
    st->local_bytes[0] = chunk * elem;
    if (static_local + st->local_bytes[0] > clipt_stage_local_budget(c))
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    chunks = (size_t)((count + chunk - 1) / chunk);
    if (chunks >= UINT32_MAX - 1)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    st->global = chunks * st->local;
    st->scratch_bytes = (chunks + 1) * 4;
    return CLIPT_SUCCESS;
}

clipt_status clipt_stage_prepare(clipt_context c, const clipt_stage_spec *spec,
                                 size_t elem_size, const clipt_tuning *tuning,
                                 clipt_stage *st)
{
    clipt_status status;
    memset(st, 0, sizeof *st);
    st->spec = *spec;
    if (!elem_type_name(elem_size))
        return CLIPT_ERROR_INVALID_ELEM_SIZE;
    st->kind_used = spec->kind;
    switch (spec->kind) {
    case CLIPT_STAGE_BS010:
        status = prepare_bs010(c, elem_size, tuning, st);
        if (status == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS) {
            clipt_stage_release(st);
            status = prepare_pttwac010(c, elem_size, tuning, st);
        }
        if (status == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS) {
            /* A instances of an a x b tile = 0100! of 1-element
             * super-elements, with its flags in global memory */
            clipt_stage_release(st);
            st->kind_used = CLIPT_STAGE_SHIFT100_SLICES;
            st->spec.s = 1;
            status = prepare_shift100_slices(c, elem_size, tuning, st);
        }
        break;
    case CLIPT_STAGE_PTTWAC010:
        status = prepare_pttwac010(c, elem_size, tuning, st);
        break;
    case CLIPT_STAGE_SHIFT100:
        if (spec->sa > 1 && spec->sb > 1) {
            status = prepare_shift100(c, elem_size, tuning, st);
        } else {
            st->kind_used = CLIPT_STAGE_SHIFT100_SEGMENTS;
            status = prepare_shift100_segments(c, elem_size, tuning, st);
            if (status == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS) {
                /* too many short cycles, or too large to walk: flags */
                clipt_stage_release(st);
                st->kind_used = CLIPT_STAGE_SHIFT100_SLICES;
                status = prepare_shift100_slices(c, elem_size, tuning, st);
            }
        }
        break;
    case CLIPT_STAGE_PAD:
    case CLIPT_STAGE_UNPAD:
        status = prepare_move_rows(c, elem_size, tuning, st);
        break;
    default:
        status = CLIPT_ERROR_INCOMPATIBLE_OPTIONS;
        break;
    }
    /* checked here, once, so that enqueueing cannot fail on launch sizes */
    if (status == CLIPT_SUCCESS && st->global > 0 &&
        (st->local > c->profile.max_wg_size ||
         st->global > c->profile.max_global_size))
        status = CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    if (status != CLIPT_SUCCESS)
        clipt_stage_release(st);
    return status;
}

void clipt_stage_release(clipt_stage *st)
{
    cl_mem *mems[3] = {&st->seg_start, &st->seg_length, &st->seg_slot};
    if (st->kernel)
        clReleaseKernel(st->kernel);
    if (st->kernel2)
        clReleaseKernel(st->kernel2);
    st->kernel = st->kernel2 = NULL;
    for (int i = 0; i < 3; i++) {
        if (*mems[i])
            clReleaseMemObject(*mems[i]);
        *mems[i] = NULL;
    }
}

/* A kernel argument: its size and value (NULL value: a __local buffer). */
typedef struct kernel_arg {
    size_t size;
    const void *value;
} kernel_arg;

#define ARG(x) {sizeof(x), &(x)}
#define LOCAL_ARG(bytes) {(bytes), NULL}
#define COUNT_OF(a) ((cl_uint)(sizeof(a) / sizeof((a)[0])))

/* Sets args[0..n) on k in order; returns the first failure. */
static clipt_status set_args(cl_kernel k, const kernel_arg *args, cl_uint n)
{
    for (cl_uint i = 0; i < n; i++) {
        cl_int err = clSetKernelArg(k, i, args[i].size, args[i].value);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static clipt_status set_args_bs010(const clipt_stage *st, cl_mem buf,
                                   cl_ulong offset)
{
    const clipt_stage_spec *sp = &st->spec;
    cl_ulong instances = sp->instances;
    cl_uint a = (cl_uint)sp->a, b = (cl_uint)sp->b;
    cl_uint pitch = st->pitch, batch = st->batch;
    cl_uint4 div_ab = divisor_vector(sp->a * sp->b);
    cl_uint4 div_a = divisor_vector(sp->a), div_b = divisor_vector(sp->b);
    const kernel_arg args[] = {ARG(buf),   ARG(offset), ARG(instances),
                               ARG(a),     ARG(b),      ARG(pitch),
                               ARG(batch), LOCAL_ARG(st->local_bytes[0]),
                               ARG(div_ab), ARG(div_a), ARG(div_b)};
    return set_args(st->kernel, args, COUNT_OF(args));
}

static clipt_status set_args_pttwac010(const clipt_stage *st, cl_mem buf,
                                       cl_ulong offset)
{
    const clipt_stage_spec *sp = &st->spec;
    cl_ulong instances = sp->instances;
    cl_uint a = (cl_uint)sp->a, b = (cl_uint)sp->b, words = st->flag_words;
    const kernel_arg args[] = {ARG(buf), ARG(offset), ARG(instances), ARG(a),
                               ARG(b),   ARG(words),  LOCAL_ARG(st->local_bytes[0])};
    return set_args(st->kernel, args, COUNT_OF(args));
}

static clipt_status set_args_move_rows(const clipt_stage *st, cl_mem buf,
                                       cl_ulong offset, cl_mem scratch)
{
    const clipt_stage_spec *sp = &st->spec;
    cl_ulong count = sp->instances * sp->a, width = sp->a;
    /* the pitch that is not the width: padding's destination pitch or
     * unpadding's source pitch */
    cl_ulong pitch = sp->kind == CLIPT_STAGE_PAD ? sp->sb : sp->sa;
    cl_uint4 div_width = divisor_vector(sp->a);
    const kernel_arg args[] = {ARG(buf),   ARG(offset),  ARG(count),
                               ARG(width), ARG(pitch),   ARG(scratch),
                               LOCAL_ARG(st->local_bytes[0]), ARG(div_width)};
    return set_args(st->kernel, args, COUNT_OF(args));
}

static clipt_status set_args_shift100_slices(const clipt_stage *st, cl_mem buf,
                                             cl_ulong offset, cl_mem scratch)
{
    const clipt_stage_spec *sp = &st->spec;
    cl_ulong instances = sp->instances, a = sp->a, b = sp->b;
    cl_uint slices = (cl_uint)(sp->s / st->worker);
    const cl_uint zero = 0;
    const kernel_arg args[] = {ARG(buf), ARG(offset), ARG(instances), ARG(a),
                               ARG(b),   ARG(slices), ARG(scratch),   ARG(zero)};
    return set_args(st->kernel, args, COUNT_OF(args));
}

/* Arguments shared by save_segment_heads and walk_segments. */
static clipt_status set_args_segments(const clipt_stage *st, cl_kernel k,
                                      cl_mem buf, cl_ulong offset, cl_mem scratch)
{
    const clipt_stage_spec *sp = &st->spec;
    cl_ulong instances = sp->instances, a = sp->a, b = sp->b;
    cl_ulong segments = st->seg_count, per_instance = st->seg_saved;
    cl_uint slices = (cl_uint)(sp->s / st->worker);
    cl_uint magic, sh1, sh2;
    divisor_magic(sp->b, &magic, &sh1, &sh2);
    {
        const kernel_arg args[] = {
            ARG(buf),           ARG(offset),         ARG(instances),
            ARG(a),             ARG(b),              ARG(magic),
            ARG(sh1),           ARG(sh2),            ARG(slices),
            ARG(st->seg_start), ARG(st->seg_length), ARG(st->seg_slot),
            ARG(segments),      ARG(per_instance),   ARG(scratch)};
        return set_args(k, args, COUNT_OF(args));
    }
}

static clipt_status set_args_shift100(const clipt_stage *st, cl_mem buf,
                                      cl_ulong offset, cl_mem scratch)
{
    const clipt_stage_spec *sp = &st->spec;
    cl_ulong instances = sp->instances, a = sp->a, b = sp->b;
    cl_uint s = (cl_uint)sp->s, sa = (cl_uint)sp->sa, sb = (cl_uint)sp->sb;
    const kernel_arg args[] = {ARG(buf), ARG(offset), ARG(instances), ARG(a),
                               ARG(b),   ARG(s),      ARG(sa),        ARG(sb),
                               ARG(scratch), LOCAL_ARG(st->local_bytes[0]),
                               LOCAL_ARG(st->local_bytes[1])};
    return set_args(st->kernel, args, COUNT_OF(args));
}

clipt_status clipt_stage_set_args(const clipt_stage *st, cl_mem buf,
                                  cl_ulong offset, cl_mem scratch)
{
    clipt_status status;
    switch (st->kind_used) {
    case CLIPT_STAGE_SHIFT100_SEGMENTS:
        status = set_args_segments(st, st->kernel, buf, offset, scratch);
        if (status == CL_SUCCESS)
            status = set_args_segments(st, st->kernel2, buf, offset, scratch);
        return status;
    case CLIPT_STAGE_BS010:
        return set_args_bs010(st, buf, offset);
    case CLIPT_STAGE_PTTWAC010:
        return set_args_pttwac010(st, buf, offset);
    case CLIPT_STAGE_SHIFT100:
        return set_args_shift100(st, buf, offset, scratch);
    case CLIPT_STAGE_SHIFT100_SLICES:
        return set_args_shift100_slices(st, buf, offset, scratch);
    case CLIPT_STAGE_PAD:
    case CLIPT_STAGE_UNPAD:
        return set_args_move_rows(st, buf, offset, scratch);
    default:
        return CLIPT_ERROR_INCOMPATIBLE_OPTIONS;
    }
}

clipt_status clipt_stage_enqueue(const clipt_stage *st, cl_command_queue q,
                                 cl_mem scratch, cl_uint num_wait,
                                 const cl_event *wait, cl_event *first,
                                 cl_event *done)
{
    cl_event zeroed = NULL;
    clipt_status status;
    if (st->kind_used == CLIPT_STAGE_SHIFT100_SEGMENTS) {
        /* save the heads, then walk: the launch boundary orders them */
        status = clEnqueueNDRangeKernel(q, st->kernel, 1, NULL, &st->global,
                                        &st->local, num_wait, wait, &zeroed);
        if (status == CL_SUCCESS)
            status = clEnqueueNDRangeKernel(q, st->kernel2, 1, NULL, &st->global,
                                            &st->local, 1, &zeroed, done);
        if (status == CL_SUCCESS && first) {
            *first = zeroed;
            clRetainEvent(zeroed);
        }
        if (zeroed)
            clReleaseEvent(zeroed);
        return status;
    }
    if (st->scratch_bytes) {
        const cl_uint zero = 0;
        status = clEnqueueFillBuffer(q, scratch, &zero, sizeof zero, 0,
                                     st->scratch_bytes, num_wait, wait, &zeroed);
        if (status != CL_SUCCESS)
            return status;
        num_wait = 1;
        wait = &zeroed;
    }
    status = clEnqueueNDRangeKernel(q, st->kernel, 1, NULL, &st->global,
                                    &st->local, num_wait, wait, done);
    if (status == CL_SUCCESS && first) {
        *first = zeroed ? zeroed : *done;
        clRetainEvent(*first);
    }
    if (zeroed)
        clReleaseEvent(zeroed);
    return status;
}

int clipt_stage_format(const clipt_stage *st, char *buf, size_t len)
{
    const clipt_stage_spec *sp = &st->spec;
    int n;
    if (sp->kind == CLIPT_STAGE_PAD || sp->kind == CLIPT_STAGE_UNPAD)
        n = snprintf(buf, len, "%s kernel %s: %llu rows of %llu elements, row pitch "
                     "%llu -> %llu",
                     sp->label, st->kernel_name, (unsigned long long)sp->instances,
                     (unsigned long long)sp->a, (unsigned long long)sp->sa,
                     (unsigned long long)sp->sb);
    else
        n = snprintf(buf, len,
                     "%s kernel %s: %llu x (%llu x %llu) of %llu-element "
                     "super-elements%s",
                     sp->label, st->kernel_name, (unsigned long long)sp->instances,
                     (unsigned long long)sp->a, (unsigned long long)sp->b,
                     (unsigned long long)sp->s,
                     (sp->sa > 1 && sp->sb > 1) ? " (each transposed)" : "");
    if (n < 0 || (size_t)n >= len)
        return n;
    if (st->kind_used == CLIPT_STAGE_PTTWAC010 || st->kind_used == CLIPT_STAGE_SHIFT100_SEGMENTS) {
        int k = st->kind_used == CLIPT_STAGE_PTTWAC010
                    ? snprintf(buf + n, len - (size_t)n, "; flags spread %u pad %u",
                               st->spread, st->flag_pad)
                    : snprintf(buf + n, len - (size_t)n,
                               "; %zu cycle segments of <= %u positions (%zu heads saved, "
                               "%zu descriptor bytes)",
                               st->seg_count, st->seg_len, st->seg_saved, st->aux_bytes);
        n = k < 0 ? k : n + k;
        if (n < 0 || (size_t)n >= len)
            return n;
    }
    return n + snprintf(buf + n, len - (size_t)n,
                        "; global %zu local %zu; local memory %zu bytes; "
                        "scratch %zu bytes; options \"%s\"",
                        st->global, st->local,
                        st->local_bytes[0] + st->local_bytes[1],
                        st->scratch_bytes, st->options);
}

uint64_t clipt_stage_instance_elems(const clipt_stage *st)
{
    return st->spec.a * st->spec.b * st->spec.s;
}

clipt_status clipt_stage_enqueue_range(const clipt_stage *st, uint64_t first,
                                       uint64_t count, cl_command_queue q,
                                       cl_mem buf, cl_ulong offset, cl_mem scratch,
                                       cl_uint num_wait, const cl_event *wait,
                                       cl_event *done)
{
    /* every kernel loops over `instances` from the matrix start and indexes
     * its flags and saved heads from there, and launch sizes only bound the
     * work-groups, so a copy with fewer instances and a later start is the
     * same stage on the sub-range */
    clipt_stage part = *st;
    clipt_status status;
    if (st->spec.kind == CLIPT_STAGE_PAD || st->spec.kind == CLIPT_STAGE_UNPAD)
        return CLIPT_ERROR_INCOMPATIBLE_OPTIONS;
    if (count == 0 || first > st->spec.instances || count > st->spec.instances - first)
        return CLIPT_ERROR_INVALID_SHAPE;
    part.spec.instances = count;
    status = clipt_stage_set_args(&part, buf, offset + first * clipt_stage_instance_elems(st),
                                  scratch);
    if (status != CLIPT_SUCCESS)
        return status;
    return clipt_stage_enqueue(&part, q, scratch, num_wait, wait, NULL, done);
}
