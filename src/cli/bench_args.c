/* clipt bench's options: the help text, the option table and its checks,
 * and the options every plan of the bench is made with. */
#include "bench.h"

#include <errno.h>
#include <string.h>

void bench_options(const bench_args *a, clipt_plan_options *o)
{
    clipt_plan_options_init(o);
    cli_apply_tuning(a->tuning, o); /* checked when parsed */
    o->tile_rule = a->tile_rule;
    o->algorithm = a->algorithm;
    o->padding = a->padding;
    if (a->mode == MODE_ONESHOT)
        o->padding = CLIPT_PADDING_NONE; /* clipt_transpose's plan */
}

const char bench_description[] =
    "Measures the throughput of clipt's automatic plans over a set of shapes\n"
    "on the selected device (CLIPT_PLATFORM / CLIPT_DEVICE; default: first\n"
    "GPU, else first device), next to the device's copy bandwidth.\n"
    "\n"
    "Shapes: --shapes FILE (one \"rows cols\" or DIMS:AXES per line, '#'\n"
    "starts a comment), --permute DIMS:AXES (axis permutations, as in 'clipt\n"
    "run --permute'; repeat the option or give a list separated by blanks or\n"
    "';'), or --random SET with --count N and --seed S (splitmix64: one seed,\n"
    "one list of shapes on every machine).  The sets follow the papers:\n"
    "  general  rows and cols uniform in [1000, 20000] ([1000, 15000] for\n"
    "           --elem 8 and 16);\n"
    "  skinny   long side uniform in [10^4, 10^7], short side in [2, 32];\n"
    "           shapes alternate rows >> cols (AoS->SoA) and cols >> rows\n"
    "           (SoA->AoS);\n"
    "  tensor   axis permutations as in TTLG's evaluation (Vedurada et al.,\n"
    "           sec. VI): 3-D to 6-D arrays of 10^7 to 10^9 bytes\n"
    "           (log-uniform; extents all the same, increasing, decreasing,\n"
    "           or up then down, or down then up, at least 2 each), random\n"
    "           permutations other than the identity; every tenth case\n"
    "           (the 1st, 11th, ...) a CNN layout change, NCHW -> NHWC and\n"
    "           NHWC -> NCHW in turn, C in {3, 16, ... 512}, H = W in\n"
    "           {7, 14, ... 224}.  tuning/permute_bench.c's --random-tensor\n"
    "           draws the same cases (util/tensor_set.c).\n"
    "A matrix is the 2-D case of a permutation (DIMS:AXES R x C:1,0 is the\n"
    "R x C matrix); every case is planned by clipt_plan_create_permute (a\n"
    "matrix's plan is clipt_plan_create's) and measured the same way.\n"
    "--max-dim D scales a range [lo, hi] of general or skinny with hi > D\n"
    "down to [min(lo, ceil(D/2)), D], and --max-bytes B the tensor set's\n"
    "[10^7, 10^9] to [min(10^7, ceil(B/100)), B], for quick runs.  --list\n"
    "prints the cases, one a line in the forms --shapes reads, and runs\n"
    "nothing.  A shape is skipped (noted on stderr, counted in the summary)\n"
    "when its buffer exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE, when buffer +\n"
    "pristine copy + scratch exceed 80% of CL_DEVICE_GLOBAL_MEM_SIZE, or\n"
    "when nothing moves (a single row or column; a permutation that is the\n"
    "identity once axes of 1 are dropped).\n"
    "\n"
    "Timing: GB/s = 2*bytes / time, bytes = rows*cols*elem (a permutation:\n"
    "the product of its dimensions times elem).  Before every timed run the\n"
    "matrix is restored from a pristine device copy (clEnqueueCopyBuffer,\n"
    "not timed).  --mode repeated (default): the plan is created once per\n"
    "shape and time is clipt_plan_profile's total, from the first stage's\n"
    "start (padding included) to the last stage's end (unpadding included).\n"
    "--mode single: every timed run creates the plan (clipt_plan_create:\n"
    "programs come from the context's cache, cycles are listed on the host),\n"
    "enqueues it, waits and releases it; time is a host monotonic clock\n"
    "around all of that, and the device-only time is reported beside it.\n"
    "The first run's plan lists its cycles and its run cuts them into\n"
    "segments on the device; later runs' plans take the segment tables\n"
    "from the context's pool (what a pipeline that meets a shape again\n"
    "gets): the first run's time is reported apart.\n"
    "--mode oneshot: clipt_transpose (its context and plans come from its\n"
    "cache): the first call of each shape (which makes the plan; on the first\n"
    "shape also the context and programs) and then --repeat calls, each timed\n"
    "with a host clock around the call (it blocks); time is their median.\n"
    "Beside it, the same plan (automatic, CLIPT_PADDING_NONE) made once and\n"
    "timed as --mode repeated does (device time): oneshot/repeated = the\n"
    "calls' median host time / that device time, first/repeated the first\n"
    "call's; the kept plan's host time (enqueue + wait, what a blocking call\n"
    "cannot go below) is reported beside it, and oneshot/kept plan's host\n"
    "time isolates what the caches cost.  Both results are checked.  No --tune, --tile-rule,\n"
    "--padding or --brute-force (clipt_transpose takes no options).\n"
    "--padding none|scratch|off: every plan (but --brute-force's) needs a\n"
    "buffer of exactly rows*cols*elem bytes, as clipt_transpose's and\n"
    "CLIPT_PADDING_NONE plans do; scratch keeps the padding of the automatic\n"
    "plan in the plan's own buffer (room-less padding), off never pads, none\n"
    "chooses between the two by the cost model.\n"
    "Times are medians of --repeat runs.  Copy GB/s: clEnqueueCopyBuffer of\n"
    "rows*cols*elem bytes (pristine -> work), median of --repeat, counted\n"
    "as 2*bytes/time.  ratio = transposition GB/s / copy GB/s.\n"
    "--mode oneshot and --brute-force time 2-D plans only (clipt_transpose,\n"
    "forced sequences): every case must then be a matrix.\n"
    "\n"
    "The first timed run of each shape is read back and compared bit for\n"
    "bit with the CPU transpose or permutation (min(8, cores) threads); a\n"
    "wrong result is reported on stderr and the bench goes on.\n"
    "\n"
    "--brute-force: per shape, also times the automatic plan, the\n"
    "automatic plans of the other algorithms (tpds, c2r, r2c; not with\n"
    "--algorithm), and forced\n"
    "plans for sequences 2.1, 2.2, 3.1 and 3.2 and every factor m of rows\n"
    "and n of cols with m*n*elem <= the device's local memory (2.1 moves\n"
    "whole rows, so n = cols; 2.2 whole columns, so m = rows): the sides'\n"
    "divisors, and the multiples of the device's align_bytes from its\n"
    "min_super up that pad their side by at most 1/32 (a forced factor that\n"
    "does not divide its side pads it), nearest to the automatic (tpds)\n"
    "plan's factors first, up to --brute-limit plans counting the automatic one;\n"
    "combinations clipt_plan_create rejects are skipped.\n"
    "Plans are created ahead on min(8, cores) threads (clipt_plan_create\n"
    "costs more than a run on a GPU); each gets one warm-up run, then one\n"
    "timed run (the median of --repeat when the warm-up took under 1 ms);\n"
    "device time in both modes.  Reports auto/best = automatic GB/s / best GB/s (TPDS 2016,\n"
    "sec. 5.3.1, Fig. 5).  The best forced plan is run once more and its\n"
    "result checked like the automatic plan's (a wrong one: exit status 1).\n"
    "\n"
    "Output: progress on stderr; one line per shape on stdout; then\n"
    "  median X GB/s  p10 Y  p90 Z  copy W GB/s  median/copy R %  verified V/N\n"
    "  ratio median R %  p10 A %  p90 B %\n"
    "where X, Y, Z are percentiles of the shapes' GB/s, W the median of their\n"
    "copy GB/s, R the median of the per-shape ratios (not X/W), V/N the\n"
    "shapes found correct / checked; with --brute-force also\n"
    "  auto/best median F %  p10 G %  p90 H %\n"
    "with --mode oneshot also\n"
    "  oneshot/repeated median Q  p90 P  max M  (first/repeated median F)\n"
    "  oneshot/kept plan's host time median Q  p90 P  max M\n"
    "  first call on the device T ms (context, programs, plan)\n"
    "and, where the model predicted the plans' device times (each shape's line\n"
    "says 'predicted T ms (+E %)'),\n"
    "  model: predicted within +-20 % for P % of N shapes, median error M %\n"
    "--csv FILE: header, then one row per measured shape: rows,cols,elem,\n"
    "sequence,m,n,padded_rows,padded_cols,time_ms,gbs,copy_gbs,ratio,\n"
    "verified,stages_ms (';'-joined per-stage medians),mode,device_ms,\n"
    "best_gbs,best_sequence,best_m,best_n,auto_best,best_verified,\n"
    "predicted_ms,first_ms,oneshot_ratio,plan_host_ms,dims,axes,passes (ratio and\n"
    "auto_best as fractions; the best_* fields empty without --brute-force;\n"
    "predicted_ms: the cost model's time, clipt_plan_info; first_ms: the\n"
    "first call (oneshot) or the first run (single: its plan finds nothing\n"
    "of the shape in the context's pool); oneshot_ratio, plan_host_ms:\n"
    "--mode oneshot only; dims and axes: the\n"
    "case's DIMS ('x'-joined) and AXES (';'-joined: no field holds a comma),\n"
    "a matrix's too (R x C, 1;0); passes: the plan's passes).  A case that is no matrix\n"
    "has rows and cols empty (its line on stdout names its passes and\n"
    "stages); when its plan is not one 2-D transposition either, sequence is\n"
    "\"nd\" and m, n, padded_rows, padded_cols are 0.\n"
    "--png FILE: histogram of GB/s drawn by python3 and plot_hist.py,\n"
    "installed with the tool (share/clipt/plot_hist.py; CLIPT_PLOT_SCRIPT\n"
    "overrides the path); it needs matplotlib (Debian: python3-matplotlib).\n"
    "Without python3, matplotlib or the script one line says what to install\n"
    "and the bench does not fail.\n"
    "\n"
    "--host: another mode, host arrays through clipt_transpose_host over\n"
    "several command queues (see 'clipt bench --host --help').\n"
    "\n"
    "Exit status: 0 every checked shape correct, 1 a wrong result, 2 usage\n"
    "error, 3 OpenCL or clipt failure on some shape (the others still run).";

static const char *parse_set(const char *text, void *target)
{
    if (strcmp(text, "general") == 0)
        *(shape_set *)target = SET_GENERAL;
    else if (strcmp(text, "skinny") == 0)
        *(shape_set *)target = SET_SKINNY;
    else if (strcmp(text, "tensor") == 0)
        *(shape_set *)target = SET_TENSOR;
    else
        return "general, skinny or tensor";
    return NULL;
}

static const char *parse_mode(const char *text, void *target)
{
    if (strcmp(text, "repeated") == 0)
        *(bench_mode *)target = MODE_REPEATED;
    else if (strcmp(text, "single") == 0)
        *(bench_mode *)target = MODE_SINGLE;
    else if (strcmp(text, "oneshot") == 0)
        *(bench_mode *)target = MODE_ONESHOT;
    else
        return "repeated, single or oneshot";
    return NULL;
}

/* auto: the cost model's choice; alg5 (Algorithm 5 and the sequence rule,
 * the model's fallback), alg2, alg1: the papers' rules alone. */
static const char *parse_tile_rule(const char *text, void *target)
{
    static const struct {
        const char *name;
        clipt_tile_rule rule;
    } rules[] = {{"auto", CLIPT_TILE_RULE_AUTO},
                 {"alg5", CLIPT_TILE_RULE_ALG5},
                 {"alg2", CLIPT_TILE_RULE_ALG2},
                 {"alg1", CLIPT_TILE_RULE_ALG1}};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(text, rules[i].name) == 0) {
            *(clipt_tile_rule *)target = rules[i].rule;
            return NULL;
        }
    return "auto, alg5, alg2 or alg1";
}

static const char *parse_seed(const char *text, void *target)
{
    char *end = NULL;
    unsigned long long v;
    if (text[0] < '0' || text[0] > '9')
        return "a whole number";
    errno = 0;
    v = strtoull(text, &end, 10);
    if (errno || *end != '\0')
        return "a whole number below 2^64";
    *(uint64_t *)target = (uint64_t)v;
    return NULL;
}

static int validate_args(const cli_command *cmd, const bench_args *a, int *status)
{
    const int sources = !!a->shapes_file + (a->set != SET_NONE) + (a->permute.n > 0);
    if (sources != 1) {
        *status = cli_usage_error(cmd, sources
                                  ? "--shapes, --random and --permute exclude each other"
                                  : "give --shapes FILE, --random general|skinny|tensor or "
                                    "--permute DIMS:AXES");
        return 0;
    }
    if (a->max_dim && a->set != SET_GENERAL && a->set != SET_SKINNY) {
        *status = cli_usage_error(cmd, "--max-dim applies to --random general|skinny only");
        return 0;
    }
    if (a->max_bytes && a->set != SET_TENSOR) {
        *status = cli_usage_error(cmd, "--max-bytes applies to --random tensor only");
        return 0;
    }
    if (a->mode == MODE_ONESHOT &&
        (a->tuning || a->tile_rule != CLIPT_TILE_RULE_AUTO || a->brute_force ||
         a->algorithm != CLIPT_ALGORITHM_AUTO || a->padding != CLIPT_PADDING_AUTO)) {
        *status = cli_usage_error(cmd, "--mode oneshot times clipt_transpose, which takes "
                                       "no options: no --tune, --tile-rule, --algorithm, "
                                       "--padding or "
                                       "--brute-force");
        return 0;
    }
    return 1;
}

int bench_parse_args(const cli_command *cmd, int argc, char **argv, bench_args *a,
                     int *status)
{
    const cli_option opts[] = {
        {"shapes", "FILE", cli_parse_text, &a->shapes_file,
         "shapes from FILE, one \"rows cols\" per line, '#' comments"},
        {"random", "SET", parse_set, &a->set, "random shapes: general, skinny or tensor"},
        {"permute", "DIMS:AXES", bench_parse_permute, &a->permute,
         "axis permutations (e.g. 64x256x56x56:0,2,3,1); repeatable, or a list"},
        {"count", "N", cli_parse_positive_size, &a->count,
         "random shapes (default 100); with --shapes or --permute: the first N"},
        {"seed", "S", parse_seed, &a->seed, "seed of --random (default 1)"},
        {"max-dim", "D", cli_parse_positive_size, &a->max_dim,
         "scale --random general|skinny ranges down to at most D (quick runs)"},
        {"max-bytes", "B", cli_parse_positive_size, &a->max_bytes,
         "scale --random tensor sizes down to at most B bytes (quick runs)"},
        {"list", NULL, NULL, &a->list, "print the cases, one a line, and run nothing"},
        {"elem", "BYTES", cli_parse_elem_size, &a->elem,
         "element size: 1, 2, 4, 8 or 16 (default 4)"},
        {"repeat", "K", cli_parse_positive_size, &a->repeat,
         "timed runs per shape; medians are reported (default 5)"},
        {"mode", "MODE", parse_mode, &a->mode,
         "repeated (plan reused), single (plan per run) or oneshot (clipt_transpose) "
         "(default repeated)"},
        {"no-verify", NULL, NULL, &a->no_verify, "skip the bit-exact host check"},
        {"csv", "FILE", cli_parse_text, &a->csv, "write one row per measured shape"},
        {"png", "FILE", cli_parse_text, &a->png,
         "histogram of GB/s (python3 + matplotlib)"},
        {"brute-force", NULL, NULL, &a->brute_force,
         "also time forced (sequence, m, n) plans; report auto/best"},
        {"brute-limit", "N", cli_parse_positive_size, &a->brute_limit,
         "most plans timed per shape by --brute-force (default 200)"},
        {"tile-rule", "RULE", parse_tile_rule, &a->tile_rule,
         "auto (cost model, default), alg5 (Algorithm 5 alone), alg2, alg1"},
        {"tune", "LIST", cli_parse_tuning, &a->tuning,
         "tuning overrides NAME=VALUE,... for every plan (names as in 'clipt info')"},
        {"algorithm", "A", cli_parse_algorithm, &a->algorithm,
         "tpds, c2r, r2c or auto (default auto) for every plan"},
        {"padding", "P", cli_parse_padding, &a->padding,
         "auto (room after the matrix, default), none (exact-size buffer: "
         "clipt_transpose's plans), scratch (exact-size, padded tail in the plan), off "
         "(never pad)"},
    };
    if (!cli_parse_options(cmd, opts, sizeof opts / sizeof opts[0], argc, argv, NULL, 0,
                           NULL, status))
        return 0;
    return validate_args(cmd, a, status);
}
