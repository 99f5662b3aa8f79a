/* Option parsing shared by the subcommands: one table of cli_option per
 * command drives both the parser and the --help text, so the two cannot
 * drift apart. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
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

static void print_help(const cli_command *cmd, const cli_option *opts,
                       size_t num_opts)
{
    printf("usage: clipt %s%s%s\n\n", cmd->name, cmd->synopsis[0] ? " " : "",
           cmd->synopsis);
    if (cmd->description)
        printf("%s\n\n", cmd->description);
    printf("options:\n");
    for (size_t i = 0; i < num_opts; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", opts[i].name,
                 opts[i].metavar ? " " : "", opts[i].metavar ? opts[i].metavar : "");
        printf("  %-22s %s\n", left, opts[i].help);
    }
    printf("  %-22s %s\n", "--help", "show this help and exit");
}

/* Matches "--name" or "--name=value"; sets *inline_value for the latter. */
static const cli_option *find_option(const cli_option *opts, size_t num_opts,
                                     const char *arg, const char **inline_value)
{
    const char *name = arg + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    *inline_value = eq ? eq + 1 : NULL;
    for (size_t i = 0; i < num_opts; i++)
        if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
            return &opts[i];
    return NULL;
}

/* Applies one option; *index advances past a separate value.  Returns 1 on
 * success, else prints the error and returns 0. */
static int apply_option(const cli_command *cmd, const cli_option *opt,
                        const char *inline_value, int argc, char **argv,
                        int *index)
{
    const char *value = inline_value;
    const char *expected;
    if (!opt->metavar) {
        if (inline_value) {
            cli_usage_error(cmd, "option --%s takes no value", opt->name);
            return 0;
        }
        *(int *)opt->target = 1;
        return 1;
    }
    if (!value) {
        if (*index + 1 >= argc) {
            cli_usage_error(cmd, "option --%s needs a value %s", opt->name, opt->metavar);
            return 0;
        }
        value = argv[++*index];
    }
    expected = opt->parse(value, opt->target);
    if (expected) {
        cli_usage_error(cmd, "invalid value '%s' for --%s: expected %s", value,
                        opt->name, expected);
        return 0;
    }
    return 1;
}

int cli_parse_options(const cli_command *cmd, const cli_option *opts,
                      size_t num_opts, int argc, char **argv,
                      const char **positional, size_t max_positional,
                      size_t *num_positional, int *exit_status)
{
    size_t npos = 0;
    int options_done = 0;
    *exit_status = CLI_EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = 1;
        } else if (!options_done && strcmp(arg, "--help") == 0) {
            print_help(cmd, opts, num_opts);
            *exit_status = CLI_EXIT_OK;
            return 0;
        } else if (!options_done && strncmp(arg, "--", 2) == 0) {
            const char *inline_value;
            const cli_option *opt = find_option(opts, num_opts, arg, &inline_value);
            if (!opt) {
                cli_usage_error(cmd, "unknown option '%s'", arg);
                return 0;
            }
            if (!apply_option(cmd, opt, inline_value, argc, argv, &i))
                return 0;
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            /* no short options: "-h" and friends get a clear answer */
            cli_usage_error(cmd, "unknown option '%s'", arg);
            return 0;
        } else if (npos < max_positional) {
            positional[npos++] = arg;
        } else {
            cli_usage_error(cmd, "unexpected argument '%s'", arg);
            return 0;
        }
    }
    if (num_positional)
        *num_positional = npos;
    return 1;
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

const char *cli_parse_sequence(const char *text, void *sequence_target)
{
    static const struct {
        const char *name;
        clipt_sequence value;
    } names[] = {
        {"auto", CLIPT_SEQUENCE_AUTO}, {"1", CLIPT_SEQUENCE_1},
        {"2.1", CLIPT_SEQUENCE_2_1},   {"2.2", CLIPT_SEQUENCE_2_2},
        {"3.1", CLIPT_SEQUENCE_3_1},   {"3.2", CLIPT_SEQUENCE_3_2},
        {"4.1", CLIPT_SEQUENCE_4_1},   {"4.2", CLIPT_SEQUENCE_4_2},
        {"4.3", CLIPT_SEQUENCE_4_3},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(text, names[i].name) == 0) {
            *(clipt_sequence *)sequence_target = names[i].value;
            return NULL;
        }
    return "auto, 1, 2.1, 2.2, 3.1, 3.2, 4.1, 4.2 or 4.3";
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
