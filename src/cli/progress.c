/* Step-by-step progress on stderr (see progress.h). */
#define _POSIX_C_SOURCE 200809L /* isatty, fileno */

#include "progress.h"
#include "timing.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

void cli_progress_init(cli_progress *p, int forced, unsigned steps)
{
    p->on = forced || isatty(fileno(stderr));
    p->step = 0;
    p->steps = steps;
    p->line_open = 0;
    p->start = p->step_start = util_now_seconds();
}

void cli_progress_end_step(cli_progress *p)
{
    if (!p->on || !p->line_open)
        return;
    fprintf(stderr, " %.3f s\n", util_now_seconds() - p->step_start);
    p->line_open = 0;
}

void cli_progress_step(cli_progress *p, const char *fmt, ...)
{
    va_list ap;
    if (!p->on)
        return;
    cli_progress_end_step(p);
    fprintf(stderr, "[%u/%u] ", ++p->step, p->steps);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" ...", stderr);
    fflush(stderr);
    p->line_open = 1;
    p->step_start = util_now_seconds();
}

void cli_progress_break(cli_progress *p)
{
    if (!p->on || !p->line_open)
        return;
    fputs(" failed\n", stderr);
    p->line_open = 0;
}

void cli_progress_done(cli_progress *p)
{
    if (!p->on)
        return;
    cli_progress_end_step(p);
    fprintf(stderr, "done in %.3f s\n", util_now_seconds() - p->start);
}
