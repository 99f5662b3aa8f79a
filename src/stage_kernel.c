/* Host-side helpers of the kernel families (see stage_kernel.h). */
#include "stage_kernel.h"

#include <stdio.h>
#include <stdlib.h>

const char *clipt_elem_type_name(size_t elem_size)
{
    switch (elem_size) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    case 8: return "ulong";
    case 16: return "uint4";
    default: return NULL;
    }
}

void clipt_divisor_magic(uint64_t d, cl_uint *magic, cl_uint *sh1, cl_uint *sh2)
{
    unsigned l = 0;
    while (l < 32 && ((uint64_t)1 << l) < d)
        l++;
    *magic = (cl_uint)((((uint64_t)1 << 32) * (((uint64_t)1 << l) - d)) / d + 1);
    *sh1 = l < 1 ? l : 1;
    *sh2 = l > 0 ? l - 1 : 0;
}

cl_uint4 clipt_divisor_vector(uint64_t d)
{
    cl_uint4 v;
    clipt_divisor_magic(d, &v.s[0], &v.s[1], &v.s[2]);
    v.s[3] = (cl_uint)d;
    return v;
}

int clipt_small_index(clipt_context c, uint64_t count)
{
    return count < c->wide_index_from;
}

clipt_status clipt_make_kernel(clipt_context c, const clipt_stage *st, const char *name,
                               cl_kernel *out, size_t *wg_limit, size_t *own_local)
{
    char options[sizeof st->options + 16];
    clipt_kernel_info info = {0, 0};
    clipt_status status;
    /* a split region (room-less padding) is the one option every family
     * shares: added here rather than by each */
    snprintf(options, sizeof options, "%s%s", st->options, st->spec.split ? " -DSPLIT=1" : "");
    status = clipt_loader_kernel_info(c, st->family->file, options, name, out, &info);
    *wg_limit = info.wg_limit;
    *own_local = info.own_local;
    return status;
}

size_t clipt_groups_cap(clipt_context c, unsigned per_cu, unsigned total)
{
    if (total)
        return total;
    return (size_t)c->profile.compute_units * per_cu;
}

void clipt_set_launch(clipt_stage *st, size_t local, uint64_t work, uint64_t per_group,
                      size_t cap)
{
    const uint64_t needed = (work + per_group - 1) / per_group;
    const size_t groups = (size_t)(needed < cap ? needed : cap);
    st->local = local;
    st->global = (groups ? groups : 1) * local;
}

cl_int clipt_set_arg(cl_kernel k, cl_uint index, clipt_arg_kind kind, size_t size,
                     const void *value)
{
    if (kind == CLIPT_ARG_LOCAL)
        return clSetKernelArg(k, index, *(const size_t *)value, NULL);
    return clSetKernelArg(k, index, size, value);
}

static void CL_CALLBACK free_host(cl_event e, cl_int state, void *host)
{
    (void)e;
    (void)state;
    free(host);
}

void clipt_free_after_write(void *host, cl_event writing)
{
    cl_int state = CL_COMPLETE;
    if (!host)
        return;
    if (writing)
        clGetEventInfo(writing, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL);
    if (state > CL_COMPLETE) {
        if (clSetEventCallback(writing, CL_COMPLETE, free_host, host) == CL_SUCCESS)
            return;
        clWaitForEvents(1, &writing);
    }
    free(host);
}
