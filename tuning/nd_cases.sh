#!/usr/bin/env bash
# Prints issue 15's device cases, one "ELEM DIMS:AXES" a line: the batches
# 10^5 x 32 x 48 fp32 and 10^4 x 64 x 100 fp16, NCHW <-> NHWC for
# 64x256x56x56 fp32 and fp16 and 32x3x224x224 uint8, and 12 TTLG-like
# random permutations of 3-D to 6-D tensors of about 10^8 bytes, elem 4 and
# 8 (fixed seed): the list of tuning/gpu_nd.sh, for tuning/gpu_nd_speed.sh.
set -euo pipefail
cat <<'LIST'
4 100000x32x48:0,2,1
2 10000x64x100:0,2,1
4 64x256x56x56:0,2,3,1
4 64x56x56x256:0,3,1,2
2 64x256x56x56:0,2,3,1
2 64x56x56x256:0,3,1,2
1 32x3x224x224:0,2,3,1
1 32x224x224x3:0,3,1,2
LIST
# TTLG-like: random 3-D..6-D shapes of about 10^8 bytes, random
# non-identity permutations (fixed seed)
python3 - <<'PY'
import random
rng = random.Random(15)
for k in range(12):
    elem = 4 if k % 2 == 0 else 8
    nd = rng.randint(3, 6)
    target = 1e8 / elem
    dims = [rng.randint(2, 64) for _ in range(nd)]
    prod = 1
    for d in dims:
        prod *= d
    scale = (target / prod) ** (1.0 / nd)
    dims = [max(2, int(round(d * scale))) for d in dims]
    perm = list(range(nd))
    while perm == sorted(perm):
        rng.shuffle(perm)
    print(elem, "x".join(map(str, dims)) + ":" + ",".join(map(str, perm)))
PY
