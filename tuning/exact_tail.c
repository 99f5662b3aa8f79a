/* What room-less padding keeps in the plan (issue 14, item 2): for COUNT
 * random general shapes (rows and cols uniform in [1000, 20000], splitmix64
 * from SEED), the plans made with CLIPT_PADDING_NONE on the selected device
 * (CLIPT_PLATFORM / CLIPT_DEVICE): how many pad in their tail, the tail's
 * share of the matrix (median, max), and how many stages still move single
 * elements along cycles.  Plans only: nothing is enqueued.
 *     clipt_exact_tail [COUNT [ELEM [SEED]]]   (defaults 100, 4, 14021129) */
#include "cl_select.h"
#include "random.h"

#include <stdio.h>
#include <stdlib.h>

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Stages of p that move 1-element super-elements. */
static unsigned single_element_stages(clipt_plan p, unsigned stages)
{
    unsigned found = 0;
    for (unsigned s = 0; s < stages; s++) {
        clipt_stage_info si;
        if (clipt_plan_query_stage(p, s, &si) == CLIPT_SUCCESS &&
            si.op == CLIPT_OP_MOVE_SUPER && si.s == 1)
            found++;
    }
    return found;
}

int main(int argc, char **argv)
{
    const size_t count = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
    const size_t elem = argc > 2 ? strtoul(argv[2], NULL, 10) : 4;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 14021129u;
    double *share = malloc((count ? count : 1) * sizeof *share);
    size_t roomless = 0, failed = 0, single = 0;
    clipt_cl_env env;
    clipt_context cx = NULL;
    char why[512];
    if (!share || clipt_cl_env_open(&env, why, sizeof why) != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_exact_tail: %s\n", share ? why : "out of memory");
        return 1;
    }
    if (clipt_context_create(env.context, env.device, &cx) != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_exact_tail: no clipt context\n");
        return 1;
    }
    for (size_t i = 0; i < count; i++) {
        const size_t rows = util_rand_range(&seed, 1000, 20000);
        const size_t cols = util_rand_range(&seed, 1000, 20000);
        clipt_plan_options o;
        clipt_plan p;
        clipt_plan_info in;
        clipt_plan_options_init(&o);
        o.padding = CLIPT_PADDING_NONE;
        if (clipt_plan_create(cx, rows, cols, elem, &o, &p) != CLIPT_SUCCESS) {
            failed++;
            continue;
        }
        clipt_plan_query(p, &in);
        if (in.padded_rows * in.padded_cols > rows * cols)
            share[roomless++] = 100.0 * (double)(in.padded_rows * in.padded_cols - rows * cols) /
                                ((double)rows * (double)cols);
        single += single_element_stages(p, in.num_stages);
        clipt_plan_release(p);
    }
    qsort(share, roomless, sizeof *share, by_value);
    printf("%s: %zu shapes of %zu-byte elements (%zu failed), %zu room-less; padded tail: "
           "median %.4f %%, max %.4f %% of the matrix; stages moving single elements: %zu\n",
           env.device_name, count, elem, failed, roomless,
           roomless ? share[roomless / 2] : 0.0, roomless ? share[roomless - 1] : 0.0, single);
    clipt_context_release(cx);
    clipt_cl_env_close(&env);
    free(share);
    return 0;
}
