/* The transposition's cycles listed and cut into segments (see cycles.h). */
#include "cycles.h"

#include <stdlib.h>
#include <string.h>

/* Bits of the key sorted on per radix pass. */
#define RADIX_BITS 11
/* Keys sorted by insertion instead (a shape's cycles of one length are
 * often a handful, and each radix pass clears 2^RADIX_BITS counts). */
#define SMALL_SORT 48

/* Sorts key[0..n-1] (all below limit) ascending with tmp as room (LSD radix
 * sort: linear, where a comparison sort of 2^16 keys costs milliseconds;
 * a few keys by insertion).  The sorted keys end in key. */
static void radix_sort(uint64_t *key, uint64_t *tmp, size_t n, uint64_t limit)
{
    size_t count[1u << RADIX_BITS];
    if (n <= SMALL_SORT) { /* insertion: cheaper than clearing the counts */
        for (size_t i = 1; i < n; i++) {
            const uint64_t k = key[i];
            size_t j = i;
            for (; j > 0 && key[j - 1] > k; j--)
                key[j] = key[j - 1];
            key[j] = k;
        }
        return;
    }
    const uint64_t mask = (1u << RADIX_BITS) - 1;
    uint64_t *from = key, *to = tmp;
    for (unsigned shift = 0; shift < 64 && (limit >> shift) > 0; shift += RADIX_BITS) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[from[i] >> shift & mask]++;
        for (size_t r = 0, sum = 0; r <= mask; r++) {
            const size_t c = count[r];
            count[r] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            to[count[from[i] >> shift & mask]++] = from[i];
        uint64_t *t = from;
        from = to;
        to = t;
    }
    if (from != key)
        memcpy(key, from, n * sizeof *key);
}

static int descending(const void *x, const void *y)
{
    const uint64_t p = *(const uint64_t *)x, q = *(const uint64_t *)y;
    return (p < q) - (p > q);
}

/* The order of the segments: by length descending, then by leader.  A walk
 * in position order meets long cycles first (a cycle of L positions has
 * its smallest near N / L), so the segments keep the walk's layout: long
 * cycles first, each cut into consecutive segments, then shorter and
 * shorter whole cycles.  Each class's leaders go straight into the range
 * of its length; each range is then sorted. */
static int list_leaders(clipt_cycle_list *l)
{
    const clipt_cycle_structure *cs = &l->cs;
    const size_t k = cs->num_classes;
    uint64_t *lengths = malloc((k + 1) * sizeof *lengths);
    uint64_t *tmp = malloc((l->count + 1) * sizeof *tmp);
    size_t *at = calloc(k + 1, sizeof *at), distinct = 0;
    int ok = lengths && tmp && at;
    if (ok) {
        for (size_t c = 0; c < k; c++)
            lengths[c] = cs->classes[c].length;
        qsort(lengths, k, sizeof *lengths, descending);
        for (size_t c = 0; c < k; c++)
            if (c == 0 || lengths[c] != lengths[distinct - 1])
                lengths[distinct++] = lengths[c];
        /* at[r]: where the cycles of the r-th length start (then: the next
         * free entry of that range) */
        for (size_t c = 0; c < k; c++)
            for (size_t r = 0; r < distinct; r++)
                if (lengths[r] < cs->classes[c].length)
                    at[r] += (size_t)cs->classes[c].cycles;
        for (size_t c = 0; c < k && ok; c++) {
            size_t r = 0;
            while (lengths[r] != cs->classes[c].length)
                r++;
            ok = clipt_cycle_class_leaders(cs, c, l->leader + at[r]) == 0;
            at[r] += (size_t)cs->classes[c].cycles;
        }
        for (size_t r = 0, from = 0; r < distinct && ok; r++) {
            radix_sort(l->leader + from, tmp, at[r] - from, l->N);
            for (size_t i = from; i < at[r]; i++)
                l->length[i] = lengths[r];
            from = at[r];
        }
    }
    free(lengths);
    free(tmp);
    free(at);
    return ok ? 0 : -1;
}

clipt_status clipt_cycle_list_find(uint64_t a, uint64_t b, size_t max_cycles,
                                   clipt_cycle_list *out)
{
    clipt_cycle_structure *cs = &out->cs;
    memset(out, 0, sizeof *out);
    if (a == 0 || b == 0 || b > (UINT64_MAX >> 1) / a)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    switch (clipt_cycle_structure_init(a, b, cs)) {
    case 0:
        break;
    case -1:
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    default: /* the flag-based kernel needs no cycles */
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    }
    out->a = a;
    out->N = cs->N;
    if (cs->cycles > max_cycles) {
        clipt_cycle_list_free(out);
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    }
    out->count = (size_t)cs->cycles;
    out->leader = malloc((out->count + 1) * sizeof *out->leader);
    out->length = malloc((out->count + 1) * sizeof *out->length);
    if (!out->leader || !out->length) {
        clipt_cycle_list_free(out);
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    }
    if (list_leaders(out) != 0) {
        /* out of memory, or the algebra contradicting itself */
        clipt_cycle_list_free(out);
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    }
    return CLIPT_SUCCESS;
}

void clipt_cycle_list_free(clipt_cycle_list *l)
{
    free(l->leader);
    free(l->length);
    clipt_cycle_structure_free(&l->cs);
    memset(l, 0, sizeof *l);
}

void clipt_cycle_list_count(const clipt_cycle_list *l, uint32_t seg_len, uint64_t *segments,
                            uint64_t *saved)
{
    *segments = *saved = 0;
    for (size_t k = 0; k < l->cs.num_classes; k++) {
        const clipt_cycle_class *c = &l->cs.classes[k];
        const uint64_t per_cycle = (c->length + seg_len - 1) / seg_len;
        *segments += per_cycle * c->cycles;
        if (per_cycle > 1)
            *saved += per_cycle * c->cycles;
    }
}

clipt_status clipt_cycle_list_cut(const clipt_cycle_list *l, uint32_t seg_len,
                                  size_t max_segments, clipt_segments *out)
{
    uint64_t segments, saved;
    size_t g = 0;
    memset(out, 0, sizeof *out);
    if (seg_len < 1)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    clipt_cycle_list_count(l, seg_len, &segments, &saved);
    if (segments > max_segments)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    if (!clipt_segments_alloc(out, (size_t)segments))
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    /* N < 2^63 (clipt_cycle_list_find) */
    const uint64_t c = clipt_cycle_step(l, seg_len);
    const uint64_t c_shoup = l->N ? clipt_shoup_prepare(c, l->N) : 0;
    for (size_t i = 0; i < l->count; i++) {
        const uint64_t len = l->length[i];
        uint64_t p = l->leader[i];
        if (len <= seg_len) {
            out->start[g] = p;
            out->length[g] = (cl_uint)len | CLIPT_SEGMENT_WHOLE_CYCLE;
            out->slot[g++] = 0;
            continue;
        }
        for (uint64_t done = 0; done < len; done += seg_len) {
            out->start[g] = p;
            out->length[g] = (cl_uint)(len - done < seg_len ? len - done : seg_len);
            out->slot[g++] = (cl_uint)out->saved++;
            p = clipt_mulmod_shoup(p, c, c_shoup, l->N);
        }
    }
    out->count = g;
    return CLIPT_SUCCESS;
}

uint64_t clipt_cycle_step(const clipt_cycle_list *l, uint32_t seg_len)
{
    return l->N ? clipt_powmod(l->a, seg_len, l->N) : 0;
}

clipt_status clipt_cycle_list_records(const clipt_cycle_list *l, uint32_t seg_len,
                                      cl_ulong **out, size_t *segments, size_t *saved)
{
    cl_ulong *r = malloc((l->count + 1) * CLIPT_CYCLE_RECORD_BYTES);
    size_t g = 0, slot = 0;
    *out = NULL;
    if (!r || seg_len < 1) {
        free(r);
        return seg_len < 1 ? CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS : CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (size_t i = 0; i < l->count; i++) {
        const uint64_t len = l->length[i], pieces = (len + seg_len - 1) / seg_len;
        cl_ulong *rec = r + i * CLIPT_CYCLE_RECORD_WORDS;
        rec[0] = l->leader[i];
        rec[1] = len;
        rec[2] = g;
        rec[3] = pieces > 1 ? slot : 0;
        g += pieces;
        slot += pieces > 1 ? pieces : 0;
    }
    *out = r;
    *segments = g;
    *saved = slot;
    return CLIPT_SUCCESS;
}

int clipt_segments_alloc(clipt_segments *s, size_t count)
{
    memset(s, 0, sizeof *s);
    /* one more, so that an empty table is still a block */
    if (count >= SIZE_MAX / CLIPT_SEGMENT_BYTES ||
        !(s->start = malloc((count + 1) * CLIPT_SEGMENT_BYTES)))
        return 0;
    s->length = (cl_uint *)(s->start + count);
    s->slot = s->length + count;
    return 1;
}

void clipt_segments_free(clipt_segments *s)
{
    free(s->start);
    memset(s, 0, sizeof *s);
}
