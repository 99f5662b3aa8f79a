"""The installed package (pip install ./python) serves itself: its own
libclipt, kernels and clipt tool from the package directory, no source
tree, no CLIPT_* variable.  Run by tests/install_test.sh (ctest's
python_install), which sets CLIPT_EXPECT_INSTALLED=1."""

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyopencl.array as cl_array
import pytest

import clipt
import clipt.__main__

pytestmark = pytest.mark.skipif(
    os.environ.get("CLIPT_EXPECT_INSTALLED") != "1",
    reason="checks an installed package; tests/install_test.sh (ctest python_install) "
           "runs it after pip install")

PACKAGE = Path(clipt.__file__).resolve().parent


def test_package_from_site_packages():
    assert "site-packages" in PACKAGE.parts
    assert not os.environ.get("CLIPT_LIBRARY") and not os.environ.get("CLIPT_KERNEL_PATH")
    assert Path(clipt.library_path).resolve().parent == PACKAGE / "lib"
    assert importlib.metadata.version("clipt") == clipt.__version__


def test_wheel_contents():
    files = {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*") if p.is_file()
             and "__pycache__" not in p.parts}
    assert "lib/libclipt.so.0" in files
    assert "bin/clipt" in files
    kernels = {f for f in files if f.startswith("share/clipt/cl/")}
    source_kernels = {f"share/clipt/cl/{p.name}"
                      for p in (Path(__file__).resolve().parents[2] / "cl").iterdir()}
    assert kernels == source_kernels
    # the runtime only: no header, link-time name, CMake or pkg-config files
    assert not [f for f in files if f.startswith(("include/", "lib/cmake", "lib/pkgconfig"))
                or f == "lib/libclipt.so"]


def test_transposes_with_its_own_kernels(queue):
    host = np.arange(97 * 41, dtype=np.float32).reshape(97, 41)
    b = clipt.transpose(queue, cl_array.to_device(queue, host))
    assert b.get().tobytes() == host.T.copy().tobytes()
    assert clipt.transpose_host(queue, host.copy()).tobytes() == host.T.copy().tobytes()


def test_bundled_tool():
    assert Path(clipt.__main__.tool_path()) == PACKAGE / "bin" / "clipt"
    result = subprocess.run([sys.executable, "-m", "clipt", "run", "--rows", "50",
                             "--cols", "31"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "verified:     yes" in result.stdout
