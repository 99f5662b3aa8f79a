/* The device session every device-using subcommand starts with, and the
 * one place that turns a clipt_status into a message and an exit status. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

int cli_session_open(cli_session *s)
{
    char why[512] = "";
    clipt_status st;
    s->cx = NULL;
    st = clipt_cl_env_open(&s->cl, why, sizeof why);
    if (st != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt: %s\n", why);
        return CLI_EXIT_FAILURE;
    }
    st = clipt_context_create(s->cl.context, s->cl.device, &s->cx);
    if (st != CLIPT_SUCCESS) {
        cli_report("session", NULL, "clipt_context_create", st);
        clipt_cl_env_close(&s->cl);
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

void cli_session_close(cli_session *s)
{
    clipt_context_release(s->cx);
    s->cx = NULL;
    clipt_cl_env_close(&s->cl);
}

/* Statuses that mean "the options ask for something impossible" rather
 * than "the machine failed": the user fixes them on the command line. */
static int is_usage_status(clipt_status s)
{
    switch (s) {
    case CLIPT_ERROR_INVALID_SHAPE:
    case CLIPT_ERROR_INVALID_NDIM:
    case CLIPT_ERROR_INVALID_PERMUTATION:
    case CLIPT_ERROR_SHAPE_OVERFLOW:
    case CLIPT_ERROR_INVALID_ELEM_SIZE:
    case CLIPT_ERROR_INVALID_OPTION:
    case CLIPT_ERROR_INCOMPATIBLE_OPTIONS:
        return 1;
    default:
        return 0;
    }
}

int cli_report(const char *cmd, clipt_context cx, const char *what,
               clipt_status s)
{
    fprintf(stderr, "clipt %s: %s: %s\n", cmd, what, clipt_status_string(s));
    if (cx) {
        /* build logs can be long; the head is what matters */
        static char detail[32768];
        clipt_status d = clipt_context_error_detail(cx, detail, sizeof detail);
        if ((d == CLIPT_SUCCESS || d == CLIPT_ERROR_TRUNCATED) && detail[0])
            fprintf(stderr, "detail:\n%s%s\n", detail,
                    d == CLIPT_ERROR_TRUNCATED ? "\n[detail truncated]" : "");
    }
    return is_usage_status(s) ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
}
