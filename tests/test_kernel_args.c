/* Every kernel family's host-side declarations against its kernel file:
 * the argument list each family declares once (and sets its arguments
 * from) must match the kernel's signature as the compiler reports it
 * (-cl-kernel-arg-info), every kernel of the file must be declared, and
 * every kernel must build, link and run at -cl-opt-disable, where the
 * compiler inlines nothing. */
#include "support.h"
#include "internal.h"
#include "stages.h"

#include <stdio.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static cl_kernel_arg_address_qualifier address_of(clipt_arg_kind kind)
{
    switch (kind) {
    case CLIPT_ARG_GLOBAL: return CL_KERNEL_ARG_ADDRESS_GLOBAL;
    case CLIPT_ARG_LOCAL: return CL_KERNEL_ARG_ADDRESS_LOCAL;
    default: return CL_KERNEL_ARG_ADDRESS_PRIVATE;
    }
}

static void arg_text(cl_kernel k, cl_uint index, cl_kernel_arg_info what, char *out,
                     size_t len)
{
    assert_status(clGetKernelArgInfo(k, index, what, len, out, NULL), CL_SUCCESS);
}

static void check_kernel(clipt_context c, const clipt_family *f, const clipt_kernel_decl *d)
{
    cl_kernel k = NULL;
    cl_uint count = 0;
    assert_status(clipt_loader_kernel(c, f->file, "-cl-kernel-arg-info", d->name, &k),
                  CLIPT_SUCCESS);
    assert_status(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof count, &count, NULL),
                  CL_SUCCESS);
    if (count != d->num_args)
        fail_msg("%s %s: %u arguments, the host declares %u", f->file, d->name, count,
                 d->num_args);
    for (cl_uint i = 0; i < count; i++) {
        const clipt_arg_decl *a = &d->args[i];
        char name[128], type[128];
        cl_kernel_arg_address_qualifier address = 0;
        arg_text(k, i, CL_KERNEL_ARG_NAME, name, sizeof name);
        arg_text(k, i, CL_KERNEL_ARG_TYPE_NAME, type, sizeof type);
        assert_status(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                         sizeof address, &address, NULL),
                      CL_SUCCESS);
        if (strcmp(name, a->name) != 0 || strcmp(type, a->type) != 0 ||
            address != address_of(a->kind))
            fail_msg("%s %s argument %u: the kernel has %s %s (address 0x%x), the host "
                     "declares %s %s (address 0x%x)",
                     f->file, d->name, i, type, name, (unsigned)address, a->type, a->name,
                     (unsigned)address_of(a->kind));
    }
    clReleaseKernel(k);
}

/* The kernel names of k's program, ';'-separated. */
static void program_kernels(cl_kernel k, char *out, size_t len)
{
    cl_program program = NULL;
    assert_status(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof program, &program, NULL),
                  CL_SUCCESS);
    assert_status(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, len, out, NULL),
                  CL_SUCCESS);
}

/* Every kernel of the family's file is one the family declares. */
static void check_all_declared(clipt_context c, const clipt_family *f)
{
    char names[1024];
    cl_kernel k = NULL;
    assert_true(f->num_kernels >= 1);
    assert_status(clipt_loader_kernel(c, f->file, "", f->kernels[0].name, &k), CLIPT_SUCCESS);
    program_kernels(k, names, sizeof names);
    clReleaseKernel(k);
    for (char *name = strtok(names, ";"); name; name = strtok(NULL, ";")) {
        unsigned found = 0;
        for (unsigned i = 0; i < f->num_kernels; i++)
            found += strcmp(f->kernels[i].name, name) == 0;
        if (found != 1)
            fail_msg("%s: kernel %s is declared %u times by its family", f->file, name, found);
    }
}

static void test_signatures(void **state)
{
    test_env *env = TEST_ENV(state);
    unsigned checked = 0;
    for (unsigned i = 0; i < clipt_num_families; i++) {
        const clipt_family *f = clipt_families[i];
        check_all_declared(env->ctx, f);
        for (unsigned j = 0; j < f->num_kernels; j++, checked++)
            check_kernel(env->ctx, f, &f->kernels[j]);
        /* no two families share a file or an id */
        for (unsigned j = 0; j < i; j++)
            assert_true(strcmp(clipt_families[j]->file, f->file) != 0 &&
                        clipt_families[j]->id != f->id);
    }
    assert_int_equal(clipt_num_families, 7);
    assert_int_equal(checked, 25); /* 20 GPU kernels (cut_segments serves both), 5 CPU ones */
}

/* Build options that switch code paths on, per kernel file. */
static const struct {
    const char *file;
    const char *options[4];
} variants[] = {
    {"transpose010.cl", {"-DELEM_TYPE=uchar", "-DELEM_TYPE=uint4 -DBLOCK=3", "-DSPLIT=1", NULL}},
    {"pttwac010.cl", {"-DSPREAD=32 -DFLAG_PAD=3", "-DELEM_TYPE=ulong", "-DSPLIT=1", NULL}},
    {"shift100.cl", {"-DTRANSPOSE_SUPER=1 -DELEM_TYPE=ushort", "-DWORKER_SIZE=1",
                     "-DSPLIT=1 -DTRANSPOSE_SUPER=1", NULL}},
    {"shift100_slices.cl", {"-DELEM_TYPE=uint4 -DELEM_WORDS=4 -DQ=3", "-DQ=16", "-DSPLIT=1 -DQ=2", NULL}},
    {"shift100_segments.cl", {"-DSMALL_INDEX=1 -DQ=2", "-DELEM_TYPE=uint4 -DUNROLL=1",
                              "-DSPLIT=1 -DSMALL_INDEX=1", NULL}},
    {"pad.cl", {"-DSMALL_INDEX=1 -DREGS=2", "-DELEM_TYPE=uchar", "-DSPLIT=1", NULL}},
    {"c2r.cl", {"-DELEM_TYPE=uint4 -DC2R_BATCH=4", "-DELEM_TYPE=ushort -DC2R_WALK=32",
                "-DC2R_BATCH=1 -DC2R_WALK=1 -DC2R_INVERSE=1", NULL}},
};

/* Runs kernel k (of declaration d) once as a single work-item on a region
 * of one element: every count 1, every buffer 4 KiB of zeros (flags and
 * counters clear, segment lengths 0), every __local array 256 bytes.
 * Runtimes that compile kernels at their first launch (PoCL) only link
 * them then. */
static clipt_status launch_once(test_env *env, cl_kernel k, const clipt_kernel_decl *d)
{
    static const unsigned char zeros[4096];
    const cl_ulong one_ulong = 1;
    const cl_uint one_uint = 1;
    const cl_uint4 divisor = {{0, 0, 0, 1}};
    const size_t one = 1;
    cl_mem mems[20] = {NULL};
    clipt_status s = CL_SUCCESS;
    assert_true(d->num_args <= COUNT(mems));
    for (cl_uint i = 0; i < d->num_args && s == CL_SUCCESS; i++)
        switch (d->args[i].kind) {
        case CLIPT_ARG_ULONG: s = clSetKernelArg(k, i, sizeof one_ulong, &one_ulong); break;
        case CLIPT_ARG_UINT: s = clSetKernelArg(k, i, sizeof one_uint, &one_uint); break;
        case CLIPT_ARG_UINT4: s = clSetKernelArg(k, i, sizeof divisor, &divisor); break;
        case CLIPT_ARG_LOCAL: s = clSetKernelArg(k, i, 256, NULL); break;
        case CLIPT_ARG_GLOBAL:
            mems[i] = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                     sizeof zeros, (void *)(uintptr_t)zeros, &s);
            if (s == CL_SUCCESS)
                s = clSetKernelArg(k, i, sizeof mems[i], &mems[i]);
            break;
        }
    if (s == CL_SUCCESS)
        s = clEnqueueNDRangeKernel(env->cl.queue, k, 1, NULL, &one, &one, 0, NULL, NULL);
    if (s == CL_SUCCESS)
        s = clFinish(env->cl.queue);
    for (size_t i = 0; i < COUNT(mems); i++)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    return s;
}

/* Every kernel builds, links and runs without optimisation.  (Helpers must
 * be `static inline`: a plain C99 `inline` function has no definition to
 * call when it is not inlined.  PoCL builds with -Dinline=, so that shows
 * only elsewhere: kernels_alone.cmake checks it with clang.) */
static void test_opt_disable(void **state)
{
    test_env *env = TEST_ENV(state);
    for (unsigned i = 0; i < clipt_num_families; i++) {
        const clipt_family *f = clipt_families[i];
        size_t v = 0;
        while (v < COUNT(variants) && strcmp(variants[v].file, f->file) != 0)
            v++;
        if (v == COUNT(variants))
            fail_msg("%s has no build variants in this test: add them", f->file);
        for (const char *const *opt = variants[v].options; *opt; opt++)
            for (unsigned j = 0; j < f->num_kernels; j++) {
                char options[256], detail[8192] = "";
                cl_kernel k = NULL;
                clipt_status s;
                snprintf(options, sizeof options, "-cl-opt-disable %s", *opt);
                s = clipt_loader_kernel(env->ctx, f->file, options, f->kernels[j].name, &k);
                if (s == CLIPT_SUCCESS)
                    s = launch_once(env, k, &f->kernels[j]);
                else
                    clipt_context_error_detail(env->ctx, detail, sizeof detail);
                if (s != CLIPT_SUCCESS)
                    fail_msg("%s %s with \"%s\": %s\n%s", f->file, f->kernels[j].name,
                             options, clipt_status_string(s), detail);
                clReleaseKernel(k);
            }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signatures),
        cmocka_unit_test(test_opt_disable),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
