/* What stages do, and how a transposition is built from them: the spec
 * algebra, free of OpenCL types (sizes are uint64_t; clipt.h is included
 * for its plain enums clipt_stage_op and clipt_sequence only), so that it
 * can be reasoned about and tested on the host alone.
 *
 * A plan is a list of stage specs over a region of `batch` consecutive
 * matrices; a 2-D transposition is the case batch = 1. */
#ifndef CLIPT_SPEC_H
#define CLIPT_SPEC_H

#include "clipt.h"

#include <stdint.h>

/* One elementary transposition.  TRANSPOSE_TILES and MOVE_SUPER: the region
 * is `instances` consecutive a x b matrices of super-elements of s elements
 * (s = 1 for tiles); each becomes its b x a transpose.  MOVE_SUPER with
 * sa * sb == s, sa and sb > 1: every super-element (an sa x sb tile) is
 * also transposed (fused 1000!+0010!).  PAD and UNPAD: `instances` logical
 * rows of `a` elements move from a row pitch of sa elements to a pitch of
 * sb (PAD: sb > sa, forward, from the end; UNPAD: sb < sa, backward, from
 * the start); b and s are 1. */
typedef struct clipt_stage_spec {
    clipt_stage_op op;
    const char *label;       /* the papers' name: "100!", "0010!", "pad" */
    uint64_t instances, a, b, s;
    uint64_t sa, sb;
    uint64_t split;          /* 0: the region is contiguous in the buffer;
                                else its first `split` elements are, the
                                rest in the plan's tail (room-less padding) */
} clipt_stage_spec;

/* Whether the stage changes nothing (a or b is 1 and no inner transpose,
 * no instances, or a pitch that stays). */
int clipt_spec_is_identity(const clipt_stage_spec *spec);

/* Whether each super-element is also transposed (fused 1000!+0010!). */
int clipt_spec_transposes_super(const clipt_stage_spec *spec);

/* Elements of one instance: a * b * s (for PAD and UNPAD, one row: a). */
uint64_t clipt_spec_instance_elems(const clipt_stage_spec *spec);

/* Elements of the region the stage works on (PAD and UNPAD: every row at
 * the wider pitch). */
uint64_t clipt_spec_region_elems(const clipt_stage_spec *spec);

/* Stage-level widening: a stage whose contiguous units (a super-element
 * of a plain MOVE_SUPER, a row and both pitches of PAD and UNPAD) are whole
 * multiples of W bytes runs as the same stage on W-byte elements, the
 * region read as W-byte words: the same bytes move, in wider accesses.
 * Returns the widest W in {elem, 2, 4, 8, 16}, at most `most` bytes, that
 * divides those units' bytes and the split's (a split region's tail starts
 * a fresh buffer); elem when nothing widens (tiles, the fused form, the
 * C2R passes, identities).  The buffer offset must also be a multiple of
 * W bytes: the caller's to check when the stage runs. */
size_t clipt_spec_wide_bytes(const clipt_stage_spec *spec, size_t elem, size_t most);

/* Whether a PAD or UNPAD stage of elem-byte elements moves its bytes as
 * 16-byte words whatever its units (cl/pad.cl's word kernels, which shift
 * each word's bytes into place): with the GPU kernels (`loops` 0), 16-byte
 * words allowed (`most`, the tuning's wide_bytes, at least 16), the region
 * in one buffer (no split), and rows that would otherwise move in words of
 * fewer than 8 bytes (the element kernels on 8- and 16-byte words were as
 * fast or faster on an H100).  Such a stage is not widened: the word
 * kernels take any offset. */
int clipt_spec_rows_in_words(const clipt_stage_spec *spec, size_t elem, int loops,
                             size_t most);

/* Whether a TRANSPOSE_TILES stage of elem-byte elements moves its tiles
 * as 4 x 4 byte quads (cl/transpose010.cl, QUAD): 1-byte elements, the
 * GPU kernels (`loops` 0), sides multiples of 4 and output rows (a) of 32
 * or more.  The BS kernel takes them where the batch is 4-byte aligned. */
int clipt_spec_tiles_in_quads(const clipt_stage_spec *spec, size_t elem, int loops);

/* The spec in units of `unit` elements (unit divides what
 * clipt_spec_wide_bytes allowed: its W / elem), and back (unit as given,
 * multiplying). */
clipt_stage_spec clipt_spec_widened(const clipt_stage_spec *spec, uint64_t unit);
clipt_stage_spec clipt_spec_narrowed(const clipt_stage_spec *spec, uint64_t unit);

/* At most: padding, a sequence's stages, unpadding. */
#define CLIPT_MAX_SEQUENCE_STAGES 4
#define CLIPT_MAX_STAGES (CLIPT_MAX_SEQUENCE_STAGES + 2)

/* Sequences of elementary transpositions (TPDS 2016, Fig. 2): each turns
 * the row-major M x N matrix, M = M'm and N = N'n, into its N x M transpose.
 * Fills specs with the stages of `seq` for the factorisation (M', m, N', n),
 * identities included, and returns their count (0 for an unknown
 * sequence).  2.1 ignores n and 2.2 ignores m (they use the whole other
 * dimension); 1 ignores both. */
unsigned clipt_sequence_specs(clipt_sequence seq, uint64_t Mp, uint64_t m,
                              uint64_t Np, uint64_t n,
                              clipt_stage_spec specs[CLIPT_MAX_SEQUENCE_STAGES]);

/* The passes of the C2R decomposition (Catanzaro et al.) of `batch`
 * consecutive rows x cols matrices: column rotation (only when
 * gcd(rows, cols) > 1), row shuffle, column shuffle, on the rows x cols
 * view; with `inverse`, R2C's: their inverses in reverse order on the
 * cols x rows view.  Fills specs and returns their count: 0 when nothing
 * moves (a single row or column). */
unsigned clipt_c2r_specs(uint64_t batch, uint64_t rows, uint64_t cols, int inverse,
                         clipt_stage_spec specs[CLIPT_MAX_SEQUENCE_STAGES]);

/* What C2R's kernels (stage_c2r.c) step past a unit's end: work-items of
 * a global variant's work-group, and elements each loads ahead. */
#define CLIPT_C2R_GLOBAL_GROUP_SIZE 1024
/* Work-items of its other kernels' work-groups (stage_c2r.c). */
#define CLIPT_C2R_GROUP_SIZE 256
#define CLIPT_C2R_MAX_BATCH 8
/* Elements a GPU-style work-item loads ahead (C2R_BATCH): fewer of 16
 * bytes, which take four registers each. */
#define CLIPT_C2R_BATCH_OF(elem) ((elem) > 8 ? 4 : CLIPT_C2R_MAX_BATCH)

/* Whether C2R's row pass (R2C's: rows of the cols x rows view) keeps a
 * row of `length` elem-byte elements on chip: local memory (local_words
 * elements) plus one step of the largest work-group's registers
 * (c2r_rows_local, c2r_rows_regs).  Past that a row goes through global
 * scratch, several times slower than the TPDS plans: the automatic choice
 * asks it. */
/* Whether C2R's column pass of a rows x cols view keeps a block of columns
 * (down to one 32-byte sector of a row, or the whole row) in local_bytes
 * of local memory; else the column shuffle is split in two passes
 * (stage_c2r_split.c). */
int clipt_c2r_columns_on_chip(uint64_t rows, uint64_t cols, size_t elem, size_t local_bytes);

int clipt_c2r_row_on_chip(uint64_t length, size_t elem, size_t local_words);

/* Whether C2R's kernels can index a rows x cols matrix of elem-byte
 * elements (32-bit indices within a row or a column block, with a batch's
 * steps past its end): the choice asks it before taking C2R, the stage
 * before building it. */
int clipt_c2r_indexable(uint64_t rows, uint64_t cols, size_t elem);

/* "3.1", "2.2", ... ; "?" for unknown. */
const char *clipt_sequence_name(clipt_sequence seq);

/* A staged transposition (Gómez-Luna et al.): `batch` consecutive rows x
 * cols matrices, each padded to prows x pcols (the padding rows after it,
 * the padding columns at the end of every row), tiled m x n, transposed by
 * `sequence`. */
typedef struct clipt_staged_layout {
    uint64_t batch, rows, cols;
    uint64_t prows, pcols, m, n;
    clipt_sequence sequence;
} clipt_staged_layout;

/* Fills specs with the stages that transpose the layout in place, in order
 * (padding, the sequence, unpadding), identities left out, and returns
 * their count: 0 when nothing moves (a single row or column), -1 for an
 * unknown sequence or for padding with batch > 1 (the matrices would then
 * need padding each apart, which no stage does yet).  The result occupies
 * the first batch * rows * cols elements: row-major cols x rows matrices. */
int clipt_staged_specs(const clipt_staged_layout *l, clipt_stage_spec specs[CLIPT_MAX_STAGES]);

#endif
