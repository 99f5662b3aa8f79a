#!/bin/sh
# pip install ./python in a fresh virtual environment, then the installed
# package's checks (test_installed.py), run from outside the source tree
# with no CLIPT_* variable, so that only the wheel's own library, kernels
# and tool can serve them.
#   install_test.sh PYTHON PACKAGE_DIR WORK_DIR
# The environment sees the system's site-packages (NumPy, PyOpenCL and
# pytest from Debian's packages: nothing large is downloaded); pip fetches
# scikit-build-core from PyPI for the isolated build.
set -eu
python=$1 package=$2 work=$3
rm -rf "$work"
"$python" -m venv --system-site-packages "$work/venv"
cd "$work"
env -u CLIPT_LIBRARY -u CLIPT_TOOL -u CLIPT_KERNEL_PATH -u PYTHONPATH \
    "$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --no-cache-dir "$package"
env -u CLIPT_LIBRARY -u CLIPT_TOOL -u CLIPT_KERNEL_PATH -u PYTHONPATH \
    CLIPT_EXPECT_INSTALLED=1 PYTHONDONTWRITEBYTECODE=1 \
    "$work/venv/bin/python" -m pytest -p no:cacheprovider -q -rs \
    "$package/tests/test_installed.py"
