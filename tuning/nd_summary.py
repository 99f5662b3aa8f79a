#!/usr/bin/env python3
"""summary.txt of tuning/gpu_nd.sh: issue 15's targets from one run.

    python3 tuning/nd_summary.py OUT_DIR [TINY]

Reads OUT_DIR/fixed.csv, random.csv (clipt_permute_bench rows: case, elem,
clipt/copy/out-of-place times, pct_of_copy = copy time / clipt time,
pct_of_oop = oop time / clipt time, verified), batch.csv
(--batch-vs-plans rows), tool.csv and tool.log (clipt bench --random
tensor), logs/not_run.txt and logs/failed.txt.  Percentiles interpolate
linearly between order statistics (p10 of 100 values: between the 10th
and 11th smallest).  TINY (1: the scaled-down CPU run) prints the
figures without the H100 targets' verdicts.
"""
import csv
import os
import sys

# (case, elem) -> (label, target % of copy) for the fixed cases
FIXED_TARGETS = {
    ("100000x32x48:0,2,1", "4"): ("batch 10^5 x 32 x 48 fp32", 60),
    ("10000x64x100:0,2,1", "2"): ("batch 10^4 x 64 x 100 fp16", 60),
    ("64x256x56x56:0,2,3,1", "4"): ("NCHW -> NHWC fp32", 25),
    ("64x56x56x256:0,3,1,2", "4"): ("NHWC -> NCHW fp32", 25),
    ("64x256x56x56:0,2,3,1", "2"): ("NCHW -> NHWC fp16", 20),
    ("64x56x56x256:0,3,1,2", "2"): ("NHWC -> NCHW fp16", 20),
    ("32x3x224x224:0,2,3,1", "1"): ("NCHW -> NHWC uint8", 15),
    ("32x224x224x3:0,3,1,2", "1"): ("NHWC -> NCHW uint8", 15),
}


def rows_of(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [r for r in csv.DictReader(f) if r.get("case") and r["case"] != "case"]


def lines_of(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [l.rstrip("\n") for l in f if l.strip()]


def pct(v, p):
    v = sorted(v)
    if not v:
        return float("nan")
    x = p * (len(v) - 1)
    i = int(x)
    return v[i] if i + 1 >= len(v) else v[i] + (x - i) * (v[i + 1] - v[i])


def num(r, key):
    try:
        return float(r[key])
    except (KeyError, ValueError):
        return float("nan")


def ok(r):
    return r.get("verified") == "yes"


def verdict(value, target, tiny):
    if tiny:
        return ""
    return "holds" if value >= target else "SHORT by %.1f points" % (target - value)


def fixed_section(out, tiny):
    rows = rows_of(os.path.join(out, "fixed.csv"))
    print("== fixed cases (% of copy = copy time / clipt time, same array, same run)")
    print("case | elem | passes/stages | clipt ms | copy ms | oop ms | % of copy | "
          "% of oop | verified | target")
    for r in rows:
        label, target = FIXED_TARGETS.get((r["case"], r["elem"]), (None, None))
        label = "%s (%s)" % (label, r["case"]) if label else r["case"]
        tgt = ""
        if target is not None and ok(r):
            tgt = ">= %d %%: %s" % (target, verdict(num(r, "pct_of_copy"), target, tiny))
        print("%s | %s | %s/%s | %s | %s | %s | %s | %s | %s (oop %s) | %s" % (
            label, r["elem"], r["passes"], r["stages"], r["clipt_ms"],
            r["copy_ms"], r["oop_ms"], r["pct_of_copy"], r["pct_of_oop"], r["verified"],
            r["oop_verified"], tgt))
    return rows


def random_section(out, tiny):
    rows = rows_of(os.path.join(out, "random.csv"))
    listed = lines_of(os.path.join(out, "logs", "random.txt"))
    print("\n== random tensor set (util/tensor_set.c, clipt bench --random tensor): "
          "%d listed, %d measured, %d verified" % (len(listed), len(rows),
                                                   sum(ok(r) for r in rows)))
    groups = [("all", [r for r in rows if ok(r)])]
    for e in ("4", "8"):
        groups.append(("elem " + e, [r for r in rows if ok(r) and r["elem"] == e]))
    for name, g in groups:
        c = [num(r, "pct_of_copy") for r in g]
        o = [num(r, "pct_of_oop") for r in g if num(r, "pct_of_oop") > 0]
        mb = [num(r, "mbytes") for r in g]
        if not g:
            print("%s: no verified case" % name)
            continue
        print("%s (%d cases, %.1f-%.1f MB): %% of copy median %.1f p10 %.1f p90 %.1f; "
              "%% of oop median %.1f p10 %.1f (%d with the oop)" % (
                  name, len(g), min(mb), max(mb), pct(c, .5), pct(c, .1), pct(c, .9),
                  pct(o, .5), pct(o, .1), len(o)))
    good = groups[0][1]
    if good and not tiny:
        c = pct([num(r, "pct_of_copy") for r in good], .5)
        o = pct([num(r, "pct_of_oop") for r in good if num(r, "pct_of_oop") > 0], .5)
        print("target median >= 20 %% of copy: %s; >= 30 %% of oop: %s" % (
            verdict(c, 20, tiny), verdict(o, 30, tiny)))
    by_passes = {}
    for r in good:
        by_passes.setdefault(r["passes"], []).append(num(r, "pct_of_copy"))
    for p in sorted(by_passes):
        print("  %s pass(es): %d cases, %% of copy median %.1f" % (
            p, len(by_passes[p]), pct(by_passes[p], .5)))
    worst = sorted(good, key=lambda r: num(r, "pct_of_copy"))[:5]
    for r in worst:
        print("  lowest: %s elem %s, %s passes / %s stages: %s %% of copy, %s %% of oop" % (
            r["case"], r["elem"], r["passes"], r["stages"], r["pct_of_copy"],
            r["pct_of_oop"]))
    for r in rows:
        if not ok(r):
            print("  NOT VERIFIED: %s elem %s: %s" % (r["case"], r["elem"], r["verified"]))
    return rows


def batch_section(out, tiny):
    rows = rows_of(os.path.join(out, "batch.csv"))
    print("\n== a batch as one plan vs B 2-D plans enqueued back to back (same buffer)")
    print("case | elem | MB | batch ms (plan) | batch span ms | B plans span ms | "
          "span ratio | wall ratio | verified")
    for r in rows:
        print("%s | %s | %s | %s | %s | %s | %s | %s | %s (plans %s)" % (
            r["case"], r["elem"], r["mbytes"], r["batch_ms"], r["batch_span_ms"],
            r["plans_span_ms"], r["span_ratio"], r["wall_ratio"], r["verified"],
            r["plans_verified"]))
    good = [r for r in rows if ok(r) and r.get("plans_verified") == "yes"]
    if good:
        worst = max(good, key=lambda r: num(r, "span_ratio"))
        print("span ratio (batch / B plans, device): max %.3f (%s), median %.3f over %d "
              "cases%s" % (num(worst, "span_ratio"), worst["case"],
                           pct([num(r, "span_ratio") for r in good], .5), len(good),
                           "" if tiny else "; target <= 1: " +
                           ("holds" if num(worst, "span_ratio") <= 1 else "SHORT")))


def tool_section(out, random_rows):
    print("\n== clipt bench --random tensor --count 5 (the tool's path)")
    for l in lines_of(os.path.join(out, "tool.log")):
        if l.startswith(("set:", "mode ", "median ", "ratio ", "clipt")) or "  verified " in l:
            print(l)
    # the same cases through clipt_permute_bench, for comparison
    tool = {}
    path = os.path.join(out, "tool.csv")
    if os.path.exists(path):
        with open(path) as f:  # clipt bench's CSV: dims, axes ';'-joined
            for r in csv.DictReader(f):
                tool[r["dims"] + ":" + r["axes"].replace(";", ",")] = r
    for r in random_rows:
        if r["elem"] == "4" and r["case"] in tool:
            print("  %s: tool %.1f %% of copy, clipt_permute_bench %s %%" % (
                r["case"], 100 * num(tool[r["case"]], "ratio"), r["pct_of_copy"]))


def main():
    out = sys.argv[1]
    tiny = len(sys.argv) > 2 and sys.argv[2] == "1"
    fixed_section(out, tiny)
    random_rows = random_section(out, tiny)
    batch_section(out, tiny)
    tool_section(out, random_rows)
    for name in ("not_run.txt", "failed.txt"):
        lines = lines_of(os.path.join(out, "logs", name))
        if lines:
            print("\n%s: %d cases%s" % (name, len(lines), ", the first 10:" if len(lines) > 10
                                        else ":"))
            print("\n".join(lines[:10]))


if __name__ == "__main__":
    main()
