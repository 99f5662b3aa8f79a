/* Shared pieces of the clipt command-line tool: exit codes, the subcommand
 * table entry, the option parser, and the device session with its error
 * reporting.  Only the public clipt API is used. */
#ifndef CLIPT_CLI_H
#define CLIPT_CLI_H

#include "cl_select.h"

#include <stddef.h>

/* Exit statuses of every subcommand. */
enum {
    CLI_EXIT_OK = 0,      /* success (for run: every run verified)     */
    CLI_EXIT_WRONG = 1,   /* the device produced a wrong result        */
    CLI_EXIT_USAGE = 2,   /* bad command line or unsatisfiable options */
    CLI_EXIT_FAILURE = 3, /* OpenCL or clipt failed (no device, ...)   */
    CLI_EXIT_FILE = 4     /* a file is bad, unreadable or unwritable   */
};

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
 * mode itself, entered from the bench command with the same arguments. */
int cli_bench_wants_host(int argc, char **argv);
int cli_bench_host_main(int argc, char **argv);

/* Shared by the bench modes (defined in cmd_bench.c): a monotonic clock in
 * seconds, and percentile p in [0, 1] of v[0..n-1], n > 0, interpolated
 * between order statistics (sorts v). */
double now_seconds(void);
double percentile(double *v, size_t n, double p);

/* ---- options ---------------------------------------------------------- */

/* Converts text into *target; returns NULL on success, else a short
 * description of what was expected (for the error message). */
typedef const char *(*cli_parse_fn)(const char *text, void *target);

typedef struct cli_option {
    const char *name;    /* long name without "--"                        */
    const char *metavar; /* NULL for a flag: target is an int set to 1    */
    cli_parse_fn parse;  /* NULL for a flag                               */
    void *target;
    const char *help;    /* one line, defaults included                   */
} cli_option;

/* Parses argv[1..argc-1] of `cmd` ("--name value", "--name=value", flags,
 * "--help", "--" ends the options).  Positional arguments go into
 * positional[0..max_positional-1] (count in *num_positional when not NULL);
 * a command that takes none passes 0.  Returns 1 when the command should go
 * on; otherwise 0 with *exit_status set: CLI_EXIT_OK after printing the help,
 * CLI_EXIT_USAGE after printing a one-line error on stderr. */
int cli_parse_options(const cli_command *cmd, const cli_option *opts,
                      size_t num_opts, int argc, char **argv,
                      const char **positional, size_t max_positional,
                      size_t *num_positional, int *exit_status);

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
