#!/usr/bin/env python3
"""Shape lists for `clipt bench --shapes FILE`, drawn from the papers'
distributions with Python's own generator (random.Random(seed)), so that
measurements can use shapes the bench's splitmix64 sets (and the tuner)
never saw.

    python3 tuning/shapes.py general --count 200 --seed 7 [--elem 8] > general.txt
    python3 tuning/shapes.py skinny --count 200 --seed 8 > skinny.txt
    python3 tuning/shapes.py coprime --count 100 --seed 9 > coprime.txt
    python3 tuning/shapes.py common-factor --count 8 --seed 11 > gcd.txt
    python3 tuning/shapes.py short-walk --count 40 --seed 10 --max-order 32 > walks.txt

general: rows and cols uniform in [1000, 20000] ([1000, 15000] for 8- and
16-byte elements, as in TPDS 2016 sec. 7); skinny: long side uniform in
[10^4, 10^7], short side in [2, 32], alternating AoS->SoA (rows >> cols)
and SoA->AoS; coprime: general shapes with gcd(rows, cols) = 1;
common-factor: general shapes with gcd(rows, cols) > 1 (C2R's rotation);
short-walk: coprime general shapes whose C2R row walk (the split column
pass, src/c2r_walk.h) has short cycles: -cols has an order of 2 to
--max-order modulo rows (rare in the general set: the 4268 x 7567 2-byte
outlier of docs/performance.md has order 2).  --max-side caps the general
sides (and halves the lower bound of 1000 below 2000): small lists for a
quick check on a CPU.
"""
import argparse
import math
import random


def general(rng, elem, most=0):
    hi = 15000 if elem >= 8 else 20000
    hi = min(hi, most) if most else hi
    lo = min(1000, (hi + 1) // 2)
    return rng.randint(lo, hi), rng.randint(lo, hi)


def skinny(rng, k, most=0):
    hi = min(10**7, most) if most else 10**7
    long_side, short_side = rng.randint(min(10**4, (hi + 1) // 2), hi), rng.randint(2, 32)
    return (long_side, short_side) if k % 2 == 0 else (short_side, long_side)


def walk_order(rows, cols, most):
    """The order of -cols modulo rows (the longest cycle of the C2R walk
    for coprime sides), or 0 if it exceeds most."""
    g = x = (-cols) % rows
    for k in range(1, most + 1):
        if x == 1:
            return k
        x = x * g % rows
    return 0


def short_walk(rng, elem, most):
    """A coprime general shape whose walk's order is in [2, most]: one row
    count, then every column count of the range tried in a random order."""
    hi = 15000 if elem >= 8 else 20000
    while True:
        rows = rng.randint(1000, hi)
        cols = list(range(1000, hi + 1))
        rng.shuffle(cols)
        for c in cols:
            if math.gcd(rows, c) == 1 and walk_order(rows, c, most) >= 2:
                return rows, c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("set", choices=["general", "skinny", "coprime", "common-factor",
                                    "short-walk"])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--elem", type=int, default=4)
    ap.add_argument("--max-order", type=int, default=32, help="short-walk: longest cycle")
    ap.add_argument("--max-side", type=int, default=0, help="general sides (skinny: the long side) at most this")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    print(f"# tuning/shapes.py {a.set} --count {a.count} --seed {a.seed} --elem {a.elem}")
    k = 0
    while k < a.count:
        if a.set == "skinny":
            rows, cols = skinny(rng, k, a.max_side)
        elif a.set == "short-walk":
            rows, cols = short_walk(rng, a.elem, a.max_order)
        else:
            rows, cols = general(rng, a.elem, a.max_side)
            if a.set == "coprime" and math.gcd(rows, cols) != 1:
                continue
            if a.set == "common-factor" and math.gcd(rows, cols) == 1:
                continue
        print(rows, cols)
        k += 1


if __name__ == "__main__":
    main()
