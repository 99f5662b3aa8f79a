/* Device profile: queries and SIMD width. */
#include "device.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Vendor query tokens, defined here so that no other module needs them. */
#define CLIPT_CL_DEVICE_WARP_SIZE_NV 0x4003
#define CLIPT_CL_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043
#define CLIPT_CL_DEVICE_PREFERRED_WG_MULTIPLE 0x1067 /* OpenCL 3.0 */

static clipt_status query_string(cl_device_id dev, cl_device_info what,
                                 char *out, size_t len)
{
    size_t got = 0;
    cl_int err = clGetDeviceInfo(dev, what, len, out, &got);
    if (err == CL_INVALID_VALUE) {
        /* longer than our field: keep a cut copy */
        char *tmp = NULL;
        if (clGetDeviceInfo(dev, what, 0, NULL, &got) != CL_SUCCESS)
            return err;
        tmp = malloc(got);
        if (!tmp)
            return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
        err = clGetDeviceInfo(dev, what, got, tmp, NULL);
        if (err == CL_SUCCESS)
            snprintf(out, len, "%s", tmp);
        free(tmp);
    }
    out[len - 1] = '\0';
    return err;
}

static int has_extension(cl_device_id dev, const char *ext)
{
    size_t len = 0;
    char *all = NULL;
    int found = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &len) != CL_SUCCESS)
        return 0;
    all = malloc(len + 1);
    if (!all)
        return 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, len, all, NULL) == CL_SUCCESS) {
        all[len] = '\0';
        size_t n = strlen(ext);
        for (const char *at = strstr(all, ext); at; at = strstr(at + 1, ext))
            if ((at == all || at[-1] == ' ') && (at[n] == ' ' || at[n] == '\0'))
                found = 1;
    }
    free(all);
    return found;
}

/* SIMD width: the warp or wavefront when the vendor extension reports it,
 * else OpenCL 3.0's preferred work-group multiple, else a type default. */
static void query_simd_width(cl_device_id dev, clipt_device_profile *p)
{
    cl_uint width = 0;
    size_t multiple = 0;
    if (has_extension(dev, "cl_nv_device_attribute_query") &&
        clGetDeviceInfo(dev, CLIPT_CL_DEVICE_WARP_SIZE_NV, sizeof width, &width,
                        NULL) == CL_SUCCESS && width) {
        p->simd_width = width;
        p->simd_source = "CL_DEVICE_WARP_SIZE_NV";
        return;
    }
    if (has_extension(dev, "cl_amd_device_attribute_query") &&
        clGetDeviceInfo(dev, CLIPT_CL_DEVICE_WAVEFRONT_WIDTH_AMD, sizeof width,
                        &width, NULL) == CL_SUCCESS && width) {
        p->simd_width = width;
        p->simd_source = "CL_DEVICE_WAVEFRONT_WIDTH_AMD";
        return;
    }
    if (clGetDeviceInfo(dev, CLIPT_CL_DEVICE_PREFERRED_WG_MULTIPLE,
                        sizeof multiple, &multiple, NULL) == CL_SUCCESS &&
        multiple) {
        p->simd_width = (unsigned)multiple;
        p->simd_source = "CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE";
        return;
    }
    p->simd_width = (p->type & CL_DEVICE_TYPE_GPU) ? 32 : 8;
    p->simd_source = "default for the device type";
}

clipt_status clipt_device_profile_query(cl_device_id dev,
                                        clipt_device_profile *p)
{
    cl_int err;
    memset(p, 0, sizeof *p);
#define Q(what, field)                                                        \
    do {                                                                      \
        err = clGetDeviceInfo(dev, what, sizeof(p->field), &p->field, NULL);  \
        if (err != CL_SUCCESS)                                                \
            return err;                                                       \
    } while (0)
    Q(CL_DEVICE_TYPE, type);
    Q(CL_DEVICE_LOCAL_MEM_SIZE, local_mem_bytes);
    Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, max_alloc_bytes);
    Q(CL_DEVICE_GLOBAL_MEM_SIZE, global_mem_bytes);
    Q(CL_DEVICE_MAX_WORK_GROUP_SIZE, max_wg_size);
    Q(CL_DEVICE_MAX_COMPUTE_UNITS, compute_units);
#undef Q
    {
        size_t sizes[3] = {0, 0, 0};
        err = clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes,
                              sizes, NULL);
        if (err != CL_SUCCESS)
            return err;
        p->max_item_size0 = sizes[0];
    }
    {
        /* a global work size must fit the device's size_t */
        cl_uint bits = 0;
        err = clGetDeviceInfo(dev, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL);
        if (err != CL_SUCCESS)
            return err;
        p->max_global_size = bits >= 64 ? UINT64_MAX
                                         : ((cl_ulong)1 << (bits < 32 ? 32 : bits)) - 1;
    }
    if ((err = query_string(dev, CL_DEVICE_NAME, p->name, sizeof p->name)) ||
        (err = query_string(dev, CL_DEVICE_VENDOR, p->vendor, sizeof p->vendor)) ||
        (err = query_string(dev, CL_DRIVER_VERSION, p->driver, sizeof p->driver)) ||
        (err = query_string(dev, CL_DEVICE_VERSION, p->version, sizeof p->version)))
        return err;
    if (p->max_item_size0 < p->max_wg_size)
        p->max_wg_size = p->max_item_size0;
    /* clipt needs local memory for its tiles and global atomics (core since
     * OpenCL 1.1) for its flags. */
    if (p->local_mem_bytes < 4096 || p->max_wg_size < 1 || p->compute_units < 1)
        return CLIPT_ERROR_UNSUPPORTED_DEVICE;
    query_simd_width(dev, p);
    return CLIPT_SUCCESS;
}

size_t clipt_local_budget(const clipt_device_profile *p, size_t own)
{
    const size_t bytes = (size_t)p->local_mem_bytes;
    if (own == CLIPT_OWN_LOCALS_UNKNOWN)
        return bytes > 1024 ? bytes - 1024 : bytes / 2;
    return bytes > own ? bytes - own : 0;
}

int clipt_device_profile_format(const clipt_device_profile *p, char *buf,
                                size_t len)
{
    size_t at;
    int n, used = snprintf(
        buf, len,
        "device: %s\n"
        "vendor: %s\n"
        "version: %s (driver %s)\n"
        "type: %s\n"
        "compute units: %u\n"
        "local memory: %llu bytes\n"
        "max allocation: %llu bytes\n"
        "max work-group size: %zu\n"
        "SIMD width: %u (%s)\n"
        "tuning entry: %s\n"
        "tuning:",
        p->name, p->vendor, p->version, p->driver,
        (p->type & CL_DEVICE_TYPE_GPU)   ? "GPU"
        : (p->type & CL_DEVICE_TYPE_CPU) ? "CPU"
                                         : "other",
        p->compute_units, (unsigned long long)p->local_mem_bytes,
        (unsigned long long)p->max_alloc_bytes, p->max_wg_size, p->simd_width,
        p->simd_source, p->tuning_entry);
    if (used < 0)
        return used;
    /* " name=value" per field, in the list's order, then the newline */
    at = (size_t)used < len ? (size_t)used : len;
    n = clipt_tuning_format(&p->tuning, " ", "", 0, buf + at, len - at);
    if (n < 0)
        return n;
    used += n;
    at = (size_t)used < len ? (size_t)used : len;
    n = snprintf(buf + at, len - at, "\n");
    return n < 0 ? n : used + n;
}
