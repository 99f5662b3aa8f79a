/* Progress of a long command on stderr, one line per step:
 *   [2/7] reading big.npy (240.00 MB) ... 0.212 s
 * The step's line is printed when the step begins (so a slow step shows
 * what is going on) and finished with its time when it ends.  Shown when
 * stderr is a terminal or when forced (--progress); otherwise nothing is
 * printed, so pipes and logs stay quiet. */
#ifndef CLIPT_CLI_PROGRESS_H
#define CLIPT_CLI_PROGRESS_H

typedef struct cli_progress {
    int on;
    unsigned step, steps;   /* the step shown last, of how many     */
    int line_open;          /* a step's line awaits its time        */
    double start, step_start;
} cli_progress;

/* on: stderr is a terminal, or forced. */
void cli_progress_init(cli_progress *p, int forced, unsigned steps);

/* Ends the previous step's line, if open, and starts the next one. */
void cli_progress_step(cli_progress *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Ends the open step's line with its time. */
void cli_progress_end_step(cli_progress *p);

/* Before an error message: ends an open line ("failed"), so that the
 * message starts a line of its own. */
void cli_progress_break(cli_progress *p);

/* Ends the open line, then "done in T s". */
void cli_progress_done(cli_progress *p);

#endif
