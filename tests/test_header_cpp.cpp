// The public header compiles as C++ (-pedantic -Werror) after the
// application's own CL_TARGET_OPENCL_VERSION, which it leaves as it is, and
// its functions link with C linkage.
#define CL_TARGET_OPENCL_VERSION 120
#include <clipt.h>

#if CL_TARGET_OPENCL_VERSION != 120
#error "clipt.h changed the application's CL_TARGET_OPENCL_VERSION"
#endif

#include <cstdio>
#include <cstring>
#include <string>

static int check(bool ok, const char *what)
{
    if (!ok)
        std::fprintf(stderr, "FAILED: %s\n", what);
    return ok ? 0 : 1;
}

int main()
{
    const std::string want = std::to_string(CLIPT_VERSION_MAJOR) + "." +
                             std::to_string(CLIPT_VERSION_MINOR) + "." +
                             std::to_string(CLIPT_VERSION_PATCH);
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    int bad = 0;
    bad += check(clipt_version_number() == CLIPT_VERSION_NUMBER,
                 "clipt_version_number() == CLIPT_VERSION_NUMBER");
    bad += check(want == clipt_version_string(), "clipt_version_string()");
    bad += check(clipt_status_string(CLIPT_ERROR_TRUNCATED) != nullptr &&
                     std::strstr(clipt_status_string(CLIPT_ERROR_TRUNCATED),
                                 "CLIPT_ERROR_TRUNCATED") != nullptr,
                 "clipt_status_string(CLIPT_ERROR_TRUNCATED)");
    bad += check(o.sequence == CLIPT_SEQUENCE_AUTO && o.tile_m == 0,
                 "clipt_plan_options_init");
    bad += check(clipt_plan_buffer_size(nullptr) == 0, "clipt_plan_buffer_size(NULL)");
    return bad;
}
