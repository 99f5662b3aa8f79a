"""The ctypes declarations and enum tables of the package against
include/clipt.h, as the C compiler lays it out (tests/layout.c, built by
CMake; CLIPT_LAYOUT_PROGRAM names it)."""

import ctypes
import json
import os
import subprocess

import pytest

from clipt import _lib, _plan

PROGRAM = os.environ.get("CLIPT_LAYOUT_PROGRAM")
pytestmark = pytest.mark.skipif(
    not PROGRAM, reason="CLIPT_LAYOUT_PROGRAM is not set (ctest's python_pytest sets it "
                        "to the clipt_py_layout program of the build)")


@pytest.fixture(scope="module")
def layout():
    return json.loads(subprocess.run([PROGRAM], check=True, capture_output=True,
                                     text=True).stdout)


@pytest.mark.parametrize("c_name, py_type, public_only", [
    ("clipt_plan_options", _lib.PlanOptions, True),
    ("clipt_plan_info", _lib.PlanInfo, False),
    ("clipt_stage_info", _lib.StageInfo, False),
])
def test_structures(layout, c_name, py_type, public_only):
    c = layout[c_name]
    declared = {name: getattr(py_type, name).offset for name, _ in py_type._fields_
                if not name.startswith("_")}
    if public_only:  # the options' tuning fields are set by name in C
        assert declared == {k: c["fields"][k] for k in declared}
    else:
        assert declared == c["fields"]
    # the library writes sizeof(struct) bytes: the Python buffer holds them
    assert ctypes.sizeof(py_type) >= c["size"]


@pytest.mark.parametrize("table, prefix", [
    (_plan.SEQUENCES, "CLIPT_SEQUENCE_"), (_plan.TILE_RULES, "CLIPT_TILE_RULE_"),
    (_plan.PADDINGS, "CLIPT_PADDING_"), (_plan.ALGORITHMS, "CLIPT_ALGORITHM_"),
    (_plan.STAGE_OPS, "CLIPT_OP_"),
    (_plan.KERNEL_FAMILIES, "CLIPT_FAMILY_"),
])
def test_enums(layout, table, prefix):
    group = next(g for g in layout.values()
                 if isinstance(g, dict) and any(k.startswith(prefix) for k in g))
    c_values = {k: v for k, v in group.items() if k.startswith(prefix)}
    py_values = {prefix + name.replace(".", "_").upper(): value
                 for name, value in table.items()}
    assert py_values == c_values


def test_constants(layout):
    for name, value in layout["constants"].items():
        assert getattr(_lib, name) == value, name
