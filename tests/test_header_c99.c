/* The public header compiles alone as C99 with -pedantic -Werror and the
 * project's warnings, included as clipt.h asks: after the application's
 * own CL_TARGET_OPENCL_VERSION (which the header neither sets nor changes;
 * without it the Khronos header prints a #pragma message on every build).
 * Nothing else is included on purpose: clipt.h must bring in what it uses.
 * Each failed check exits with its own code. */
#define CL_TARGET_OPENCL_VERSION 120
#include <clipt.h>

#if CL_TARGET_OPENCL_VERSION != 120
#error "clipt.h changed the application's CL_TARGET_OPENCL_VERSION"
#endif

static int same_text(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* "MAJOR.MINOR.PATCH" of the macros, written without <stdio.h>. */
static void version_text(char *out)
{
    const unsigned parts[3] = {CLIPT_VERSION_MAJOR, CLIPT_VERSION_MINOR,
                               CLIPT_VERSION_PATCH};
    int i;
    for (i = 0; i < 3; i++) {
        char digits[12];
        int n = 0;
        unsigned v = parts[i];
        do {
            digits[n++] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        while (n)
            *out++ = digits[--n];
        *out++ = i < 2 ? '.' : '\0';
    }
}

int main(void)
{
    char want[40];
    const char *s = clipt_status_string(CLIPT_ERROR_INVALID_SHAPE);
    const clipt_plan_options *unused_type = NULL;
    clipt_sequence seq = CLIPT_SEQUENCE_3_1;
    (void)unused_type;
    version_text(want);
    if (clipt_version_number() != CLIPT_VERSION_NUMBER)
        return 1;
    if (CLIPT_VERSION_NUMBER != CLIPT_VERSION_MAJOR * 10000 +
                                    CLIPT_VERSION_MINOR * 100 + CLIPT_VERSION_PATCH)
        return 2;
    if (!clipt_version_string() || !same_text(clipt_version_string(), want))
        return 3;
    if (!s || !*s || !clipt_status_string(12345))
        return 4;
    if (seq != 31 || CLIPT_SUCCESS != 0)
        return 5;
    return 0;
}
