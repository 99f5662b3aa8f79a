/* The automatic choice of C2R or R2C over the TPDS sequences (src/choice.c
 * asks it first): a rule measured on the H100, whose thresholds are the
 * tuning's c2r_column_bytes and the device's local memory. */
#include "choice.h"
#include "c2r_walk.h"
#include "factor.h"

/* The automatic plan's C2R or R2C: a single matrix (not a batch: the rule
 * was measured on single matrices), only when nothing of the TPDS plan
 * (algorithm, sequence, tiles, tile rule) is forced, elements of 2 bytes
 * or more (1-byte C2R lost 29 of 30 fresh shapes: docs/performance.md,
 * "C2R for every element size").  C2R's columns are the matrix's, R2C's
 * its rows; of the two, where both qualify, the one with the shorter
 * columns.  Two clauses:
 *
 * 1. Short columns: columns over at most tuning.c2r_column_bytes (the
 *    column pass grows costly with their length: 4-12 copies' time beyond
 *    ~11 KB on the H100) and a row pass whose rows stay on chip (through
 *    global scratch a row pass made skinny shapes such as 7 x 5762473 run
 *    at 0.1 % of copy against the TPDS plan's 29 %); elements of at least
 *    4 bytes (short 1- and 2-byte columns lost to the TPDS plans: 27 of 27
 *    1-byte, 9 of 12 2-byte coprime shapes).  Coprime sides, so that no
 *    column rotation is needed, or with a common factor columns of at
 *    most CLIPT_C2R_GCD_MAX_COLUMN elements and rows in local memory:
 *    there C2R's third pass (the rotation) still beat the TPDS plans, on
 *    9 of 10 such 4- and 8-byte shapes of a brute-force run (1.15-1.61x)
 *    and 3 of 3 of a general set (1.18-1.65x), where on longer columns it
 *    lost (0 of 20 fp32 shapes past 3000 rows; 6 of 6 between 2034 and
 *    2934 rows had a TPDS plan best), and with rows partly in registers
 *    too (5 of 5 general 4- and 8-byte shapes, 0.81-0.93x:
 *    docs/performance.md, "The brute force made whole").
 * 2. Longer columns, coprime sides, when the device takes C2R at all
 *    (c2r_column_bytes > 1): the split column pass (a reflection and a row
 *    walk, about 2.5-3.8 copies' time on the H100) if the row pass holds
 *    its rows in local memory: there C2R beat the TPDS plan on 27 of 35
 *    fresh coprime fp32 shapes and 4 of 4 fp64 ones, where rows held
 *    partly in registers lost 15 of 20 (docs/performance.md, "The column
 *    shuffle split").  16-byte rows may hold their rest in registers too:
 *    where C2R or R2C could take them, it was the best plan of 36 of 38
 *    coprime shapes (sides 1000-8000), 1.06-1.60x the TPDS plan
 *    (docs/performance.md, "The brute force made whole").  Both sides at
 *    least C2R_SPLIT_MIN_SIDE (no skinny shape, whose walk would move rows
 *    of a few bytes).  There C2R/R2C beat the TPDS plan on 29 of 30 fresh
 *    16-byte shapes (1.24x) and, its rows in 32-bit words, 25 of 30 2-byte
 *    ones (1.06x).  Not where the walk's cycles hold at most
 *    C2R_SHORT_WALK_BYTES of a column (-cols of a small order modulo
 *    rows): a work-item of the walk then has a cycle's few loads in
 *    flight.  On an H200 C2R took 1.2-1.9x the TPDS plan's time there
 *    (medians of 6 fresh shapes: 2-byte cycles of 2-8 rows, 4-byte of
 *    2-4, 8-byte of 2) and 0.80-1.05x on longer ones; the R2C or TPDS
 *    plan taken instead ran 1.48-1.68x as fast as C2R (medians per
 *    element size, 36 shapes) (tuning/gpu_short_walks.sh;
 *    docs/performance.md, "Walks of short cycles: the rule").
 *
 * Returns the algorithm, TPDS for none. */
#define C2R_SPLIT_MIN_SIDE 1000
#define C2R_SHORT_WALK_BYTES 16

/* Clause 1 for C2R on rows x cols (R2C: called with the sides swapped). */
static int short_columns(size_t rows, size_t cols, size_t elem, size_t most, size_t lm,
                         int coprime)
{
    return elem >= 4 && rows <= most &&
           (coprime || (rows <= CLIPT_C2R_GCD_MAX_COLUMN && cols <= lm)) &&
           clipt_c2r_row_on_chip(cols, elem, lm) && clipt_c2r_indexable(rows, cols, elem);
}

/* Clause 2 for C2R on rows x cols (R2C: the sides swapped). */
static int split_columns(size_t rows, size_t cols, size_t elem, size_t lm)
{
    const int row_fits = elem >= 16 ? clipt_c2r_row_on_chip(cols, elem, lm) : cols <= lm;
    return row_fits && rows <= CLIPT_C2R_WALK_MAX_ROWS && clipt_c2r_indexable(rows, cols, elem) &&
           !clipt_c2r_walk_short(rows, cols, (unsigned)(C2R_SHORT_WALK_BYTES / elem));
}

/* C2R where it qualifies and R2C does not or has the longer columns. */
static clipt_algorithm shorter_columns(int c2r, int r2c, size_t rows, size_t cols)
{
    if (c2r && (!r2c || rows <= cols))
        return CLIPT_ALGORITHM_C2R;
    return r2c ? CLIPT_ALGORITHM_R2C : CLIPT_ALGORITHM_TPDS;
}

clipt_algorithm clipt_c2r_chosen(const clipt_device_profile *profile, size_t batch,
                                 size_t rows, size_t cols, size_t elem,
                                 const clipt_plan_options *o, const clipt_tuning *t)
{
    const size_t most = t->c2r_column_bytes / elem;
    const size_t lm = clipt_local_budget(profile, CLIPT_OWN_LOCALS_UNKNOWN) / elem;
    const int coprime = clipt_gcd(rows, cols) == 1;
    clipt_algorithm a;
    if (o->algorithm != CLIPT_ALGORITHM_AUTO || o->sequence != CLIPT_SEQUENCE_AUTO ||
        o->tile_rule != CLIPT_TILE_RULE_AUTO || o->tile_m || o->tile_n || batch != 1 ||
        rows < 2 || cols < 2 || elem < 2)
        return CLIPT_ALGORITHM_TPDS;
    a = shorter_columns(short_columns(rows, cols, elem, most, lm, coprime),
                        short_columns(cols, rows, elem, most, lm, coprime), rows, cols);
    if (a != CLIPT_ALGORITHM_TPDS || !coprime || t->c2r_column_bytes <= 1 ||
        rows < C2R_SPLIT_MIN_SIDE || cols < C2R_SPLIT_MIN_SIDE)
        return a;
    return shorter_columns(split_columns(rows, cols, elem, lm), split_columns(cols, rows, elem, lm),
                           rows, cols);
}
