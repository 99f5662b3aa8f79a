#!/usr/bin/env python3
"""Histogram of transposition throughput from a `clipt bench --csv` file.

    python3 tuning/plot_hist.py BENCH.csv OUT.png [--title TEXT] [--bins N]

Draws the distribution of the shapes' GB/s (column "gbs") in the manner of
Figs. 12-16 of Gomez-Luna et al., TPDS 2016: a histogram over the shapes,
the median marked by a dashed line and labelled, and -- when the CSV has
the column "copy_gbs" -- the median copy bandwidth as a dotted reference.
`clipt bench --png` runs this script with a title naming the device and the
shape set.

Exit status: 0 when the PNG was written, 2 on bad arguments or an unusable
CSV, 3 when matplotlib is not installed (one line on stderr says so; the
bench treats that as "no picture", not as a failure).
"""
import argparse
import csv
import statistics
import sys
import textwrap

EXIT_BAD_INPUT = 2
EXIT_NO_MATPLOTLIB = 3


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("csv", help="CSV written by clipt bench --csv")
    p.add_argument("png", help="PNG file to write")
    p.add_argument("--title", default="clipt bench", help="title of the figure")
    p.add_argument("--bins", type=int, default=0,
                   help="histogram bins (default: about sqrt(shapes), 10..40)")
    return p.parse_args(argv)


def read_column(path, name):
    """Floats of one column; rows where it is empty are left out."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames is None or name not in reader.fieldnames:
            return None
        return [float(row[name]) for row in reader if row.get(name)]


def fmt(gbs):
    """GB/s with three significant digits at most, one decimal at least."""
    return f"{gbs:.1f}" if gbs >= 10 else f"{gbs:.2f}"


def default_bins(n):
    return max(10, min(40, int(round(n ** 0.5)) * 2))


def plot(args, gbs, copy):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.5), dpi=120)
    counts, _, _ = ax.hist(gbs, bins=args.bins or default_bins(len(gbs)),
                           color="#4878a8", edgecolor="white", linewidth=0.5)
    ax.set_ylim(0, max(counts) * 1.25)  # room for the labels above the bars
    med = statistics.median(gbs)
    ax.axvline(med, color="black", linestyle="--", linewidth=1.2,
               label=f"median {fmt(med)} GB/s")
    if copy:
        # a copy far beyond the data (a CPU device) would squash the bars:
        # then it is named in the legend only
        cmed = statistics.median(copy)
        label = f"copy (median) {fmt(cmed)} GB/s"
        if cmed <= 2.5 * max(gbs):
            ax.axvline(cmed, color="#b04030", linestyle=":", linewidth=1.2, label=label)
        else:
            ax.plot([], [], " ", label=label + ", off scale")
    ax.set_xlim(left=0)
    # the median's label beside its line, the legend on the other side
    right_half = med > sum(ax.get_xlim()) / 2
    ax.annotate(f"median {fmt(med)} GB/s", xy=(med, ax.get_ylim()[1] * 0.97),
                xytext=(-4 if right_half else 4, 0), textcoords="offset points",
                ha="right" if right_half else "left", va="top", fontsize=9)
    ax.legend(loc="upper left" if right_half else "upper right", fontsize=9,
              frameon=False, bbox_to_anchor=(0, 0.9) if right_half else (1, 0.9))
    ax.set_xlabel("throughput (GB/s) = 2 * rows * cols * elem / time")
    ax.set_ylabel("number of shapes")
    title = textwrap.fill(args.title, 90)
    ax.set_title(f"{title}\n{len(gbs)} shapes", fontsize=10)
    fig.tight_layout()
    fig.savefig(args.png)
    plt.close(fig)


def main(argv):
    args = parse_args(argv)
    try:
        gbs = read_column(args.csv, "gbs")
        copy = read_column(args.csv, "copy_gbs")
    except (OSError, ValueError) as e:
        print(f"plot_hist.py: cannot read {args.csv}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not gbs:
        print(f"plot_hist.py: {args.csv} has no 'gbs' values to plot", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        import matplotlib  # noqa: F401  (only to tell whether it is there)
    except ImportError:
        print(f"png: not written: matplotlib is not installed for {sys.executable} "
              "(Debian: apt-get install python3-matplotlib; "
              "or: python3 -m pip install matplotlib)", file=sys.stderr)
        return EXIT_NO_MATPLOTLIB
    plot(args, gbs, copy)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
