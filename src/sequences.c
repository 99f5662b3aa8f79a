/* The sequences of TPDS 2016 Fig. 2, written as layouts: each stage swaps two
 * adjacent dimensions of the layout, starting from (M', m, N', n) and ending
 * at (N', n, M', m).  A "100" spec swaps dims a and b of (instances, a, b, s)
 * moving s-element super-elements; a "010" spec transposes `instances`
 * a x b tiles (s = 1). */
#include "modular.h"
#include "spec.h"

static clipt_stage_spec shift(const char *label, uint64_t instances,
                              uint64_t a, uint64_t b, uint64_t s)
{
    clipt_stage_spec sp = {CLIPT_OP_MOVE_SUPER, label, instances, a, b, s, 0, 0, 0};
    return sp;
}

static clipt_stage_spec tiles(const char *label, uint64_t instances,
                              uint64_t a, uint64_t b)
{
    clipt_stage_spec sp = {CLIPT_OP_TRANSPOSE_TILES, label, instances, a, b, 1, 0, 0, 0};
    return sp;
}

unsigned clipt_sequence_specs(clipt_sequence seq, uint64_t Mp, uint64_t m,
                              uint64_t Np, uint64_t n,
                              clipt_stage_spec specs[CLIPT_MAX_SEQUENCE_STAGES])
{
    const uint64_t M = Mp * m, N = Np * n;
    switch (seq) {
    case CLIPT_SEQUENCE_1: /* (M, N) -> (N, M), element by element */
        specs[0] = shift("100! whole matrix", 1, M, N, 1);
        return 1;
    case CLIPT_SEQUENCE_2_1: /* (M', m, N) -> (M', N, m) -> (N, M', m) */
        specs[0] = tiles("010!", Mp, m, N);
        specs[1] = shift("100!", 1, Mp, N, m);
        return 2;
    case CLIPT_SEQUENCE_2_2: /* (M, N', n) -> (N', M, n) -> (N', n, M) */
        specs[0] = shift("100!", 1, M, Np, n);
        specs[1] = tiles("010!", Np, M, n);
        return 2;
    case CLIPT_SEQUENCE_3_1:
        /* (M, N', n) -> (N', M', m, n) -> (N', M', n, m) -> (N', n, M', m) */
        specs[0] = shift("100!", 1, M, Np, n);
        specs[1] = tiles("0010!", Np * Mp, m, n);
        specs[2] = shift("0100!", Np, Mp, n, m);
        return 3;
    case CLIPT_SEQUENCE_3_2:
        /* (M', m, N', n) -> (M', N', m, n) -> (M', N', n, m) -> (N, M', m) */
        specs[0] = shift("0100!", Mp, m, Np, n);
        specs[1] = tiles("0010!", Mp * Np, m, n);
        specs[2] = shift("100!", 1, Mp, N, m);
        return 3;
    case CLIPT_SEQUENCE_4_1:
        /* RM -> (M',N',m,n) -> (M',N',n,m) -> (N',M',n,m) -> (N',n,M',m) */
        specs[0] = shift("0100!", Mp, m, Np, n);
        specs[1] = tiles("0010!", Mp * Np, m, n);
        specs[2] = shift("1000!", 1, Mp, Np, n * m);
        specs[3] = shift("0100!", Np, Mp, n, m);
        return 4;
    case CLIPT_SEQUENCE_4_2:
        /* RM -> (M',N',m,n) -> (N',M',m,n) -> (N',M',n,m) -> (N',n,M',m) */
        specs[0] = shift("0100!", Mp, m, Np, n);
        specs[1] = shift("1000!", 1, Mp, Np, m * n);
        specs[2] = tiles("0010!", Np * Mp, m, n);
        specs[3] = shift("0100!", Np, Mp, n, m);
        return 4;
    case CLIPT_SEQUENCE_4_3:
        /* 4.1 with its stages 2 and 3 fused: m x n super-elements move and
         * are transposed in one pass */
        specs[0] = shift("0100!", Mp, m, Np, n);
        specs[1] = shift("1000!+0010! fused", 1, Mp, Np, m * n);
        specs[1].sa = m;
        specs[1].sb = n;
        specs[2] = shift("0100!", Np, Mp, n, m);
        return 3;
    default:
        return 0;
    }
}

const char *clipt_sequence_name(clipt_sequence seq)
{
    switch (seq) {
    case CLIPT_SEQUENCE_1: return "1";
    case CLIPT_SEQUENCE_2_1: return "2.1";
    case CLIPT_SEQUENCE_2_2: return "2.2";
    case CLIPT_SEQUENCE_3_1: return "3.1";
    case CLIPT_SEQUENCE_3_2: return "3.2";
    case CLIPT_SEQUENCE_4_1: return "4.1";
    case CLIPT_SEQUENCE_4_2: return "4.2";
    case CLIPT_SEQUENCE_4_3: return "4.3";
    default: return "?";
    }
}

int clipt_c2r_indexable(uint64_t rows, uint64_t cols, size_t elem)
{
    const uint64_t line = 128 / elem > 1 ? 128 / elem : 1;
    return rows <= UINT32_MAX && cols <= UINT32_MAX &&
           rows * line + (uint64_t)CLIPT_C2R_MAX_BATCH * CLIPT_C2R_GLOBAL_GROUP_SIZE <=
               UINT32_MAX;
}

int clipt_c2r_columns_on_chip(uint64_t rows, uint64_t cols, size_t elem, size_t local_bytes)
{
    const uint64_t sector = 32 / elem > 1 ? 32 / elem : 1;
    return rows * (sector < cols ? sector : cols) * elem <= local_bytes;
}

int clipt_c2r_row_on_chip(uint64_t length, size_t elem, size_t local_words)
{
    return length <= local_words + (uint64_t)CLIPT_C2R_GLOBAL_GROUP_SIZE * CLIPT_C2R_BATCH_OF(elem);
}

unsigned clipt_c2r_specs(uint64_t batch, uint64_t rows, uint64_t cols, int inverse,
                         clipt_stage_spec specs[CLIPT_MAX_SEQUENCE_STAGES])
{
    /* R2C undoes C2R of the cols x rows view (the transpose's own C2R),
     * its passes in reverse order */
    const uint64_t a = inverse ? cols : rows, b = inverse ? rows : cols;
    const clipt_stage_spec rotate = {inverse ? CLIPT_OP_UNROTATE_COLUMNS
                                             : CLIPT_OP_ROTATE_COLUMNS,
                                     inverse ? "column unrotation" : "column rotation",
                                     batch, a, b, 1, 0, 0, 0};
    const clipt_stage_spec row = {inverse ? CLIPT_OP_UNSHUFFLE_ROWS : CLIPT_OP_SHUFFLE_ROWS,
                                  inverse ? "row unshuffle" : "row shuffle", batch, a, b, 1,
                                  0, 0, 0};
    const clipt_stage_spec column = {inverse ? CLIPT_OP_UNSHUFFLE_COLUMNS
                                             : CLIPT_OP_SHUFFLE_COLUMNS,
                                     inverse ? "column unshuffle" : "column shuffle", batch,
                                     a, b, 1, 0, 0, 0};
    const int rotates = clipt_gcd64(rows, cols) > 1;
    unsigned count = 0;
    if (rows == 1 || cols == 1)
        return 0; /* a vector's transpose has the same bytes */
    if (!inverse) {
        if (rotates)
            specs[count++] = rotate;
        specs[count++] = row;
        specs[count++] = column;
    } else {
        specs[count++] = column;
        specs[count++] = row;
        if (rotates)
            specs[count++] = rotate;
    }
    return count;
}
