/* Option parsing shared by the subcommands: one table of cli_option per
 * command drives both the parser and the --help text, so the two cannot
 * drift apart. */
#define _GNU_SOURCE /* getopt_long */

#include "cli.h"
#include "plan_text.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_usage_error(const cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "clipt %s: ", cmd->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'clipt %s --help')\n", cmd->name);
    return CLI_EXIT_USAGE;
}

/* ---- the table as getopt_long sees it ----------------------------------- */

/* "o|output": short letter 'o' and long name "output"; "rows": long only. */
static char short_of(const cli_option *o)
{
    return o->name[0] && o->name[1] == '|' ? o->name[0] : '\0';
}

static const char *long_of(const cli_option *o)
{
    return short_of(o) ? o->name + 2 : o->name;
}

/* getopt_long's value for option i: its letter, or past every letter. */
enum { LONG_ONLY_BASE = 256 };

static int value_of(const cli_option *opts, size_t i)
{
    return short_of(&opts[i]) ? short_of(&opts[i]) : LONG_ONLY_BASE + (int)i;
}

static const cli_option *option_of_value(const cli_option *opts, size_t num_opts, int value)
{
    for (size_t i = 0; i < num_opts; i++)
        if (value_of(opts, i) == value)
            return &opts[i];
    return NULL;
}

/* The long options and the short ones ("h", then "o:" per letter with a
 * value), ':' first so that a missing value is told from an unknown option. */
static int make_getopt_tables(const cli_option *opts, size_t num_opts,
                              struct option **longs, char **shorts)
{
    char *at;
    *longs = calloc(num_opts + 2, sizeof **longs);
    *shorts = malloc(2 * num_opts + 3);
    if (!*longs || !*shorts)
        return 0;
    at = *shorts;
    *at++ = ':';
    *at++ = 'h';
    for (size_t i = 0; i < num_opts; i++) {
        (*longs)[i].name = long_of(&opts[i]);
        (*longs)[i].has_arg = opts[i].metavar ? required_argument : no_argument;
        (*longs)[i].val = value_of(opts, i);
        if (short_of(&opts[i])) {
            *at++ = short_of(&opts[i]);
            if (opts[i].metavar)
                *at++ = ':';
        }
    }
    *at = '\0';
    (*longs)[num_opts].name = "help";
    (*longs)[num_opts].val = 'h';
    return 1;
}

/* ---- help ----------------------------------------------------------------- */

static cli_help_format help_format = CLI_HELP_TEXT;
static unsigned man_pages_printed;

void cli_set_help_format(cli_help_format format)
{
    help_format = format;
    man_pages_printed = 0;
}

/* "-o, --output OUT" or "    --rows R" */
static void option_left(const cli_option *o, char *buf, size_t len)
{
    char letter[8] = "    ";
    if (short_of(o))
        snprintf(letter, sizeof letter, "-%c, ", short_of(o));
    snprintf(buf, len, "%s--%s%s%s", letter, long_of(o), o->metavar ? " " : "",
             o->metavar ? o->metavar : "");
}

static void print_help_text(const cli_command *cmd, const cli_option *opts, size_t num_opts)
{
    char left[80];
    printf("usage: clipt %s%s%s\n\n", cmd->name, cmd->synopsis[0] ? " " : "",
           cmd->synopsis);
    if (cmd->description)
        printf("%s\n\n", cmd->description);
    printf("options:\n");
    for (size_t i = 0; i < num_opts; i++) {
        option_left(&opts[i], left, sizeof left);
        printf("  %-24s %s\n", left, opts[i].help);
    }
    printf("  %-24s %s\n", "-h, --help", "show this help and exit");
}

/* One option as a man page's tagged paragraph. */
static void print_option_roff(const cli_option *o)
{
    char name[80];
    printf(".TP\n");
    if (short_of(o))
        printf("\\fB\\-%c\\fR, ", short_of(o));
    snprintf(name, sizeof name, "--%s", long_of(o));
    cli_roff_font(stdout, 'B', name);
    if (o->metavar) {
        printf(" ");
        cli_roff_font(stdout, 'I', o->metavar);
    }
    printf("\n");
    cli_roff_text(stdout, o->help);
    printf("\n");
}

/* The command's page, clipt-NAME(1); a later page (bench --host) becomes a
 * section of the first. */
static void print_help_man(const cli_command *cmd, const cli_option *opts, size_t num_opts)
{
    static const cli_option help = {"h|help", NULL, NULL, NULL, "show this help and exit"};
    const int first = man_pages_printed++ == 0;
    char text[64];
    snprintf(text, sizeof text, "clipt %s", cmd->name);
    if (first) {
        snprintf(text, sizeof text, "clipt-%s", cmd->name);
        cli_roff_header(text, cmd->summary);
        printf(".SH SYNOPSIS\n");
        snprintf(text, sizeof text, "clipt %s", cmd->name);
    } else {
        printf(".SH \"");
        cli_roff_text(stdout, cmd->name);
        printf(" MODE\"\n");
    }
    cli_roff_font(stdout, 'B', text);
    printf(" ");
    cli_roff_text(stdout, cmd->synopsis);
    printf("\n%s\n", first ? ".SH DESCRIPTION" : ".PP");
    if (cmd->description)
        cli_roff_paragraphs(stdout, cmd->description);
    printf("%s\n", first ? ".SH OPTIONS" : ".SS Options");
    for (size_t i = 0; i < num_opts; i++)
        print_option_roff(&opts[i]);
    print_option_roff(&help);
}

static void print_help(const cli_command *cmd, const cli_option *opts, size_t num_opts)
{
    if (help_format == CLI_HELP_MAN)
        print_help_man(cmd, opts, num_opts);
    else
        print_help_text(cmd, opts, num_opts);
}

/* ---- parsing -------------------------------------------------------------- */

/* How `--name` (without "=value") was given, for messages about it. */
static void option_name(const char *arg, char *buf, size_t len)
{
    snprintf(buf, len, "%.*s", (int)strcspn(arg, "="), arg);
}

/* An unknown or ambiguous long option, as getopt_long left it at arg. */
static void bad_long_option(const cli_command *cmd, const cli_option *opts,
                            size_t num_opts, const char *arg)
{
    char given[128], candidates[512] = "";
    size_t matches = 0, used = 0;
    option_name(arg, given, sizeof given);
    for (size_t i = 0; i < num_opts; i++)
        if (strncmp(long_of(&opts[i]), given + 2, strlen(given + 2)) == 0 &&
            used < sizeof candidates) {
            used += (size_t)snprintf(candidates + used, sizeof candidates - used, "%s--%s",
                                     matches ? ", " : "", long_of(&opts[i]));
            matches++;
        }
    if (matches > 1)
        cli_usage_error(cmd, "ambiguous option '%s' (%s)", given, candidates);
    else
        cli_usage_error(cmd, "unknown option '%s'", given);
}

/* Sets opt from its value (NULL for a flag); 0 after printing why not. */
static int apply_option(const cli_command *cmd, const cli_option *opt, const char *value)
{
    const char *expected;
    if (!opt->metavar) {
        *(int *)opt->target = 1;
        return 1;
    }
    expected = opt->parse(value, opt->target);
    if (expected) {
        cli_usage_error(cmd, "invalid value '%s' for --%s: expected %s", value,
                        long_of(opt), expected);
        return 0;
    }
    return 1;
}

/* Handles what getopt_long returned for argv[optind - 1]; 0 when parsing
 * ends (help shown, or an error printed), with *exit_status set. */
static int handle_option(const cli_command *cmd, const cli_option *opts, size_t num_opts,
                         int c, char **argv, int *exit_status)
{
    const cli_option *opt;
    if (c == 'h') {
        print_help(cmd, opts, num_opts);
        *exit_status = CLI_EXIT_OK;
        return 0;
    }
    if (c == ':') {
        opt = option_of_value(opts, num_opts, optopt);
        if (opt && optopt < LONG_ONLY_BASE && argv[optind - 1][1] != '-')
            cli_usage_error(cmd, "option -%c needs a value %s", optopt, opt->metavar);
        else if (opt)
            cli_usage_error(cmd, "option --%s needs a value %s", long_of(opt), opt->metavar);
        return 0;
    }
    if (c == '?') {
        /* optopt: 0 for an unknown long option, a long option's own value
         * when it was given "=value" but takes none, else the letter */
        opt = optopt ? option_of_value(opts, num_opts, optopt) : NULL;
        if (optopt == 0)
            bad_long_option(cmd, opts, num_opts, argv[optind - 1]);
        else if (opt)
            cli_usage_error(cmd, "option --%s takes no value", long_of(opt));
        else
            cli_usage_error(cmd, "unknown option '-%c'", optopt);
        return 0;
    }
    opt = option_of_value(opts, num_opts, c);
    return opt && apply_option(cmd, opt, optarg);
}

int cli_parse_options(const cli_command *cmd, const cli_option *opts,
                      size_t num_opts, int argc, char **argv,
                      const char **positional, size_t max_positional,
                      size_t *num_positional, int *exit_status)
{
    struct option *longs = NULL;
    char *shorts = NULL;
    int c, going = 1;
    size_t npos = 0;
    *exit_status = CLI_EXIT_USAGE;
    if (!make_getopt_tables(opts, num_opts, &longs, &shorts)) {
        fprintf(stderr, "clipt %s: out of host memory\n", cmd->name);
        *exit_status = CLI_EXIT_FAILURE;
        going = 0;
    }
    /* GNU getopt_long: options and operands in any order ("--" ends the
     * options), "--name=value" or "--name value", unambiguous prefixes of
     * long names, "-oVALUE" or "-o VALUE", short flags combined */
    optind = 0; /* a fresh scan, also for a second call in one process */
    opterr = 0; /* the messages below name the command */
    while (going && (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1)
        going = handle_option(cmd, opts, num_opts, c, argv, exit_status);
    for (int i = optind; going && i < argc; i++) {
        if (npos < max_positional) {
            positional[npos++] = argv[i];
        } else {
            cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
            going = 0;
        }
    }
    free(longs);
    free(shorts);
    if (num_positional)
        *num_positional = npos;
    return going;
}

/* ---- value parsers ---------------------------------------------------- */

const char *cli_parse_positive_size(const char *text, void *size_t_target)
{
    const char *expected = "a positive whole number";
    char *end = NULL;
    unsigned long long v;
    /* strtoull accepts "-1" and leading blanks: insist on digits only */
    if (!isdigit((unsigned char)text[0]))
        return expected;
    errno = 0;
    v = strtoull(text, &end, 10);
    if (errno || *end != '\0' || v == 0 || v > SIZE_MAX)
        return expected;
    *(size_t *)size_t_target = (size_t)v;
    return NULL;
}

const char *cli_parse_elem_size(const char *text, void *size_t_target)
{
    const char *expected = "1, 2, 4, 8 or 16 (bytes)";
    size_t v = 0;
    if (cli_parse_positive_size(text, &v) ||
        (v != 1 && v != 2 && v != 4 && v != 8 && v != 16))
        return expected;
    *(size_t *)size_t_target = v;
    return NULL;
}

const char *cli_parse_permutation(const char *text, void *permutation_target)
{
    if (!plan_text_parse_permutation(text, permutation_target))
        return "DIMS:AXES, e.g. 64x256x56x56:0,2,3,1 (1 to 8 dimensions, an axis each)";
    return NULL;
}

const char *cli_parse_sequence(const char *text, void *sequence_target)
{
    if (!plan_text_parse_sequence(text, (clipt_sequence *)sequence_target))
        return "auto, 1, 2.1, 2.2, 3.1, 3.2, 4.1, 4.2 or 4.3";
    return NULL;
}

const char *cli_parse_algorithm(const char *text, void *algorithm_target)
{
    clipt_algorithm *out = algorithm_target;
    if (strcmp(text, "auto") == 0)
        *out = CLIPT_ALGORITHM_AUTO;
    else if (strcmp(text, "tpds") == 0)
        *out = CLIPT_ALGORITHM_TPDS;
    else if (strcmp(text, "c2r") == 0)
        *out = CLIPT_ALGORITHM_C2R;
    else if (strcmp(text, "r2c") == 0)
        *out = CLIPT_ALGORITHM_R2C;
    else
        return "auto, tpds, c2r or r2c";
    return NULL;
}

const char *cli_parse_padding(const char *text, void *padding_target)
{
    static const struct {
        const char *name;
        clipt_padding padding;
    } names[] = {{"auto", CLIPT_PADDING_AUTO},
                 {"none", CLIPT_PADDING_NONE},
                 {"scratch", CLIPT_PADDING_SCRATCH},
                 {"off", CLIPT_PADDING_OFF}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(text, names[i].name) == 0) {
            *(clipt_padding *)padding_target = names[i].padding;
            return NULL;
        }
    return "auto, none, scratch or off";
}

const char *cli_parse_text(const char *text, void *string_target)
{
    if (text[0] == '\0')
        return "a non-empty value";
    *(const char **)string_target = text;
    return NULL;
}

/* Applies "name=value[,name=value...]" to *o with
 * clipt_plan_options_set_tuning; returns 0 on a malformed list or an unknown
 * name. */
int cli_apply_tuning(const char *list, clipt_plan_options *o)
{
    const char *at = list;
    while (at && *at) {
        char name[64];
        unsigned long value;
        char *end = NULL;
        size_t len = strcspn(at, "=,");
        if (len == 0 || len >= sizeof name || at[len] != '=' ||
            !isdigit((unsigned char)at[len + 1]))
            return 0;
        memcpy(name, at, len);
        name[len] = '\0';
        errno = 0;
        value = strtoul(at + len + 1, &end, 10);
        if (errno || value > UINT32_MAX || (*end != ',' && *end != '\0') ||
            clipt_plan_options_set_tuning(o, name, (unsigned)value) != CLIPT_SUCCESS)
            return 0;
        at = *end == ',' ? end + 1 : end;
    }
    return 1;
}

const char *cli_parse_tuning(const char *text, void *string_target)
{
    clipt_plan_options probe;
    clipt_plan_options_init(&probe);
    if (!cli_apply_tuning(text, &probe))
        return "NAME=VALUE[,NAME=VALUE...] with tuning names as in 'clipt info' "
               "(e.g. walk_unroll=8,min_super=32)";
    *(const char **)string_target = text;
    return NULL;
}
