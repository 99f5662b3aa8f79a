/* What an axis permutation's plan says of itself: whether it is one 2-D
 * transposition, and describe's lines for its array, reduction and passes
 * (the plan is made in plan.c). */
#include "plan.h"

#include <stdio.h>

int clipt_plan_is_2d(const struct clipt_plan_s *p)
{
    const clipt_permute_pass *one = &p->nd.passes[0];
    return !p->permute || (p->nd.num_passes == 1 && one->A == 1 && one->D == 1);
}

/* "(64, 256, 56, 56)" */
static int format_dims(char *buf, size_t len, const size_t *d, unsigned n)
{
    int used = snprintf(buf, len, "(");
    for (unsigned i = 0; i < n && used >= 0 && (size_t)used < len; i++)
        used += snprintf(buf + used, len - (size_t)used, "%s%zu", i ? ", " : "", d[i]);
    if (used >= 0 && (size_t)used < len)
        used += snprintf(buf + used, len - (size_t)used, "%s)", n == 1 ? "," : "");
    return used;
}

static const char *pass_kind(clipt_plan p, const clipt_permute_pass *ps)
{
    if (ps->D == 1 || (p->widen && clipt_permute_widen(ps, p->elem) == ps->D))
        return ps->A == 1 ? "2-D transposition" : "batched 2-D transpositions";
    return ps->D >= p->tuning.min_super
               ? "0100! of super-elements"
               : "0010! of C x D tiles, then batched (B*D) x C transpositions";
}

int clipt_permute_describe(clipt_plan p, char *buf, size_t len)
{
    const clipt_permutation *nd = &p->nd;
    size_t out[CLIPT_MAX_DIMS], merged[CLIPT_MAX_DIMS], rperm[CLIPT_MAX_DIMS];
    char a[256], b[256], c[256], d[256];
    int used;
    for (unsigned i = 0; i < nd->ndim; i++) {
        out[i] = nd->dims[nd->perm[i]];
        rperm[i] = nd->perm[i];
    }
    format_dims(a, sizeof a, nd->dims, nd->ndim);
    format_dims(b, sizeof b, rperm, nd->ndim);
    format_dims(c, sizeof c, out, nd->ndim);
    used = snprintf(buf, len, "permutation: %s axes %s -> %s\n", a, b, c);
    for (unsigned i = 0; i < nd->rdim; i++) {
        merged[i] = (size_t)nd->rdims[i];
        rperm[i] = nd->rperm[i];
    }
    format_dims(a, sizeof a, merged, nd->rdim);
    format_dims(b, sizeof b, rperm, nd->rdim);
    snprintf(d, sizeof d, "%u pass%s", nd->num_passes, nd->num_passes == 1 ? "" : "es");
    used += snprintf(buf + used, len > (size_t)used ? len - (size_t)used : 0,
                     "reduced: %s axes %s (axes of 1 dropped, neighbours merged): %s\n", a, b,
                     nd->num_passes ? d : "identity, nothing moves");
    for (unsigned i = 0; i < nd->num_passes; i++) {
        const clipt_permute_pass *ps = &nd->passes[i];
        const clipt_plan_choice *ch = &p->pass_choice[i];
        used += snprintf(buf + used, len > (size_t)used ? len - (size_t)used : 0,
                         "pass %u: (A, B, C, D) = (%llu, %llu, %llu, %llu) -> (A, C, B, D): %s",
                         i + 1, (unsigned long long)ps->A, (unsigned long long)ps->B,
                         (unsigned long long)ps->C, (unsigned long long)ps->D,
                         pass_kind(p, ps));
        if (ps->D > 1 && p->widen && clipt_permute_widen(ps, p->elem) == ps->D)
            used += snprintf(buf + used, len > (size_t)used ? len - (size_t)used : 0,
                             " of %llu-byte elements (each run of D = %llu elements read as "
                             "one; offsets not a multiple of %zu bytes run the plan without "
                             "widening)",
                             (unsigned long long)(ps->D * p->elem), (unsigned long long)ps->D,
                             p->word_bytes);
        if (ch->sequence != CLIPT_SEQUENCE_AUTO)
            used += snprintf(buf + used, len > (size_t)used ? len - (size_t)used : 0,
                             " (sequence %s, m=%zu n=%zu)", clipt_sequence_name(ch->sequence),
                             ch->m, ch->n);
        used += snprintf(buf + used, len > (size_t)used ? len - (size_t)used : 0, "\n");
    }
    return used;
}
