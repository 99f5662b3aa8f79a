/* Prints clipt_plan_describe for a fixed list of shapes, sequences, tile
 * rules, tuning overrides and forced tiles (BS -> PTTWAC -> slices
 * fallbacks), on the device's own profile and on profiles claiming a GPU's
 * local memory and 132 compute units.  tests/describe_diff.sh builds it
 * against two revisions of the library and compares: a refactor must not
 * change a byte.  Uses the internal profile, so it follows the library's
 * internals (internal.h). */
#include "internal.h"
#include "cl_select.h"
#include <stdio.h>
#include <string.h>

static const size_t shapes[][2] = {
    {1, 1}, {1, 1000}, {1000, 1}, {6, 4}, {2, 2}, {2, 3}, {7, 13}, {37, 1000},
    {1000, 37}, {97, 101}, {100, 37}, {24, 25}, {64, 64}, {1024, 768}, {720, 1280},
    {999, 1001}, {3001, 5000}, {5000, 3001}, {4096, 4096}, {12345, 67}, {67, 12345},
    {7919, 7907}, {1000000, 16}, {16, 1000000}, {300, 500}, {4099, 17}, {640, 480},
    {2048, 3}, {3, 2048}, {1500, 2000}};
static const size_t elems[] = {1, 2, 4, 8, 16};
static const clipt_sequence seqs[] = {
    CLIPT_SEQUENCE_AUTO, CLIPT_SEQUENCE_1, CLIPT_SEQUENCE_2_1, CLIPT_SEQUENCE_2_2,
    CLIPT_SEQUENCE_3_1, CLIPT_SEQUENCE_3_2, CLIPT_SEQUENCE_4_1, CLIPT_SEQUENCE_4_2,
    CLIPT_SEQUENCE_4_3};

static void one(clipt_context c, const char *tag, size_t r, size_t k, size_t e,
                const clipt_plan_options *o)
{
    static char text[65536];
    clipt_plan p = NULL;
    clipt_status s = clipt_plan_create(c, r, k, e, o, &p);
    printf("== %s %zux%zu e%zu seq%d tm%zu tn%zu pad%d rule%d\n", tag, r, k, e,
           (int)o->sequence, o->tile_m, o->tile_n, (int)o->padding, (int)o->tile_rule);
    if (s != CLIPT_SUCCESS) {
        printf("status %s\n", clipt_status_string(s));
        return;
    }
    clipt_plan_describe(p, text, sizeof text);
    fputs(text, stdout);
    clipt_plan_release(p);
}

static void sweep(clipt_context c, const char *tag, int full)
{
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (size_t q = 0; q < sizeof seqs / sizeof seqs[0]; q++) {
            clipt_plan_options o;
            clipt_plan_options_init(&o);
            o.sequence = seqs[q];
            one(c, tag, shapes[i][0], shapes[i][1], elems[(i + q) % 5], &o);
            if (!full)
                continue;
            if (q == 0) {
                for (size_t e = 0; e < 5; e++)
                    one(c, tag, shapes[i][0], shapes[i][1], elems[e], &o);
                o.padding = CLIPT_PADDING_NONE;
                one(c, tag, shapes[i][0], shapes[i][1], 4, &o);
                o.padding = CLIPT_PADDING_AUTO;
                o.tile_rule = CLIPT_TILE_RULE_ALG1;
                one(c, tag, shapes[i][0], shapes[i][1], 4, &o);
                o.tile_rule = CLIPT_TILE_RULE_ALG2;
                one(c, tag, shapes[i][0], shapes[i][1], 8, &o);
                o.tile_rule = CLIPT_TILE_RULE_AUTO;
                clipt_plan_options_set_tuning(&o, "align_bytes", 32);
                clipt_plan_options_set_tuning(&o, "pttwac_spread", 2);
                clipt_plan_options_set_tuning(&o, "walk_item_bytes", 4);
                one(c, tag, shapes[i][0], shapes[i][1], 4, &o);
            }
        }
    /* big forced tiles: BS -> PTTWAC -> slices fallbacks */
    {
        static const size_t forced[][4] = {{600, 700, 600, 700}, {4096, 4096, 4096, 64},
                                           {5000, 3001, 5000, 3001}, {1500, 2000, 500, 400}};
        for (size_t i = 0; i < 4; i++)
            for (size_t q = 0; q < sizeof seqs / sizeof seqs[0]; q++) {
                clipt_plan_options o;
                clipt_plan_options_init(&o);
                o.sequence = seqs[q];
                o.tile_m = forced[i][2];
                o.tile_n = forced[i][3];
                one(c, tag, forced[i][0], forced[i][1], elems[(i + q) % 5], &o);
            }
    }
}

int main(void)
{
    clipt_cl_env env;
    char why[256];
    clipt_context c;
    static const cl_ulong lms[] = {49152, 16384, 4096};
    if (clipt_cl_env_open(&env, why, sizeof why) != CLIPT_SUCCESS ||
        clipt_context_create(env.context, env.device, &c) != CLIPT_SUCCESS) {
        fprintf(stderr, "no device: %s\n", why);
        return 1;
    }
    sweep(c, "pocl", 1);
    clipt_context_release(c);
    for (size_t l = 0; l < 3; l++) {
        char tag[32];
        clipt_context_create(env.context, env.device, &c);
        c->profile.local_mem_bytes = lms[l];
        c->profile.compute_units = 132;
        snprintf(tag, sizeof tag, "lm%llu", (unsigned long long)lms[l]);
        sweep(c, tag, l == 0);
        clipt_context_release(c);
    }
    clipt_cl_env_close(&env);
    return 0;
}
