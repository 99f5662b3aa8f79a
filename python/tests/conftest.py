"""Fixtures of the Python package's tests: one OpenCL context and queue
on the device the clipt tool would pick (CLIPT_PLATFORM / CLIPT_DEVICE;
PoCL on a machine without a GPU), shared by the whole session so that
kernels are built once per plan."""

import pytest

import clipt
from clipt._select import profiling_queue


@pytest.fixture(scope="session")
def queue():
    q = profiling_queue()
    yield q
    clipt.clear_cache()
    q.finish()


@pytest.fixture(scope="session")
def context(queue):
    return queue.context
