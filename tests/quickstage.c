#include "support.h"
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    test_env env;
    clipt_stage_spec sp = {CLIPT_STAGE_SHIFT100, "x", 1, 4, 5, 3, 0, 0};
    if (argc > 1 && argv[1][0] == 'b') sp.kind = CLIPT_STAGE_BS010;
    if (argc > 2) sp.instances = strtoull(argv[2], 0, 10);
    if (argc > 3) sp.a = strtoull(argv[3], 0, 10);
    if (argc > 4) sp.b = strtoull(argv[4], 0, 10);
    if (argc > 5) sp.s = strtoull(argv[5], 0, 10);
    size_t elem = argc > 6 ? strtoul(argv[6], 0, 10) : 4;
    size_t mm;
    test_env_open(&env);
    clipt_status s = test_run_stage(&env, &sp, elem, 3, NULL, &mm);
    printf("status %s mismatches %zu\n", clipt_status_string(s), mm);
    test_env_close(&env);
    return s || mm;
}
