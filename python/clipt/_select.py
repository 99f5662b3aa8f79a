"""The device the clipt tool and the C tests pick (util/cl_select.c's rule),
for the Python tests and benchmark: CLIPT_PLATFORM and CLIPT_DEVICE, each
an index or a case-sensitive name substring; without them the first GPU of
any platform, else the first device."""

import os

import pyopencl as cl


def _matches(want, index, name):
    if not want:
        return True
    return int(want) == index if want.isdigit() else want in name


def select_device():
    """The pyopencl.Device the clipt tool would select; RuntimeError when
    none matches."""
    want_platform = os.environ.get("CLIPT_PLATFORM", "")
    want_device = os.environ.get("CLIPT_DEVICE", "")
    platforms = cl.get_platforms()
    # device indices count devices of every type: an explicit choice is
    # matched among all devices; without one, GPUs come first
    passes = [cl.device_type.ALL] if want_platform or want_device else [
        cl.device_type.GPU, cl.device_type.ALL]
    for device_type in passes:
        for p, platform in enumerate(platforms):
            if not _matches(want_platform, p, platform.name):
                continue
            try:
                devices = platform.get_devices(device_type)
            except cl.Error:  # no device of this type on this platform
                continue
            for d, device in enumerate(devices):
                if _matches(want_device, d, device.name):
                    return device
    raise RuntimeError(f"no OpenCL device matches CLIPT_PLATFORM={want_platform or '(any)'} "
                       f"CLIPT_DEVICE={want_device or '(any)'}")


def profiling_queue(device=None):
    """A new context and in-order queue with profiling on `device` (default:
    select_device())."""
    device = device or select_device()
    context = cl.Context([device])
    return cl.CommandQueue(context, device,
                           properties=cl.command_queue_properties.PROFILING_ENABLE)
