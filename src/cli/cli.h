/* Shared pieces of the clipt command-line tool: exit codes, the subcommand
 * table entry, the option parser, and the device session with its error
 * reporting.  Only the public clipt API is used. */
#ifndef CLIPT_CLI_H
#define CLIPT_CLI_H

#include "cl_select.h"

#include <stddef.h>
#include <stdio.h>

/* Exit statuses of every subcommand. */
enum {
    CLI_EXIT_OK = 0,      /* success (for run: every run verified)     */
    CLI_EXIT_WRONG = 1,   /* the device produced a wrong result        */
    CLI_EXIT_USAGE = 2,   /* bad command line or unsatisfiable options */
    CLI_EXIT_FAILURE = 3, /* OpenCL or clipt failed (no device, ...)   */
    CLI_EXIT_FILE = 4     /* a file is bad, unreadable or unwritable   */
};

/* "MAJOR.MINOR.PATCH" of the clipt.h the tool was built with. */
#define CLI_STR_(x) #x
#define CLI_XSTR_(x) CLI_STR_(x)
#define CLI_HEADER_VERSION                                                     \
    CLI_XSTR_(CLIPT_VERSION_MAJOR) "." CLI_XSTR_(CLIPT_VERSION_MINOR) "."      \
    CLI_XSTR_(CLIPT_VERSION_PATCH)

/* ---- subcommands ------------------------------------------------------ */

typedef struct cli_command {
    const char *name;        /* "run"                                    */
    const char *synopsis;    /* "[options]", after "clipt run"           */
    const char *summary;     /* one line for "clipt --help"              */
    const char *description; /* paragraph for "clipt run --help"         */
    /* argv[0] is the subcommand's name; returns the exit status */
    int (*main)(int argc, char **argv);
} cli_command;

extern const cli_command cli_cmd_run;
extern const cli_command cli_cmd_info;
extern const cli_command cli_cmd_bench;
extern const cli_command cli_cmd_transpose;

/* clipt bench --host (cmd_bench_host.c): whether argv asks for it, and the
 * mode itself, entered from the bench command (cmd_bench.c) with the same
 * arguments. */
int cli_bench_wants_host(int argc, char **argv);
int cli_bench_host_main(int argc, char **argv);

/* ---- options ---------------------------------------------------------- */

/* Converts text into *target; returns NULL on success, else a short
 * description of what was expected (for the error message). */
typedef const char *(*cli_parse_fn)(const char *text, void *target);

typedef struct cli_option {
    const char *name;    /* long name without "--"; "o|output" also gives
                            the short option -o                           */
    const char *metavar; /* NULL for a flag: target is an int set to 1    */
    cli_parse_fn parse;  /* NULL for a flag                               */
    void *target;
    const char *help;    /* one line, defaults included                   */
} cli_option;

/* Parses argv[1..argc-1] of `cmd` with getopt_long, as GNU tools do:
 * "--name value", "--name=value", unambiguous prefixes of long names,
 * "-o value", "-ovalue", short flags combined, flags, "-h"/"--help",
 * options and operands in any order, "--" ends the options ("-" is an
 * operand).  argv's order may be changed.  Positional arguments go into
 * positional[0..max_positional-1] (count in *num_positional when not NULL);
 * a command that takes none passes 0.  Returns 1 when the command should go
 * on; otherwise 0 with *exit_status set: CLI_EXIT_OK after printing the help,
 * CLI_EXIT_USAGE after printing a one-line error on stderr. */
int cli_parse_options(const cli_command *cmd, const cli_option *opts,
                      size_t num_opts, int argc, char **argv,
                      const char **positional, size_t max_positional,
                      size_t *num_positional, int *exit_status);

/* What "--help" prints: the text, or the command's man page (roff) for
 * clipt --man, which the build turns into the installed clipt-NAME(1). */
typedef enum { CLI_HELP_TEXT, CLI_HELP_MAN } cli_help_format;
void cli_set_help_format(cli_help_format format);

/* roff for the man pages (roff.c): the page's .TH and NAME section; text
 * with roff's special characters escaped ('-' before a word as \-, so
 * options copy and paste); text in a font; a help paragraph as filled paragraphs, blank
 * lines separating them and indented lines kept as they are. */
void cli_roff_header(const char *page, const char *summary);
void cli_roff_text(FILE *out, const char *text);
/* text in font 'B' (bold) or 'I' (italic), escaped, then the roman font */
void cli_roff_font(FILE *out, char font, const char *text);
void cli_roff_paragraphs(FILE *out, const char *text);

/* Prints a one-line usage error for cmd and returns CLI_EXIT_USAGE. */
int cli_usage_error(const cli_command *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Value parsers for cli_option.parse. */
const char *cli_parse_positive_size(const char *text, void *size_t_target);
const char *cli_parse_elem_size(const char *text, void *size_t_target);
const char *cli_parse_sequence(const char *text, void *sequence_target);
/* "auto", "tpds" or "c2r" into a clipt_algorithm. */
const char *cli_parse_algorithm(const char *text, void *algorithm_target);
/* "DIMS:PERM" (plan_text_parse_permutation): target is a
 * plan_text_permutation. */
const char *cli_parse_permutation(const char *text, void *permutation_target);
/* auto, none, scratch or off: a clipt_padding. */
const char *cli_parse_padding(const char *text, void *padding_target);
/* Stores the (non-empty) text itself: target is a const char *. */
const char *cli_parse_text(const char *text, void *string_target);
/* Tuning overrides "name=value[,name=value...]": cli_parse_tuning checks the
 * list and keeps the text; cli_apply_tuning sets it on options (1 = ok). */
const char *cli_parse_tuning(const char *text, void *string_target);
int cli_apply_tuning(const char *list, clipt_plan_options *o);

/* ---- device session --------------------------------------------------- */

/* The selected device (CLIPT_PLATFORM / CLIPT_DEVICE), an in-order queue
 * with profiling, and a clipt context on it. */
typedef struct cli_session {
    clipt_cl_env cl;
    clipt_context cx;
} cli_session;

/* Opens the session; on failure prints why and returns CLI_EXIT_FAILURE. */
int cli_session_open(cli_session *s);
void cli_session_close(cli_session *s);

/* Prints "clipt: <cmd>: <what>: <status string>" on stderr, followed by the
 * context's error detail (missing kernel paths, build log) when there is
 * one.  cx may be NULL.  Returns the exit status that fits s: usage for
 * options the library rejected, failure otherwise. */
int cli_report(const char *cmd, clipt_context cx, const char *what,
               clipt_status s);

#endif
