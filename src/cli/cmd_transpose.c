/* clipt transpose: transpose the 2-D array of a .npy file, or a raw
 * row-major matrix file, on the selected device, and write the result
 * atomically (in place, or to -o OUT).
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
#define _POSIX_C_SOURCE 200809L /* sysconf */

#include "cli.h"
#include "hostmat.h"
#include "npy.h"
#include "npy_file.h"

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
    const char *input;        /* FILE                                      */
    const char *output;       /* -o / --output; NULL: replace FILE         */
    size_t rows, cols, elem;  /* raw mode: all three given                 */
    int verify, demo;
} transpose_args;

/* One transposition: where the matrix comes from and goes to, and the
 * row-major rows x cols matrix of elem-byte elements the device moves. */
typedef struct job {
    const char *in_path, *out_path;
    int fd;
    size_t file_size;
    int is_npy;
    npy_header npy;          /* the input's header, when is_npy          */
    size_t offset;           /* where the data starts in the input       */
    size_t rows, cols, elem, bytes;
    unsigned char *data;     /* the input's data                         */
    unsigned char *result;   /* the transpose: data itself unless --verify */
    int keep_input;          /* --verify: the result gets its own buffer */
    double device_ms;
    char device[600];        /* "name (platform)" once a device ran      */
    npy_header out_npy;      /* the output's header, when is_npy         */
    unsigned char out_header[NPY_HEADER_MAX];
    size_t out_header_len;
} job;

/* ---- options ---------------------------------------------------------- */

static const char transpose_description[] =
    "Transposes the 2-D array in FILE.npy (NumPy format 1.0, 2.0 or 3.0, C or\n"
    "Fortran order, any dtype of 1, 2, 4, 8 or 16 bytes) on the selected\n"
    "device (CLIPT_PLATFORM / CLIPT_DEVICE), so that numpy.load(OUT) equals\n"
    "numpy.load(FILE).T with the same dtype and order flag.  With --rows,\n"
    "--cols and --elem, FILE holds raw row-major elements instead, and the\n"
    "output the raw cols x rows transpose.  Without -o, FILE is replaced\n"
    "atomically (a new file next to it, synced, renamed over it); a bad\n"
    "file or a failure leaves every file unchanged.\n"
    "--demo first writes FILE as a 3000 x 2000 float32 demo array whose\n"
    "element (i, j) is 2000*i + j, then transposes it with --verify.\n"
    "Exit status: 0 done (and verified, with --verify), 1 wrong result,\n"
    "2 usage error, 3 OpenCL or clipt failure, 4 bad or unusable file.";

/* The option table has long names only; -o is the one short option, so
 * it is renamed here rather than taught to the shared parser. */
static char **expand_short_output(int argc, char **argv)
{
    static char long_output[] = "--output";
    char **copy = malloc((size_t)(argc + 1) * sizeof *copy);
    int options_done = 0;
    if (!copy)
        return NULL;
    for (int i = 0; i < argc; i++) {
        options_done |= strcmp(argv[i], "--") == 0;
        copy[i] = !options_done && strcmp(argv[i], "-o") == 0 ? long_output : argv[i];
    }
    copy[argc] = NULL;
    return copy;
}

/* Checks the combinations the table cannot express. */
static int check_transpose_args(const transpose_args *a, size_t num_positional,
                                int *status)
{
    const int raw_given = (a->rows != 0) + (a->cols != 0) + (a->elem != 0);
    const char *problem = NULL;
    if (num_positional != 1)
        problem = "give one FILE";
    else if (raw_given != 0 && raw_given != 3)
        problem = "a raw file needs all of --rows, --cols and --elem";
    else if (raw_given && a->demo)
        problem = "--demo writes a .npy file: it takes no --rows, --cols or --elem";
    else if (raw_given && (a->rows > SIZE_MAX / a->cols ||
                           a->rows * a->cols > SIZE_MAX / a->elem))
        problem = "--rows x --cols x --elem does not fit in memory";
    if (!problem)
        return 1;
    *status = cli_usage_error(&cli_cmd_transpose, "%s", problem);
    return 0;
}

static int parse_transpose_args(int argc, char **argv, transpose_args *a, int *status)
{
    const cli_option opts[] = {
        {"output", "OUT", cli_parse_text, &a->output,
         "write the result to OUT (also -o OUT; default: replace FILE)"},
        {"rows", "R", cli_parse_positive_size, &a->rows, "raw FILE: rows of the matrix"},
        {"cols", "C", cli_parse_positive_size, &a->cols, "raw FILE: columns of the matrix"},
        {"elem", "BYTES", cli_parse_elem_size, &a->elem,
         "raw FILE: element size, 1, 2, 4, 8 or 16"},
        {"verify", NULL, NULL, &a->verify,
         "compare with a CPU transpose before writing anything"},
        {"demo", NULL, NULL, &a->demo,
         "first write FILE as a 3000 x 2000 float32 demo (implies --verify)"},
    };
    const char *positional[1] = {NULL};
    size_t num_positional = 0;
    char **args = expand_short_output(argc, argv);
    int ok;
    if (!args) {
        fprintf(stderr, "clipt transpose: out of host memory\n");
        *status = CLI_EXIT_FAILURE;
        return 0;
    }
    ok = cli_parse_options(&cli_cmd_transpose, opts, sizeof opts / sizeof opts[0], argc,
                           args, positional, 1, &num_positional, status) &&
         check_transpose_args(a, num_positional, status);
    free(args);
    a->input = positional[0];
    a->verify |= a->demo;
    return ok;
}

/* ---- messages --------------------------------------------------------- */

/* "clipt transpose: PATH: why", the one line every file problem gets. */
static int file_error(const char *path, const char *why)
{
    fprintf(stderr, "clipt transpose: %s: %s\n", path, why);
    return CLI_EXIT_FILE;
}

/* ---- the demo --------------------------------------------------------- */

static int write_demo(const char *path)
{
    const size_t count = (size_t)DEMO_ROWS * DEMO_COLS;
    const uint16_t probe = 1;
    const int little = *(const unsigned char *)&probe == 1;
    npy_header h = {0};
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
    why = file_replace_atomic(path, header, header_len, values, count * sizeof *values,
                              err, sizeof err);
    free(values);
    if (why)
        return file_error(path, why);
    printf("%-12s wrote %s: %d x %d float32, element (i, j) = %d*i + j\n", "demo:", path,
           DEMO_ROWS, DEMO_COLS, DEMO_COLS);
    return CLI_EXIT_OK;
}

/* The demo's result holds input element (i, j) at (j, i): one shown. */
static void print_demo_sample(const job *j)
{
    float got;
    memcpy(&got, j->result + ((size_t)DEMO_SAMPLE_J * DEMO_ROWS + DEMO_SAMPLE_I) * 4, 4);
    printf("%-12s result[%d, %d] = %.0f = input[%d, %d] = %d*%d + %d\n", "sample:",
           DEMO_SAMPLE_J, DEMO_SAMPLE_I, (double)got, DEMO_SAMPLE_I, DEMO_SAMPLE_J,
           DEMO_COLS, DEMO_SAMPLE_I, DEMO_SAMPLE_J);
}

/* ---- the input -------------------------------------------------------- */

/* Fills the matrix fields from the header, or from --rows/--cols/--elem. */
static const char *describe_matrix(job *j, const transpose_args *a, char *err,
                                   size_t err_len)
{
    const char *why;
    if (!j->is_npy) {
        j->rows = a->rows;
        j->cols = a->cols;
        j->elem = a->elem;
        j->bytes = a->rows * a->cols * a->elem;
        if (j->file_size != j->bytes)
            return npy_message(err, err_len, "raw file holds %zu bytes, --rows %zu --cols "
                               "%zu --elem %zu need %zu", j->file_size, a->rows, a->cols,
                               a->elem, j->bytes);
        return NULL;
    }
    if ((why = npy_read_header(j->fd, j->file_size, &j->npy, err, err_len)) != NULL)
        return why;
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
    j->elem = j->npy.elem_size;
    j->bytes = j->npy.data_bytes;
    j->offset = j->npy.header_bytes;
    return NULL;
}

static int open_input(job *j, const transpose_args *a)
{
    char err[NPY_ERROR_MAX];
    const char *why = file_open_input(j->in_path, &j->fd, &j->file_size, err, sizeof err);
    j->is_npy = a->rows == 0;
    if (!why)
        why = describe_matrix(j, a, err, sizeof err);
    return why ? file_error(j->in_path, why) : CLI_EXIT_OK;
}

static int out_of_memory(size_t bytes)
{
    fprintf(stderr, "clipt transpose: out of host memory for %zu bytes\n", bytes);
    return CLI_EXIT_FAILURE;
}

static int read_input(job *j)
{
    char err[NPY_ERROR_MAX];
    const char *why;
    /* one byte at least, so that an empty array still has a buffer */
    if (!(j->data = malloc(j->bytes ? j->bytes : 1)))
        return out_of_memory(j->bytes);
    if ((why = file_read_at(j->fd, j->data, j->bytes, j->offset, err, sizeof err)))
        return file_error(j->in_path, why);
    return CLI_EXIT_OK;
}

/* ---- the device ------------------------------------------------------- */

/* A matrix larger than one device allocation cannot be moved at all. */
static int check_device_fits(const cli_session *s, const job *j)
{
    cl_ulong max_alloc = 0;
    const cl_int err = clGetDeviceInfo(s->cl.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                                       sizeof max_alloc, &max_alloc, NULL);
    if (err != CL_SUCCESS)
        return cli_report(cli_cmd_transpose.name, NULL, "CL_DEVICE_MAX_MEM_ALLOC_SIZE", err);
    if (j->bytes <= max_alloc)
        return CLI_EXIT_OK;
    fprintf(stderr, "clipt transpose: %s: the array's %zu bytes exceed the device's largest "
            "allocation (%llu bytes, CL_DEVICE_MAX_MEM_ALLOC_SIZE); nothing was changed\n",
            j->in_path, j->bytes, (unsigned long long)max_alloc);
    return CLI_EXIT_FAILURE;
}

/* A plan that may pad, or one that does not when the padded buffer would
 * exceed the device's largest allocation while the matrix alone fits. */
static int make_plan(const cli_session *s, const job *j, clipt_plan *plan)
{
    clipt_plan_options o;
    char what[128];
    clipt_status st = clipt_plan_create(s->cx, j->rows, j->cols, j->elem, NULL, plan);
    if (st == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS) {
        clipt_plan_options_init(&o);
        o.padding = CLIPT_PADDING_NONE;
        st = clipt_plan_create(s->cx, j->rows, j->cols, j->elem, &o, plan);
    }
    if (st == CLIPT_SUCCESS)
        return CLI_EXIT_OK;
    snprintf(what, sizeof what, "cannot plan %zu x %zu with %zu-byte elements", j->rows,
             j->cols, j->elem);
    return cli_report(cli_cmd_transpose.name, s->cx, what, st);
}

/* Upload, transpose in place, read back into j->result. */
static int run_on_device(const cli_session *s, clipt_plan plan, job *j)
{
    cl_command_queue q = s->cl.queue;
    cl_event done = NULL;
    cl_mem buf;
    cl_int err;
    clipt_status st;
    const char *what = "clCreateBuffer of the matrix";
    double seconds = 0;
    buf = clCreateBuffer(s->cl.context, CL_MEM_READ_WRITE, clipt_plan_buffer_size(plan),
                         NULL, &err);
    if ((st = err) != CL_SUCCESS)
        goto fail;
    what = "uploading the matrix";
    if ((st = clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, j->bytes, j->data, 0, NULL,
                                   NULL)) != CL_SUCCESS)
        goto fail;
    what = "clipt_enqueue";
    if ((st = clipt_enqueue(plan, q, buf, 0, 0, NULL, &done)) != CLIPT_SUCCESS)
        goto fail;
    what = "reading the result back"; /* a kernel failure shows up here too */
    if ((st = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, j->bytes, j->result, 1, &done,
                                  NULL)) != CL_SUCCESS)
        goto fail;
    /* the time is a report, not part of the job: a profiling failure is not fatal */
    if (clipt_plan_profile(plan, &seconds, NULL, 0, NULL) == CLIPT_SUCCESS)
        j->device_ms = 1e3 * seconds;
    clReleaseEvent(done);
    clReleaseMemObject(buf);
    return CLI_EXIT_OK;
fail:
    if (done)
        clReleaseEvent(done);
    if (buf)
        clReleaseMemObject(buf);
    return cli_report(cli_cmd_transpose.name, s->cx, what, st);
}

static int transpose_on_device(job *j)
{
    cli_session s;
    clipt_plan plan = NULL;
    int status = cli_session_open(&s);
    if (status != CLI_EXIT_OK)
        return status;
    if ((status = check_device_fits(&s, j)) == CLI_EXIT_OK &&
        (status = make_plan(&s, j, &plan)) == CLI_EXIT_OK &&
        (status = read_input(j)) == CLI_EXIT_OK) {
        j->result = j->keep_input ? malloc(j->bytes) : j->data;
        if (j->result)
            status = run_on_device(&s, plan, j);
        else
            status = out_of_memory(j->bytes);
    }
    snprintf(j->device, sizeof j->device, "%s (%s)", s.cl.device_name,
             s.cl.platform_name);
    clipt_plan_release(plan);
    cli_session_close(&s);
    return status;
}

/* ---- checking and writing --------------------------------------------- */

static unsigned verify_threads(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > MAX_VERIFY_THREADS ? MAX_VERIFY_THREADS : (unsigned)n;
}

/* Compares j->result with the CPU transpose of j->data. */
static int verify(const job *j)
{
    size_t first = 0;
    const size_t count = j->rows * j->cols;
    const size_t wrong = hostmat_compare_transposed(j->result, j->data, j->rows, j->cols,
                                                    j->elem, verify_threads(), &first);
    if (wrong == 0)
        return CLI_EXIT_OK;
    /* the result is cols x rows: element index -> (row, column) in it */
    fprintf(stderr, "clipt transpose: %s: verification failed: %zu of %zu elements differ "
            "from the CPU transpose, the first at row %zu, column %zu of the result; "
            "nothing was written\n", j->in_path, wrong, count, first / j->rows,
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
    j->out_header_len = npy_format_header(&j->out_npy, j->out_header, sizeof j->out_header);
}

static int write_output(job *j)
{
    char err[NPY_ERROR_MAX];
    const char *why;
    if (j->is_npy)
        make_output_header(j);
    why = file_replace_atomic(j->out_path, j->out_header, j->out_header_len, j->result,
                              j->bytes, err, sizeof err);
    return why ? file_error(j->out_path, why) : CLI_EXIT_OK;
}

/* ---- report ----------------------------------------------------------- */

static const char *verdict(const transpose_args *a)
{
    return a->verify ? "yes (bit-exact against a CPU transpose)"
                     : "not checked (--verify compares with a CPU transpose)";
}

/* "PATH (.npy 1.0, '<f4', C order, shape (3, 4)" or "PATH (raw, 3 x 4" */
static void print_file(const char *label, const char *path, const job *j,
                       const npy_header *h, unsigned major, size_t rows, size_t cols)
{
    char shape[256];
    printf("%-12s %s (", label, path);
    if (!j->is_npy) {
        printf("raw, %zu x %zu of %zu-byte elements", rows, cols, j->elem);
        return;
    }
    npy_shape_text(h, shape, sizeof shape);
    printf(".npy %u.0, '%s', %s order, shape %s", major, h->descr,
           h->fortran_order ? "Fortran" : "C", shape);
}

static void print_report(const job *j, const transpose_args *a)
{
    const char *how = strcmp(j->out_path, j->in_path) == 0 ? "replaced" : "written";
    print_file("input:", j->in_path, j, &j->npy, j->npy.major, j->rows, j->cols);
    if (j->bytes < 1000000)
        printf(", %zu bytes of data)\n", j->bytes);
    else
        printf(", %.2f MB of data)\n", (double)j->bytes / 1e6);
    if (j->device[0])
        printf("%-12s %s\n", "device:", j->device);
    printf("%-12s %zu x %zu -> %zu x %zu row-major%s", "transposed:", j->rows, j->cols,
           j->cols, j->rows,
           j->is_npy && j->npy.fortran_order ? " (the Fortran-order data as stored)" : "");
    if (j->device[0])
        printf(", %.3f ms on the device\n", j->device_ms);
    else
        printf(": nothing to move, the array is empty\n");
    printf("%-12s %s\n", "verified:", verdict(a));
    print_file("output:", j->out_path, j, &j->out_npy, j->out_header[6], j->cols, j->rows);
    printf("), %s atomically\n", how);
}

/* ---- the subcommand --------------------------------------------------- */

static int transpose_main(int argc, char **argv)
{
    transpose_args a = {0};
    job j = {0};
    int status;
    j.fd = -1;
    if (!parse_transpose_args(argc, argv, &a, &status))
        return status;
    j.in_path = a.input;
    j.out_path = a.output ? a.output : a.input;
    j.keep_input = a.verify;
    if (a.demo && (status = write_demo(a.input)) != CLI_EXIT_OK)
        return status;
    if ((status = open_input(&j, &a)) != CLI_EXIT_OK)
        goto cleanup;
    /* an empty array needs no device: only its header changes */
    if (j.bytes == 0)
        status = read_input(&j);
    else
        status = transpose_on_device(&j);
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
    "transpose", "FILE [-o OUT] [--verify] | --rows R --cols C --elem BYTES FILE [-o OUT]",
    "transpose a .npy or raw matrix file on the device, in place or to OUT",
    transpose_description, transpose_main,
};
