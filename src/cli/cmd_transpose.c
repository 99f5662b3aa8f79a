/* clipt transpose: transpose the 2-D array of a .npy file, or a raw
 * row-major matrix file, on the selected device, and write the result
 * atomically (in place, to OUT, or into a directory), or from standard
 * input and to standard output ("-").  The device's part is in
 * transpose_device.c.
 *
 * The device always transposes a row-major matrix: for a C-order .npy of
 * shape (r, c) that is the r x c data as stored; for a Fortran-order one
 * the stored bytes are the c x r row-major transpose, and moving them as
 * such gives the Fortran-order data of the (c, r) result.  Either way the
 * output keeps the input's dtype string and order flag with the shape
 * swapped, so numpy.load(out) equals numpy.load(in).T.
 *
 * Everything about the input is checked before anything is written: a bad
 * file, a file too large for the device, a failed device step or a failed
 * --verify leaves the input and the output path as they were. */
#define _POSIX_C_SOURCE 200809L /* sysconf, isatty */

#include "hostmat.h"
#include "transpose.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The demo array of --demo: element (i, j) holds 2000*i + j, exact in
 * float32 (below 2^24), so any element shows where it came from. */
enum { DEMO_ROWS = 3000, DEMO_COLS = 2000, DEMO_SAMPLE_I = 5, DEMO_SAMPLE_J = 7 };

enum { MAX_VERIFY_THREADS = 16 };

typedef struct transpose_args {
    const char *input;        /* FILE, or "-"                              */
    const char *output;       /* -o / --output or the second operand       */
    const char *output_option;/* -o / --output itself                      */
    size_t rows, cols, elem;  /* raw mode: all three given                 */
    const char *axes;         /* --axes: numpy.transpose's axes, .npy only */
    size_t batch;             /* raw mode: --batch matrices back to back  */
    int verify, demo, progress;
} transpose_args;

/* ---- options ---------------------------------------------------------- */

static const char transpose_description[] =
    "Transposes the 2-D array in FILE.npy (NumPy format 1.0, 2.0 or 3.0, C or\n"
    "Fortran order, any dtype of 1, 2, 4, 8 or 16 bytes) on the selected\n"
    "device (CLIPT_PLATFORM / CLIPT_DEVICE), so that numpy.load(OUT) equals\n"
    "numpy.load(FILE).T with the same dtype and order flag.  With --rows,\n"
    "--cols and --elem, FILE holds raw row-major elements instead, and the\n"
    "output the raw cols x rows transpose; with --batch B, FILE holds B such\n"
    "matrices back to back and each is transposed.\n"
    "OUT (-o OUT, or a second operand) is written atomically (a new file next\n"
    "to it, synced, renamed over it); an OUT that is a directory receives a\n"
    "file of FILE's name; without OUT, FILE itself is replaced.  A bad file\n"
    "or a failure leaves every file unchanged.  FILE - reads standard input\n"
    "(then the output goes to standard output unless OUT is given); OUT -\n"
    "writes standard output, and the report goes to stderr instead.\n"
    "Progress (planning, reading, upload, transposition, download,\n"
    "verification, writing, each with its time) goes to stderr when it is a\n"
    "terminal, or always with --progress.\n"
    "--axes 0,2,3,1 permutes the axes of an N-D .npy array instead (1 to 8\n"
    "dimensions), so that numpy.load(OUT) equals numpy.transpose(\n"
    "numpy.load(FILE), axes=(0, 2, 3, 1)); 1,0 is the 2-D transpose.\n"
    "--demo first writes FILE as a 3000 x 2000 float32 demo array whose\n"
    "element (i, j) is 2000*i + j, then transposes it with --verify.\n"
    "Exit status: 0 done (and verified, with --verify), 1 wrong result,\n"
    "2 usage error, 3 OpenCL or clipt failure, 4 bad or unusable file.";

/* Checks the combinations the table cannot express. */
static int check_transpose_args(const transpose_args *a, size_t num_positional,
                                int *status)
{
    const int raw_given = (a->rows != 0) + (a->cols != 0) + (a->elem != 0);
    const char *problem = NULL;
    if (num_positional == 0)
        problem = "give the input FILE (- for standard input)";
    else if (num_positional == 2 && a->output_option)
        problem = "give OUT once: -o OUT or a second operand, not both";
    else if (raw_given != 0 && raw_given != 3)
        problem = "a raw file needs all of --rows, --cols and --elem";
    else if (a->batch && !raw_given)
        problem = "--batch counts raw matrices: give --rows, --cols and --elem too";
    else if (raw_given && a->axes)
        problem = "--axes permutes .npy arrays: a raw file is a --rows x --cols matrix";
    else if (raw_given && a->demo)
        problem = "--demo writes a .npy file: it takes no --rows, --cols or --elem";
    else if (a->demo && strcmp(a->input, "-") == 0)
        problem = "--demo writes FILE first: give a file name, not -";
    else if (raw_given && (a->rows > SIZE_MAX / a->cols ||
                           a->rows * a->cols > SIZE_MAX / a->elem ||
                           (a->batch && a->rows * a->cols * a->elem > SIZE_MAX / a->batch)))
        problem = "--rows x --cols x --elem does not fit in memory";
    if (!problem)
        return 1;
    *status = cli_usage_error(&cli_cmd_transpose, "%s", problem);
    return 0;
}

static int parse_transpose_args(int argc, char **argv, transpose_args *a, int *status)
{
    const cli_option opts[] = {
        {"o|output", "OUT", cli_parse_text, &a->output_option,
         "write the result to OUT (a file, a directory, or - for stdout)"},
        {"rows", "R", cli_parse_positive_size, &a->rows, "raw FILE: rows of the matrix"},
        {"cols", "C", cli_parse_positive_size, &a->cols, "raw FILE: columns of the matrix"},
        {"elem", "BYTES", cli_parse_elem_size, &a->elem,
         "raw FILE: element size, 1, 2, 4, 8 or 16"},
        {"batch", "B", cli_parse_positive_size, &a->batch,
         "raw FILE: B matrices of --rows x --cols back to back, each transposed"},
        {"axes", "LIST", cli_parse_text, &a->axes,
         ".npy FILE: permute its axes as numpy.transpose(a, axes=LIST), e.g. 0,2,3,1"},
        {"verify", NULL, NULL, &a->verify,
         "compare with a CPU transpose before writing anything"},
        {"demo", NULL, NULL, &a->demo,
         "first write FILE as a 3000 x 2000 float32 demo (implies --verify)"},
        {"progress", NULL, NULL, &a->progress,
         "show progress on stderr even when it is not a terminal"},
    };
    const char *positional[2] = {NULL, NULL};
    size_t num_positional = 0;
    if (!cli_parse_options(&cli_cmd_transpose, opts, sizeof opts / sizeof opts[0], argc, argv,
                           positional, 2, &num_positional, status))
        return 0;
    a->input = positional[0];
    a->output = a->output_option ? a->output_option : positional[1];
    a->verify |= a->demo;
    return check_transpose_args(a, num_positional, status);
}

/* ---- the demo --------------------------------------------------------- */

static int write_demo(job *j, const char *path)
{
    const size_t count = (size_t)DEMO_ROWS * DEMO_COLS;
    const uint16_t probe = 1;
    const int little = *(const unsigned char *)&probe == 1;
    npy_header h = {0};
    file_target target;
    unsigned char header[NPY_HEADER_MAX];
    size_t header_len;
    char err[NPY_ERROR_MAX];
    const char *why;
    float *values = malloc(count * sizeof *values);
    if (!values) {
        fprintf(stderr, "clipt transpose: out of host memory for the demo array\n");
        return CLI_EXIT_FAILURE;
    }
    for (size_t k = 0; k < count; k++)
        values[k] = (float)k; /* k = DEMO_COLS*i + j */
    snprintf(h.descr, sizeof h.descr, "%cf4", little ? '<' : '>');
    h.ndim = 2;
    h.shape[0] = DEMO_ROWS;
    h.shape[1] = DEMO_COLS;
    header_len = npy_format_header(&h, header, sizeof header);
    why = file_resolve_output(path, &target, err, sizeof err);
    if (!why)
        why = file_replace_atomic(&target, header, header_len, values,
                                  count * sizeof *values, err, sizeof err);
    free(values);
    if (why)
        return transpose_file_error(j, path, why);
    fprintf(j->report, "%-12s wrote %s: %d x %d float32, element (i, j) = %d*i + j\n",
            "demo:", path, DEMO_ROWS, DEMO_COLS, DEMO_COLS);
    return CLI_EXIT_OK;
}

/* The demo's result holds input element (i, j) at (j, i): one shown. */
static void print_demo_sample(const job *j)
{
    float got;
    memcpy(&got, j->result + ((size_t)DEMO_SAMPLE_J * DEMO_ROWS + DEMO_SAMPLE_I) * 4, 4);
    fprintf(j->report, "%-12s result[%d, %d] = %.0f = input[%d, %d] = %d*%d + %d\n",
            "sample:", DEMO_SAMPLE_J, DEMO_SAMPLE_I, (double)got, DEMO_SAMPLE_I,
            DEMO_SAMPLE_J, DEMO_COLS, DEMO_SAMPLE_I, DEMO_SAMPLE_J);
}

/* ---- the input -------------------------------------------------------- */

static void set_npy_data(job *j)
{
    j->elem = j->npy.elem_size;
    j->bytes = j->npy.data_bytes;
    j->offset = j->npy.header_bytes;
}

/* --axes: the permutation of the header's array.  A Fortran-order array
 * is stored as the row-major array of the reversed shape; permuting axes
 * a[t] of it is permuting axes n-1-a[n-1-u] of that. */
static const char *describe_permutation(job *j, const char *list, char *err, size_t err_len)
{
    const unsigned n = (unsigned)j->npy.ndim;
    const int f = j->npy.fortran_order;
    unsigned axes[CLIPT_MAX_DIMS], count = 0, seen = 0;
    const char *p = list;
    if (n == 0 || n > CLIPT_MAX_DIMS)
        return npy_message(err, err_len, "array has %u dimensions: --axes permutes 1 to %d",
                           n, CLIPT_MAX_DIMS);
    while (*p) {
        char *end;
        const unsigned long v = strtoul(p, &end, 10);
        if (end == p || (*end && *end != ',') || v >= n || (seen & (1u << v)) ||
            count == n)
            return npy_message(err, err_len, "--axes %s is not a permutation of the array's "
                               "%u axes (each of 0..%u once, separated by commas)", list, n,
                               n - 1);
        seen |= 1u << v;
        axes[count++] = (unsigned)v;
        p = *end ? end + 1 : end;
    }
    if (count != n)
        return npy_message(err, err_len, "--axes %s names %u axes, the array has %u", list,
                           count, n);
    j->axes = 1;
    j->ndim = n;
    for (unsigned t = 0; t < n; t++) {
        j->dims[t] = j->npy.shape[f ? n - 1 - t : t];
        j->perm[t] = f ? n - 1 - axes[n - 1 - t] : axes[t];
        j->out_axes[t] = axes[t];
    }
    j->rows = j->npy.data_bytes / (j->npy.elem_size ? j->npy.elem_size : 1);
    j->cols = 1;
    set_npy_data(j);
    return NULL;
}

/* --batch: the raw file is (B, R, C), permuted by axes (0, 2, 1). */
static void set_raw_batch(job *j, const transpose_args *a)
{
    static const unsigned swap[3] = {0, 2, 1};
    j->axes = 1;
    j->ndim = 3;
    j->dims[0] = a->batch;
    j->dims[1] = a->rows;
    j->dims[2] = a->cols;
    for (unsigned t = 0; t < 3; t++)
        j->perm[t] = j->out_axes[t] = swap[t];
}

/* Fills the matrix fields from the header, or from --rows/--cols/--elem. */
static const char *describe_matrix(job *j, const transpose_args *a, char *err,
                                   size_t err_len)
{
    const char *why;
    if (!j->is_npy) {
        j->rows = a->rows;
        j->cols = a->cols;
        j->elem = a->elem;
        j->bytes = a->rows * a->cols * a->elem * (a->batch ? a->batch : 1);
        if (a->batch) /* (B, R, C) -> (B, C, R) */
            set_raw_batch(j, a);
        if (j->file_size != j->bytes)
            return npy_message(err, err_len, "raw file holds %zu bytes, --rows %zu --cols "
                               "%zu --elem %zu%s need %zu", j->file_size, a->rows, a->cols,
                               a->elem, a->batch ? " --batch" : "", j->bytes);
        return NULL;
    }
    if ((why = npy_read_header(j->fd, j->file_size, &j->npy, err, err_len)) != NULL)
        return why;
    if (a->axes)
        return describe_permutation(j, a->axes, err, err_len);
    if (j->npy.ndim != 2) {
        char shape[256];
        npy_shape_text(&j->npy, shape, sizeof shape);
        return npy_message(err, err_len, "array has %zu dimension%s (shape %s): clipt "
                           "transposes 2-D arrays", j->npy.ndim,
                           j->npy.ndim == 1 ? "" : "s", shape);
    }
    /* Fortran order stores the (r, c) array as its c x r row-major transpose */
    j->rows = j->npy.shape[j->npy.fortran_order ? 1 : 0];
    j->cols = j->npy.shape[j->npy.fortran_order ? 0 : 1];
    set_npy_data(j);
    return NULL;
}

/* Standard input is read whole when it is opened: that is its read step. */
static int open_input(job *j, const transpose_args *a)
{
    char err[NPY_ERROR_MAX];
    const char *why;
    if (j->in_stdin)
        cli_progress_step(&j->progress, "reading standard input");
    why = j->in_stdin ? file_open_stdin(&j->fd, &j->file_size, err, sizeof err)
                      : file_open_input(j->in_path, &j->fd, &j->file_size, err, sizeof err);
    j->is_npy = a->rows == 0;
    if (!why && fstat(j->fd, &j->in_st) != 0)
        memset(&j->in_st, 0, sizeof j->in_st);
    if (!why)
        why = describe_matrix(j, a, err, sizeof err);
    if (!why && !j->axes) { /* the 2-D transpose: axes (1, 0) */
        j->ndim = 2;
        j->dims[0] = j->rows;
        j->dims[1] = j->cols;
        j->perm[0] = 1;
        j->perm[1] = 0;
    }
    return why ? transpose_file_error(j, j->in_name, why) : CLI_EXIT_OK;
}

/* The last part of the input's path: its name in an output directory. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* An OUT that is a directory gets a file of the input's name.  The output
 * is then checked before the device works: a target that would never be
 * written (a device, a FIFO, a link loop, a terminal) costs nothing. */
static int resolve_output(job *j)
{
    char err[NPY_ERROR_MAX];
    const char *why;
    struct stat st;
    if (j->out_stdout) {
        if (!isatty(STDOUT_FILENO))
            return CLI_EXIT_OK;
        return transpose_file_error(j, "stdout", "is a terminal: the transpose is binary "
                                    "data (redirect it, or give OUT)");
    }
    if (stat(j->out_path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (j->in_stdin)
            return transpose_file_error(j, j->out_path, "is a directory, and standard "
                                        "input has no file name to write there");
        if (snprintf(j->out_in_dir, sizeof j->out_in_dir, "%s%s%s", j->out_path,
                     j->out_path[strlen(j->out_path) - 1] == '/' ? "" : "/",
                     base_name(j->in_path)) >= (int)sizeof j->out_in_dir)
            return transpose_file_error(j, j->out_path, "path is too long");
        j->out_path = j->out_name = j->out_in_dir;
    }
    why = file_resolve_output(j->out_path, &j->out, err, sizeof err);
    return why ? transpose_file_error(j, j->out_path, why) : CLI_EXIT_OK;
}

/* ---- checking and writing --------------------------------------------- */

static unsigned verify_threads(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > MAX_VERIFY_THREADS ? MAX_VERIFY_THREADS : (unsigned)n;
}

/* Compares j->result with the CPU transpose of j->data. */
/* --axes: compares j->result with the CPU permutation of j->data. */
static int verify_permutation(job *j)
{
    size_t first = 0, wrong;
    const size_t count = j->bytes / j->elem;
    unsigned char *want = malloc(j->bytes);
    cli_progress_step(&j->progress, "verifying against a CPU permutation");
    if (!want) {
        cli_progress_break(&j->progress);
        fprintf(stderr, "clipt transpose: out of host memory for %zu bytes\n", j->bytes);
        return CLI_EXIT_FAILURE;
    }
    hostmat_permute(j->data, want, j->ndim, j->dims, j->perm, j->elem);
    wrong = hostmat_compare(j->result, want, count, j->elem, &first);
    free(want);
    if (wrong == 0)
        return CLI_EXIT_OK;
    cli_progress_break(&j->progress);
    fprintf(stderr, "clipt transpose: %s: verification failed: %zu of %zu elements differ "
            "from the CPU permutation, the first at element %zu of the result as stored; "
            "nothing was written\n", j->in_name, wrong, count, first);
    return CLI_EXIT_WRONG;
}

static int verify(job *j)
{
    size_t first = 0, wrong;
    const size_t count = j->rows * j->cols;
    if (j->axes)
        return verify_permutation(j);
    cli_progress_step(&j->progress, "verifying against a CPU transpose");
    wrong = hostmat_compare_transposed(j->result, j->data, j->rows, j->cols, j->elem,
                                       verify_threads(), &first);
    if (wrong == 0)
        return CLI_EXIT_OK;
    cli_progress_break(&j->progress);
    /* the result is cols x rows: element index -> (row, column) in it */
    fprintf(stderr, "clipt transpose: %s: verification failed: %zu of %zu elements differ "
            "from the CPU transpose, the first at row %zu, column %zu of the result; "
            "nothing was written\n", j->in_name, wrong, count, first / j->rows,
            first % j->rows);
    return CLI_EXIT_WRONG;
}

/* The input's header with the shape swapped: same dtype string (byte order
 * marks included: bytes are only moved) and the same order flag. */
static void make_output_header(job *j)
{
    j->out_npy = j->npy;
    j->out_npy.shape[0] = j->npy.shape[1];
    j->out_npy.shape[1] = j->npy.shape[0];
    for (unsigned t = 0; j->axes && t < j->ndim; t++)
        j->out_npy.shape[t] = j->npy.shape[j->out_axes[t]];
    j->out_header_len = npy_format_header(&j->out_npy, j->out_header, sizeof j->out_header);
}

static int write_output(job *j)
{
    char err[NPY_ERROR_MAX];
    const char *why;
    cli_progress_step(&j->progress, "writing %s", j->out_name);
    if (j->is_npy)
        make_output_header(j);
    if (j->out_stdout)
        why = file_write_stdout(j->out_header, j->out_header_len, j->result, j->bytes, err,
                                sizeof err);
    else
        why = file_replace_atomic(&j->out, j->out_header, j->out_header_len, j->result,
                                  j->bytes, err, sizeof err);
    return why ? transpose_file_error(j, j->out_name, why) : CLI_EXIT_OK;
}

/* ---- report ----------------------------------------------------------- */

static const char *verdict(const transpose_args *a)
{
    if (a->verify && (a->axes || a->batch))
        return "yes (bit-exact against a CPU permutation)";
    return a->verify ? "yes (bit-exact against a CPU transpose)"
                     : "not checked (--verify compares with a CPU transpose)";
}

/* "PATH (.npy 1.0, '<f4', C order, shape (3, 4)" or "PATH (raw, 3 x 4" */
static void print_file(const char *label, const char *path, const job *j,
                       const npy_header *h, unsigned major, size_t rows, size_t cols)
{
    char shape[256];
    fprintf(j->report, "%-12s %s (", label, path);
    if (!j->is_npy) {
        if (j->axes) /* --batch */
            fprintf(j->report, "raw, %zu matrices ", j->dims[0]);
        fprintf(j->report, "raw, %zu x %zu of %zu-byte elements" + (j->axes ? 5 : 0), rows,
                cols, j->elem);
        return;
    }
    npy_shape_text(h, shape, sizeof shape);
    fprintf(j->report, ".npy %u.0, '%s', %s order, shape %s", major, h->descr,
            h->fortran_order ? "Fortran" : "C", shape);
}

/* "permuted:    axes (0, 2, 3, 1) of shape (2, 3, 4, 5) -> (2, 4, 5, 3)" */
static void print_axes(const job *j)
{
    fprintf(j->report, "%-12s axes (", "permuted:");
    for (unsigned t = 0; t < j->ndim; t++)
        fprintf(j->report, "%s%u", t ? ", " : "", j->out_axes[t]);
    fprintf(j->report, "%s)", j->ndim == 1 ? "," : "");
    if (j->npy.fortran_order)
        fprintf(j->report, " (the Fortran-order data as stored: axes (");
    for (unsigned t = 0; j->npy.fortran_order && t < j->ndim; t++)
        fprintf(j->report, "%s%u", t ? ", " : "", j->perm[t]);
    if (j->npy.fortran_order)
        fprintf(j->report, "%s) of the reversed shape)", j->ndim == 1 ? "," : "");
}

static void print_report(const job *j, const transpose_args *a)
{
    FILE *out = j->report;
    /* the same file by another name (-o DIR, a link) is replaced too */
    const int same = !j->in_stdin && j->out.exists && j->out.st.st_dev == j->in_st.st_dev &&
                     j->out.st.st_ino == j->in_st.st_ino;
    const char *how = j->out_stdout ? "written"
                      : same        ? "replaced atomically"
                                    : "written atomically";
    print_file("input:", j->in_name, j, &j->npy, j->npy.major, j->rows, j->cols);
    if (j->bytes < 1000000)
        fprintf(out, ", %zu bytes of data)\n", j->bytes);
    else
        fprintf(out, ", %.2f MB of data)\n", (double)j->bytes / 1e6);
    if (j->device[0])
        fprintf(out, "%-12s %s\n", "device:", j->device);
    if (j->axes)
        print_axes(j);
    else
        fprintf(out, "%-12s %zu x %zu -> %zu x %zu row-major%s", "transposed:", j->rows,
                j->cols, j->cols, j->rows,
                j->is_npy && j->npy.fortran_order ? " (the Fortran-order data as stored)"
                                                  : "");
    if (j->device[0])
        fprintf(out, ", %.3f ms on the device\n", j->device_ms);
    else
        fprintf(out, ": nothing to move, the array is empty\n");
    fprintf(out, "%-12s %s\n", "verified:", verdict(a));
    print_file("output:", j->out_name, j, &j->out_npy, j->out_header[6], j->cols, j->rows);
    fprintf(out, "), %s\n", how);
}

/* ---- the subcommand --------------------------------------------------- */

/* Paths, names and where messages go, from the arguments. */
static void start_job(job *j, const transpose_args *a)
{
    j->fd = -1;
    j->in_path = a->input;
    j->in_stdin = strcmp(a->input, "-") == 0;
    /* in place: the file itself, or stdin's data back on stdout */
    j->out_path = a->output ? a->output : a->input;
    j->out_stdout = strcmp(j->out_path, "-") == 0;
    j->in_name = j->in_stdin ? "stdin" : j->in_path;
    j->out_name = j->out_stdout ? "stdout" : j->out_path;
    j->keep_input = a->verify;
    j->report = j->out_stdout ? stderr : stdout; /* stdout holds the data alone */
    /* read, plan, upload, transpose, download, [verify], write */
    cli_progress_init(&j->progress, a->progress, 6 + (a->verify != 0));
}

static int transpose_main(int argc, char **argv)
{
    transpose_args a = {0};
    job j = {0};
    int status;
    if (!parse_transpose_args(argc, argv, &a, &status))
        return status;
    start_job(&j, &a);
    if (a.demo && (status = write_demo(&j, a.input)) != CLI_EXIT_OK)
        return status;
    if ((status = open_input(&j, &a)) != CLI_EXIT_OK ||
        (status = resolve_output(&j)) != CLI_EXIT_OK)
        goto cleanup;
    /* an empty array needs no device: only its header changes */
    if (j.bytes == 0) {
        j.progress.steps -= 4; /* no planning, upload, transposition, download */
        status = transpose_read_input(&j);
    } else {
        status = transpose_on_device(&j);
    }
    if (status != CLI_EXIT_OK)
        goto cleanup;
    if (j.bytes == 0)
        j.result = j.data;
    /* the input is no longer needed open; closing now also frees it for
     * the rename on systems that care */
    close(j.fd);
    j.fd = -1;
    if (a.verify && (status = verify(&j)) != CLI_EXIT_OK)
        goto cleanup;
    if ((status = write_output(&j)) != CLI_EXIT_OK)
        goto cleanup;
    cli_progress_done(&j.progress);
    print_report(&j, &a);
    if (a.demo)
        print_demo_sample(&j);
cleanup:
    if (j.fd >= 0)
        close(j.fd);
    if (j.result != j.data)
        free(j.result); /* NULL or its own buffer */
    free(j.data);
    return status;
}

const cli_command cli_cmd_transpose = {
    "transpose", "[options] FILE [OUT]",
    "transpose a .npy or raw matrix file on the device, in place or to OUT",
    transpose_description, transpose_main,
};
