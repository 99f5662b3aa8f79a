"""python -m clipt ARGS: runs the clipt tool that came with the package
(the same executable that `cmake --build` makes: info, run, bench,
transpose), with the same arguments and environment, in place of this
process."""

import os
import shutil
import sys
from pathlib import Path


def tool_path():
    """$CLIPT_TOOL, else the wheel's bin/clipt, else a clipt on PATH."""
    explicit = os.environ.get("CLIPT_TOOL")
    if explicit:
        return explicit
    bundled = Path(__file__).resolve().parent / "bin" / "clipt"
    if bundled.is_file():
        return str(bundled)
    return shutil.which("clipt")


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    path = tool_path()
    if not path:
        sys.exit("clipt: the clipt tool is not in this installation (no clipt/bin/clipt, "
                 "none on PATH); set CLIPT_TOOL to build/src/cli/clipt")
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, [path] + args)


if __name__ == "__main__":
    main()
