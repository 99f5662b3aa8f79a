/* The detail of a context's last failure (clipt_context_error_detail): a
 * text any module that fails for a context may record. */
#ifndef CLIPT_DETAIL_H
#define CLIPT_DETAIL_H

#include "clipt.h"

#include <pthread.h>

typedef struct clipt_detail {
    pthread_mutex_t lock; /* guards text */
    char *text;           /* the last failure's detail, or NULL */
} clipt_detail;

/* CLIPT_ERROR_OUT_OF_HOST_MEMORY when the lock cannot be made. */
clipt_status clipt_detail_init(clipt_detail *d);
void clipt_detail_destroy(clipt_detail *d);

/* Replaces the text with the formatted one (kept as it was when out of
 * memory).  Thread-safe. */
void clipt_detail_set(clipt_detail *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Copies the text ("" when none) with the library's truncation rule.
 * Thread-safe. */
clipt_status clipt_detail_copy(clipt_detail *d, char *buf, size_t len);

#endif
