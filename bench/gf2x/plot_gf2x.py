#!/usr/bin/env python3
"""bench/gf2x/plot_gf2x.py: time vs limbs per method (log-log PNG) from bench_gf2x's CSV.

usage: python3 bench/gf2x/plot_gf2x.py [bench/results/gf2x_mul.csv] [out.png]
The CSV holds seconds per 100 multiplications; the plot shows microseconds per
multiplication. Entries "skip" (quadratic methods above --comb-max) are left out.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "bench/results/gf2x_mul.csv"
    out = sys.argv[2] if len(sys.argv) > 2 else src.rsplit(".", 1)[0] + ".png"
    comments, rows = [], []
    with open(src) as f:
        for line in f:
            if line.startswith("#"):
                comments.append(line[1:].strip())
            elif line.strip():
                rows.append(line.strip())
    table = list(csv.reader(rows))
    header, data = table[0], table[1:]
    limbs = [int(r[0]) for r in data]
    fig, ax = plt.subplots(figsize=(10, 7))
    styles = {"mpb_mul": dict(lw=2.5, color="black"), "gf2x_pclmul": dict(lw=2.5, ls="--", color="tab:red")}
    for j, name in enumerate(header[1:], start=1):
        xs, ys = [], []
        for n, r in zip(limbs, data):
            if r[j] not in ("", "skip"):
                xs.append(n)
                ys.append(float(r[j]) * 1e6 / 100.0)
        if xs:
            ax.plot(xs, ys, marker=".", ms=3, label=name, **styles.get(name, dict(lw=1)))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("limbs (64-bit) per operand")
    ax.set_ylabel("microseconds per multiplication")
    ax.set_title("GF(2)[x] multiplication, n x n limbs\n" + "; ".join(comments[1:2]), fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print("wrote", out)


if __name__ == "__main__":
    main()
