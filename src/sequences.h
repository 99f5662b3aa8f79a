/* Sequences of elementary transpositions (TPDS 2016, Fig. 2): each turns the
 * row-major M x N matrix, M = M'm and N = N'n, into its N x M transpose. */
#ifndef CLIPT_SEQUENCES_H
#define CLIPT_SEQUENCES_H

#include "stages.h"

#define CLIPT_MAX_SEQUENCE_STAGES 4

/* Fills specs with the stages of `seq` for the factorisation (M', m, N', n),
 * identities included, and returns their count (0 for an unknown
 * sequence).  2.1 ignores n and 2.2 ignores m (they use the whole other
 * dimension); 1 ignores both. */
unsigned clipt_sequence_specs(clipt_sequence seq, uint64_t Mp, uint64_t m,
                              uint64_t Np, uint64_t n,
                              clipt_stage_spec specs[CLIPT_MAX_SEQUENCE_STAGES]);

/* "3.1", "2.2", ... ; "?" for unknown. */
const char *clipt_sequence_name(clipt_sequence seq);

#endif
