/*
 * Just enough OpenCL C for nvcc to compile clipt's kernel files as CUDA
 * device code, so that Nsight Compute (which no OpenCL program reaches)
 * can profile one kernel: tuning/cuda/c2r_prof.cu, tuning/gpu_c2r_ncu.sh.
 * Include it after the CUDA and C++ headers: it redefines `inline` (so
 * that the kernel files' `static inline` helpers become device functions)
 * and `__kernel` (so that their kernels become device functions that a
 * __global__ wrapper calls).  Only dimension 0 of the work is mapped: the
 * kernels use no other.
 */
#ifndef CLIPT_CL_COMPAT_CUH
#define CLIPT_CL_COMPAT_CUH

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong; /* 64 bits on the Linux hosts nvcc builds for */

#define __global
#define __local
#define __private
#define __constant const
#define __kernel static __device__ __forceinline__
#define inline __device__ inline

#define get_local_id(d) ((size_t)threadIdx.x)
#define get_local_size(d) ((size_t)blockDim.x)
#define get_group_id(d) ((size_t)blockIdx.x)
#define get_num_groups(d) ((size_t)gridDim.x)
#define get_global_id(d) ((size_t)blockIdx.x * blockDim.x + threadIdx.x)
#define get_global_size(d) ((size_t)gridDim.x * blockDim.x)
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#define barrier(flags) __syncthreads()
#define CLIPT_GROUP_ARRAY(type, name, n) __shared__ type name[n]
#define mul_hi(a, b) __umulhi((a), (b))
#ifndef __ENDIAN_LITTLE__
#define __ENDIAN_LITTLE__ 1
#endif

#endif
