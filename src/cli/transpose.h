/* clipt transpose, shared by its two files: cmd_transpose.c (options,
 * files, checks, report) and transpose_device.c (the device's part, the
 * input's read and the file errors); cmd_transpose.c uses
 * transpose_device.c, never the other way round (module_loops_tool). */
#ifndef CLIPT_CLI_TRANSPOSE_H
#define CLIPT_CLI_TRANSPOSE_H

#include "cli.h"
#include "npy.h"
#include "npy_file.h"
#include "progress.h"

#include <stdio.h>

/* One transposition: where the matrix comes from and goes to, and the
 * row-major rows x cols matrix of elem-byte elements the device moves. */
typedef struct job {
    const char *in_path, *out_path; /* "-": standard input / output     */
    const char *in_name, *out_name; /* for messages: "stdin", "stdout"  */
    int in_stdin, out_stdout;
    char out_in_dir[PATH_MAX]; /* -o DIR: DIR/name of the input          */
    file_target out;         /* where out_path's bytes go               */
    int fd;
    size_t file_size;
    struct stat in_st;       /* the input file's, to tell "replaced"      */
    int is_npy;
    npy_header npy;          /* the input's header, when is_npy          */
    size_t offset;           /* where the data starts in the input       */
    size_t rows, cols, elem, bytes;
    /* what the device does: the row-major array (dims) and the axis
     * permutation (2-D: (rows, cols) and (1, 0)) */
    unsigned ndim;
    size_t dims[CLIPT_MAX_DIMS];
    unsigned perm[CLIPT_MAX_DIMS];
    int axes;                /* --axes given: a permutation, not .T       */
    unsigned out_axes[CLIPT_MAX_DIMS]; /* --axes as given (the .npy's axes) */
    unsigned char *data;     /* the input's data                         */
    unsigned char *result;   /* the transpose: data itself unless --verify */
    int keep_input;          /* --verify: the result gets its own buffer */
    double device_ms;
    char device[600];        /* "name (platform)" once a device ran      */
    npy_header out_npy;      /* the output's header, when is_npy         */
    unsigned char out_header[NPY_HEADER_MAX];
    size_t out_header_len;
    FILE *report;            /* stdout, or stderr when the data goes there */
    cli_progress progress;
} job;

/* "clipt transpose: PATH: why" on one line; returns CLI_EXIT_FILE. */
int transpose_file_error(job *j, const char *path, const char *why);

/* Reads the input's data into j->data (a step of its own unless the data
 * came from stdin, which was read when it was opened). */
int transpose_read_input(job *j);

/* Opens the device, plans, reads the input (transpose_read_input), then
 * uploads, transposes and downloads into j->result. */
int transpose_on_device(job *j);

#endif
