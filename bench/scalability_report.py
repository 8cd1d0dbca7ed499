#!/usr/bin/env python3
"""Plots the results.csv of ScalabilityBenchmark: throughput vs concurrent callers, Hybris and raw on one plot.

Usage: scalability_report.py <results-dir>

Writes <results-dir>/scalability.png: one panel per metadata store (columns) and operation (rows), throughput
(ops/s) against callers on a log2 axis; Hybris in blue, the raw metadata client in orange; threads sharing one
client solid, client processes dashed. Prints the markdown line that embeds the PNG.
"""
import csv
import os
import sys


def main():
    out = sys.argv[1]
    rows = list(csv.DictReader(open(os.path.join(out, "results.csv"), encoding="utf-8")))
    if not rows:
        print("scalability_report.py: results.csv has no rows", file=sys.stderr)
        return
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("scalability_report.py: matplotlib not available; no scalability.png", file=sys.stderr)
        return
    stores = list(dict.fromkeys(r["store"] for r in rows))
    ops = list(dict.fromkeys(r["op"] for r in rows))
    modes = list(dict.fromkeys(r["mode"] for r in rows))
    colours = {"hybris": "#1f5fa8", "raw": "#d0701d"}
    styles = ["-", "--", ":"]
    fig, axes = plt.subplots(len(ops), len(stores), figsize=(4.6 * len(stores), 3.8 * len(ops)), squeeze=False)
    for oi, op in enumerate(ops):
        for si, store in enumerate(stores):
            ax = axes[oi][si]
            for mi, mode in enumerate(modes):
                for side in ("hybris", "raw"):
                    pts = sorted((int(r["callers"]), float(r["ops_per_s"])) for r in rows
                                 if r["store"] == store and r["op"] == op and r["mode"] == mode
                                 and r["side"] == side)
                    if not pts:
                        continue
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], styles[mi % len(styles)], marker="o",
                            color=colours[side], label=f"{'Hybris' if side == 'hybris' else 'raw'}, {mode}")
            ax.set_xscale("log", base=2)
            ax.set_xlabel("concurrent callers")
            ax.set_ylabel(f"{op} ops/s")
            ax.set_ylim(bottom=0)
            ax.set_title(f"{op} on {store}")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7)
    fig.tight_layout()
    png = os.path.join(out, "scalability.png")
    fig.savefig(png, dpi=110)
    print("\n![throughput vs concurrent callers, Hybris and raw](scalability.png)")


if __name__ == "__main__":
    main()
