#!/usr/bin/env bash
# Nsight Compute on C2R's split column pass (the reflection c2r_reflect and
# the walk c2r_walk_rows), two builds of each kernel, both run by
# tuning/cuda/c2r_prof.cu with the host's launch shapes:
#   ocl   the PTX that NVIDIA's OpenCL builds from c2r.cl with the host's
#         build options (tuning/cuda/cl_ptx.c): what clipt runs;
#   cuda  the kernel files compiled by nvcc (cl_compat.cuh), for source
#         lines under the profiler and as a second compiler's view.
# For each element size and shape it checks the pass bit-exact, times each
# kernel against a device-to-device copy, and profiles one launch of each
# kernel with `ncu --set full` (clocks left as they are: a Firecracker
# guest may not set them).
#   SHAPES  "ROWSxCOLS ..." coprime (default "2801x10007 4440x5863")
#   ELEMS   element sizes (default "4")
#   KERNELS (default "reflect walk_rows")
#   BUILDS  (default "ocl cuda")
#   DEFINES "NAME=VALUE,..." build options replacing the host's (a variant
#           of the kernels to time)
#   PROFILE 0: only the check and the times, no ncu (default 1)
# Writes $OUT (default /tmp/clipt-c2r-ncu): build_E.log and ptxas_E.log
# (registers per kernel), ocl_E.ptx, time_B_E_SHAPE.txt, and per kernel
# details_B_E_SHAPE_K.txt (the sections), source_B_E_SHAPE_K.csv (per line
# of the kernel files: cuda only) and sass_B_E_SHAPE_K.csv (per
# instruction).
set -uo pipefail
out=${OUT:-/tmp/clipt-c2r-ncu}
mkdir -p "$out"
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the kernel files with their one OpenCL vector literal written for CUDA
cp -r cl "$work/cl" && sed -i 's/(uint4)(/make_uint4(/g' "$work"/cl/*.h "$work"/cl/*.cl
status=0
shapes=${SHAPES:-2801x10007 4440x5863}
# The build options src/stage_c2r.c gives c2r.cl on a GPU for elem $1
# (C2R_INDEX32: every shape here fits 32-bit offsets), the same for both
# builds.
c2r_options() {
    local e=$1 t batch=8
    case $e in 1) t=uchar ;; 2) t=ushort ;; 4) t=uint ;; 8) t=ulong ;; *) t=uint4 batch=4 ;; esac
    echo "-DELEM_TYPE=$t -DC2R_BATCH=$batch -DC2R_WALK=$((e == 4 || e == 8 ? 24 : 16))" \
        "-DC2R_PACK=$((e < 4 ? 4 / e : 1)) -DC2R_REFLECT_COLS=$((e <= 2 ? 2 : 1))" \
        "-DC2R_REFLECT_BATCH=$((e <= 4 ? 4 : batch)) -DC2R_STRIP_LINES=$((e >= 16 ? 4 : 1))" \
        "-DC2R_ROW_CURSOR=$((e == 2 ? 3 : e == 1 ? 2 : 0)) -DC2R_WALK_SHARED=1 -DC2R_INDEX32=1"
}
# $1's options with DEFINES in place of the host's of the same names
with_defines() {
    local opts=" $1 " d
    IFS=, read -r -a defs <<< "${DEFINES:-}"
    for d in "${defs[@]}"; do
        opts=$(echo "$opts" | sed "s/ -D${d%%=*}=[^ ]*//")" -D$d"
    done
    echo $opts
}
gcc -O2 -o "$work/cl_ptx" tuning/cuda/cl_ptx.c -lOpenCL > "$out/build.log" 2>&1 ||
    { cat "$out/build.log"; exit 1; }
for e in ${ELEMS:-4}; do
    # the PTX for CUDA's driver, which refuses it as it is ("device kernel
    # image is invalid"): its texture mode (the kernels use no textures),
    # the kernels visible (NVIDIA's OpenCL leaves them local), the pointer
    # arguments plain 64-bit values (no .ptr state space), and OpenCL's
    # environment registers, which CUDA fills otherwise, replaced: envreg0
    # (the first group's number, 0 here) by %cluster_ctarank (0 in a
    # launch without clusters, and as unknown to ptxas as envreg0),
    # envreg6 (the number of groups) by %nctaid.x; then through ptxas
    # (c2r_reflect: 40 registers, where the PTX as NVIDIA's OpenCL gives
    # it takes 48 in ptxas)
    { "$work/cl_ptx" cl/c2r.cl "-cl-std=CL1.2 $(with_defines "$(c2r_options "$e")") -I $PWD/cl" "$out/ocl_$e.ptx" &&
          tr -d '\000' < "$out/ocl_$e.ptx" |
          sed -e 's/^\.target sm_90, texmode_independent$/.target sm_90/' \
              -e 's/^\.entry /.visible .entry /' \
              -e 's/\.param \.u64 \.ptr \.[a-z]* \.align [0-9]* /.param .u64 /' \
              -e 's/mov\.b32 \(\s*%r[0-9]*\), %envreg0;/mov.u32 \1, %cluster_ctarank;/' \
              -e 's/mov\.b32 \(\s*%r[0-9]*\), %envreg6;/mov.u32 \1, %nctaid.x;/' \
              > "$work/ocl_$e.ptx" &&
          ! grep -q envreg "$work/ocl_$e.ptx" &&
          "${nvcc%/*}/ptxas" -arch=sm_90 -v "$work/ocl_$e.ptx" -o "$work/ocl_$e.cubin" \
              > "$out/ptxas_$e.log" 2>&1 &&
          "${nvcc%/*}/cuobjdump" -sass "$work/ocl_$e.cubin" > "$out/ocl_$e.sass" 2>&1; } ||
        status=1
    "$nvcc" -O3 -arch=sm_90 -lineinfo -DCL_TARGET_OPENCL_VERSION=120 \
        $(with_defines "$(c2r_options "$e")") \
        -I"$work/cl" -Isrc -Iinclude -Ituning/cuda -Xptxas -v -o "$work/prof_$e" \
        tuning/cuda/c2r_prof.cu src/c2r_walk.c src/modular.c -lcuda > "$out/build_$e.log" 2>&1 ||
        { tail -20 "$out/build_$e.log"; status=1; continue; }
    for s in $shapes; do
        r=${s%x*} c=${s#*x}
        for bld in ${BUILDS:-ocl cuda}; do
            run=(env)
            if [ "$bld" = ocl ]; then
                [ -f "$work/ocl_$e.cubin" ] || continue
                run+=(C2R_MODULE="$work/ocl_$e.cubin")
            fi
            tag=${bld}_${e}_$s
            # no profile of a pass that failed its check
            timeout 60 "${run[@]}" "$work/prof_$e" "$r" "$c" 20 > "$out/time_$tag.txt" 2>&1 ||
                { echo "$tag: exit $?"; cat "$out/time_$tag.txt"; status=1; continue; }
            cat "$out/time_$tag.txt"
            [ "${PROFILE:-1}" = 0 ] && continue
            for k in ${KERNELS:-reflect walk_rows}; do
                rep="$work/rep_${tag}_$k"
                timeout 150 "${run[@]}" "$ncu" --clock-control none -k "regex:_$k\$" \
                    --launch-skip 1 --launch-count 1 --set full --import-source yes -o "$rep" \
                    "$work/prof_$e" "$r" "$c" 2 > "$out/ncu_${tag}_$k.log" 2>&1 ||
                    { echo "ncu $tag $k: exit $?"; status=1; }
                [ -f "$rep.ncu-rep" ] || continue
                "$ncu" -i "$rep.ncu-rep" --page details --print-details all \
                    > "$out/details_${tag}_$k.txt" 2>&1
                [ "$bld" = cuda ] && "$ncu" -i "$rep.ncu-rep" --page source --csv \
                    --print-source cuda > "$out/source_${tag}_$k.csv" 2>&1
                "$ncu" -i "$rep.ncu-rep" --page source --csv --print-source sass \
                    > "$out/sass_${tag}_$k.csv" 2>&1
            done
        done
    done
done
exit $status
