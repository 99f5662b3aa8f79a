#!/usr/bin/env python3
"""Times clipt.transpose on a PyOpenCL array against `clipt run` (the C
tool) for the same shape on the same device, and prints both.

    python3 python/bench_vs_tool.py [--rows 20000] [--cols 20000]
        [--dtype float32] [--repeat 10] [--tool PATH]

Needs only NumPy, PyOpenCL and the clipt package (installed, or this
directory on PYTHONPATH with CLIPT_LIBRARY naming a libclipt.so).  The
device is the one the tool picks (CLIPT_PLATFORM / CLIPT_DEVICE; default
the first GPU), and both sides run the automatic plan with its padding
room (the array comes from clipt.empty, the tool allocates
clipt_plan_buffer_size).  Each run uploads the matrix again, transposes it
once and waits; the first run is verified bit for bit against
numpy.transpose.  Printed, as medians over the runs:

  device time     clipt_plan_profile of the package's plan: first command's
                  start to last command's end (what the tool reports);
  event span      a marker enqueued just before clipt.transpose to the end
                  of the event the result carries (launch gaps included);
  host wall       clipt.transpose() called to its event complete, on the
                  host clock (Python and launch overhead included);

then the tool's device time and the ratio of the two device times.  The
issue's bar: within 5 %.  Exit status 0, or 1 when a result is wrong or
the tool fails.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

# The tool runs with the environment as it was before pyopencl was imported:
# importing the pyopencl wheel adds variables for its bundled loader
# (PYOPENCL_HOME), and on the H100 machine a child started with them found
# no NVIDIA platform (cause not pinned down; with this copy it does).
TOOL_ENV = dict(os.environ)

import numpy as np  # noqa: E402
import pyopencl as cl  # noqa: E402

import clipt  # noqa: E402
import clipt.__main__  # noqa: E402
from clipt._select import profiling_queue  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=20000)
    p.add_argument("--cols", type=int, default=20000)
    p.add_argument("--dtype", default="float32", help="NumPy dtype (1-16 byte items)")
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--tool", help="the clipt tool (default: $CLIPT_TOOL, the package's, PATH)")
    return p.parse_args()


def host_matrix(shape, dtype):
    """A matrix whose every item differs from its neighbours (random bytes)."""
    nbytes = shape[0] * shape[1] * dtype.itemsize
    raw = np.random.default_rng(1).integers(0, 2**32, (nbytes + 3) // 4, dtype=np.uint32)
    return raw.view(np.uint8)[:nbytes].view(dtype).reshape(shape)


def python_runs(queue, host, repeat):
    """[(device s, event span s, host wall s)] of `repeat` transpositions;
    the first is verified.  Returns (runs, plan)."""
    a = clipt.empty(queue, host.shape, host.dtype)
    runs = []
    for run in range(repeat):
        cl.enqueue_copy(queue, a.base_data, host)
        queue.finish()
        marker = cl.enqueue_marker(queue)
        start = time.perf_counter()
        b = clipt.transpose(queue, a)
        done = b.events[-1]
        done.wait()
        wall = time.perf_counter() - start
        marker.wait()
        plan = clipt.plan_for(queue, a)
        device = plan.profile()[0]
        span = (done.profile.end - marker.profile.end) * 1e-9
        runs.append((device, span, wall))
        if run == 0:
            got = np.empty(b.shape, host.dtype)
            cl.enqueue_copy(queue, got, a.base_data)
            if got.tobytes() != np.ascontiguousarray(host.T).tobytes():
                sys.exit("bench: the Python transposition is WRONG")
    return runs, plan


def tool_run(tool, shape, itemsize, repeat):
    """(device ms, output) of `clipt run` for the same shape."""
    cmd = [tool, "run", "--rows", str(shape[0]), "--cols", str(shape[1]),
           "--elem", str(itemsize), "--repeat", str(repeat)]
    result = subprocess.run(cmd, capture_output=True, text=True, env=TOOL_ENV)
    found = re.search(r"^device time:\s+([0-9.]+) ms", result.stdout, re.M)
    if result.returncode != 0 or not found:
        sys.exit(f"bench: {' '.join(cmd)} failed ({result.returncode}):\n"
                 f"{result.stdout}{result.stderr}")
    return float(found.group(1)), result.stdout


def main():
    args = parse_args()
    dtype = np.dtype(args.dtype)
    shape = (args.rows, args.cols)
    tool = args.tool or clipt.__main__.tool_path()
    queue = profiling_queue()
    host = host_matrix(shape, dtype)
    print(f"device:        {queue.device.name} ({queue.device.platform.name})")
    print(f"shape:         {shape[0]} x {shape[1]} {dtype} ({host.nbytes / 1e9:.2f} GB), "
          f"{args.repeat} runs")
    runs, plan = python_runs(queue, host, args.repeat)
    info = plan.query()
    print(f"python plan:   sequence {info.sequence}, m={info.tile_m} n={info.tile_n}, "
          f"padded {info.padded_rows} x {info.padded_cols}, library {clipt.library_path}")
    device, span, wall = (statistics.median(r[k] for r in runs) * 1e3 for k in range(3))
    print(f"python:        device time {device:.3f} ms, event span {span:.3f} ms, "
          f"host wall {wall:.3f} ms (medians); verified: yes")
    tool_ms, tool_out = tool_run(tool, shape, dtype.itemsize, args.repeat)
    for line in tool_out.splitlines():
        if line.startswith(("device:", "sequence:", "tiles:", "padded shape:", "verified:")):
            print(f"tool {line}")
    print(f"tool:          device time {tool_ms:.3f} ms (median, clipt run)")
    ratio = device / tool_ms
    print(f"ratio:         python / tool device time = {ratio:.4f} "
          f"(within 5 %: {'yes' if abs(ratio - 1) <= 0.05 else 'NO'}); "
          f"event span / tool = {span / tool_ms:.4f}")


if __name__ == "__main__":
    main()
