/* clipt: command-line front end of the clipt library.
 *
 * main() only dispatches: each subcommand lives in its own cmd_*.c with its
 * options table and is listed once in `commands` below, so adding one
 * (bench, transpose FILE.npy) is one new file and one line here. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#define STR_(x) #x
#define XSTR_(x) STR_(x)
#define HEADER_VERSION \
    XSTR_(CLIPT_VERSION_MAJOR) "." XSTR_(CLIPT_VERSION_MINOR) "." XSTR_(CLIPT_VERSION_PATCH)

static const cli_command *const commands[] = {
    &cli_cmd_run,
    &cli_cmd_info,
    &cli_cmd_bench,
    &cli_cmd_transpose,
};
#define NUM_COMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *out)
{
    fprintf(out, "usage: clipt <command> [options]\n"
                 "       clipt --help | --version\n\n"
                 "In-place transposition of matrices held in OpenCL buffers.\n\n"
                 "commands:\n");
    for (size_t i = 0; i < NUM_COMMANDS; i++)
        fprintf(out, "  %-8s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(out,
            "\nRun 'clipt <command> --help' for the command's options.\n\n"
            "environment:\n"
            "  CLIPT_PLATFORM     platform index or name substring (default: any)\n"
            "  CLIPT_DEVICE       device index or name substring\n"
            "                     (default: the first GPU, else the first device)\n"
            "  CLIPT_KERNEL_PATH  ':'-separated directories searched first for the\n"
            "                     kernel sources (*.cl)\n"
            "  CLIPT_CACHE_DIR    directory of the on-disk cache of built kernels\n"
            "                     (default: none)\n\n"
            "exit status: 0 success, 1 wrong result, 2 usage error,\n"
            "             3 OpenCL or clipt failure, 4 bad or unusable file\n");
}

static void print_version(void)
{
    const char *linked = clipt_version_string();
    /* a stale shared library on the loader path shows up here */
    if (strcmp(linked, HEADER_VERSION) == 0)
        printf("clipt %s\n", linked);
    else
        printf("clipt %s (built against clipt.h %s)\n", linked, HEADER_VERSION);
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : NULL;
    if (!name) {
        print_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(name, "--help") == 0 || strcmp(name, "help") == 0) {
        print_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        print_version();
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < NUM_COMMANDS; i++)
        if (strcmp(name, commands[i]->name) == 0)
            return commands[i]->main(argc - 1, argv + 1);
    fprintf(stderr, "clipt: unknown %s '%s' (see 'clipt --help')\n",
            name[0] == '-' ? "option" : "command", name);
    return CLI_EXIT_USAGE;
}
