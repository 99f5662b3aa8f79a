#include "plan_text.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The papers' names of the sequences (Gomez-Luna et al., Fig. 2). */
static const struct {
    const char *name;
    clipt_sequence value;
} sequence_names[] = {
    {"1", CLIPT_SEQUENCE_1},     {"2.1", CLIPT_SEQUENCE_2_1}, {"2.2", CLIPT_SEQUENCE_2_2},
    {"3.1", CLIPT_SEQUENCE_3_1}, {"3.2", CLIPT_SEQUENCE_3_2}, {"4.1", CLIPT_SEQUENCE_4_1},
    {"4.2", CLIPT_SEQUENCE_4_2}, {"4.3", CLIPT_SEQUENCE_4_3},
};
#define NUM_SEQUENCES (sizeof sequence_names / sizeof sequence_names[0])

const char *plan_text_sequence(clipt_sequence s)
{
    for (size_t i = 0; i < NUM_SEQUENCES; i++)
        if (sequence_names[i].value == s)
            return sequence_names[i].name;
    return "?";
}

int plan_text_parse_sequence(const char *text, clipt_sequence *out)
{
    if (strcmp(text, "auto") == 0) {
        *out = CLIPT_SEQUENCE_AUTO;
        return 1;
    }
    for (size_t i = 0; i < NUM_SEQUENCES; i++)
        if (strcmp(text, sequence_names[i].name) == 0) {
            *out = sequence_names[i].value;
            return 1;
        }
    return 0;
}

void plan_text_choice(const clipt_plan_info *p, char *buf, size_t len)
{
    /* the info does not say whether C2R or R2C was forced or automatic */
    if (p->algorithm == CLIPT_ALGORITHM_C2R || p->algorithm == CLIPT_ALGORITHM_R2C)
        snprintf(buf, len, "%s", p->algorithm == CLIPT_ALGORITHM_C2R ? "c2r" : "r2c");
    else
        snprintf(buf, len, "%s (%s)", plan_text_sequence(p->sequence),
                 p->sequence_forced ? "forced" : "automatic");
}

void plan_text_tiles(const clipt_plan_info *p, char *buf, size_t len)
{
    snprintf(buf, len, "m=%zu n=%zu", p->tile_m, p->tile_n);
}

void plan_text_padded(const clipt_plan_info *p, char *buf, size_t len)
{
    const int padded = p->padded_rows != p->rows || p->padded_cols != p->cols;
    snprintf(buf, len, "%zu x %zu%s", p->padded_rows, p->padded_cols,
             padded ? "" : " (no padding)");
}

/* What a stage does in plain words, as clipt_plan_describe leads with. */
static const char *stage_words(const clipt_stage_info *s)
{
    switch (s->op) {
    case CLIPT_OP_TRANSPOSE_TILES:
        if (s->family == CLIPT_FAMILY_TILE_LOCAL)
            return "tile transpose in local memory";
        return s->family == CLIPT_FAMILY_TILE_CYCLES
                   ? "tile transpose along cycles, flags in local memory"
                   : "tile transpose along cycles, flags in global memory";
    case CLIPT_OP_MOVE_SUPER:
        if (s->super_transposed)
            return "move blocks along cycles, transposing each";
        return s->s == 1 ? "move single elements along cycles" : "move blocks along cycles";
    case CLIPT_OP_PAD: return "spread rows apart for the padding";
    case CLIPT_OP_ROTATE_COLUMNS: return "C2R column rotation";
    case CLIPT_OP_SHUFFLE_ROWS: return "C2R row shuffle";
    case CLIPT_OP_SHUFFLE_COLUMNS: return "C2R column shuffle";
    default: return "squeeze the padding out";
    }
}

void plan_text_stage(const clipt_stage_info *s, char *buf, size_t len)
{
    if (s->op == CLIPT_OP_PAD || s->op == CLIPT_OP_UNPAD)
        snprintf(buf, len, "%s (%s), kernel %s: %llu rows of %llu elements, row pitch "
                 "%llu -> %llu", stage_words(s), s->label, s->kernels,
                 (unsigned long long)s->instances, (unsigned long long)s->a,
                 (unsigned long long)s->pitch_from, (unsigned long long)s->pitch_to);
    else if (s->op == CLIPT_OP_TRANSPOSE_TILES)
        snprintf(buf, len, "%s (%s), kernel %s: %llu %s of %llu x %llu elements",
                 stage_words(s), s->label, s->kernels, (unsigned long long)s->instances,
                 s->instances == 1 ? "tile" : "tiles", (unsigned long long)s->a,
                 (unsigned long long)s->b);
    else if (s->op != CLIPT_OP_MOVE_SUPER)
        snprintf(buf, len, "%s (%s), kernel %s: %llu %s of %llu x %llu elements",
                 stage_words(s), s->label, s->kernels, (unsigned long long)s->instances,
                 s->instances == 1 ? "matrix" : "matrices", (unsigned long long)s->a,
                 (unsigned long long)s->b);
    else
        snprintf(buf, len, "%s (%s), kernel %s: %llu %s of %llu x %llu blocks of %llu "
                 "elements (super-elements)", stage_words(s), s->label, s->kernels,
                 (unsigned long long)s->instances, s->instances == 1 ? "matrix" : "matrices",
                 (unsigned long long)s->a, (unsigned long long)s->b,
                 (unsigned long long)s->s);
}

/* Reads up to CLIPT_MAX_DIMS numbers separated by `sep`, ending at `end`;
 * *count receives how many.  Returns the text after them, or NULL. */
static const char *parse_list(const char *t, char sep, char end, unsigned long long min,
                              unsigned long long *v, unsigned *count)
{
    *count = 0;
    for (;;) {
        char *after;
        if (!isdigit((unsigned char)*t) || *count == CLIPT_MAX_DIMS)
            return NULL;
        errno = 0;
        v[*count] = strtoull(t, &after, 10);
        if (errno || v[*count] < min || v[*count] > SIZE_MAX)
            return NULL;
        ++*count;
        if (*after == end)
            return after;
        if (*after != sep)
            return NULL;
        t = after + 1;
    }
}

int plan_text_parse_permutation(const char *text, plan_text_permutation *out)
{
    unsigned long long dims[CLIPT_MAX_DIMS], perm[CLIPT_MAX_DIMS];
    unsigned nd = 0, np = 0;
    const char *t = parse_list(text, 'x', ':', 1, dims, &nd);
    if (!t || !parse_list(t + 1, ',', '\0', 0, perm, &np) || np != nd)
        return 0;
    out->ndim = nd;
    for (unsigned i = 0; i < nd; i++) {
        if (perm[i] >= nd)
            return 0;
        out->dims[i] = (size_t)dims[i];
        out->perm[i] = (unsigned)perm[i];
    }
    return 1;
}

void plan_text_format_permutation(const plan_text_permutation *p, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < p->ndim && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%zu", i ? "x" : "", p->dims[i]);
    for (unsigned i = 0; i < p->ndim && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%c%u", i ? ',' : ':', p->perm[i]);
}
