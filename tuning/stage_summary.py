#!/usr/bin/env python3
"""Per-stage throughput from a `clipt bench --csv` file.

    python3 tuning/stage_summary.py BENCH.csv

For every shape the stage list is rebuilt from the sequence and the padding
(pad when columns were padded, unpad when rows were), or for C2R and R2C
from their pass count; shapes whose stage
count does not match (a stage skipped as an identity) are left out.  Each
stage's throughput is counted like the whole transposition's,
2 * rows * cols * elem / stage time, and printed as the median over shapes
in GB/s and as a share of the copy bandwidth measured for that shape, with
the share of the total time the stage takes.
"""
import csv
import statistics
import sys
from collections import defaultdict

STAGES = {
    "2.1": ["010!", "100!"],
    "2.2": ["100!", "010!"],
    "3.1": ["100!", "0010!", "0100!"],
    "3.2": ["0100!", "0010!", "100!"],
}


# C2R and R2C by their pass count: with a common factor of the sides C2R
# rotates first and R2C unrotates last (docs/design.md, "The C2R
# decomposition"); they never pad.
C2R_PASSES = {
    ("c2r", 2): ["rows", "columns"],
    ("c2r", 3): ["rotation", "rows", "columns"],
    ("r2c", 2): ["columns", "rows"],
    ("r2c", 3): ["columns", "rows", "unrotation"],
}


def stage_labels(row):
    sequence = row["sequence"]
    if sequence in ("c2r", "r2c"):
        passes = len([t for t in row["stages_ms"].split(";") if t])
        return list(C2R_PASSES.get((sequence, passes), []))
    labels = list(STAGES.get(sequence, []))
    if row["padded_cols"] != row["cols"]:
        labels.insert(0, "pad")
    if row["padded_rows"] != row["rows"]:
        labels.append("unpad")
    return labels


def main(path):
    speed = defaultdict(list)   # (sequence, label) -> share of copy
    gbs = defaultdict(list)
    share = defaultdict(list)   # (sequence, label) -> fraction of time
    skipped = 0
    for row in csv.DictReader(open(path)):
        times = [float(t) for t in row["stages_ms"].split(";") if t]
        labels = stage_labels(row)
        if len(times) != len(labels):
            skipped += 1
            continue
        bytes_moved = 2 * int(row["rows"]) * int(row["cols"]) * int(row["elem"])
        total = sum(times)
        for label, t in zip(labels, times):
            key = (row["sequence"], label)
            g = bytes_moved / (t * 1e-3) / 1e9
            gbs[key].append(g)
            speed[key].append(g / float(row["copy_gbs"]))
            share[key].append(t / total)
    print(f"{'sequence':8} {'stage':6} {'shapes':>6} {'GB/s':>8} {'of copy':>8} {'of time':>8}")
    for key in sorted(speed):
        print(f"{key[0]:8} {key[1]:6} {len(speed[key]):6d} {statistics.median(gbs[key]):8.0f} "
              f"{100 * statistics.median(speed[key]):7.0f}% {100 * statistics.median(share[key]):7.0f}%")
    if skipped:
        print(f"({skipped} shapes left out: a stage was skipped as an identity, or the "
              "sequence is not one of the table's)")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
