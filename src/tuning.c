/* The tuning fields by name: the one list of tuning.h at work. */
#include "tuning.h"

#include <stdio.h>
#include <string.h>

static const char *const tuning_names[] = {
#define NAME(f) #f,
    CLIPT_TUNING_FIELDS(NAME)
#undef NAME
};

unsigned clipt_tuning_count(void)
{
    return (unsigned)(sizeof tuning_names / sizeof tuning_names[0]);
}

const char *clipt_tuning_name(unsigned index)
{
    return index < clipt_tuning_count() ? tuning_names[index] : NULL;
}

clipt_status clipt_tuning_get(const clipt_tuning *t, const char *name, unsigned *value)
{
    if (!name || !value)
        return CLIPT_ERROR_NULL_ARGUMENT;
#define GET_IF_NAMED(f)                                                        \
    if (strcmp(name, #f) == 0) {                                               \
        *value = t->f;                                                         \
        return CLIPT_SUCCESS;                                                  \
    }
    CLIPT_TUNING_FIELDS(GET_IF_NAMED)
#undef GET_IF_NAMED
    return CLIPT_ERROR_INVALID_OPTION;
}

void clipt_tuning_apply(clipt_tuning *t, const clipt_tuning *v)
{
#define TAKE(f) if (v->f) t->f = v->f;
    CLIPT_TUNING_FIELDS(TAKE)
#undef TAKE
}

clipt_tuning clipt_tuning_of_options(const clipt_plan_options *o)
{
    clipt_tuning t;
#define COPY(f) t.f = o->f;
    CLIPT_TUNING_FIELDS(COPY)
#undef COPY
    return t;
}

/* Appends one field at position `used` of buf; keeps counting past a short
 * buffer as snprintf does. */
static int append_field(char *buf, size_t len, int used, const char *before,
                        const char *name, unsigned value, const char *after)
{
    const size_t at = (size_t)used < len ? (size_t)used : len;
    int n;
    if (used < 0)
        return used;
    n = snprintf(at < len ? buf + at : NULL, len - at, "%s%s=%u%s", before, name, value,
                 after);
    return n < 0 ? n : used + n;
}

int clipt_tuning_format(const clipt_tuning *t, const char *before, const char *after,
                        int nonzero_only, char *buf, size_t len)
{
    int used = 0;
    if (len > 0)
        buf[0] = '\0';
#define FIELD(f)                                                               \
    if (!nonzero_only || t->f)                                                 \
        used = append_field(buf, len, used, before, #f, t->f, after);
    CLIPT_TUNING_FIELDS(FIELD)
#undef FIELD
    return used;
}
