/* Axis permutations (see permute.h): checks, reduction, and the choice of
 * passes by a shortest-path search over the orders of the reduced axes. */
#include "permute.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static int valid_elem(size_t e)
{
    return e == 1 || e == 2 || e == 4 || e == 8 || e == 16;
}

clipt_status clipt_check_permutation(unsigned ndim, const size_t *dims, const unsigned *perm,
                                     size_t elem_size, size_t *bytes)
{
    unsigned seen = 0;
    size_t count = elem_size;
    if (!dims || !perm)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if (!valid_elem(elem_size))
        return CLIPT_ERROR_INVALID_ELEM_SIZE;
    if (ndim == 0 || ndim > CLIPT_MAX_DIMS)
        return CLIPT_ERROR_INVALID_NDIM;
    for (unsigned i = 0; i < ndim; i++) {
        if (perm[i] >= ndim || (seen & (1u << perm[i])))
            return CLIPT_ERROR_INVALID_PERMUTATION;
        seen |= 1u << perm[i];
    }
    for (unsigned i = 0; i < ndim; i++)
        if (dims[i] == 0)
            return CLIPT_ERROR_INVALID_SHAPE;
    for (unsigned i = 0; i < ndim; i++)
        if (!clipt_mul_ok(count, dims[i], &count))
            return CLIPT_ERROR_SHAPE_OVERFLOW;
    *bytes = count;
    return CLIPT_SUCCESS;
}

/* Drops axes of 1, then merges axes that follow each other both in the
 * input and in the output (perm holds t+1 right after t). */
static void reduce(clipt_permutation *p)
{
    unsigned keep[CLIPT_MAX_DIMS] = {0}, rank[CLIPT_MAX_DIMS] = {0}, q[CLIPT_MAX_DIMS] = {0};
    unsigned n = 0, m = 0;
    for (unsigned i = 0; i < p->ndim; i++)
        if (p->dims[i] != 1)
            rank[i] = n, keep[n++] = i;
    for (unsigned t = 0; t < p->ndim; t++)
        if (p->dims[p->perm[t]] != 1)
            q[m++] = rank[p->perm[t]];
    /* q: the output order of the kept axes; a group starts at each t where
     * q[t] is not q[t-1] + 1 */
    unsigned group_of[CLIPT_MAX_DIMS] = {0}, groups = 0;
    for (unsigned t = 0; t < n; t++) {
        if (t == 0 || q[t] != q[t - 1] + 1)
            groups++;
        group_of[q[t]] = groups - 1;
    }
    /* the groups in input order: a group's axes are consecutive there too */
    unsigned order = 0;
    for (unsigned a = 0; a < n; a++) {
        if (a > 0 && group_of[a] == group_of[a - 1])
            p->rdims[order - 1] *= p->dims[keep[a]];
        else {
            p->rdims[order] = p->dims[keep[a]];
            rank[group_of[a]] = order++; /* input position of each group */
        }
    }
    p->rdim = groups;
    for (unsigned g = 0, t = 0; t < n; t++)
        if (t == 0 || q[t] != q[t - 1] + 1)
            p->rperm[g++] = rank[group_of[q[t]]];
}

/* ---- the search ------------------------------------------------------------ */

static uint32_t factorial(unsigned k)
{
    uint32_t f = 1;
    for (unsigned i = 2; i <= k; i++)
        f *= i;
    return f;
}

static uint32_t rank_of(const unsigned *order, unsigned k)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < k; i++) {
        unsigned smaller = 0;
        for (unsigned j = i + 1; j < k; j++)
            smaller += order[j] < order[i];
        r = r * (k - i) + smaller;
    }
    return r;
}

/* The layout after swapping the blocks [i, j) and [j, l). */
static void apply_move(const unsigned *from, unsigned k, unsigned i, unsigned j, unsigned l,
                       unsigned *to)
{
    unsigned o = 0;
    for (unsigned x = 0; x < i; x++)
        to[o++] = from[x];
    for (unsigned x = j; x < l; x++)
        to[o++] = from[x];
    for (unsigned x = i; x < j; x++)
        to[o++] = from[x];
    for (unsigned x = l; x < k; x++)
        to[o++] = from[x];
}

static uint64_t product(const uint64_t *dims, const unsigned *order, unsigned from, unsigned to)
{
    uint64_t p = 1;
    for (unsigned x = from; x < to; x++)
        p *= dims[order[x]];
    return p;
}

static clipt_permute_pass pass_of(const uint64_t *dims, const unsigned *order, unsigned k,
                                  unsigned i, unsigned j, unsigned l)
{
    clipt_permute_pass ps = {product(dims, order, 0, i), product(dims, order, i, j),
                             product(dims, order, j, l), product(dims, order, l, k)};
    return ps;
}

uint64_t clipt_permute_widen(const clipt_permute_pass *ps, uint64_t elem)
{
    return ps->D > 1 && ps->D <= 16 && valid_elem((size_t)(ps->D * elem)) ? ps->D : 1;
}

unsigned clipt_permute_pass_cost(const clipt_permute_pass *ps, const clipt_permute_costs *c)
{
    /* a widened pass: B x C matrices of D-element elements, D times fewer
     * of which fit the tile */
    const uint64_t w = clipt_permute_widen(ps, c->elem);
    const unsigned matrix2d = ps->B * ps->C * w <= c->tile_elems ? 10 : 30;
    if (ps->D == w)
        return matrix2d;
    if (ps->D >= c->min_super)
        return 20;
    return 10 + (ps->B * ps->C * ps->D <= c->tile_elems ? 10 : 30);
}

typedef struct heap_entry {
    uint32_t dist, state;
} heap_entry;

typedef struct heap {
    heap_entry *e;
    size_t n, cap;
} heap;

static int heap_push(heap *h, uint32_t dist, uint32_t state)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 256;
        heap_entry *e = realloc(h->e, cap * sizeof *e);
        if (!e)
            return 0;
        h->e = e;
        h->cap = cap;
    }
    size_t i = h->n++;
    while (i > 0 && h->e[(i - 1) / 2].dist > dist) {
        h->e[i] = h->e[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->e[i] = (heap_entry){dist, state};
    return 1;
}

static heap_entry heap_pop(heap *h)
{
    heap_entry top = h->e[0], last = h->e[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->e[c + 1].dist < h->e[c].dist)
            c++;
        if (h->e[c].dist >= last.dist)
            break;
        h->e[i] = h->e[c];
        i = c;
    }
    if (h->n)
        h->e[i] = last;
    return top;
}

/* Search state: per order (by rank) its distance, predecessor and move;
 * the orders themselves are kept so that ranks need not be unranked. */
typedef struct search {
    uint32_t *dist, *prev;
    uint16_t *move;
    unsigned char (*order)[CLIPT_MAX_DIMS];
} search;

static void search_free(search *s)
{
    free(s->dist);
    free(s->prev);
    free(s->move);
    free(s->order);
}

static void load(const search *s, uint32_t r, unsigned k, unsigned *order)
{
    for (unsigned x = 0; x < k; x++)
        order[x] = s->order[r][x];
}

static void store(search *s, uint32_t r, unsigned k, const unsigned *order)
{
    for (unsigned x = 0; x < k; x++)
        s->order[r][x] = (unsigned char)order[x];
}

/* Relaxes every move out of `cur` (distance d). */
static int relax(search *s, heap *h, const clipt_permutation *p, const clipt_permute_costs *c,
                 uint32_t r, uint32_t d)
{
    const unsigned k = p->rdim;
    unsigned cur[CLIPT_MAX_DIMS], next[CLIPT_MAX_DIMS];
    load(s, r, k, cur);
    for (unsigned i = 0; i < k; i++)
        for (unsigned j = i + 1; j < k; j++)
            for (unsigned l = j + 1; l <= k; l++) {
                const clipt_permute_pass ps = pass_of(p->rdims, cur, k, i, j, l);
                const uint32_t nd = d + clipt_permute_pass_cost(&ps, c) + 1;
                apply_move(cur, k, i, j, l, next);
                const uint32_t nr = rank_of(next, k);
                if (nd >= s->dist[nr])
                    continue;
                s->dist[nr] = nd;
                s->prev[nr] = r;
                s->move[nr] = (uint16_t)((i * 9 + j) * 9 + l);
                store(s, nr, k, next);
                if (!heap_push(h, nd, nr))
                    return 0;
            }
    return 1;
}

/* Follows the predecessors from the target back to the start, then writes
 * the passes in order. */
static void write_passes(const search *s, clipt_permutation *p, uint32_t start, uint32_t target)
{
    const unsigned k = p->rdim;
    uint32_t chain[CLIPT_MAX_PASSES + 1];
    unsigned n = 0;
    for (uint32_t r = target; r != start && n < CLIPT_MAX_PASSES; r = s->prev[r])
        chain[n++] = r;
    p->num_passes = n;
    for (unsigned x = 0; x < n; x++) {
        const uint32_t r = chain[n - 1 - x];
        const unsigned mv = s->move[r], i = mv / 81, j = mv / 9 % 9, l = mv % 9;
        unsigned from[CLIPT_MAX_DIMS];
        load(s, s->prev[r], k, from);
        p->passes[x] = pass_of(p->rdims, from, k, i, j, l);
    }
}

static clipt_status find_passes(clipt_permutation *p, const clipt_permute_costs *c)
{
    const unsigned k = p->rdim;
    const uint32_t states = factorial(k);
    unsigned ident[CLIPT_MAX_DIMS];
    search s = {calloc(states, sizeof *s.dist), calloc(states, sizeof *s.prev),
                calloc(states, sizeof *s.move), calloc(states, sizeof *s.order)};
    heap h = {NULL, 0, 0};
    clipt_status status = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    const uint32_t target = rank_of(p->rperm, k);
    if (!s.dist || !s.prev || !s.move || !s.order)
        goto done;
    for (uint32_t r = 0; r < states; r++)
        s.dist[r] = UINT32_MAX;
    for (unsigned x = 0; x < k; x++)
        ident[x] = x;
    s.dist[0] = 0;
    store(&s, 0, k, ident);
    if (!heap_push(&h, 0, 0))
        goto done;
    while (h.n) {
        const heap_entry e = heap_pop(&h);
        if (e.dist != s.dist[e.state])
            continue; /* a stale entry */
        if (e.state == target)
            break;
        if (!relax(&s, &h, p, c, e.state, e.dist))
            goto done;
    }
    write_passes(&s, p, 0, target);
    status = CLIPT_SUCCESS;
done:
    free(h.e);
    search_free(&s);
    return status;
}

clipt_status clipt_permutation_plan(unsigned ndim, const size_t *dims, const unsigned *perm,
                                    const clipt_permute_costs *costs, clipt_permutation *out)
{
    memset(out, 0, sizeof *out);
    out->ndim = ndim;
    for (unsigned i = 0; i < ndim; i++) {
        out->dims[i] = dims[i];
        out->perm[i] = perm[i];
    }
    reduce(out);
    if (out->rdim < 2)
        return CLIPT_SUCCESS; /* the same bytes */
    return find_passes(out, costs);
}
