/* clipt bench's output: one line per measured shape on stdout, the CSV
 * rows, the summary, and the histogram drawn by plot_hist.py. */
#define _XOPEN_SOURCE 700 /* mkstemp, fdopen, posix_spawnp, waitpid, realpath */

#include "bench.h"
#include "timing.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <spawn.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLOT_EXIT_NO_MATPLOTLIB 3 /* plot_hist.py's "cannot plot" status */

extern char **environ;

static const char *verdict_name(verdict v)
{
    return v == CORRECT ? "yes" : v == WRONG ? "no" : "unchecked";
}

static const char csv_header[] =
    "rows,cols,elem,sequence,m,n,padded_rows,padded_cols,time_ms,gbs,copy_gbs,ratio,"
    "verified,stages_ms,mode,device_ms,best_gbs,best_sequence,best_m,best_n,auto_best,"
    "best_verified,predicted_ms,first_ms,oneshot_ratio,plan_host_ms,dims,axes,passes\n";

const char *bench_mode_name(bench_mode m)
{
    return m == MODE_SINGLE ? "single" : m == MODE_ONESHOT ? "oneshot" : "repeated";
}

static double oneshot_ratio(const shape_result *r)
{
    return r->device_s > 0 ? r->time_s / r->device_s : 0;
}

static void print_brute(const bench *b, const shape_result *r)
{
    printf("  auto/best %.1f %% (best %.2f GB/s: %s m=%zu n=%zu%s%s; %zu plans, "
           "%zu rejected; %.1f s, clipt_plan_create %.1f s on %u threads)",
           r->best_gbs > 0 ? 100 * r->auto_gbs / r->best_gbs : 0, r->best_gbs,
           r->best.sequence, r->best.m, r->best.n,
           bench_is_auto(&r->best_cand) ? ", automatic" : ", verified ",
           bench_is_auto(&r->best_cand) ? "" : verdict_name(r->best_check), r->tried, r->rejected,
           r->brute_s, r->create_s, b->threads);
}

static void print_shape(const bench *b, const shape_result *r)
{
    const plan_facts *f = &r->facts;
    char name[256];
    bench_shape_name(&r->sh, name, sizeof name);
    printf("%s", name);
    if (!r->sh.rows)
        printf("  passes %u  stages %u", f->passes, f->stages);
    if (f->prows) /* one 2-D transposition */
        printf("  seq %s  m=%zu n=%zu  padded %zu x %zu", f->sequence, f->m, f->n, f->prows,
               f->pcols);
    printf("  %.3f ms", 1e3 * r->time_s);
    if (b->a->mode == MODE_SINGLE)
        printf(" (device %.3f ms; first run %.3f ms)", 1e3 * r->device_s, 1e3 * r->first_s);
    if (b->a->mode == MODE_ONESHOT)
        printf(" (first %.3f ms; repeated %.3f ms device, %.3f ms host; oneshot/repeated "
               "%.2f)", 1e3 * r->first_s, 1e3 * r->device_s, 1e3 * r->plan_host_s,
               oneshot_ratio(r));
    printf("  %.2f GB/s  copy %.2f GB/s  ratio %.1f %%  verified %s", r->gbs, r->copy_gbs,
           100 * r->ratio, verdict_name(r->check));
    if (f->predicted_s > 0 && r->device_s > 0)
        printf("  predicted %.3f ms (%+.1f %%)", 1e3 * f->predicted_s,
               100 * (f->predicted_s / r->device_s - 1));
    if (b->a->brute_force)
        print_brute(b, r);
    printf("\n");
    fflush(stdout);
}

static void write_csv_row(const bench *b, const shape_result *r)
{
    const plan_facts *f = &r->facts;
    FILE *c = b->csv;
    char name[256];
    if (r->sh.rows)
        fprintf(c, "%zu,%zu,", r->sh.rows, r->sh.cols);
    else
        fprintf(c, ",,"); /* no rows and columns: another permutation */
    fprintf(c, "%zu,%s,%zu,%zu,%zu,%zu,%.6f,%.4f,%.4f,%.6f,%s,", b->a->elem, f->sequence, f->m,
            f->n, f->prows, f->pcols, 1e3 * r->time_s, r->gbs, r->copy_gbs, r->ratio,
            verdict_name(r->check));
    for (unsigned i = 0; i < r->num_stages; i++)
        fprintf(c, "%s%.6f", i ? ";" : "", 1e3 * r->stage_s[i]);
    fprintf(c, ",%s,%.6f,", bench_mode_name(b->a->mode), 1e3 * r->device_s);
    if (b->a->brute_force && r->best_gbs > 0)
        fprintf(c, "%.4f,%s,%zu,%zu,%.6f,%s,", r->best_gbs, r->best.sequence, r->best.m,
                r->best.n, r->auto_gbs / r->best_gbs,
                verdict_name(bench_is_auto(&r->best_cand) ? r->check : r->best_check));
    else
        fprintf(c, ",,,,,,");
    fprintf(c, "%.6f,", 1e3 * f->predicted_s);
    if (b->a->mode == MODE_ONESHOT)
        fprintf(c, "%.6f,%.6f,%.6f,", 1e3 * r->first_s, oneshot_ratio(r),
                1e3 * r->plan_host_s);
    else if (b->a->mode == MODE_SINGLE)
        fprintf(c, "%.6f,,,", 1e3 * r->first_s);
    else
        fprintf(c, ",,,");
    /* DIMS and AXES apart, AXES ';'-joined: no commas inside a field, so
     * that readers need no quoting (tuning/model_calib.c splits on ',') */
    plan_text_format_permutation(&r->sh.nd, name, sizeof name);
    for (char *at = strchr(name, ':'); at && *at; at++)
        *at = *at == ':' ? ',' : *at == ',' ? ';' : *at;
    fprintf(c, "%s,%u\n", name, f->passes);
    fflush(c); /* a run cut by a time limit keeps the rows it measured */
}

void bench_record(bench *b, const shape_result *r)
{
    series *s = &b->sr;
    print_shape(b, r);
    if (b->csv)
        write_csv_row(b, r);
    s->gbs[s->measured] = r->gbs;
    s->copy_gbs[s->measured] = r->copy_gbs;
    s->ratio[s->measured] = 100 * r->ratio;
    s->measured++;
    if (b->a->brute_force && r->best_gbs > 0)
        s->auto_best[s->brute++] = 100 * r->auto_gbs / r->best_gbs;
    if (r->facts.predicted_s > 0 && r->device_s > 0)
        s->model_error[s->predicted++] = 100 * fabs(r->facts.predicted_s / r->device_s - 1);
    if (b->a->mode == MODE_ONESHOT && r->device_s > 0) {
        if (s->measured == 1)
            s->first_call_s = r->first_s; /* the context and programs too */
        s->oneshot[s->measured - 1] = oneshot_ratio(r);
        s->first[s->measured - 1] = r->first_s / r->device_s;
        s->vs_host[s->measured - 1] = r->plan_host_s > 0 ? r->time_s / r->plan_host_s : 0;
    }
    if (b->a->mode == MODE_SINGLE && r->device_s > 0)
        s->first[s->measured - 1] = r->first_s / r->device_s;
    b->verified += r->check != NOT_CHECKED;
    b->correct += r->check == CORRECT;
    b->wrong_best += r->best_check == WRONG;
}

/* How many of v[0..n) are at most limit. */
static size_t within(const double *v, size_t n, double limit)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += v[i] <= limit;
    return k;
}

static void print_oneshot_summary(series *s, size_t n)
{
    printf("oneshot/repeated median %.3f  p90 %.3f  max %.3f  (first/repeated median %.2f)\n",
           util_percentile(s->oneshot, n, 0.5), util_percentile(s->oneshot, n, 0.9),
           util_percentile(s->oneshot, n, 1.0), util_percentile(s->first, n, 0.5));
    printf("oneshot/kept plan's host time median %.3f  p90 %.3f  max %.3f\n",
           util_percentile(s->vs_host, n, 0.5), util_percentile(s->vs_host, n, 0.9),
           util_percentile(s->vs_host, n, 1.0));
    printf("first call on the device %.3f ms (context, programs, plan)\n",
           1e3 * s->first_call_s);
}

void bench_print_summary(bench *b)
{
    series *s = &b->sr;
    const size_t n = s->measured;
    printf("mode %s: %s; %zu shapes measured, %zu skipped, %zu failed\n",
           bench_mode_name(b->a->mode),
           b->a->mode == MODE_SINGLE
               ? "each run creates, enqueues, waits for and releases the plan (host clock)"
           : b->a->mode == MODE_ONESHOT
               ? "clipt_transpose calls, cached context and plan (host clock)"
               : "plan created once per shape (device time, clipt_plan_profile)",
           n, b->skipped, b->failed);
    if (n == 0) {
        printf("median - GB/s  p10 -  p90 -  copy - GB/s  median/copy - %%  verified %zu/%zu\n"
               "ratio median - %%  p10 - %%  p90 - %%\n", b->correct, b->verified);
        return;
    }
    printf("median %.2f GB/s  p10 %.2f  p90 %.2f  copy %.2f GB/s  median/copy %.1f %%  "
           "verified %zu/%zu\n", util_percentile(s->gbs, n, 0.5), util_percentile(s->gbs, n, 0.1),
           util_percentile(s->gbs, n, 0.9), util_percentile(s->copy_gbs, n, 0.5),
           util_percentile(s->ratio, n, 0.5), b->correct, b->verified);
    printf("ratio median %.1f %%  p10 %.1f %%  p90 %.1f %%\n", util_percentile(s->ratio, n, 0.5),
           util_percentile(s->ratio, n, 0.1), util_percentile(s->ratio, n, 0.9));
    if (b->a->mode == MODE_ONESHOT)
        print_oneshot_summary(s, n);
    if (b->a->mode == MODE_SINGLE)
        printf("first run of a shape (host) / its device time: median %.2f  p90 %.2f  "
               "max %.2f\n", util_percentile(s->first, n, 0.5),
               util_percentile(s->first, n, 0.9), util_percentile(s->first, n, 1.0));
    if (s->brute)
        printf("auto/best median %.1f %%  p10 %.1f %%  p90 %.1f %%  (%zu shapes)\n",
               util_percentile(s->auto_best, s->brute, 0.5),
               util_percentile(s->auto_best, s->brute, 0.1),
               util_percentile(s->auto_best, s->brute, 0.9), s->brute);
    if (s->predicted)
        printf("model: predicted within +-20 %% for %.1f %% of %zu shapes, median error "
               "%.1f %%\n", 100.0 * within(s->model_error, s->predicted, 20) / s->predicted,
               s->predicted, util_percentile(s->model_error, s->predicted, 0.5));
}

/* ---- histogram -------------------------------------------------------- */

/* The plot script, found like the library's kernels: CLIPT_PLOT_SCRIPT
 * wins; an installed tool takes the one installed with it
 * (bin/../share/clipt/plot_hist.py, wherever the tree was installed or
 * moved) and nothing else; the build tree's tool (this very file,
 * CLIPT_BUILD_TOOL) takes the source tree's. */
static const char *plot_script(char *buf, size_t len)
{
    const char *env = getenv("CLIPT_PLOT_SCRIPT");
    char self[PATH_MAX], built[PATH_MAX];
    ssize_t n;
    char *slash;
    if (env && env[0])
        return env;
    n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return CLIPT_SOURCE_PLOT_SCRIPT;
    self[n] = '\0';
    if (realpath(CLIPT_BUILD_TOOL, built) && strcmp(self, built) == 0)
        return CLIPT_SOURCE_PLOT_SCRIPT;
    slash = strrchr(self, '/');
    snprintf(buf, len, "%.*s/%s", slash ? (int)(slash - self) : 0, self,
             CLIPT_TOOL_TO_PLOT_SCRIPT);
    return buf;
}

/* posix_spawn wants writable argument strings: they are copied. */
void bench_draw_histogram(const bench *b, const char *csv_path)
{
    static char python[] = "python3", flag[] = "--title";
    char script[PATH_MAX + 64], csv[4096], png[4096], title[768];
    char *argv[] = {python, script, csv, png, flag, title, NULL};
    pid_t pid;
    int rc, wstatus = 0;
    char where[PATH_MAX];
    snprintf(script, sizeof script, "%s", plot_script(where, sizeof where));
    if (access(script, R_OK) != 0) {
        fprintf(stderr, "png: not written: no plot script at %s (it is installed with the "
                "tool as share/clipt/plot_hist.py; CLIPT_PLOT_SCRIPT names another)\n",
                script);
        return;
    }
    snprintf(csv, sizeof csv, "%s", csv_path);
    snprintf(png, sizeof png, "%s", b->a->png);
    snprintf(title, sizeof title, "clipt bench: %s, %s set, %zu-byte elements, %s mode",
             b->s.cl.device_name, b->set_name, b->a->elem, bench_mode_name(b->a->mode));
    fflush(stdout);
    fflush(stderr);
    rc = posix_spawnp(&pid, python, NULL, NULL, argv, environ);
    if (rc != 0) {
        fprintf(stderr, "png: not written: cannot run python3 (%s)\n", strerror(rc));
        return;
    }
    if (waitpid(pid, &wstatus, 0) < 0 || !WIFEXITED(wstatus)) {
        fprintf(stderr, "png: not written: %s did not finish\n", script);
        return;
    }
    rc = WEXITSTATUS(wstatus);
    if (rc == 0)
        printf("png: %s\n", png);
    else if (rc == 127)
        fprintf(stderr, "png: not written: python3 not found (Debian: apt-get install "
                "python3 python3-matplotlib)\n");
    else if (rc != PLOT_EXIT_NO_MATPLOTLIB) /* that one has said why itself */
        fprintf(stderr, "png: not written: %s exited with status %d\n", script, rc);
}

int bench_open_csv(const cli_command *cmd, bench *b, char *tmp_path, size_t len)
{
    const char *dir = getenv("TMPDIR");
    int fd;
    tmp_path[0] = '\0';
    if (b->a->csv) {
        if (!(b->csv = fopen(b->a->csv, "w")))
            return cli_usage_error(cmd, "cannot write '%s': %s", b->a->csv,
                                   strerror(errno));
    } else if (b->a->png) {
        snprintf(tmp_path, len, "%s/clipt-bench-XXXXXX", dir && dir[0] ? dir : "/tmp");
        if ((fd = mkstemp(tmp_path)) < 0 || !(b->csv = fdopen(fd, "w"))) {
            fprintf(stderr, "clipt bench: cannot create a temporary CSV for --png: %s\n",
                    strerror(errno));
            if (fd >= 0)
                close(fd);
            tmp_path[0] = '\0';
            return CLI_EXIT_FAILURE;
        }
    }
    if (b->csv)
        fputs(csv_header, b->csv);
    return CLI_EXIT_OK;
}

int bench_close_csv(bench *b)
{
    int bad;
    if (!b->csv)
        return CLI_EXIT_OK;
    bad = ferror(b->csv) | fclose(b->csv);
    b->csv = NULL;
    if (!bad)
        return CLI_EXIT_OK;
    fprintf(stderr, "clipt bench: writing %s failed\n", b->a->csv ? b->a->csv : "the CSV");
    return CLI_EXIT_FAILURE;
}
