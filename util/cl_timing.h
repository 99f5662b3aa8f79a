/* Device time of an OpenCL command, from event profiling. */
#ifndef CLIPT_UTIL_CL_TIMING_H
#define CLIPT_UTIL_CL_TIMING_H

#include "cl_select.h"

/* Seconds from a completed command's start to its end, into *seconds.  The
 * command's queue must have profiling enabled.  Returns the status of the
 * profiling queries (*seconds is unchanged unless CL_SUCCESS). */
cl_int util_event_seconds(cl_event e, double *seconds);

/* The device's copy speed for `bytes`: `repeat` (>= 1) clEnqueueCopyBuffer
 * from src to dst on q, each waited for, their device seconds into
 * times[0..repeat-1], and the median into *median.  Returns the first
 * failing call's status (CL_SUCCESS when all ran). */
cl_int util_copy_seconds(cl_command_queue q, cl_mem src, cl_mem dst, size_t bytes,
                         size_t repeat, double *times, double *median);

#endif
