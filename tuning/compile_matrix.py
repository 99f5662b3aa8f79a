#!/usr/bin/env python3
"""The AMD/NVIDIA compile matrix: every kernel build the library makes for
the GPU profiles of tuning/kernel_builds.c, compiled with Debian's clang for
the AMD targets it stands for (amdgcn-amd-amdhsa, -mcpu=gfx...) and for
nvptx64, with libclc's builtins linked so that the resources are those of
the real code.  Reports per kernel and target the worst VGPRs, SGPRs, LDS,
scratch and spills, and the occupancy that follows; fails (exit 1) on any
compile error or warning, on any AMD build that spills or uses scratch
memory, and on any nvptx build that leaves private arrays in local memory.

    tuning/compile_matrix.py --builds builds.tsv [--kernels cl] [--jobs N]
                             [--csv all.csv] [--markdown table.md]

builds.tsv is what build/tuning/clipt_kernel_builds prints (on any OpenCL
device: it only builds).  Each distinct (target, file, options) is compiled
once.  Needs clang-15 (or --clang) and libclc-15 (/usr/lib/clc).
"""
import argparse
import collections
import concurrent.futures
import csv
import os
import re
import subprocess
import sys

AMD_TARGETS = ["gfx701", "gfx803", "gfx906", "gfx90a", "gfx1030", "gfx1100"]
TARGETS = AMD_TARGETS + ["nvptx64"]

# Per target: SIMDs sharing a compute unit's (RDNA: a WGP's) LDS, LDS bytes
# there, the wave size, and the most waves a SIMD holds.  OpenCL on RDNA runs
# in WGP mode: 128 KiB of LDS for 4 SIMD32s.
AMD_LIMITS = {
    "gfx701": dict(simds=4, lds=65536, wave=64, max_waves=10),
    "gfx803": dict(simds=4, lds=65536, wave=64, max_waves=10),
    "gfx906": dict(simds=4, lds=65536, wave=64, max_waves=10),
    "gfx90a": dict(simds=4, lds=65536, wave=64, max_waves=8),
    "gfx1030": dict(simds=4, lds=131072, wave=32, max_waves=16),
    "gfx1100": dict(simds=4, lds=131072, wave=32, max_waves=16),
}

REMARK = re.compile(r"remark:\s+(?:Function Name: (\S+)|([A-Za-z ]+?)(?: \[[^\]]*\])?: (\d+))")


def parse_builds(path):
    """(target, file, options) -> [max work-group, max dynamic local bytes]."""
    builds = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            profile, targets, entry, file, options, wg, local = line.rstrip("\n").split("\t")
            for target in targets.split():
                key = (target, file, options)
                old = builds.setdefault(key, [0, 0])
                old[0] = max(old[0], int(wg))
                old[1] = max(old[1], int(local))
    return builds


def compile_cmd(clang, kernels, target, file, options):
    common = [clang, "-cl-std=CL1.2", "-O3", "-I", kernels, "-Werror", "-Wpedantic",
              "-Wno-linker-warnings"] + options.split()
    if target == "nvptx64":
        return common + ["-target", "nvptx64-nvidia-nvcl", "-march=sm_80", "-Xclang",
                         "-mlink-builtin-bitcode", "-Xclang",
                         "/usr/lib/clc/nvptx64--nvidiacl.bc", "-S", "-o", "-",
                         os.path.join(kernels, file)]
    return common + ["-target", "amdgcn-amd-amdhsa", "-mcpu=" + target, "-nogpulib",
                     "-Xclang", "-mlink-builtin-bitcode", "-Xclang",
                     "/usr/lib/clc/amdgcn--amdhsa.bc",
                     "-Rpass-analysis=kernel-resource-usage", "-c", "-o", os.devnull,
                     os.path.join(kernels, file)]


def parse_amd(stderr):
    """kernel -> {field: value} from the resource-usage remarks."""
    kernels, cur = {}, None
    for m in REMARK.finditer(stderr):
        if m.group(1):
            cur = kernels.setdefault(m.group(1), {})
        elif cur is not None:
            cur[m.group(2).strip()] = int(m.group(3))
    return kernels


def parse_ptx(text):
    """kernel -> virtual registers (32- and 64-bit), local depot bytes and
    static shared bytes, from the PTX clang writes (no ptxas here)."""
    kernels, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"\.entry (\w+)\(", line)
        if m:
            cur = kernels.setdefault(m.group(1), {"regs32": 0, "regs64": 0, "local": 0,
                                                  "shared": 0})
            continue
        if cur is None:
            continue
        m = re.search(r"\.reg \.b(32|64)\s+%\w+<(\d+)>", line)
        if m:
            cur["regs" + m.group(1)] += int(m.group(2))
        m = re.search(r"\.local .*__local_depot\d+\[(\d+)\]", line)
        if m:
            cur["local"] += int(m.group(1))
        m = re.search(r"\.shared .*\[(\d+)\]", line)
        if m:
            cur["shared"] += int(m.group(1))
    return kernels


def lds_waves(target, lds_bytes, wg):
    """Waves per SIMD that the LDS leaves, as a fraction when a work-group
    does not give every SIMD a wave (None: no LDS limit)."""
    lim = AMD_LIMITS[target]
    if lds_bytes == 0 or wg == 0:
        return None
    groups = lim["lds"] // lds_bytes
    waves_per_group = -(-wg // lim["wave"])
    return min(lim["max_waves"], groups * waves_per_group / lim["simds"])


def run_one(args, key, launch):
    target, file, options = key
    proc = subprocess.run(compile_cmd(args.clang, args.kernels, target, file, options),
                          capture_output=True, text=True)
    rows, problems = [], []
    if proc.returncode != 0 or "warning:" in proc.stderr or "error:" in proc.stderr:
        problems.append("%s %s %r: compile failed (%d)\n%s" % (
            target, file, options, proc.returncode, proc.stderr.strip()))
        return rows, problems
    wg, dyn = launch
    if target == "nvptx64":
        for kernel, r in parse_ptx(proc.stdout).items():
            # PTX registers are virtual (ptxas assigns the real ones): only
            # the local depot, private memory, says something
            rows.append(dict(target=target, file=file, kernel=kernel, options=options,
                             wg=wg, vgpr="", sgpr="", lds=r["shared"] + dyn,
                             scratch=r["local"], vspill="", sspill="", occupancy=""))
            if r["local"]:
                problems.append("%s %s %s %r: %d bytes of private arrays in local "
                                "memory (.local)" % (target, file, kernel, options,
                                                     r["local"]))
        return rows, problems
    for kernel, r in parse_amd(proc.stderr).items():
        lds = r.get("LDS Size", 0) + dyn
        occ = r.get("Occupancy", 0)
        by_lds = lds_waves(target, lds, wg)
        if by_lds is not None:
            occ = min(occ, by_lds)
        row = dict(target=target, file=file, kernel=kernel, options=options, wg=wg,
                   vgpr=r.get("VGPRs", 0), sgpr=r.get("SGPRs", 0), lds=lds,
                   scratch=r.get("ScratchSize", 0), vspill=r.get("VGPRs Spill", 0),
                   sspill=r.get("SGPRs Spill", 0), occupancy=occ)
        rows.append(row)
        if row["scratch"] or row["vspill"] or row["sspill"]:
            problems.append("%s %s %s %r: scratch %d bytes/lane, %d VGPR and %d SGPR "
                            "spills" % (target, file, kernel, options, row["scratch"],
                                        row["vspill"], row["sspill"]))
    return rows, problems


def worst_table(rows):
    """Markdown: per kernel and target the worst of every column over its
    option sets (the option set that reached it in the notes)."""
    by = collections.defaultdict(list)
    for r in rows:
        by[(r["file"], r["kernel"], r["target"])].append(r)
    out = ["| kernel | target | sets | VGPRs (max) | SGPRs (max) | LDS bytes (max) | "
           "scratch B/lane (max) | spills | occupancy waves/SIMD (min) | worst with |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for (file, kernel, target) in sorted(by, key=lambda k: (k[0], k[1], TARGETS.index(k[2]))):
        rs = by[(file, kernel, target)]
        if target == "nvptx64":
            top = max(rs, key=lambda r: (r["scratch"], r["lds"]))
            vgpr, spills, occ, sgpr = "n/a", "n/a", "n/a", "n/a"
        else:
            top = max(rs, key=lambda r: r["vgpr"])
            vgpr = str(top["vgpr"])
            spills = "%d V / %d S" % (max(r["vspill"] for r in rs), max(r["sspill"] for r in rs))
            occ = "%g" % min(r["occupancy"] for r in rs)
            sgpr = str(max(r["sgpr"] for r in rs))
        out.append("| %s `%s` | %s | %d | %s | %s | %d | %d | %s | %s | `%s` |" % (
            file, kernel, target, len(rs), vgpr, sgpr, max(r["lds"] for r in rs),
            max(r["scratch"] for r in rs), spills, occ, top["options"]))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builds", required=True, help="clipt_kernel_builds output")
    ap.add_argument("--kernels", default=os.path.join(os.path.dirname(__file__), "..", "cl"))
    ap.add_argument("--clang", default="clang-15")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--csv", help="every (target, kernel, options) row")
    ap.add_argument("--markdown", help="the worst-case table")
    args = ap.parse_args()
    for bc in ("/usr/lib/clc/amdgcn--amdhsa.bc", "/usr/lib/clc/nvptx64--nvidiacl.bc"):
        if not os.path.exists(bc):
            sys.exit("compile_matrix: %s missing (Debian: libclc-15)" % bc)
    builds = parse_builds(args.builds)
    if not builds:
        sys.exit("compile_matrix: no builds in %s" % args.builds)
    rows, problems = [], []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for r, p in pool.map(lambda k: run_one(args, k, builds[k]), sorted(builds)):
            rows += r
            problems += p
    table = worst_table(rows)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table)
    per_target = collections.Counter(k[0] for k in builds)
    print("compile_matrix: %d compiles (%s), %d kernels x option sets" % (
        len(builds), ", ".join("%s %d" % (t, per_target[t]) for t in TARGETS), len(rows)))
    print(table)
    for p in problems:
        print("FAIL:", p)
    print("compile_matrix: %d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
