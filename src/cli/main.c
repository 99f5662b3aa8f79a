/* clipt: command-line front end of the clipt library.
 *
 * main() only dispatches: each subcommand lives in its own cmd_*.c with its
 * options table and is listed once in `commands` below, so adding one
 * (bench, transpose FILE.npy) is one new file and one line here.  The
 * overview (clipt --help) and the clipt(1) man page (clipt --man clipt)
 * are printed from the same tables below. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const cli_command *const commands[] = {
    &cli_cmd_run,
    &cli_cmd_info,
    &cli_cmd_bench,
    &cli_cmd_transpose,
};
#define NUM_COMMANDS (sizeof commands / sizeof commands[0])

static const char summary[] = "in-place transposition of matrices held in OpenCL buffers";

static const struct {
    const char *name, *meaning;
} environment[] = {
    {"CLIPT_PLATFORM", "platform index or name substring (default: any)"},
    {"CLIPT_DEVICE", "device index or name substring\n"
                     "(default: the first GPU, else the first device)"},
    {"CLIPT_KERNEL_PATH", "':'-separated directories searched first for the\n"
                          "kernel sources (*.cl)"},
    {"CLIPT_CACHE_DIR", "directory of the on-disk cache of built kernels\n"
                        "(default: none)"},
    {"CLIPT_PLOT_SCRIPT", "the plot script of 'clipt bench --png'\n"
                          "(default: the installed share/clipt/plot_hist.py)"},
};
#define NUM_ENVIRONMENT (sizeof environment / sizeof environment[0])

static const char exit_status[] = "0 success, 1 wrong result, 2 usage error,\n"
                                  "3 OpenCL or clipt failure, 4 bad or unusable file";

/* The longest command name: the summaries start in one column after it. */
static int name_width(void)
{
    size_t width = 0;
    for (size_t i = 0; i < NUM_COMMANDS; i++)
        if (strlen(commands[i]->name) > width)
            width = strlen(commands[i]->name);
    return (int)width;
}

/* text, its continuation lines indented by `indent` columns */
static void print_indented(FILE *out, const char *text, int indent)
{
    for (const char *nl; (nl = strchr(text, '\n')) != NULL; text = nl + 1)
        fprintf(out, "%.*s\n%*s", (int)(nl - text), text, indent, "");
    fprintf(out, "%s\n", text);
}

static void print_usage(FILE *out)
{
    const int width = name_width();
    fprintf(out, "usage: clipt <command> [options] [arguments]\n"
                 "       clipt help [<command>] | --help | --version\n\n"
                 "In-place transposition of matrices held in OpenCL buffers.\n\n"
                 "commands:\n");
    for (size_t i = 0; i < NUM_COMMANDS; i++)
        fprintf(out, "  %-*s  %s\n", width, commands[i]->name, commands[i]->summary);
    fprintf(out, "\nRun 'clipt <command> --help' (or -h) for the command's options,\n"
                 "'man clipt-<command>' for its manual page.\n\nenvironment:\n");
    for (size_t i = 0; i < NUM_ENVIRONMENT; i++) {
        fprintf(out, "  %-18s ", environment[i].name);
        print_indented(out, environment[i].meaning, 21);
    }
    fprintf(out, "\nexit status: ");
    print_indented(out, exit_status, 13);
}

/* Every other page of the tool, and the library's. */
static void print_see_also(const cli_command *self)
{
    printf(".SH \"SEE ALSO\"\n");
    if (self)
        printf("\\fBclipt\\fR(1), ");
    for (size_t i = 0; i < NUM_COMMANDS; i++)
        if (commands[i] != self)
            printf("\\fBclipt\\-%s\\fR(1), ", commands[i]->name);
    printf("\\fBclipt\\fR(3)\n");
}

/* clipt(1), from the tables that print_usage prints. */
static void print_man(void)
{
    cli_roff_header("clipt", summary);
    printf(".SH SYNOPSIS\n\\fBclipt\\fR \\fIcommand\\fR [\\fIoptions\\fR] "
           "[\\fIarguments\\fR]\n.br\n\\fBclipt help\\fR [\\fIcommand\\fR] | "
           "\\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR\n.SH DESCRIPTION\n"
           "clipt transposes matrices in place on OpenCL devices.  Each command\n"
           "has its own page, and answers \\fB\\-h\\fR / \\fB\\-\\-help\\fR.  The\n"
           "library's API is in \\fBclipt\\fR(3).\n.SH COMMANDS\n");
    for (size_t i = 0; i < NUM_COMMANDS; i++) {
        printf(".TP\n\\fB%s\\fR\n", commands[i]->name);
        cli_roff_text(stdout, commands[i]->summary);
        printf(" (\\fBclipt\\-%s\\fR(1))\n", commands[i]->name);
    }
    printf(".SH ENVIRONMENT\n");
    for (size_t i = 0; i < NUM_ENVIRONMENT; i++) {
        printf(".TP\n\\fB%s\\fR\n", environment[i].name);
        cli_roff_text(stdout, environment[i].meaning);
        printf("\n");
    }
    printf(".SH \"EXIT STATUS\"\n");
    cli_roff_text(stdout, exit_status);
    printf("\n");
    print_see_also(NULL);
}

static void print_version(void)
{
    const char *linked = clipt_version_string();
    /* a stale shared library on the loader path shows up here */
    if (strcmp(linked, CLI_HEADER_VERSION) == 0)
        printf("clipt %s\n", linked);
    else
        printf("clipt %s (built against clipt.h %s)\n", linked, CLI_HEADER_VERSION);
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < NUM_COMMANDS; i++)
        if (strcmp(name, commands[i]->name) == 0)
            return commands[i];
    return NULL;
}

static int unknown(const char *name)
{
    fprintf(stderr, "clipt: unknown %s '%s' (see 'clipt --help')\n",
            name[0] == '-' ? "option" : "command", name);
    return CLI_EXIT_USAGE;
}

/* "clipt help CMD", and "clipt --man CMD" (the page the build installs as
 * clipt-CMD(1)), run the command's own --help. */
static int command_help(const char *name, cli_help_format format)
{
    static char help[] = "--help";
    const cli_command *cmd = find_command(name);
    char command[32];
    char *argv[] = {command, help, NULL};
    int status;
    if (!cmd)
        return unknown(name);
    snprintf(command, sizeof command, "%s", cmd->name);
    cli_set_help_format(format);
    status = cmd->main(2, argv);
    if (cmd == &cli_cmd_bench && format == CLI_HELP_MAN) {
        static char host[] = "--host";
        char *host_argv[] = {argv[0], host, help, NULL};
        status = cmd->main(3, host_argv); /* bench --host: a section of its page */
    }
    if (format == CLI_HELP_MAN)
        print_see_also(cmd);
    return status;
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : NULL;
    const cli_command *cmd;
    if (!name) {
        print_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
        (strcmp(name, "help") == 0 && argc == 2)) {
        print_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "help") == 0 && argc == 3)
        return command_help(argv[2], CLI_HELP_TEXT);
    if (strcmp(name, "--man") == 0 && argc == 3 && strcmp(argv[2], "clipt") == 0) {
        print_man();
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "--man") == 0 && argc == 3)
        return command_help(argv[2], CLI_HELP_MAN);
    if (strcmp(name, "--version") == 0) {
        print_version();
        return CLI_EXIT_OK;
    }
    if ((cmd = find_command(name)) != NULL)
        return cmd->main(argc - 1, argv + 1);
    return unknown(name);
}
