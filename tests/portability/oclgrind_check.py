#!/usr/bin/env python3
"""Runs tests/oclgrind_cases.c under the Oclgrind simulator with its
data-race, uninitialised-value and API checks (bounds checks are always
on), and fails on any report that oclgrind.supp does not explain, on any
simulator error, and when the program itself fails (its cases are checked
bit-exact).

    oclgrind_check.py OCLGRIND PROGRAM SOURCE_DIR WORK [--reversed]

--reversed numbers work-groups backwards (-DCLIPT_GROUP_ORDER=1, see
cl/clipt_kernel.h): Oclgrind runs work-groups one after the other in
launch order, so the work then runs in the opposite order from PoCL's.
Before running, checks that no kernel file takes its work-group's place
from get_group_id/get_global_id directly (the reversal would miss it).
"""
import collections
import glob
import os
import re
import subprocess
import sys


def load_suppressions(path):
    """[(kernel, regex A, regex B, why)] from lines `race KERNEL | A | B`;
    the comment lines before an entry are its reason."""
    entries, why = [], []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                why.append(line.lstrip("# "))
                continue
            if not line.strip():
                why = []
                continue
            m = re.match(r"race (\S+) \| (.+) \| (.+)$", line)
            if not m:
                sys.exit("oclgrind_check: bad suppression line: %r" % line)
            entries.append((m.group(1), re.compile(m.group(2)), re.compile(m.group(3)),
                            " ".join(why)))
    return entries


def source_line(kernels, file, number):
    try:
        with open(os.path.join(kernels, os.path.basename(file))) as f:
            lines = f.read().splitlines()
        return lines[number - 1].strip() if 0 < number <= len(lines) else ""
    except OSError:
        return ""


def reports(log):
    """The log's reports: blocks that start at an unindented line."""
    out, cur = [], []
    for line in log.splitlines():
        if line and not line[0].isspace():
            if cur:
                out.append(cur)
            cur = [line]
        elif cur:
            cur.append(line)
    if cur:
        out.append(cur)
    return out


def explained(report, kernels, supp, used):
    head = report[0]
    if "data race" not in head:
        return False
    text = "\n".join(report)
    kernel = re.search(r"Kernel: (\S+)", text)
    places = re.findall(r"At line (\d+) \(column \d+\) of (\S+):", text)
    if not kernel or len(places) != 2:
        return False
    a = source_line(kernels, places[0][1], int(places[0][0]))
    b = source_line(kernels, places[1][1], int(places[1][0]))
    for i, (k, ra, rb, _) in enumerate(supp):
        if k == kernel.group(1) and ((ra.search(a) and rb.search(b)) or
                                     (ra.search(b) and rb.search(a))):
            used[i] += 1
            return True
    return False


def direct_group_ids(kernels):
    bad = []
    for path in sorted(glob.glob(os.path.join(kernels, "*.cl"))):
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if re.search(r"\bget_(group|global)_id\s*\(", line.split("//")[0]):
                    bad.append("%s:%d: %s" % (os.path.basename(path), n, line.strip()))
    return bad


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    oclgrind, program, source, work = sys.argv[1:5]
    reverse = "--reversed" in sys.argv[5:]
    kernels = os.path.join(source, "cl")
    supp = load_suppressions(os.path.join(source, "tests", "portability", "oclgrind.supp"))
    bad = direct_group_ids(kernels)
    if bad:
        print("oclgrind_check: kernels must use clipt_group_id()/clipt_global_id():")
        print("\n".join(bad))
        return 1
    os.makedirs(work, exist_ok=True)
    log_path = os.path.join(work, "oclgrind.log")
    cmd = [oclgrind, "--data-races", "--uninitialized", "--check-api", "--num-threads", "1",
           "--max-errors", "100000000", "--log", log_path]
    if reverse:
        cmd += ["--build-options", "-DCLIPT_GROUP_ORDER=1"]
    cmd.append(program)
    env = dict(os.environ, CLIPT_KERNEL_PATH=kernels)
    print("oclgrind_check:", " ".join(cmd))
    run = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    print(run.stdout[-6000:])
    log = open(log_path).read() if os.path.exists(log_path) else ""
    used = collections.Counter()
    unexplained = [r for r in reports(log) if not explained(r, kernels, supp, used)]
    for i, (kernel, ra, rb, why) in enumerate(supp):
        print("oclgrind_check: %6d reports: %s races between /%s/ and /%s/ (%s)" % (
            used[i], kernel, ra.pattern, rb.pattern, why[:100]))
    for r in unexplained[:20]:
        print("UNEXPLAINED:\n  " + "\n  ".join(r))
    if len(unexplained) > 20:
        print("... %d more unexplained reports in %s" % (len(unexplained) - 20, log_path))
    print("oclgrind_check: program exit %d, %d reports, %d unexplained" % (
        run.returncode, sum(used.values()) + len(unexplained), len(unexplained)))
    return 1 if run.returncode != 0 or unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
