"""libclipt through ctypes: finding the library, the C declarations, errors.

Only the public API of include/clipt.h is used.  The structures mirror the
header; tests/test_layout.py checks every field's offset against the C
compiler's.  Structures the library fills are allocated with spare room at
their end, so that a field appended to the C structure by a newer library
(the header allows that within a minor version) cannot make the library
write past a Python buffer.
"""

import ctypes
import ctypes.util
import os
from pathlib import Path

c_size_t = ctypes.c_size_t
c_uint = ctypes.c_uint
c_int = ctypes.c_int
c_ulong64 = ctypes.c_uint64  # cl_ulong
c_void_p = ctypes.c_void_p
c_char_p = ctypes.c_char_p

# spare bytes after each structure the library writes (see the docstring)
_SPARE = 256
# unsigned fields of clipt_plan_options between min_super and algorithm:
# the tuning overrides and the cost model's values
_TUNING_FIELDS = 31  # model_c2r_eff joined the cost model's values


class PlanOptions(ctypes.Structure):
    """clipt_plan_options: the fields Python sets by name; the tuning
    overrides in between are set through clipt_plan_options_set_tuning, by
    name, so their order lives in the library only (_tuning only holds
    their place: _TUNING_FIELDS unsigned values, which tests/test_layout.py
    checks through the offset of `algorithm`)."""

    _fields_ = [
        ("sequence", c_int),
        ("tile_m", c_size_t),
        ("tile_n", c_size_t),
        ("padding", c_int),
        ("tile_rule", c_int),
        ("min_super", c_uint),
        ("_tuning", c_uint * _TUNING_FIELDS),
        ("algorithm", c_int),
        ("_rest", ctypes.c_ubyte * _SPARE),
    ]


class PlanInfo(ctypes.Structure):
    """clipt_plan_info."""

    _fields_ = [
        ("rows", c_size_t),
        ("cols", c_size_t),
        ("elem_size", c_size_t),
        ("sequence", c_int),
        ("sequence_forced", c_int),
        ("tile_m", c_size_t),
        ("tile_n", c_size_t),
        ("tile_reason", c_char_p),
        ("padded_rows", c_size_t),
        ("padded_cols", c_size_t),
        ("buffer_bytes", c_size_t),
        ("scratch_bytes", c_size_t),
        ("num_stages", c_uint),
        ("tuning_entry", c_char_p),
        ("predicted_seconds", ctypes.c_double),
        ("algorithm", c_int),
        ("_spare", ctypes.c_ubyte * _SPARE),
    ]


class StageInfo(ctypes.Structure):
    """clipt_stage_info."""

    _fields_ = [
        ("op", c_int),
        ("family", c_int),
        ("label", c_char_p),
        ("kernels", c_char_p),
        ("instances", c_ulong64),
        ("a", c_ulong64),
        ("b", c_ulong64),
        ("s", c_ulong64),
        ("pitch_from", c_ulong64),
        ("pitch_to", c_ulong64),
        ("super_transposed", c_int),
        ("global_size", c_size_t),
        ("local_size", c_size_t),
        ("local_bytes", c_size_t),
        ("scratch_bytes", c_size_t),
        ("table_bytes", c_size_t),
        ("build_options", c_char_p),
        ("_spare", ctypes.c_ubyte * _SPARE),
    ]


# name: (result type, argument types); handles (clipt_context, clipt_plan,
# cl_*) are void pointers
_PROTOTYPES = {
    "clipt_version_string": (c_char_p, []),
    "clipt_status_string": (c_char_p, [c_int]),
    "clipt_context_create": (c_int, [c_void_p, c_void_p, ctypes.POINTER(c_void_p)]),
    "clipt_context_release": (None, [c_void_p]),
    "clipt_context_error_detail": (c_int, [c_void_p, c_char_p, c_size_t]),
    "clipt_context_describe": (c_int, [c_void_p, c_char_p, c_size_t]),
    "clipt_context_tuning": (c_int, [c_void_p, c_char_p, ctypes.POINTER(c_uint)]),
    "clipt_context_tuning_entry": (c_char_p, [c_void_p]),
    "clipt_tuning_count": (c_uint, []),
    "clipt_tuning_name": (c_char_p, [c_uint]),
    "clipt_plan_options_init": (None, [ctypes.POINTER(PlanOptions)]),
    "clipt_plan_options_set_tuning": (
        c_int, [ctypes.POINTER(PlanOptions), c_char_p, c_uint]),
    "clipt_plan_create": (c_int, [c_void_p, c_size_t, c_size_t, c_size_t,
                                  ctypes.POINTER(PlanOptions), ctypes.POINTER(c_void_p)]),
    "clipt_plan_buffer_size": (c_size_t, [c_void_p]),
    "clipt_plan_scratch_size": (c_size_t, [c_void_p]),
    "clipt_plan_describe": (c_int, [c_void_p, c_char_p, c_size_t]),
    "clipt_plan_query": (c_int, [c_void_p, ctypes.POINTER(PlanInfo)]),
    "clipt_plan_query_stage": (c_int, [c_void_p, c_uint, ctypes.POINTER(StageInfo)]),
    "clipt_plan_tuning": (c_int, [c_void_p, c_char_p, ctypes.POINTER(c_uint)]),
    "clipt_enqueue": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t, c_uint,
                              ctypes.POINTER(c_void_p), ctypes.POINTER(c_void_p)]),
    "clipt_plan_profile": (c_int, [c_void_p, ctypes.POINTER(ctypes.c_double),
                                   ctypes.POINTER(ctypes.c_double), c_uint,
                                   ctypes.POINTER(c_uint)]),
    "clipt_plan_release": (None, [c_void_p]),
    "clipt_transpose_host": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t, c_size_t,
                                     c_size_t, c_uint, ctypes.POINTER(PlanOptions)]),
    "clipt_context_plan_cache_clear": (None, [c_void_p]),
    "clipt_context_set_pool_limit": (None, [c_void_p, c_size_t]),
    "clipt_transpose_cache_clear": (None, []),
}

CLIPT_ERROR_TRUNCATED = -1015
CLIPT_ERROR_KERNEL_NOT_FOUND = -1008
CLIPT_ERROR_KERNEL_BUILD = -1009
CLIPT_HOST_MAX_QUEUES = 64  # clipt.h


def _library_candidates():
    """Where libclipt is looked for, in order: $CLIPT_LIBRARY (a file;
    nothing else then), the wheel's own copy (clipt/lib/), a system-wide
    install."""
    explicit = os.environ.get("CLIPT_LIBRARY")
    if explicit:
        return [explicit]
    here = Path(__file__).resolve().parent / "lib"
    found = [str(p) for p in sorted(here.glob("libclipt.so*")) + sorted(here.glob("libclipt*.dylib"))]
    system = ctypes.util.find_library("clipt")
    return found + ([system] if system else [])


def _load():
    tried = []
    for path in _library_candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path}: {e}")
            continue
        for name, (restype, argtypes) in _PROTOTYPES.items():
            fn = getattr(lib, name)
            fn.restype = restype
            fn.argtypes = argtypes
        return lib, path
    raise ImportError(
        "clipt: libclipt not found or not loadable ("
        + ("; ".join(tried) if tried else "no wheel copy in clipt/lib, none installed")
        + "); install the package with 'pip install ./python' from a clipt checkout, "
        "or point CLIPT_LIBRARY at a libclipt.so (e.g. build/libclipt.so)")


lib, library_path = _load()


def status_name_text(status):
    """(name, text) of a status, from clipt_status_string's "NAME: text"."""
    full = lib.clipt_status_string(status).decode()
    name, sep, text = full.partition(": ")
    return (name, text) if sep else (f"status {status}", full)


class Error(RuntimeError):
    """A clipt call failed.  `status` is the code (CLIPT_ERROR_* or CL_*),
    `name` its name ("CLIPT_ERROR_BUFFER_TOO_SMALL"), `text` what it means,
    `function` the C function that returned it, `detail` the context's
    error detail where the library keeps one (missing kernel files, build
    logs), else ""."""

    def __init__(self, status, function, detail=""):
        self.status = status
        self.name, self.text = status_name_text(status)
        self.function = function
        self.detail = detail
        message = f"{function}: {self.name} ({status}): {self.text}"
        super().__init__(message + (f"\n{detail}" if detail else ""))


def check(status, function, context_handle=None):
    """Raises Error for a non-zero status; the detail is read from the
    context for the statuses that record one."""
    if status == 0:
        return
    detail = ""
    if context_handle and status in (CLIPT_ERROR_KERNEL_NOT_FOUND, CLIPT_ERROR_KERNEL_BUILD):
        detail = read_text(lib.clipt_context_error_detail, context_handle)
    raise Error(status, function, detail)


def read_text(fn, handle):
    """The text a clipt_*_describe-like function writes, however long."""
    size = 4096
    while True:
        buf = ctypes.create_string_buffer(size)
        status = fn(handle, buf, size)
        if status != CLIPT_ERROR_TRUNCATED:
            check(status, fn.__name__)
            return buf.value.decode(errors="replace")
        size *= 4


def version():
    """The linked library's version, "MAJOR.MINOR.PATCH"."""
    return lib.clipt_version_string().decode()


def tuning_names():
    """The names of the tuning values, in the library's order."""
    return [lib.clipt_tuning_name(i).decode() for i in range(lib.clipt_tuning_count())]


def plan_options(sequence=0, tile_m=0, tile_n=0, padding=0, tile_rule=0, min_super=0,
                 tuning=None, algorithm=0):
    """A clipt_plan_options from clipt_plan_options_init with the given
    values (C enum values) and tuning overrides {name: value}."""
    opts = PlanOptions()
    lib.clipt_plan_options_init(ctypes.byref(opts))
    opts.sequence, opts.tile_m, opts.tile_n = sequence, tile_m, tile_n
    opts.padding, opts.tile_rule, opts.min_super = padding, tile_rule, min_super
    opts.algorithm = algorithm
    for name, value in (tuning or {}).items():
        check(lib.clipt_plan_options_set_tuning(ctypes.byref(opts), name.encode(), value),
              f"clipt_plan_options_set_tuning({name!r})")
    return opts
