#!/usr/bin/env python3
"""Turns the YCSB outputs of one bench run into results.csv, summary.md and latency.png.

Usage: report.py <results-dir> <title>

Reads <system>-run-workload<x>.txt (YCSB's text report, hdrhistogram with percentiles 50,95,99) for the systems
"hybris" and, when present, "baseline". Prints the summary (throughput, per-operation p50/p95/p99, and
Hybris/baseline ratios: throughput ratio, and baseline/Hybris latency ratio so that > 1 means Hybris is faster).
"""
import csv
import glob
import os
import re
import sys

LINE = re.compile(r"^\[([A-Z-]+)\], ([^,]+), (.+)$")
STATUS = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d):(\d{3}) \d+ sec: (\d+) operations;")
OPS = ["READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"]


def parse(path):
    """{'throughput': float, 'ops': {op: {count, avg, p50, p95, p99, errors}}} from one YCSB report."""
    result = {"throughput": None, "runtime_ms": None, "ops": {}}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = LINE.match(line.strip())
        if not m:
            continue
        section, metric, value = m.groups()
        if section == "OVERALL":
            if metric.startswith("Throughput"):
                result["throughput"] = float(value)
            elif metric.startswith("RunTime"):
                result["runtime_ms"] = float(value)
            continue
        failed = section.endswith("-FAILED")
        op = section[: -len("-FAILED")] if failed else section
        if op not in OPS:
            continue
        o = result["ops"].setdefault(op, {"count": 0, "avg": None, "p50": None, "p95": None, "p99": None,
                                          "errors": 0})
        if failed:
            if metric == "Operations":
                o["errors"] += int(float(value))
            continue
        if metric == "Operations":
            o["count"] = int(float(value))
        elif metric == "AverageLatency(us)":
            o["avg"] = float(value)
        elif metric in ("50thPercentileLatency(us)", "95thPercentileLatency(us)", "99thPercentileLatency(us)"):
            o["p" + metric[:2]] = float(value)
        elif metric.startswith("Return=") and metric != "Return=OK":
            o["errors"] += int(float(value))
    return result


def steady_throughput(status_path):
    """Operations per second between the first and the last progress line that counted operations: the run
    without client start-up (JVM, SDKs, opening the store), which YCSB's own overall throughput includes."""
    import datetime
    points = []
    if not os.path.exists(status_path):
        return None
    for line in open(status_path, encoding="utf-8", errors="replace"):
        m = STATUS.match(line)
        if m:
            t = datetime.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S").timestamp() + int(m.group(2)) / 1000
            points.append((t, int(m.group(3))))
    started = [i for i, (_, ops) in enumerate(points) if ops > 0]
    if len(started) < 2:
        return None
    # the point before the first non-zero one is the last with no operations: start the window there
    first = max(started[0] - 1, 0)
    last = started[-2] if len(started) > 2 else started[-1]  # the very last line is after the stop request
    (t0, n0), (t1, n1) = points[first], points[last]
    return (n1 - n0) / (t1 - t0) if t1 > t0 else None


def main():
    out, title = sys.argv[1], sys.argv[2]
    runs = {}  # (system, workload) -> parsed
    for path in sorted(glob.glob(os.path.join(out, "*-run-workload*.txt"))):
        name = os.path.basename(path)[: -len(".txt")]
        system, _, workload = name.partition("-run-workload")
        runs[(system, workload)] = parse(path)
        runs[(system, workload)]["steady"] = steady_throughput(path[: -len(".txt")] + ".status")
    if not runs:
        sys.exit("report.py: no *-run-workload*.txt in " + out)
    workloads = sorted({w for _, w in runs})
    systems = [s for s in ("hybris", "baseline") if any(k[0] == s for k in runs)]

    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["workload", "system", "throughput_ops_s", "steady_throughput_ops_s", "operation", "count", "errors", "avg_us", "p50_us",
                    "p95_us", "p99_us"])
        for wl in workloads:
            for s in systems:
                r = runs.get((s, wl))
                if not r:
                    continue
                for op, o in r["ops"].items():
                    w.writerow([wl, s, r["throughput"], r["steady"], op, o["count"], o["errors"], o["avg"], o["p50"],
                                o["p95"], o["p99"]])

    lines = [f"# {title}", "", "ops/s: YCSB's overall throughput (includes client start-up); steady: between the"
             " first and last progress lines that counted operations. Latencies in ms (YCSB HdrHistogram)."
             " Ratios: throughput Hybris/baseline; per operation, p50 baseline/Hybris (above 1: Hybris faster).",
             ""]
    header = "| workload | system | ops/s | steady ops/s | operation | count | errors | p50 | p95 | p99 |"
    lines += [header, "|" + "---|" * 10]
    for wl in workloads:
        for s in systems:
            r = runs.get((s, wl))
            if not r:
                continue
            for op, o in r["ops"].items():
                lines.append(f"| {wl.upper()} | {s} | {r['throughput']:.0f} | {num(r['steady'])} | {op} | {o['count']} | {o['errors']} |"
                             f" {ms(o['p50'])} | {ms(o['p95'])} | {ms(o['p99'])} |")
    if "baseline" in systems:
        lines += ["", "| workload | Hybris ops/s (steady) | baseline ops/s (steady) | throughput ratio |"
                      " steady ratio | p50 ratio per operation |", "|---|---|---|---|---|---|"]
        for wl in workloads:
            h, b = runs.get(("hybris", wl)), runs.get(("baseline", wl))
            if not h or not b:
                continue
            per_op = ", ".join(f"{op} {b['ops'][op]['p50'] / h['ops'][op]['p50']:.2f}"
                               for op in h["ops"] if op in b["ops"] and h["ops"][op]["p50"]
                               and b["ops"][op]["p50"])
            steady = (f"{h['steady'] / b['steady']:.2f}" if h["steady"] and b["steady"] else "-")
            lines.append(f"| {wl.upper()} | {h['throughput']:.0f} ({num(h['steady'])}) | {b['throughput']:.0f}"
                         f" ({num(b['steady'])}) | {ratio(h['throughput'], b['throughput'])} | {steady} | {per_op} |")
    summary = "\n".join(lines) + "\n"
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(summary)
    print(summary)
    plot(out, title, runs, workloads, systems)


def num(x):
    return "-" if x is None else f"{x:.0f}"


def ratio(a, b):
    return f"{a / b:.2f}" if a and b else "-"


def ms(us):
    return "-" if us is None else f"{us / 1000:.1f}"


def plot(out, title, runs, workloads, systems):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report.py: matplotlib not available; no latency.png", file=sys.stderr)
        return
    fig, axes = plt.subplots(1, len(workloads), figsize=(4.2 * len(workloads), 4.6), squeeze=False)
    colours = {"hybris": ["#1f5fa8", "#4f8fd8", "#9fc3ee"], "baseline": ["#b5651d", "#e0954d", "#f3c99b"]}
    for ax, wl in zip(axes[0], workloads):
        ops = [op for op in OPS if any(op in runs.get((s, wl), {"ops": {}})["ops"] for s in systems)]
        width = 0.8 / (3 * len(systems))
        for si, s in enumerate(systems):
            r = runs.get((s, wl))
            if not r:
                continue
            for pi, p in enumerate(("p50", "p95", "p99")):
                xs = [i + (si * 3 + pi) * width - 0.4 + width / 2 for i in range(len(ops))]
                ys = [(r["ops"].get(op, {}).get(p) or 0) / 1000 for op in ops]
                ax.bar(xs, ys, width, color=colours[s][pi], label=f"{s} {p}")
        ax.set_xticks(range(len(ops)))
        ax.set_xticklabels([o.replace("READ-MODIFY-WRITE", "RMW") for o in ops], fontsize=8)
        thr = " / ".join(num(runs[(s, wl)]["steady"] or runs[(s, wl)]["throughput"]) for s in systems
                         if (s, wl) in runs)
        ax.set_title(f"workload {wl.upper()}  ({thr} ops/s steady)", fontsize=9)
        ax.set_ylabel("latency (ms)")
        ax.grid(axis="y", alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=6, fontsize=8)
    import textwrap
    heading = title + ": latency percentiles per operation" + (", Hybris vs baseline" if len(systems) > 1 else "")
    fig.suptitle(textwrap.fill(heading, width=int(24 * len(workloads)) + 20), fontsize=10)
    fig.tight_layout(rect=(0, 0.07, 1, 0.9))
    fig.savefig(os.path.join(out, "latency.png"), dpi=110)
    print("report.py: wrote " + os.path.join(out, "latency.png"), file=sys.stderr)


if __name__ == "__main__":
    main()
