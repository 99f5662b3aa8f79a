/* Writes clipt(3) from include/clipt.h, so that the manual page is the
 * header's own documentation and cannot drift from it:
 *
 *     clipt_man3 include/clipt.h OUTDIR
 *
 * writes OUTDIR/clipt.3 and, for every function, OUTDIR/<function>.3
 * holding ".so man3/clipt.3" (so that `man 3 clipt_enqueue` opens the
 * page).  It reads the header's layout:
 *   - the first comment: the page's DESCRIPTION;
 *   - a banner (a comment line between two lines of dashes): a section;
 *   - a doc comment (slash, two stars) and the declarations after it (a
 *     function up to its ';', a typedef up to its last line, a #define): a
 *     subsection named after what they declare, the code, then the text;
 *   - other #define CLIPT_... lines: shown as code where they stand;
 *   - the entries X(CLIPT_ERROR_..., code, "text") of the error table: the
 *     list of status codes.
 * Exit status: 0; 1 when a file cannot be read or written; 2 when no
 * function was found (the header's layout changed: fix this program). */
#include "cli.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LINE = 512, MAX_LINES = 128, MAX_FUNCTIONS = 256, MAX_NAME = 64 };

typedef struct reader {
    FILE *in, *out;
    char line[MAX_LINE];
    int pending; /* `line` was read but not handled yet */
    char functions[MAX_FUNCTIONS][MAX_NAME];
    int num_functions;
} reader;

static int next_line(reader *r)
{
    size_t n;
    if (r->pending) {
        r->pending = 0;
        return 1;
    }
    if (!fgets(r->line, sizeof r->line, r->in))
        return 0;
    n = strlen(r->line);
    if (n && r->line[n - 1] == '\n')
        r->line[n - 1] = '\0';
    return 1;
}

static int begins(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int is_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* ---- comments ------------------------------------------------------------ */

/* The comment starting in r->line, without its markers and its common
 * indentation, so that lines indented further (code, lists) stay so. */
static void read_comment(reader *r, char *text, size_t len)
{
    static char lines[MAX_LINES][MAX_LINE];
    int n = 0, done = 0, indent = MAX_LINE;
    size_t used = 0;
    do {
        /* the markers become blanks, so that text keeps its column */
        char *s = r->line, *end;
        while (*s == ' ')
            s++;
        if (begins(s, "/**"))
            memset(s, ' ', 3);
        else if (begins(s, "/*"))
            memset(s, ' ', 2);
        else if (s[0] == '*' && s[1] != '/')
            s[0] = ' ';
        if ((end = strstr(r->line, "*/")) != NULL) {
            *end = '\0';
            done = 1;
        }
        if (n < MAX_LINES)
            snprintf(lines[n++], MAX_LINE, "%s", r->line);
    } while (!done && next_line(r));
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (lines[i][k] == ' ')
            k++;
        if (lines[i][k] && k < indent)
            indent = k;
    }
    text[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *s = (int)strlen(lines[i]) > indent ? lines[i] + indent : "";
        int k = (int)strlen(s);
        while (k && s[k - 1] == ' ')
            k--;
        if (used < len)
            used += (size_t)snprintf(text + used, len - used, "%s%.*s",
                                     used ? "\n" : "", k, s);
    }
    while (text[0] == '\n') /* blank lines at either end */
        memmove(text, text + 1, strlen(text));
    for (size_t k = strlen(text); k && text[k - 1] == '\n'; k--)
        text[k - 1] = '\0';
}

/* "/ * Title * /" between two lines of dashes. */
static int is_banner(const char *line)
{
    return begins(line, "/* ----");
}

/* ---- declarations ------------------------------------------------------- */

/* The name a statement declares: a macro's, a function's (the word before
 * its '('), or a typedef's (the last word before its last ';'). */
static void declared_name(const char *statement, char *name)
{
    const char *start, *end;
    if (begins(statement, "#define ")) {
        start = statement + 8;
        end = start;
        while (is_word_char(*end))
            end++;
    } else {
        end = begins(statement, "typedef") ? strrchr(statement, ';')
                                           : strchr(statement, '(');
        if (!end)
            end = statement + strlen(statement);
        while (end > statement && !is_word_char(end[-1]))
            end--;
        start = end;
        while (start > statement && is_word_char(start[-1]))
            start--;
    }
    snprintf(name, MAX_NAME, "%.*s", (int)(end - start), start);
}

static int starts_statement(const char *line)
{
    return begins(line, "CLIPT_API ") || begins(line, "typedef ") || begins(line, "#define ");
}

/* The code lines from `first` that make one statement: to the ';' at depth
 * 0, or the last line of a #define.  Returns the index of its last line. */
static int statement_end(char code[][MAX_LINE], int n, int first)
{
    int depth = 0;
    for (int k = first; k < n; k++) {
        for (const char *c = code[k]; *c; c++)
            depth += (*c == '{') - (*c == '}');
        if (begins(code[first], "#define") ? code[k][strlen(code[k]) - 1] != '\\'
                                           : depth == 0 && strchr(code[k], ';'))
            return k;
    }
    return n - 1;
}

/* Prints code lines: a function's bold, a type's first and last lines. */
static void print_code(reader *r, char code[][MAX_LINE], int n)
{
    int in_function = 0;
    fputs(".nf\n", r->out);
    for (int i = 0; i < n; i++) {
        const char *s = code[i];
        int bold;
        if (begins(s, "CLIPT_API ")) {
            s += 10;
            in_function = 1;
        } else if (in_function && strspn(s, " ") >= 10) {
            s += 10; /* continuation lines were aligned after "CLIPT_API " */
        }
        bold = in_function || (s[0] != ' ' && s[0] != '\0');
        if (bold)
            cli_roff_font(r->out, 'B', s);
        else
            cli_roff_text(r->out, s);
        fputc('\n', r->out);
        if (in_function && strchr(s, ';'))
            in_function = 0;
    }
    fputs(".fi\n", r->out);
}

/* The declarations after a doc comment, up to a blank line or the next
 * comment: one subsection (clipt_tuning_count and clipt_tuning_name share
 * one comment, so one subsection may name several). */
static void read_declarations(reader *r, const char *doc)
{
    static char code[MAX_LINES][MAX_LINE];
    char heading[512] = "";
    int n = 0, depth = 0;
    while (next_line(r)) {
        if (depth == 0 && (r->line[0] == '\0' || begins(r->line, "/*"))) {
            r->pending = r->line[0] != '\0';
            break;
        }
        for (const char *c = r->line; *c; c++)
            depth += (*c == '{') - (*c == '}');
        if (n < MAX_LINES)
            snprintf(code[n++], MAX_LINE, "%s", r->line);
    }
    for (int i = 0; i < n; i++) {
        char statement[4096] = "", name[MAX_NAME];
        int last;
        if (!starts_statement(code[i]))
            continue;
        last = statement_end(code, n, i);
        for (int k = i; k <= last; k++)
            snprintf(statement + strlen(statement), sizeof statement - strlen(statement),
                     "%s ", code[k]);
        declared_name(statement, name);
        if (begins(code[i], "CLIPT_API") && r->num_functions < MAX_FUNCTIONS)
            snprintf(r->functions[r->num_functions++], MAX_NAME, "%s", name);
        snprintf(heading + strlen(heading), sizeof heading - strlen(heading), "%s%s",
                 heading[0] ? ", " : "", name);
        i = last;
    }
    if (heading[0]) {
        fputs(".SS ", r->out);
        cli_roff_text(r->out, heading);
        fputc('\n', r->out);
    }
    print_code(r, code, n);
    fputs(".PP\n", r->out);
    cli_roff_paragraphs(r->out, doc);
}

/* A #define CLIPT_... without a doc comment (with its continuation lines). */
static void read_macro(reader *r)
{
    static char code[MAX_LINES][MAX_LINE];
    int n = 0;
    do
        snprintf(code[n++], MAX_LINE, "%s", r->line);
    while (n < MAX_LINES && r->line[strlen(r->line) - 1] == '\\' && next_line(r));
    print_code(r, code, n);
}

/* X(CLIPT_ERROR_NAME, -1000, "text") entries of the error table, one or
 * two lines each, as a tagged list. */
static void read_error_table(reader *r)
{
    static char table[MAX_LINES * MAX_LINE];
    const char *at = table;
    char name[MAX_NAME], text[MAX_LINE];
    int code, consumed;
    table[0] = '\0';
    while (r->line[strlen(r->line) - 1] == '\\' && next_line(r)) {
        char *cut = strrchr(r->line, '\\');
        strncat(table, r->line, (size_t)(cut ? cut - r->line : (long)strlen(r->line)));
    }
    fputs(".SS \"Status codes\"\n", r->out);
    while ((at = strstr(at, "X(")) != NULL &&
           sscanf(at, "X(%63[A-Z_0-9], %d, \"%511[^\"]\")%n", name, &code, text, &consumed) == 3) {
        fprintf(r->out, ".TP\n\\fB%s\\fR (%d)\n", name, code);
        cli_roff_text(r->out, text);
        fputc('\n', r->out);
        at += consumed;
    }
    fputs(".PP\n", r->out);
}

/* ---- the page ------------------------------------------------------------ */

static void page_start(reader *r, const char *description)
{
    fprintf(r->out, ".\\\" generated from clipt.h by clipt_man3; do not edit\n"
                    ".TH CLIPT 3 \"\" \"clipt " CLI_HEADER_VERSION "\" \"clipt manual\"\n"
                    ".nh\n.ad l\n.SH NAME\nclipt \\- in-place transposition of matrices "
                    "held in OpenCL buffers (C library)\n.SH SYNOPSIS\n.nf\n"
                    "\\fB#define CL_TARGET_OPENCL_VERSION 120\\fR\n"
                    "\\fB#include <clipt.h>\\fR\n.fi\n.PP\nLink with \\fB\\-lclipt "
                    "\\-lOpenCL\\fR, or \\fBpkg\\-config \\-\\-cflags \\-\\-libs clipt\\fR, or "
                    "CMake's \\fBfind_package(clipt)\\fR and \\fBclipt::clipt\\fR.\n"
                    ".SH DESCRIPTION\n");
    cli_roff_paragraphs(r->out, description);
}

static void read_header(reader *r)
{
    char text[16384];
    int described = 0;
    while (next_line(r)) {
        const char *s = r->line;
        if (!described && begins(s, "/*")) {
            read_comment(r, text, sizeof text);
            page_start(r, text);
            described = 1;
        } else if (is_banner(s)) {
            next_line(r); /* the title */
            read_comment(r, text, sizeof text);
            next_line(r); /* the closing dashes */
            fputs(".SH \"", r->out);
            for (const char *c = text; *c; c++)
                fputc(toupper((unsigned char)*c), r->out);
            fputs("\"\n", r->out);
        } else if (begins(s, "/**")) {
            read_comment(r, text, sizeof text);
            read_declarations(r, text);
        } else if (begins(s, "#define CLIPT_ERROR_TABLE")) {
            read_error_table(r);
        } else if (begins(s, "#define CLIPT_") && !begins(s, "#define CLIPT_H") &&
                   !begins(s, "#define CLIPT_API") && !begins(s, "#define CLIPT_ENUM")) {
            read_macro(r);
        } else if (begins(s, "/*")) {
            read_comment(r, text, sizeof text); /* a plain comment: the code's own */
        }
    }
    fputs(".SH \"SEE ALSO\"\n\\fBclipt\\fR(1), \\fBclipt\\-transpose\\fR(1); docs/usage.md "
          "and docs/errors.md of the source tree\n", r->out);
}

static FILE *open_output(const char *dir, const char *name)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s.3", dir, name);
    if (!(f = fopen(path, "w")))
        perror(path);
    return f;
}

int main(int argc, char **argv)
{
    static reader r;
    int status = 0;
    if (argc != 3) {
        fprintf(stderr, "usage: clipt_man3 clipt.h OUTDIR\n");
        return 1;
    }
    if (!(r.in = fopen(argv[1], "r"))) {
        perror(argv[1]);
        return 1;
    }
    if (!(r.out = open_output(argv[2], "clipt"))) {
        fclose(r.in);
        return 1;
    }
    read_header(&r);
    fclose(r.in);
    if (fclose(r.out) != 0)
        status = 1;
    for (int i = 0; i < r.num_functions; i++) {
        FILE *f = open_output(argv[2], r.functions[i]);
        if (!f || fprintf(f, ".so man3/clipt.3\n") < 0 || fclose(f) != 0)
            status = 1;
    }
    if (r.num_functions == 0) {
        fprintf(stderr, "clipt_man3: no CLIPT_API function found in %s\n", argv[1]);
        status = 2;
    }
    return status;
}
