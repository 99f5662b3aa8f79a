#!/usr/bin/env python3
"""Summary of tuning/gpu_pad_words.sh: the base tree against this one.

    python3 tuning/pad_words_summary.py OUT SET...

For each set, from OUT/base_SET.csv and OUT/new_SET.csv (`clipt bench
--csv`): shapes measured by both, the median and p10 ratio to copy of each
tree, the per-shape speed-up (base time / new time: median, min, max),
the shapes whose plan changed (sequence, m, n or padding) with their
median speed-up and how many ran more than 5 % slower, the median time
of the padding and unpadding stages in copies of the matrix (stage time /
the time of one copy of the matrix at the run's copy bandwidth; 1.0 is a
pass at copy speed), and the verified count of OUT/verify_SET.csv.
"""
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stage_summary import stage_labels  # noqa: E402


def rows_of(path):
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {(r["rows"], r["cols"]): r for r in csv.DictReader(f) if r.get("time_ms")}


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def copies(row, label):
    """Median-free: this row's `label` stage time in copies of the matrix."""
    times = [float(t) for t in row["stages_ms"].split(";") if t]
    labels = stage_labels(row)
    if len(labels) != len(times) or label not in labels:
        return None
    copy_ms = 2 * int(row["rows"]) * int(row["cols"]) * int(row["elem"]) / float(row["copy_gbs"]) / 1e6
    return times[labels.index(label)] / copy_ms


def plan(row):
    return (row["sequence"], row["m"], row["n"], row["padded_rows"], row["padded_cols"])


def main():
    out, sets = sys.argv[1], sys.argv[2:]
    print("set | shapes | base median (p10) % of copy | new median (p10) | speed-up median, min, max"
          " | plans changed: n, speed-up median, slower > 5 % | pad copies base -> new (n)"
          " | unpad copies base -> new (n) | verified")
    for s in sets:
        base, new = rows_of(f"{out}/base_{s}.csv"), rows_of(f"{out}/new_{s}.csv")
        both = [k for k in new if k in base]
        if not both:
            print(f"{s} | 0 shapes in both trees")
            continue
        rb = [100 * float(base[k]["ratio"]) for k in both]
        rn = [100 * float(new[k]["ratio"]) for k in both]
        speed = [float(base[k]["time_ms"]) / float(new[k]["time_ms"]) for k in both]
        moved = [sp for k, sp in zip(both, speed) if plan(base[k]) != plan(new[k])]
        changed = (f"{len(moved)}, {statistics.median(moved):.2f}, "
                   f"{sum(sp < 1 / 1.05 for sp in moved)}" if moved else "0")
        stages = []
        for label in ("pad", "unpad"):
            pairs = [(copies(base[k], label), copies(new[k], label)) for k in both]
            pairs = [(a, b) for a, b in pairs if a is not None and b is not None]
            if pairs:
                stages.append(f"{statistics.median(a for a, _ in pairs):.2f} -> "
                              f"{statistics.median(b for _, b in pairs):.2f} ({len(pairs)})")
            else:
                stages.append("-")
        verified = "?"
        vpath = f"{out}/verify_{s}.csv"
        if os.path.exists(vpath):
            with open(vpath) as f:
                vr = list(csv.DictReader(f))
            verified = f"{sum(r['verified'] == 'yes' for r in vr)}/{len(vr)}"
        print(f"{s} | {len(both)} | {statistics.median(rb):.1f} ({pct(rb, 0.1):.1f}) | "
              f"{statistics.median(rn):.1f} ({pct(rn, 0.1):.1f}) | "
              f"{statistics.median(speed):.2f}, {min(speed):.2f}, {max(speed):.2f} | {changed} | "
              f"{stages[0]} | {stages[1]} | {verified}")


if __name__ == "__main__":
    main()
