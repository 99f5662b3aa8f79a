/* A plan's choices as text, from clipt_plan_query and
 * clipt_plan_query_stage, in the words clipt_plan_describe uses for them:
 * for tools that print a few of those facts in their own layout. */
#ifndef CLIPT_UTIL_PLAN_TEXT_H
#define CLIPT_UTIL_PLAN_TEXT_H

#include "cl_select.h"

#include <stddef.h>

/* "1", "2.1", ... "4.3"; "?" for CLIPT_SEQUENCE_AUTO (a plan that moves
 * nothing) or an unknown value.  A static string. */
const char *plan_text_sequence(clipt_sequence s);

/* The sequence named `text` ("auto" or a name above) into *out: 1, or 0
 * (*out unchanged) for any other text. */
int plan_text_parse_sequence(const char *text, clipt_sequence *out);

/* An axis permutation written "DIMS:PERM", e.g. "64x256x56x56:0,2,3,1":
 * 1 to CLIPT_MAX_DIMS positive dimensions joined by 'x', then as many
 * axes joined by ','.  Fills *ndim, dims and perm and returns 1, or 0 for
 * any other text (the permutation itself is checked by the library). */
typedef struct plan_text_permutation {
    unsigned ndim;
    size_t dims[CLIPT_MAX_DIMS];
    unsigned perm[CLIPT_MAX_DIMS];
} plan_text_permutation;
int plan_text_parse_permutation(const char *text, plan_text_permutation *out);

/* The permutation as "DIMS:PERM" (what plan_text_parse_permutation reads)
 * into buf (len > 0), cut to fit. */
void plan_text_format_permutation(const plan_text_permutation *p, char *buf, size_t len);

/* The following write NUL-terminated text into buf (len > 0), cut to fit.
 *   plan_text_choice: "3.2 (forced)", "2.1 (automatic)", "c2r" or "r2c";
 *   plan_text_tiles:  "m=24 n=16";
 *   plan_text_padded: "1202 x 1103", or "360 x 240 (no padding)";
 *   plan_text_stage:  what the stage does, plain words first, e.g. "move
 *     blocks along cycles (0100!), kernel shift100: 15 matrices of 24 x 1
 *     blocks of 16 elements (super-elements)" or "spread rows apart for the
 *     padding (pad), kernel pad_rows: 1201 rows of 1103 elements, row pitch
 *     1103 -> 1104" (describe's stage line up to its launch details). */
void plan_text_choice(const clipt_plan_info *p, char *buf, size_t len);
void plan_text_tiles(const clipt_plan_info *p, char *buf, size_t len);
void plan_text_padded(const clipt_plan_info *p, char *buf, size_t len);
void plan_text_stage(const clipt_stage_info *s, char *buf, size_t len);

#endif
