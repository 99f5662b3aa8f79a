/* The column shuffle of C2R (and R2C's unshuffle) split in a reflection
 * of the columns and a walk of the rows along cycles (cl/c2r_columns.h):
 * the host's part of stage_c2r.c's variant COLUMNS_SPLIT, its state in
 * st->f.c2r (stages.h). */
#ifndef CLIPT_STAGE_C2R_SPLIT_H
#define CLIPT_STAGE_C2R_SPLIT_H

#include "stage_kernel.h"

/* Rows of a walk segment for elem-byte elements under tuning t (the
 * kernels' C2R_WALK). */
unsigned clipt_c2r_walk_rows(const clipt_tuning *t, size_t elem);

/* 1 where the walk shares its row offsets through local memory
 * (C2R_WALK_SHARED) under tuning t, else 0. */
unsigned clipt_c2r_walk_shared(const clipt_tuning *t);

/* Rows of each window a work-item of the reflection loads at a time for
 * elem-byte elements (C2R_REFLECT_BATCH), given the C2R passes' batch. */
unsigned clipt_c2r_reflect_batch(size_t elem, unsigned batch);

/* Columns of a strip each work-item of the reflection takes for elem-byte
 * elements (C2R_REFLECT_COLS). */
unsigned clipt_c2r_reflect_cols(size_t elem);

/* 128-byte lines of a reflected strip for elem-byte elements
 * (C2R_STRIP_LINES). */
unsigned clipt_c2r_strip_lines(size_t elem);

/* Where the reflection takes its row offsets by addition
 * (C2R_ROW_CURSOR: 1 in the windows' loads, 2 in the write-back, 3 both,
 * 0 nowhere) for elem-byte elements under tuning t. */
unsigned clipt_c2r_row_cursor(const clipt_tuning *t, size_t elem);

/* Builds st's three kernels (st->kernel saves the segments' heads) with
 * st->options, the walk's table (written at the plan's first run) and the
 * launches, for a column shuffle or unshuffle spec; the saved heads at
 * most scratch_cap bytes.  CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS when local
 * memory holds fewer of a strip's pairs than half its columns, the
 * work-group is narrower than a strip's lanes, or the heads exceed the
 * cap (st then as before the call); kernel-loading and host-memory
 * errors. */
clipt_status clipt_c2r_split_prepare(clipt_context c, size_t elem, const clipt_tuning *t,
                                     size_t scratch_cap, clipt_stage *st);

/* The three launches, each after the one before (the family's enqueue). */
clipt_status clipt_c2r_split_enqueue(const clipt_stage *st, cl_command_queue q,
                                     cl_uint num_wait, const cl_event *wait, cl_event *first,
                                     cl_event *done);

/* The family's upload and release (nothing to do for the other variants). */
clipt_status clipt_c2r_split_upload(clipt_stage *st, cl_command_queue q);
void clipt_c2r_split_release(clipt_stage *st);

/* What describe adds for the split form. */
int clipt_c2r_split_describe(const clipt_stage *st, char *buf, size_t len);

#endif
