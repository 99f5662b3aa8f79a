/* Stages: the choice of a kernel family for a spec (with the fallbacks),
 * and the dispatch to that family (see stages.h). */
#include "stage_kernel.h"

#include <stdio.h>
#include <string.h>

const clipt_family *const clipt_families[] = {
    &clipt_family_transpose010,     &clipt_family_pttwac010,
    &clipt_family_shift100,         &clipt_family_shift100_slices,
    &clipt_family_shift100_segments, &clipt_family_pad,
    &clipt_family_c2r};
const unsigned clipt_num_families = CLIPT_COUNT_OF(clipt_families);

static const clipt_family *family_of(clipt_kernel_family id)
{
    for (unsigned i = 0; i < clipt_num_families; i++)
        if (clipt_families[i]->id == id)
            return clipt_families[i];
    return NULL;
}

static int family_computes(const clipt_family *f, const clipt_stage_spec *spec)
{
    return (f->ops & 1u << spec->op) &&
           (!clipt_spec_transposes_super(spec) || f->transposes_super);
}

/* Prepares st for spec with family id, from a clean stage; on failure st
 * holds nothing (a fallback then starts afresh). */
static clipt_status try_family(clipt_context c, const clipt_stage_spec *spec,
                               clipt_kernel_family id, size_t elem,
                               const clipt_tuning *t, clipt_stage *st)
{
    const unsigned unit = st->unit;
    clipt_status status;
    memset(st, 0, sizeof *st);
    st->ctx = c;
    st->spec = *spec;
    st->unit = unit;
    st->elem = elem;
    st->family = family_of(id);
    status = st->family->prepare(c, elem, t, st);
    if (status != CLIPT_SUCCESS)
        clipt_stage_release(st);
    return status;
}

/* The library's choice of family, with its fallbacks. */
static clipt_status prepare_auto(clipt_context c, const clipt_stage_spec *spec,
                                 size_t elem, const clipt_tuning *t, clipt_stage *st)
{
    clipt_status status;
    switch (spec->op) {
    case CLIPT_OP_TRANSPOSE_TILES:
        status = try_family(c, spec, CLIPT_FAMILY_TILE_LOCAL, elem, t, st);
        if (status == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS)
            status = try_family(c, spec, CLIPT_FAMILY_TILE_CYCLES, elem, t, st);
        if (status == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS) {
            /* `instances` a x b tiles = 0100! of 1-element super-elements,
             * with its flags in global memory */
            clipt_stage_spec one = *spec;
            one.s = 1;
            status = try_family(c, &one, CLIPT_FAMILY_SUPER_SLICES, elem, t, st);
        }
        return status;
    case CLIPT_OP_MOVE_SUPER:
        if (clipt_spec_transposes_super(spec))
            return try_family(c, spec, CLIPT_FAMILY_SUPER_LOCAL, elem, t, st);
        status = try_family(c, spec, CLIPT_FAMILY_SUPER_SEGMENTS, elem, t, st);
        if (status == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS)
            /* too many short cycles, or too large to walk: flags */
            status = try_family(c, spec, CLIPT_FAMILY_SUPER_SLICES, elem, t, st);
        return status;
    case CLIPT_OP_PAD:
    case CLIPT_OP_UNPAD:
        return try_family(c, spec, CLIPT_FAMILY_ROWS, elem, t, st);
    case CLIPT_OP_ROTATE_COLUMNS:
    case CLIPT_OP_SHUFFLE_ROWS:
    case CLIPT_OP_SHUFFLE_COLUMNS:
    case CLIPT_OP_UNSHUFFLE_COLUMNS:
    case CLIPT_OP_UNSHUFFLE_ROWS:
    case CLIPT_OP_UNROTATE_COLUMNS:
        return try_family(c, spec, CLIPT_FAMILY_C2R, elem, t, st);
    default:
        return CLIPT_ERROR_INCOMPATIBLE_OPTIONS;
    }
}

clipt_status clipt_stage_prepare_as(clipt_context c, const clipt_stage_spec *spec,
                                    clipt_kernel_family family, size_t elem_size,
                                    const clipt_tuning *tuning, clipt_stage *st)
{
    const clipt_family *f = family_of(family);
    const clipt_stage_spec *original = spec;
    const size_t original_elem = elem_size;
    const int words = clipt_spec_rows_in_words(spec, elem_size, clipt_tuning_loops(tuning),
                                               tuning->wide_bytes);
    const size_t wide =
        words ? elem_size : clipt_spec_wide_bytes(spec, elem_size, tuning->wide_bytes);
    clipt_stage_spec own;
    clipt_status status;
    memset(st, 0, sizeof *st);
    st->ctx = c;
    st->spec = *spec;
    st->unit = 1;
    st->elem = elem_size;
    if (!clipt_elem_type_name(elem_size))
        return CLIPT_ERROR_INVALID_ELEM_SIZE;
    /* the same bytes moved in wider words: the kernels only copy elements,
     * so a stage on W-byte words of whole units is the same stage */
    st->unit = (unsigned)(wide / elem_size);
    own = clipt_spec_widened(spec, st->unit);
    spec = &own;
    elem_size = wide;
    if (family == CLIPT_FAMILY_AUTO)
        status = prepare_auto(c, spec, elem_size, tuning, st);
    else if (f && family_computes(f, spec))
        status = try_family(c, spec, family, elem_size, tuning, st);
    else
        status = CLIPT_ERROR_INCOMPATIBLE_OPTIONS;
    if (status == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS && words) {
        /* a word kernel's window did not fit local memory (gaps far wider
         * than the rows): the element kernels, on words of up to 8 bytes */
        clipt_tuning narrower = *tuning;
        narrower.wide_bytes = 8;
        clipt_stage_release(st);
        return clipt_stage_prepare_as(c, original, family, original_elem, &narrower, st);
    }
    /* checked here, once, so that enqueueing cannot fail on launch sizes */
    if (status == CLIPT_SUCCESS && st->global > 0 &&
        (st->local > c->profile.max_wg_size || st->global > c->profile.max_global_size))
        status = CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    if (status != CLIPT_SUCCESS)
        clipt_stage_release(st);
    return status;
}

clipt_status clipt_stage_prepare(clipt_context c, const clipt_stage_spec *spec,
                                 size_t elem_size, const clipt_tuning *tuning,
                                 clipt_stage *st)
{
    return clipt_stage_prepare_as(c, spec, CLIPT_FAMILY_AUTO, elem_size, tuning, st);
}

void clipt_stage_release(clipt_stage *st)
{
    if (st->family && st->family->release)
        st->family->release(st);
    if (st->kernel && st->ctx)
        clipt_pool_put_kernel(&st->ctx->pool, st->kernel);
    else if (st->kernel)
        clReleaseKernel(st->kernel);
    st->kernel = NULL;
}

clipt_stage_spec clipt_stage_plan_spec(const clipt_stage *st)
{
    return clipt_spec_narrowed(&st->spec, st->unit);
}

uint64_t clipt_stage_instance_elems(const clipt_stage *st)
{
    return clipt_spec_instance_elems(&st->spec) * st->unit;
}

/* The arguments for instances from `first` on, in the kernel's elements
 * (offset: the plan's): a split region's split counts from there
 * (negative once the sub-range starts in the tail). */
static clipt_stage_args region_args(const clipt_stage *st, uint64_t first, uint64_t count,
                                    cl_mem buf, cl_ulong offset, cl_mem tail, cl_mem scratch)
{
    const uint64_t skip = first * clipt_spec_instance_elems(&st->spec);
    const clipt_stage_args args = {buf,
                                   offset / st->unit + skip,
                                   st->spec.split && tail ? tail : buf,
                                   st->spec.split ? st->spec.split - skip : 0,
                                   count,
                                   scratch};
    return args;
}

clipt_status clipt_stage_set_args(const clipt_stage *st, cl_mem buf, cl_ulong offset,
                                  cl_mem tail, cl_mem scratch)
{
    const clipt_stage_args args = region_args(st, 0, st->spec.instances, buf, offset, tail,
                                              scratch);
    if (st->spec.split && !tail)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if (offset % st->unit)
        return CLIPT_ERROR_MISALIGNED_OFFSET;
    return st->family->set_args(st, &args);
}

clipt_status clipt_stage_set_part_args(const clipt_stage *st, uint64_t first,
                                       uint64_t count, cl_mem buf, cl_ulong offset,
                                       cl_mem tail, cl_mem scratch)
{
    /* every kernel loops over `instances` from the region's start and
     * indexes its flags and saved heads from there, and launch sizes only
     * bound the work-groups, so fewer instances from a later start are the
     * same stage on the sub-range */
    const clipt_stage_args args = region_args(st, first, count, buf, offset, tail, scratch);
    if (st->spec.split && !tail)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if (offset % st->unit)
        return CLIPT_ERROR_MISALIGNED_OFFSET;
    if (st->spec.op == CLIPT_OP_PAD || st->spec.op == CLIPT_OP_UNPAD)
        return CLIPT_ERROR_INCOMPATIBLE_OPTIONS;
    if (count == 0 || first > st->spec.instances || count > st->spec.instances - first)
        return CLIPT_ERROR_INVALID_SHAPE;
    return st->family->set_args(st, &args);
}

/* Zeroes the scratch bytes (if any), then launches st->kernel. */
static clipt_status launch(const clipt_stage *st, cl_command_queue q, cl_mem scratch,
                           cl_uint num_wait, const cl_event *wait, cl_event *first,
                           cl_event *done)
{
    cl_event zeroed = NULL;
    clipt_status status;
    if (st->scratch_bytes) {
        const cl_uint zero = 0;
        status = clEnqueueFillBuffer(q, scratch, &zero, sizeof zero, 0, st->scratch_bytes,
                                     num_wait, wait, &zeroed);
        if (status != CL_SUCCESS)
            return status;
        num_wait = 1;
        wait = &zeroed;
    }
    status = clEnqueueNDRangeKernel(q, st->kernel, 1, NULL, &st->global, &st->local,
                                    num_wait, wait, done);
    if (status == CL_SUCCESS && first) {
        *first = zeroed ? zeroed : *done;
        clRetainEvent(*first);
    }
    if (zeroed)
        clReleaseEvent(zeroed);
    return status;
}

clipt_status clipt_stage_upload(clipt_stage *st, cl_command_queue q)
{
    if (!st->family->upload || st->uploaded)
        return CLIPT_SUCCESS;
    return st->family->upload(st, q);
}

clipt_status clipt_stage_enqueue(clipt_stage *st, cl_command_queue q, cl_mem scratch,
                                 cl_uint num_wait, const cl_event *wait, cl_event *first,
                                 cl_event *done)
{
    cl_event few[8], *list = few; /* a plan's stages wait for one event */
    clipt_status status = clipt_stage_upload(st, q);
    if (status != CLIPT_SUCCESS)
        return status;
    if (st->uploaded) { /* the caller's wait list and the move of the tables */
        if (num_wait >= CLIPT_COUNT_OF(few) &&
            !(list = malloc(((size_t)num_wait + 1) * sizeof *list)))
            return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
        for (cl_uint i = 0; i < num_wait; i++)
            list[i] = wait[i];
        list[num_wait++] = st->uploaded;
        wait = list;
    }
    if (st->family->enqueue)
        status = st->family->enqueue(st, q, scratch, num_wait, wait, first, done);
    else
        status = launch(st, q, scratch, num_wait, wait, first, done);
    if (list != few)
        free(list);
    return status;
}

/* The length of text of n characters followed by k more, snprintf-style:
 * negative when either part failed. */
static int appended(int n, int k)
{
    return n < 0 || k < 0 ? -1 : n + k;
}

/* What a stage does, in plain words, before the papers' label (sp: its
 * spec in the plan's elements). */
static const char *plain_words(const clipt_stage *st, const clipt_stage_spec *sp)
{
    switch (sp->op) {
    case CLIPT_OP_TRANSPOSE_TILES:
        if (st->family->id == CLIPT_FAMILY_TILE_LOCAL)
            return "tile transpose in local memory";
        return st->family->id == CLIPT_FAMILY_TILE_CYCLES
                   ? "tile transpose along cycles, flags in local memory"
                   : "tile transpose along cycles, flags in global memory";
    case CLIPT_OP_MOVE_SUPER:
        if (clipt_spec_transposes_super(sp))
            return "move blocks along cycles, transposing each";
        return sp->s == 1 ? "move single elements along cycles"
                               : "move blocks along cycles";
    case CLIPT_OP_PAD: return "spread rows apart for the padding";
    case CLIPT_OP_ROTATE_COLUMNS: return "C2R column rotation";
    case CLIPT_OP_SHUFFLE_ROWS: return "C2R row shuffle";
    case CLIPT_OP_SHUFFLE_COLUMNS: return "C2R column shuffle";
    case CLIPT_OP_UNSHUFFLE_COLUMNS: return "R2C column unshuffle";
    case CLIPT_OP_UNSHUFFLE_ROWS: return "R2C row unshuffle";
    case CLIPT_OP_UNROTATE_COLUMNS: return "R2C column unrotation";
    default: return "squeeze the padding out";
    }
}

int clipt_stage_format(const clipt_stage *st, char *buf, size_t len)
{
    const clipt_stage_spec plan = clipt_stage_plan_spec(st);
    const clipt_stage_spec *sp = &plan; /* the plan's elements; widening below */
    int n;
    if (sp->op == CLIPT_OP_PAD || sp->op == CLIPT_OP_UNPAD)
        n = snprintf(buf, len, "%s (%s), kernel %s: %llu rows of %llu elements, row pitch "
                     "%llu -> %llu",
                     plain_words(st, sp), sp->label, st->kernel_name,
                     (unsigned long long)sp->instances, (unsigned long long)sp->a,
                     (unsigned long long)sp->sa, (unsigned long long)sp->sb);
    else if (sp->op == CLIPT_OP_TRANSPOSE_TILES)
        n = snprintf(buf, len, "%s (%s), kernel %s: %llu %s of %llu x %llu elements",
                     plain_words(st, sp), sp->label, st->kernel_name,
                     (unsigned long long)sp->instances, sp->instances == 1 ? "tile" : "tiles",
                     (unsigned long long)sp->a, (unsigned long long)sp->b);
    else if (sp->op != CLIPT_OP_MOVE_SUPER)
        /* R2C's passes run on the cols x rows view of the matrix */
        n = snprintf(buf, len, "%s (%s), kernel %s: %llu %s %s %llu x %llu elements",
                     plain_words(st, sp), sp->label, st->kernel_name,
                     (unsigned long long)sp->instances,
                     sp->instances == 1 ? "matrix" : "matrices",
                     sp->op >= CLIPT_OP_UNSHUFFLE_COLUMNS ? "viewed as" : "of",
                     (unsigned long long)sp->a, (unsigned long long)sp->b);
    else
        n = snprintf(buf, len,
                     "%s (%s), kernel %s: %llu %s of %llu x %llu blocks of %llu "
                     "elements (super-elements)",
                     plain_words(st, sp), sp->label, st->kernel_name,
                     (unsigned long long)sp->instances,
                     sp->instances == 1 ? "matrix" : "matrices", (unsigned long long)sp->a,
                     (unsigned long long)sp->b, (unsigned long long)sp->s);
    if (n < 0 || (size_t)n >= len)
        return n;
    if (st->unit > 1) {
        n = appended(n, snprintf(buf + n, len - (size_t)n,
                                 "; widened: moved as %zu-byte words (%s, %u elements each)",
                                 st->elem, clipt_elem_type_name(st->elem), st->unit));
        if (n < 0 || (size_t)n >= len)
            return n;
    }
    if (st->family->describe) {
        n = appended(n, st->family->describe(st, buf + n, len - (size_t)n));
        if (n < 0 || (size_t)n >= len)
            return n;
    }
    if (sp->split) {
        n = appended(n, snprintf(buf + n, len - (size_t)n,
                                 "; region split after %llu elements (the rest in the plan's "
                                 "padded tail)",
                                 (unsigned long long)sp->split));
        if (n < 0 || (size_t)n >= len)
            return n;
    }
    return appended(n, snprintf(buf + n, len - (size_t)n,
                                "; global %zu local %zu; local memory %zu bytes; "
                                "scratch %zu bytes; options \"%s\"",
                                st->global, st->local,
                                st->local_bytes[0] + st->local_bytes[1],
                                st->scratch_bytes, st->options));
}
