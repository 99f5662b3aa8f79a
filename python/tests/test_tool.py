"""python -m clipt: the clipt tool with the same arguments, exit status
and output."""

import os
import subprocess
import sys

import clipt.__main__ as main


def run_module(*args):
    return subprocess.run([sys.executable, "-m", "clipt", *args], capture_output=True,
                          text=True, timeout=300)


def test_tool_found():
    path = main.tool_path()
    assert path and os.access(path, os.X_OK), path


def test_info_and_version():
    info = run_module("info")
    assert info.returncode == 0, info.stderr
    assert "[selected]" in info.stdout
    version = run_module("--version")
    assert version.returncode == 0
    import clipt
    assert version.stdout.strip() == f"clipt {clipt.__version__}"


def test_run_verifies():
    result = run_module("run", "--rows", "120", "--cols", "77", "--elem", "8")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "verified:     yes" in result.stdout


def test_exit_status_passes_through():
    result = run_module("run", "--rows", "0")
    assert result.returncode == 2
    assert "rows" in result.stderr


def test_transpose_npy_file(tmp_path):
    import numpy as np
    host = np.arange(35 * 12, dtype=np.int16).reshape(35, 12)
    path = tmp_path / "m.npy"
    np.save(path, host)
    result = run_module("transpose", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert np.load(path).tobytes() == host.T.copy().tobytes()
