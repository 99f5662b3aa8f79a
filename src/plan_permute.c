/* Axis permutations as plans (clipt_plan_create_permute): the passes of
 * permute.c, each lowered to stages.  A pass (A, B, C, D) -> (A, C, B, D):
 *   D = 1          A staged B x C transpositions (the 2-D sequences with
 *                  the batch as instances; one tile pass when small);
 *   D >= Min       one 0100! of D-element super-elements;
 *   1 < D < Min    a 0010! of C x D tiles, (A, B, C, D) -> (A, B, D, C),
 *                  then A staged (B*D) x C transpositions -> (A, C, B, D). */
#include "plan.h"

#include <stdio.h>

/* Appends pass `index`'s stages; its staged choice goes to
 * p->pass_choice[index]. */
static clipt_status add_pass(clipt_plan p, unsigned index, const clipt_permute_pass *ps,
                             const clipt_plan_options *opts)
{
    clipt_plan_choice *ch = &p->pass_choice[index];
    clipt_status status;
    if (ps->D == 1) {
        status = clipt_plan_add_staged(p, ps->A, ps->B, ps->C, opts, ch);
        if (status == CLIPT_SUCCESS && p->choice.sequence == CLIPT_SEQUENCE_AUTO)
            p->choice = *ch; /* the first staged pass's, for clipt_plan_query */
        return status;
    }
    if (ps->D >= p->tuning.min_super) {
        const clipt_stage_spec move = {CLIPT_OP_MOVE_SUPER, "0100! super-elements",
                                       ps->A, ps->B, ps->C, ps->D, 0, 0};
        return clipt_plan_add_spec(p, &move);
    }
    const clipt_stage_spec tiles = {CLIPT_OP_TRANSPOSE_TILES, "0010! inner tiles",
                                    ps->A * ps->B, ps->C, ps->D, 1, 0, 0};
    if ((status = clipt_plan_add_spec(p, &tiles)) != CLIPT_SUCCESS)
        return status;
    const clipt_permute_pass rest = {ps->A, ps->B * ps->D, ps->C, 1};
    return add_pass(p, index, &rest, opts);
}

static clipt_status build_passes(clipt_plan p, size_t bytes)
{
    const clipt_permutation *nd = &p->nd;
    const clipt_permute_pass *one = &nd->passes[0];
    clipt_plan_options opts = p->opts;
    clipt_status status = CLIPT_SUCCESS;
    p->buffer_bytes = bytes;
    if (nd->ndim == 2 && nd->perm[0] == 1) { /* exactly clipt_plan_create's plan */
        p->rows = nd->dims[0];
        p->cols = nd->dims[1];
        return clipt_plan_add_staged(p, 1, p->rows, p->cols, &opts, &p->choice);
    }
    if (nd->num_passes == 1 && one->A == 1 && one->D == 1) {
        /* a 2-D transposition after the reduction: the same plan */
        p->rows = one->B;
        p->cols = one->C;
        return clipt_plan_add_staged(p, 1, one->B, one->C, &opts, &p->choice);
    }
    p->rows = bytes / p->elem;
    p->cols = 1;
    /* what clipt_plan_query reports when no pass is a staged 2-D one */
    p->choice = (clipt_plan_choice){p->rows, 1, 1, 1, CLIPT_SEQUENCE_AUTO,
                                    "no 2-D transposition: see the passes"};
    opts.padding = CLIPT_PADDING_NONE; /* later passes need the bytes exact */
    for (unsigned i = 0; i < nd->num_passes && status == CLIPT_SUCCESS; i++)
        status = add_pass(p, i, &nd->passes[i], &opts);
    return status;
}

int clipt_plan_is_2d(const struct clipt_plan_s *p)
{
    const clipt_permute_pass *one = &p->nd.passes[0];
    return !p->permute || (p->nd.num_passes == 1 && one->A == 1 && one->D == 1);
}

clipt_status clipt_plan_create_permute(clipt_context c, unsigned ndim, const size_t *dims,
                                       const unsigned *perm, size_t elem_size,
                                       const clipt_plan_options *opts, clipt_plan *out)
{
    clipt_plan p = NULL;
    clipt_status status;
    size_t bytes = 0;
    if (out)
        *out = NULL;
    if (!c || !out)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if ((status = clipt_check_permutation(ndim, dims, perm, elem_size, &bytes)) !=
            CLIPT_SUCCESS ||
        (status = clipt_plan_new(c, elem_size, opts, &p)) != CLIPT_SUCCESS)
        return status;
    const clipt_permute_costs costs = {
        p->tuning.min_super,
        clipt_local_budget(&c->profile, CLIPT_OWN_LOCALS_UNKNOWN) / elem_size};
    p->permute = !(ndim == 2 && perm[0] == 1); /* not a plain 2-D plan */
    if ((status = clipt_permutation_plan(ndim, dims, perm, &costs, &p->nd)) != CLIPT_SUCCESS ||
        (status = build_passes(p, bytes)) != CLIPT_SUCCESS ||
        (status = clipt_plan_finish(p)) != CLIPT_SUCCESS)
        goto fail;
    *out = p;
    return CLIPT_SUCCESS;
fail:
    clipt_plan_release(p);
    return status;
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
    if (ps->D == 1)
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
        if (ch->sequence != CLIPT_SEQUENCE_AUTO)
            used += snprintf(buf + used, len > (size_t)used ? len - (size_t)used : 0,
                             " (sequence %s, m=%zu n=%zu)", clipt_sequence_name(ch->sequence),
                             ch->m, ch->n);
        used += snprintf(buf + used, len > (size_t)used ? len - (size_t)used : 0, "\n");
    }
    return used;
}
