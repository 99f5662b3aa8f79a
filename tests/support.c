#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_env_open(test_env *env)
{
    char why[512];
    clipt_status s = clipt_cl_env_open(&env->cl, why, sizeof why);
    if (s != CLIPT_SUCCESS) {
        fprintf(stderr, "no OpenCL device: %s\n", why);
        exit(1);
    }
    s = clipt_context_create(env->cl.context, env->cl.device, &env->ctx);
    if (s != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_context_create: %s\n", clipt_status_string(s));
        exit(1);
    }
}

void test_env_close(test_env *env)
{
    clipt_context_release(env->ctx);
    clipt_cl_env_close(&env->cl);
}

uint64_t test_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void test_fill_pattern(unsigned char *data, size_t count, size_t elem, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < count; i++) {
        /* the index in the low bytes keeps elements distinct; random bytes
         * above it catch byte-order mistakes inside wide elements */
        uint64_t r = test_rand(&state);
        for (size_t b = 0; b < elem; b++) {
            unsigned char v;
            if (b < 8 && b < elem)
                v = (unsigned char)(((uint64_t)i >> (8 * b)) ^ (b >= 4 ? r >> (8 * b) : 0));
            else
                v = (unsigned char)(r >> (8 * (b % 8)));
            data[i * elem + b] = v;
        }
        if (elem == 1)
            data[i] = (unsigned char)(i * 131u + (r & 0xff));
    }
}

void test_reference_transpose(const unsigned char *in, unsigned char *out,
                              size_t rows, size_t cols, size_t elem)
{
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            memcpy(out + (j * rows + i) * elem, in + (i * cols + j) * elem, elem);
}

clipt_status test_run_transpose(test_env *env, size_t rows, size_t cols,
                                size_t elem, size_t offset,
                                const clipt_plan_options *opts,
                                size_t *mismatch, char *describe, size_t dlen)
{
    clipt_plan plan = NULL;
    cl_mem buf = NULL;
    cl_event done = NULL;
    unsigned char *host = NULL, *expect = NULL;
    size_t bytes = rows * cols * elem, total;
    clipt_status s;
    cl_int err;
    *mismatch = (size_t)-1;
    s = clipt_plan_create(env->ctx, rows, cols, elem, opts, &plan);
    if (s != CLIPT_SUCCESS)
        return s;
    if (describe)
        clipt_plan_describe(plan, describe, dlen);
    total = offset + clipt_plan_buffer_size(plan) + 64;
    host = malloc(total);
    expect = malloc(total);
    if (!host || !expect) {
        s = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
        goto done;
    }
    test_fill_pattern(host, total / elem, elem, rows * 1315423911u + cols);
    memcpy(expect, host, total);
    test_reference_transpose(host + offset, expect + offset, rows, cols, elem);
    buf = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                         total, host, &err);
    if (err != CL_SUCCESS) {
        s = err;
        goto done;
    }
    s = clipt_enqueue(plan, env->cl.queue, buf, offset, 0, NULL, &done);
    if (s != CLIPT_SUCCESS)
        goto done;
    s = clWaitForEvents(1, &done);
    if (s != CL_SUCCESS)
        goto done;
    s = clEnqueueReadBuffer(env->cl.queue, buf, CL_TRUE, 0, total, host, 0, NULL, NULL);
    if (s != CL_SUCCESS)
        goto done;
    *mismatch = 0;
    /* the transpose region must match; bytes before the offset must be
     * untouched; the padding room and beyond may hold anything */
    for (size_t i = 0; i < offset + bytes; i++)
        if (host[i] != expect[i])
            (*mismatch)++;
done:
    if (done)
        clReleaseEvent(done);
    if (buf)
        clReleaseMemObject(buf);
    free(host);
    free(expect);
    clipt_plan_release(plan);
    return s;
}

void test_reference_stage(const clipt_stage_spec *sp, const unsigned char *in,
                          unsigned char *out, size_t elem)
{
    const size_t a = (size_t)sp->a, b = (size_t)sp->b, s = (size_t)sp->s;
    const int inner = sp->kind == CLIPT_STAGE_SHIFT100 && sp->sa > 1 && sp->sb > 1;
    const size_t sa = (size_t)sp->sa, sb = (size_t)sp->sb;
    for (size_t t = 0; t < sp->instances; t++)
        for (size_t i = 0; i < a; i++)
            for (size_t j = 0; j < b; j++) {
                const unsigned char *src = in + ((t * a + i) * b + j) * s * elem;
                unsigned char *dst = out + ((t * b + j) * a + i) * s * elem;
                if (!inner) {
                    memcpy(dst, src, s * elem);
                    continue;
                }
                for (size_t x = 0; x < sa; x++)
                    for (size_t y = 0; y < sb; y++)
                        memcpy(dst + (y * sa + x) * elem, src + (x * sb + y) * elem, elem);
            }
}

clipt_status test_run_stage(test_env *env, const clipt_stage_spec *sp,
                            size_t elem, size_t offset, const clipt_tuning *tuning,
                            size_t *mismatch)
{
    clipt_stage st;
    cl_mem buf = NULL, scratch = NULL;
    cl_event done = NULL;
    size_t count = (size_t)(sp->instances * sp->a * sp->b * sp->s);
    size_t total = (offset + count + 16) * elem;
    unsigned char *host = malloc(total), *expect = malloc(total);
    clipt_status s;
    cl_int err;
    *mismatch = (size_t)-1;
    memset(&st, 0, sizeof st);
    if (!host || !expect) {
        free(host);
        free(expect);
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    }
    test_fill_pattern(host, total / elem, elem, count);
    memcpy(expect, host, total);
    test_reference_stage(sp, host + offset * elem, expect + offset * elem, elem);
    s = clipt_stage_prepare(env->ctx, sp, elem, tuning ? tuning : &env->ctx->profile.tuning, &st);
    if (s != CLIPT_SUCCESS)
        goto done;
    buf = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                         total, host, &err);
    if (err == CL_SUCCESS)
        scratch = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE,
                                 st.scratch_bytes ? st.scratch_bytes : 4, NULL, &err);
    if (err != CL_SUCCESS) {
        s = err;
        goto done;
    }
    s = clipt_stage_enqueue(&st, env->cl.queue, buf, offset, scratch, 0, NULL, NULL, &done);
    if (s == CL_SUCCESS)
        s = clEnqueueReadBuffer(env->cl.queue, buf, CL_TRUE, 0, total, host, 1, &done, NULL);
    if (s == CL_SUCCESS) {
        *mismatch = 0;
        for (size_t i = 0; i < total; i++)
            *mismatch += host[i] != expect[i];
    }
done:
    if (done)
        clReleaseEvent(done);
    if (buf)
        clReleaseMemObject(buf);
    if (scratch)
        clReleaseMemObject(scratch);
    clipt_stage_release(&st);
    free(host);
    free(expect);
    return s;
}
