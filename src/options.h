/* Plan options: their checks, and the tuning they make with a device's
 * entry.  (clipt_plan_options_init and _set_tuning are public.) */
#ifndef CLIPT_OPTIONS_H
#define CLIPT_OPTIONS_H

#include "device.h"

/* Checks a rows x cols matrix of elem_size-byte elements and writes its
 * bytes.  Errors: CLIPT_ERROR_INVALID_ELEM_SIZE, CLIPT_ERROR_INVALID_SHAPE,
 * CLIPT_ERROR_SHAPE_OVERFLOW. */
clipt_status clipt_check_shape(size_t rows, size_t cols, size_t elem_size, size_t *bytes);

/* CLIPT_ERROR_INVALID_OPTION unless every option is in its range for the
 * device. */
clipt_status clipt_check_options(const clipt_plan_options *o,
                                 const clipt_device_profile *profile);

/* The tuning a plan runs with: the device's entry with the options'
 * overrides. */
clipt_tuning clipt_options_tuning(const clipt_plan_options *o, const clipt_tuning *device);

#endif
