/* clipt info: every OpenCL platform and device, with the profile clipt
 * derives for each (clipt_context_describe), and which one the other
 * subcommands would pick. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_IDS 64

static const char info_description[] =
    "Lists every OpenCL platform and device.  For each device, creates a\n"
    "clipt context and prints the profile clipt derives from it (local\n"
    "memory, SIMD width, work-group limits, tuning entry and its values, with\n"
    "a legend of the tuning names).  Marks the device that CLIPT_PLATFORM /\n"
    "CLIPT_DEVICE select (default: first GPU, else the first device).\n"
    "Exit status: 0 when every device was profiled, 3 when\n"
    "there is no platform or a device could not be profiled.";

/* Prints each line of text with an indent, so that a device's profile
 * stands out under its heading. */
static void print_indented(const char *text, const char *indent)
{
    while (*text) {
        const size_t n = strcspn(text, "\n");
        printf("%s%.*s\n", indent, (int)n, text);
        text += n;
        if (*text == '\n')
            text++;
    }
}

/* Creates a throw-away context on one device and prints clipt's profile. */
static int describe_device(cl_device_id dev)
{
    static char text[8192];
    cl_context ctx;
    clipt_context cx = NULL;
    clipt_status st;
    const char *what = "clipt_context_create";
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return cli_report(cli_cmd_info.name, NULL, "clCreateContext", err);
    st = clipt_context_create(ctx, dev, &cx);
    if (st == CLIPT_SUCCESS) {
        what = "clipt_context_describe";
        st = clipt_context_describe(cx, text, sizeof text);
        if (st == CLIPT_SUCCESS || st == CLIPT_ERROR_TRUNCATED) {
            print_indented(text, "    ");
            st = CLIPT_SUCCESS;
        }
    }
    clipt_context_release(cx);
    clReleaseContext(ctx);
    if (st != CLIPT_SUCCESS)
        return cli_report(cli_cmd_info.name, NULL, what, st);
    return CLI_EXIT_OK;
}

static void platform_text(cl_platform_id p, cl_platform_info what, char *out, size_t len)
{
    if (clGetPlatformInfo(p, what, len, out, NULL) != CL_SUCCESS)
        snprintf(out, len, "?");
    out[len - 1] = '\0';
}

/* Lists the devices of one platform; returns CLI_EXIT_FAILURE if one of
 * them could not be profiled (the others are still listed). */
static int list_platform(cl_uint index, cl_platform_id p, const clipt_cl_env *chosen)
{
    char name[256], version[256];
    cl_device_id devices[MAX_IDS];
    cl_uint nd = 0;
    cl_int err;
    int status = CLI_EXIT_OK;
    platform_text(p, CL_PLATFORM_NAME, name, sizeof name);
    platform_text(p, CL_PLATFORM_VERSION, version, sizeof version);
    printf("platform %u: %s (%s)\n", index, name, version);
    err = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, MAX_IDS, devices, &nd);
    if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && nd == 0)) {
        printf("  no devices\n");
        return CLI_EXIT_OK;
    }
    if (err != CL_SUCCESS)
        return cli_report(cli_cmd_info.name, NULL, "clGetDeviceIDs", err);
    for (cl_uint d = 0; d < nd && d < MAX_IDS; d++) {
        char dname[256];
        if (clGetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof dname, dname, NULL) !=
            CL_SUCCESS)
            snprintf(dname, sizeof dname, "?");
        dname[sizeof dname - 1] = '\0';
        printf("  device %u: %s%s\n", d, dname,
               devices[d] == chosen->device ? "  [selected]" : "");
        if (describe_device(devices[d]) != CLI_EXIT_OK)
            status = CLI_EXIT_FAILURE;
    }
    return status;
}

/* The tuning names are the public option names, which keep the papers'
 * stage names: this says in plain words which step each one tunes. */
static void print_tuning_legend(void)
{
    printf("tuning names, by the step they tune (the papers' names in parentheses):\n"
           "  *_010, tile_elems_010      tile transpose in local memory (010!)\n"
           "  pttwac_spread, pttwac_pad  tile transpose along cycles, flags in local\n"
           "                             memory (PTTWAC): flag spreading and padding\n"
           "  *_100, walk_*              moving blocks of elements along cycles (100!)\n"
           "  min_super, skinny_super    smallest tile factor; largest block moved by\n"
           "                             the two-pass sequences 2.1/2.2 (super-element)\n"
           "  align_bytes                tile factors preferred as multiples of this\n"
           "                             many bytes\n"
           "  kernel_style               1: work-groups sharing local memory (GPUs);\n"
           "                             2: one work-item per group running loops\n"
           "                             (CPUs: tiles, block moves, padding)\n"
           "  wide_bytes                 block moves and padding: widest word their\n"
           "                             whole units are moved in (1 = the element)\n"
           "  c2r_column_bytes           the automatic plan's C2R decomposition (no\n"
           "                             tiles) for coprime sides whose columns have at\n"
           "                             most this many bytes, else R2C if the rows\n"
           "                             have (1 = never)\n");
}

static const char *env_or_unset(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : "(unset)";
}

static int info_main(int argc, char **argv)
{
    cl_platform_id platforms[MAX_IDS];
    cl_uint np = 0;
    clipt_cl_env chosen;
    char why[512] = "";
    int status;
    if (!cli_parse_options(&cli_cmd_info, NULL, 0, argc, argv, NULL, 0, NULL, &status))
        return status;
    if (clGetPlatformIDs(MAX_IDS, platforms, &np) != CL_SUCCESS || np == 0) {
        fprintf(stderr, "clipt info: no OpenCL platform found (is an ICD such as "
                        "pocl-opencl-icd installed?)\n");
        return CLI_EXIT_FAILURE;
    }
    printf("clipt %s\n", clipt_version_string());
    /* a failed selection only loses the [selected] mark */
    if (clipt_cl_select(&chosen, why, sizeof why) != CLIPT_SUCCESS)
        memset(&chosen, 0, sizeof chosen);
    status = CLI_EXIT_OK;
    for (cl_uint p = 0; p < np && p < MAX_IDS; p++)
        if (list_platform(p, platforms[p], &chosen) != CLI_EXIT_OK)
            status = CLI_EXIT_FAILURE;
    print_tuning_legend();
    printf("selection: CLIPT_PLATFORM=%s CLIPT_DEVICE=%s -> %s\n",
           env_or_unset("CLIPT_PLATFORM"), env_or_unset("CLIPT_DEVICE"),
           chosen.device ? chosen.device_name : why);
    return status;
}

const cli_command cli_cmd_info = {
    "info", "",
    "list OpenCL platforms and devices with the profile clipt derives",
    info_description, info_main,
};
