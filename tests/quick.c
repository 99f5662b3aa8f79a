#include "support.h"
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    test_env env;
    size_t rows = argc > 1 ? strtoul(argv[1], 0, 10) : 64;
    size_t cols = argc > 2 ? strtoul(argv[2], 0, 10) : 64;
    size_t elem = argc > 3 ? strtoul(argv[3], 0, 10) : 4;
    int seq = argc > 4 ? atoi(argv[4]) : 0;
    size_t off = argc > 5 ? strtoul(argv[5], 0, 10) : 0;
    clipt_plan_options o;
    char desc[8192] = "";
    size_t mm;
    test_env_open(&env);
    clipt_plan_options_init(&o);
    o.sequence = (clipt_sequence)seq;
    clipt_status s = test_run_transpose(&env, rows, cols, elem, off * elem, &o, &mm, desc, sizeof desc);
    printf("%s\nstatus %s mismatches %zu\n", desc, clipt_status_string(s), mm);
    if (s) { char d[8192]; clipt_context_error_detail(env.ctx, d, sizeof d); printf("%s\n", d); }
    test_env_close(&env);
    return s || mm;
}
