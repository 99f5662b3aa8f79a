/* The last failure's detail (see detail.h). */
#include "detail.h"
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

clipt_status clipt_detail_init(clipt_detail *d)
{
    d->text = NULL;
    return pthread_mutex_init(&d->lock, NULL) ? CLIPT_ERROR_OUT_OF_HOST_MEMORY
                                              : CLIPT_SUCCESS;
}

void clipt_detail_destroy(clipt_detail *d)
{
    pthread_mutex_destroy(&d->lock);
    free(d->text);
    d->text = NULL;
}

void clipt_detail_set(clipt_detail *d, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *text;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    text = malloc((size_t)n + 1);
    if (!text)
        return;
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&d->lock);
    free(d->text);
    d->text = text;
    pthread_mutex_unlock(&d->lock);
}

clipt_status clipt_detail_copy(clipt_detail *d, char *buf, size_t len)
{
    clipt_status status;
    pthread_mutex_lock(&d->lock);
    status = clipt_copy_text(d->text ? d->text : "", buf, len);
    pthread_mutex_unlock(&d->lock);
    return status;
}
