/*
 * C2R's split column shuffle (cl/c2r_columns.h: c2r_reflect, then
 * c2r_save_heads and c2r_walk_rows) built as CUDA from the kernel files
 * themselves (cl_compat.cuh), with the build options and launch shapes
 * that src/stage_c2r_split.c gives them, so that Nsight Compute can say
 * where their time goes; NVIDIA's OpenCL has no profiler interface.
 * tuning/gpu_c2r_ncu.sh builds and runs it.
 *
 * Usage: [C2R_MODULE=FILE] c2r_prof ROWS COLS [ITERS]
 *   (coprime sides; ELEM_TYPE and the other options at build).  With
 *   C2R_MODULE, the kernels are instead the ones in FILE, a cubin that
 *   ptxas made of the PTX NVIDIA's OpenCL built from c2r.cl
 *   (tuning/cuda/cl_ptx.c), loaded and launched through the driver API
 *   with the OpenCL kernels' arguments: what clipt runs, under the
 *   profiler.
 * Checks the pass bit-exact against the CPU (C[i][j] = B[(j + i*COLS) mod
 * ROWS][j]), then prints the median time of each kernel over ITERS runs
 * (default 20) and of a device-to-device copy of the matrix, each also in
 * copies' time.  Exit status 1 when the check fails.
 *
 * Build (the script does this): the kernel files copied with `(uint4)(`
 * written `make_uint4(` (the one OpenCL vector literal they use), then
 *   nvcc -O3 -arch=sm_90 -DELEM_TYPE=uint -I<copy> -Isrc -Iinclude \
 *        c2r_prof.cu src/c2r_walk.c src/modular.c -lcuda
 */
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>

extern "C" {
#include "c2r_walk.h"
}

#include "cl_compat.cuh"

/* the build options: tuning/gpu_c2r_ncu.sh passes the host's (the same
 * for the OpenCL build); c2r.cl's defaults otherwise */
#include "c2r.cl"

/* the tuning entry's groups per compute unit (NVIDIA level) and the
 * passes' work-group size (CLIPT_C2R_GROUP_SIZE) and pairs (192) */
enum { GROUPS_PER_CU_010 = 16, GROUPS_PER_CU_100 = 8, GROUP_SIZE = 256, MAX_PAIRS = 192 };

__global__ void k_reflect(elem_t *buf, uint rows, uint cols, uint height, uint4 div_rows)
{
    extern __shared__ __align__(16) unsigned char smem[];
    c2r_reflect(buf, 0, 1, rows, cols, height, div_rows, (elem_t *)smem);
}

__global__ void k_save_heads(elem_t *buf, uint rows, uint cols, const uint *table, uint segments,
                             uint slots, elem_t *saved)
{
    c2r_save_heads(buf, 0, 1, rows, cols, table, segments, slots, saved);
}

__global__ void k_walk_rows(elem_t *buf, uint rows, uint cols, const uint *table, uint segments,
                            uint slots, elem_t *saved)
{
    c2r_walk_rows(buf, 0, 1, rows, cols, table, segments, slots, saved);
}

__global__ void k_probe(unsigned long long *out)
{
    extern __shared__ __align__(16) unsigned char smem[];
    *out = (unsigned long long)__cvta_generic_to_shared(smem);
}

#define CHECK_CU(call)                                                         \
    do {                                                                       \
        CUresult r_ = (call);                                                  \
        if (r_ != CUDA_SUCCESS) {                                              \
            const char *m_ = "?";                                              \
            cuGetErrorString(r_, &m_);                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, m_);           \
            exit(2);                                                           \
        }                                                                      \
    } while (0)

/* The OpenCL build's kernels (C2R_MODULE) and the value its __local argument
 * takes: the shared-window address of the dynamic shared memory. */
static struct {
    CUfunction reflect, save, walk;
    unsigned long long local_at;
} ptx;

#define CHECK(call)                                                            \
    do {                                                                       \
        cudaError_t e_ = (call);                                               \
        if (e_ != cudaSuccess) {                                               \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(2);                                                           \
        }                                                                      \
    } while (0)

/* the host's magic numbers (src/stage_kernel.c, clipt_divisor_vector) */
static uint4 divisor(uint64_t d)
{
    unsigned l = 0;
    while (l < 32 && ((uint64_t)1 << l) < d)
        l++;
    return make_uint4((uint)((((uint64_t)1 << 32) * (((uint64_t)1 << l) - d)) / d + 1),
                      l < 1 ? l : 1, l > 0 ? l - 1 : 0, (uint)d);
}

static unsigned char pattern(uint64_t i) { return (unsigned char)((i * 2654435761u) >> 13); }

struct launch {
    unsigned grid, block;
    size_t smem;
};

struct pass {
    uint rows, cols, height, segments, slots;
    uint4 div_rows;
    launch reflect, save, walk;
    uint *table;
    elem_t *saved;
};

static unsigned groups(uint64_t units, unsigned cap)
{
    return (unsigned)std::max<uint64_t>(1, std::min<uint64_t>(units, cap));
}

static void make_pass(uint rows, uint cols, int sms, pass *p)
{
    const unsigned w = C2R_STRIP, lanes = w / C2R_REFLECT_COLS;
    const uint64_t height = std::min<uint64_t>(48 * 1024 / (2 * w * sizeof(elem_t)), MAX_PAIRS);
    const uint64_t units = (uint64_t)((cols - 1) / rows + 1) * ((std::min(rows, cols) + w - 1) / w) *
                           ((rows / 2 + height - 1) / height);
    clipt_c2r_walk walk;
    if (clipt_c2r_walk_make(rows, cols, 0, C2R_WALK, &walk) != CLIPT_SUCCESS) {
        fprintf(stderr, "no walk table for %u x %u\n", rows, cols);
        exit(2);
    }
    p->rows = rows;
    p->cols = cols;
    p->height = (uint)height;
    p->div_rows = divisor(rows);
    p->reflect = {groups(units, sms * GROUPS_PER_CU_010), GROUP_SIZE / lanes * lanes,
                  2 * height * w * sizeof(elem_t)};
    p->segments = (uint)walk.segments;
    p->slots = (uint)walk.slots;
    p->save = {groups(walk.segments, sms * GROUPS_PER_CU_100), GROUP_SIZE, 0};
    p->walk = {groups(walk.segments * ((cols - 1) / GROUP_SIZE + 1), sms * GROUPS_PER_CU_100),
               GROUP_SIZE, 0};
    CHECK(cudaMalloc(&p->table, walk.bytes ? walk.bytes : 4));
    CHECK(cudaMemcpy(p->table, walk.table, walk.bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&p->saved,
                     (size_t)std::max<uint64_t>(walk.slots, 1) * cols * sizeof(elem_t)));
    printf("segments %zu slots %zu moving %zu; reflect %u x %u (smem %zu, %u pairs), "
           "save %u x %u, walk %u x %u\n",
           walk.segments, walk.slots, walk.moving, p->reflect.grid, p->reflect.block,
           p->reflect.smem, p->height, p->save.grid, p->save.block, p->walk.grid, p->walk.block);
    clipt_c2r_walk_free(&walk);
}

/* One launch of an OpenCL build's kernel with the OpenCL signature's
 * arguments (each value's size as the kernel's parameter has it). */
static void launch_ptx(CUfunction f, const launch *l, void **args)
{
    CHECK_CU(cuLaunchKernel(f, l->grid, 1, 1, l->block, 1, 1, (unsigned)l->smem, 0, args, NULL));
}

static void run_reflect(const pass *p, elem_t *buf)
{
    if (ptx.reflect) {
        ulong offset = 0, instances = 1;
        uint rows = p->rows, cols = p->cols, height = p->height;
        uint4 div_rows = p->div_rows;
        void *args[] = {&buf, &offset, &instances, &rows, &cols, &height, &div_rows, &ptx.local_at};
        launch_ptx(ptx.reflect, &p->reflect, args);
        return;
    }
    k_reflect<<<p->reflect.grid, p->reflect.block, p->reflect.smem>>>(buf, p->rows, p->cols,
                                                                        p->height, p->div_rows);
}

/* c2r_save_heads or c2r_walk_rows of the OpenCL build */
static void walk_ptx(CUfunction f, const launch *l, const pass *p, elem_t *buf)
{
    ulong offset = 0, instances = 1;
    uint rows = p->rows, cols = p->cols, segments = p->segments, slots = p->slots;
    const uint *table = p->table;
    elem_t *saved = p->saved;
    void *args[] = {&buf, &offset, &instances, &rows, &cols, &table, &segments, &slots, &saved};
    launch_ptx(f, l, args);
}

static void run_save(const pass *p, elem_t *buf)
{
    if (ptx.save)
        walk_ptx(ptx.save, &p->save, p, buf);
    else
        k_save_heads<<<p->save.grid, p->save.block>>>(buf, p->rows, p->cols, p->table,
                                                      p->segments, p->slots, p->saved);
}

static void run_walk(const pass *p, elem_t *buf)
{
    if (ptx.walk)
        walk_ptx(ptx.walk, &p->walk, p, buf);
    else
        k_walk_rows<<<p->walk.grid, p->walk.block>>>(buf, p->rows, p->cols, p->table,
                                                     p->segments, p->slots, p->saved);
}

/* The kernels of the module file `path` (cubin or PTX) in place of this
 * build's. */
static void load_ptx(const char *path)
{
    FILE *f = fopen(path, "rb");
    std::vector<char> text;
    CUmodule m;
    unsigned long long *at;
    char chunk[65536];
    size_t n;
    if (!f) {
        perror(path);
        exit(2);
    }
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        text.insert(text.end(), chunk, chunk + n);
    fclose(f);
    text.push_back(0);
    CHECK(cudaFree(0)); /* the runtime's primary context, current */
    {
        static char log[8192];
        CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void *val[] = {log, (void *)(uintptr_t)sizeof log};
        CUresult r = cuModuleLoadDataEx(&m, text.data(), 2, opt, val);
        if (r != CUDA_SUCCESS) {
            const char *msg = "?";
            cuGetErrorString(r, &msg);
            fprintf(stderr, "%s: %s\n%s\n", path, msg, log);
            exit(2);
        }
    }
    CHECK_CU(cuModuleGetFunction(&ptx.reflect, m, "c2r_reflect"));
    CHECK_CU(cuModuleGetFunction(&ptx.save, m, "c2r_save_heads"));
    CHECK_CU(cuModuleGetFunction(&ptx.walk, m, "c2r_walk_rows"));
    CHECK(cudaMalloc(&at, sizeof *at));
    k_probe<<<1, 1, 16>>>(at);
    CHECK(cudaMemcpy(&ptx.local_at, at, sizeof *at, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(at));
    printf("kernels from %s; __local argument %#llx\n", path, ptx.local_at);
}

/* The pass against C[i][j] = B[(j + i*N) mod M][j] (coprime sides). */
static int check(const pass *p, elem_t *buf, const std::vector<unsigned char> &before)
{
    const size_t e = sizeof(elem_t), n = (size_t)p->rows * p->cols;
    std::vector<unsigned char> after(n * e);
    size_t bad = 0;
    run_reflect(p, buf);
    run_save(p, buf);
    run_walk(p, buf);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(after.data(), buf, n * e, cudaMemcpyDeviceToHost));
    for (uint64_t i = 0; i < p->rows; i++)
        for (uint64_t j = 0; j < p->cols; j++) {
            const uint64_t src = (j + i * p->cols) % p->rows;
            bad += memcmp(&after[(i * p->cols + j) * e], &before[(src * p->cols + j) * e], e) != 0;
        }
    printf("check: %zu of %zu elements wrong\n", bad, n);
    return bad == 0;
}

typedef void (*runner)(const pass *, elem_t *);

static float median_ms(runner f, const pass *p, elem_t *buf, int iters)
{
    std::vector<float> t(iters);
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int k = 0; k < iters; k++) {
        CHECK(cudaEventRecord(a));
        f(p, buf);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaGetLastError());
        CHECK(cudaEventElapsedTime(&t[k], a, b));
    }
    std::sort(t.begin(), t.end());
    return t[iters / 2];
}

static elem_t *copy_to;
static size_t copy_bytes;
static void run_copy(const pass *, elem_t *buf)
{
    CHECK(cudaMemcpyAsync(copy_to, buf, copy_bytes, cudaMemcpyDeviceToDevice));
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s ROWS COLS [ITERS]\n", argv[0]);
        return 2;
    }
    const uint rows = (uint)strtoul(argv[1], NULL, 10), cols = (uint)strtoul(argv[2], NULL, 10);
    const int iters = argc > 3 ? atoi(argv[3]) : 20;
    const size_t bytes = (size_t)rows * cols * sizeof(elem_t);
    int sms = 0;
    pass p;
    elem_t *buf;
    std::vector<unsigned char> host(bytes);
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if (getenv("C2R_MODULE"))
        load_ptx(getenv("C2R_MODULE"));
    printf("%u x %u, %d-byte elements, %d SMs\n", rows, cols, (int)sizeof(elem_t), sms);
    make_pass(rows, cols, sms, &p);
    for (size_t i = 0; i < bytes; i++)
        host[i] = pattern(i);
    CHECK(cudaMalloc(&buf, bytes));
    CHECK(cudaMalloc(&copy_to, bytes));
    copy_bytes = bytes;
    CHECK(cudaMemcpy(buf, host.data(), bytes, cudaMemcpyHostToDevice));
    if (!check(&p, buf, host))
        return 1;
    const float copy = median_ms(run_copy, &p, buf, iters);
    const float reflect = median_ms(run_reflect, &p, buf, iters);
    const float save = median_ms(run_save, &p, buf, iters);
    const float walk = median_ms(run_walk, &p, buf, iters);
    printf("copy %.4f ms (%.0f GB/s); reflect %.4f ms = %.2f copies; save %.4f = %.2f; "
           "walk %.4f = %.2f\n",
           copy, 2e-6 * bytes / copy, reflect, reflect / copy, save, save / copy, walk,
           walk / copy);
    return 0;
}
