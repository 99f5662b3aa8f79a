/* Padding and unpadding: rows moved in place to a wider or narrower pitch
 * (cl/pad.cl), chunk by chunk, each work-group waiting only for the chunks
 * whose sources its destinations overlap. */
#include "stage_kernel.h"

#include <stdio.h>

/* Both kernels take the same arguments; `pitch` is the one that is not
 * the width: padding's destination pitch, unpadding's source pitch. */
#define MOVE_ROWS_ARGS(X)                                                      \
    CLIPT_REGION_ARGS(X) X(count, ULONG, "ulong") \
    X(width, ULONG, "ulong") X(pitch, ULONG, "ulong") X(scratch, GLOBAL, "uint*") \
    X(held, LOCAL, "elem_t*") X(div_width, UINT4, "uint4")
CLIPT_KERNEL_ARGS(move_rows, MOVE_ROWS_ARGS)

static const clipt_kernel_decl kernels[] = {
    {"pad_rows", move_rows_arg_decls, CLIPT_COUNT_OF(move_rows_arg_decls)},
    {"unpad_rows", move_rows_arg_decls, CLIPT_COUNT_OF(move_rows_arg_decls)},
    /* kernel_style loops (CPUs): one work-item moves all rows in order */
    {"pad_rows_loops", move_rows_arg_decls, CLIPT_COUNT_OF(move_rows_arg_decls)},
    {"unpad_rows_loops", move_rows_arg_decls, CLIPT_COUNT_OF(move_rows_arg_decls)},
    /* 16-byte words, any element (clipt_spec_rows_in_words): the same
     * arguments in bytes */
    {"pad_rows_words", move_rows_arg_decls, CLIPT_COUNT_OF(move_rows_arg_decls)},
    {"unpad_rows_words", move_rows_arg_decls, CLIPT_COUNT_OF(move_rows_arg_decls)}};

/* Bytes of a word of the word kernels. */
#define ROWS_WORD_BYTES 16

/* log2 of an element size (1, 2, 4, 8 or 16 bytes). */
static unsigned elem_shift(size_t elem)
{
    unsigned shift = 0;
    while ((size_t)2 << shift <= elem)
        shift++;
    return shift;
}

/* Local memory words of a word kernel's window (cl/pad.cl): the aligned
 * words under the sources of a chunk of `chunk` destination words, at
 * most.  Padding's sources are fewer bytes than its destinations;
 * unpadding's also span the gaps of every row the chunk crosses. */
static uint64_t window_words(const clipt_stage_spec *sp, size_t elem, uint64_t chunk)
{
    const uint64_t width = sp->a * elem, gap = (sp->sa - sp->a) * elem;
    if (sp->op == CLIPT_OP_PAD)
        return chunk + 2;
    return chunk + ((chunk * ROWS_WORD_BYTES / width + 1) * gap + ROWS_WORD_BYTES - 1) /
                       ROWS_WORD_BYTES + 2;
}

/* Work-items' share of a chunk (elements, or words of the word kernels):
 * chunks of about chunk_bytes; a word kernel's window must also fit
 * `budget` bytes with work-groups of wg (0: it never does). */
static unsigned chunk_regs(const clipt_stage_spec *sp, size_t elem, int words, size_t wg,
                           size_t chunk_bytes, size_t budget)
{
    unsigned regs = (unsigned)(chunk_bytes / (clipt_min_size(wg, 256) *
                                              (words ? ROWS_WORD_BYTES : elem)));
    if (regs < 2)
        regs = 2;
    if (!words)
        return regs;
    while (regs > 1 && window_words(sp, elem, (uint64_t)wg * regs) * ROWS_WORD_BYTES > budget)
        regs /= 2;
    return window_words(sp, elem, (uint64_t)wg * regs) * ROWS_WORD_BYTES > budget ? 0 : regs;
}

/* Bytes a chunk aims at.  Each chunk pays one announce-and-wait, so larger
 * chunks amortise it (2048-element chunks ran at ~50 % of copy bandwidth on
 * an H100) while staying well inside local memory: about 16 KiB, at most
 * half of the budget, so that devices with 16 KiB or less still pad.  The
 * padding word kernel takes 32 KiB where two thirds of the budget hold it:
 * its window is the chunk and two words, and on an H200 it padded 1.08x
 * faster so (1.64 -> 1.51 copies' time, general 1-byte); unpadding's
 * window also holds the gaps, and it ran 0.95x with 32 KiB. */
static size_t chunk_target_bytes(int padding_words, size_t budget)
{
    return padding_words ? clipt_min_size(32768, budget / 3 * 2)
                         : clipt_min_size(16384, budget / 2);
}

static clipt_status prepare(clipt_context c, size_t elem, const clipt_tuning *t,
                            clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    const size_t budget = clipt_local_budget(&c->profile, 0);
    /* a word kernel's window beside the kernel's own __local variables */
    const size_t window_budget = clipt_local_budget(&c->profile, CLIPT_OWN_LOCALS_UNKNOWN);
    size_t wg_limit = 0, own_local = 0, local, chunk, chunks;
    const uint64_t count = sp->instances * sp->a;
    clipt_status status;
    const int loops = clipt_tuning_loops(t);
    const int words = clipt_spec_rows_in_words(sp, elem, loops, t->wide_bytes);
    const size_t chunk_bytes = chunk_target_bytes(sp->op == CLIPT_OP_PAD && words, budget);
    uint64_t work = count;
    st->f.rows.regs = chunk_regs(sp, elem, words, t->wg_010, chunk_bytes, window_budget);
    if (!st->f.rows.regs) /* gaps too wide for a window: stages.c takes the
                           * element kernels, widened */
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    st->kernel_name =
        kernels[(sp->op == CLIPT_OP_PAD ? 0 : 1) + (loops ? 2 : words ? 4 : 0)].name;
    if (words) {
        /* the destination's words at any offset; rows are divided in
         * elements, 32-bit below 2^32 of them */
        const uint64_t dest_bytes =
            (sp->op == CLIPT_OP_PAD ? clipt_spec_region_elems(sp) : count) * elem;
        work = (dest_bytes + 2 * ROWS_WORD_BYTES - 2) / ROWS_WORD_BYTES;
        snprintf(st->options, sizeof st->options,
                 "-DELEM_TYPE=uint4 -DWORDS_REGS=%u -DELEM_SHIFT=%u -DSMALL_INDEX=%d",
                 st->f.rows.regs, elem_shift(elem),
                 clipt_small_index(c, clipt_spec_region_elems(sp) + 2 * ROWS_WORD_BYTES));
    } else {
        snprintf(st->options, sizeof st->options, "-DELEM_TYPE=%s -DREGS=%u -DSMALL_INDEX=%d",
                 clipt_elem_type_name(elem), st->f.rows.regs, clipt_small_index(c, count));
    }
    status = clipt_make_kernel(c, st, st->kernel_name, &st->kernel, &wg_limit, &own_local);
    if (status != CLIPT_SUCCESS)
        return status;
    st->f.rows.words = words;
    if (loops) {
        st->local_bytes[0] = elem; /* held: unused, but a size of 0 is invalid */
        clipt_set_launch(st, 1, 1, 1, 1);
        st->scratch_bytes = 4;
        return CLIPT_SUCCESS;
    }
    local = clipt_min_size(t->wg_010, wg_limit);
    chunk = local * st->f.rows.regs;
    st->local_bytes[0] = words ? window_words(sp, elem, chunk) * ROWS_WORD_BYTES : chunk * elem;
    if (st->local_bytes[0] > clipt_local_budget(&c->profile, own_local))
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    chunks = (size_t)((work + chunk - 1) / chunk);
    if (chunks >= UINT32_MAX - 1) /* chunk ids and their counter are 32-bit */
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    /* one work-group per chunk: no cap */
    clipt_set_launch(st, local, work, chunk, SIZE_MAX);
    st->scratch_bytes = (chunks + 1) * 4; /* the counter, a flag per chunk */
    return CLIPT_SUCCESS;
}

static clipt_status set_args(const clipt_stage *st, const clipt_stage_args *g)
{
    const clipt_stage_spec *sp = &st->spec;
    const int pad = sp->op == CLIPT_OP_PAD;
    /* the word kernels take bytes, and divide by the destination's row
     * in elements */
    const uint64_t scale = st->f.rows.words ? st->elem : 1;
    const uint64_t pitch = pad ? sp->sb : sp->sa;
    move_rows_args v = {
        CLIPT_REGION_VALUES(g), .count = g->instances * sp->a * scale,
        .width = sp->a * scale, .pitch = pitch * scale,
        .scratch = g->scratch, .held = st->local_bytes[0],
        .div_width = clipt_divisor_vector(st->f.rows.words && pad ? pitch : sp->a)};
    v.offset *= scale;
    return move_rows_set(st->kernel, &v);
}

static int describe(const clipt_stage *st, char *buf, size_t len)
{
    return st->f.rows.words
               ? snprintf(buf, len, "; moved as %d-byte words, each shifted into place out of "
                                    "a window of its chunk's sources in local memory",
                          ROWS_WORD_BYTES)
               : 0;
}

const clipt_family clipt_family_pad = {
    .id = CLIPT_FAMILY_ROWS,
    .file = "pad.cl",
    .ops = 1u << CLIPT_OP_PAD | 1u << CLIPT_OP_UNPAD,
    .kernels = kernels,
    .num_kernels = CLIPT_COUNT_OF(kernels),
    .prepare = prepare,
    .set_args = set_args,
    .describe = describe,
};
