#!/usr/bin/env python3
"""Prices the YCSB phases of bench/cost.sh and writes cost.csv, cost.md (printed) and cost.png.

Usage: cost_report.py <results-dir> "<placements>" <title>

Reads prices.properties (flat list prices per cloud: storage per GB-month, requests per 1,000 by class, egress per
GB, a GB being 2^30 bytes), and for each placement and workload the YCSB report <placement>-run-workload<x>.txt and
the client's usage usage-<placement>-run-workload<x>.properties (requests by class and bytes per cloud, counted by
Hybris at the cloud interface). $ per million operations = (requests + egress) / operations * 10^6. Storage per
month is that of the loaded records where the load phase put them.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (the YCSB report parser of the other benchmarks)

GB = float(1 << 30)


def properties(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            k, v = line.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def sheets(path):
    """{cloud: {item: price}} from hybris.cloud.<id>.price.<item> lines."""
    out = {}
    for k, v in properties(path).items():
        parts = k.split(".")
        if len(parts) == 5 and parts[0] == "hybris" and parts[1] == "cloud" and parts[3] == "price":
            out.setdefault(parts[2], {})[parts[4]] = float(v)
    return out


def usage(path):
    """{cloud: {counter: int}} from a binding usage file."""
    out = {}
    for k, v in properties(path).items():
        cloud, counter = k.rsplit(".", 1)
        out.setdefault(cloud, {})[counter] = int(v)
    return out


def charges(use, prices):
    """(requests $, egress $) of one phase."""
    requests = egress = 0.0
    for cloud, u in use.items():
        p = prices[cloud]
        requests += (u["put_list"] * p["put-list-per-1000"] + u["get_head"] * p["get-head-per-1000"]
                     + u["delete"] * p["delete-per-1000"]) / 1000
        egress += u["bytes_in"] / GB * p["egress-gb"]
    return requests, egress


def main(out, placements, title):
    prices = sheets(os.path.join(out, "prices.properties"))
    rows = []
    for placement in placements:
        load = usage(os.path.join(out, "usage-%s-load-workloada.properties" % placement))
        storage = sum(u["bytes_out"] / GB * prices[c]["storage-gb-month"] for c, u in load.items())
        loaded_on = sorted((c for c, u in load.items() if u["bytes_out"] > 0), key=lambda c: -load[c]["bytes_out"])
        for w in "abcdef":
            txt = os.path.join(out, "%s-run-workload%s.txt" % (placement, w))
            if not os.path.exists(txt):
                continue
            r = report.parse(txt)
            use = usage(os.path.join(out, "usage-%s-run-workload%s.properties" % (placement, w)))
            ops = sum(o["count"] for o in r["ops"].values())
            req, egr = charges(use, prices)
            reads = {c: u["get_head"] for c, u in use.items()}
            writes = {c: u["put_list"] for c, u in use.items()}
            row = {
                "placement": placement, "workload": w.upper(), "ops": ops,
                "throughput": round(r["throughput"] or 0, 1),
                "usd_per_million_ops": round((req + egr) / ops * 1e6, 4) if ops else None,
                "requests_usd_per_million": round(req / ops * 1e6, 4) if ops else None,
                "egress_usd_per_million": round(egr / ops * 1e6, 4) if ops else None,
                "storage_usd_per_month_loaded": round(storage, 6),
                "loaded_on": "+".join(loaded_on),
                "reads_by_cloud": " ".join("%s:%d" % (c, n) for c, n in sorted(reads.items())),
                "puts_by_cloud": " ".join("%s:%d" % (c, n) for c, n in sorted(writes.items())),
            }
            for op in ("READ", "UPDATE"):
                o = r["ops"].get(op)
                row[op.lower() + "_p50_ms"] = round(o["p50"] / 1000, 1) if o and o["p50"] is not None else None
                row[op.lower() + "_p99_ms"] = round(o["p99"] / 1000, 1) if o and o["p99"] is not None else None
            rows.append(row)
    with open(os.path.join(out, "cost.csv"), "w", newline="", encoding="utf-8") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        wr.writeheader()
        wr.writerows(rows)
    lines = ["# " + title, "",
             "| placement | workload | ops/s | $/M ops | of which egress | READ p50 / p99 ms | UPDATE p50 / p99 ms"
             " | GETs by cloud | PUT+LIST by cloud | loaded on | storage $/month |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s | %s | %s | %s | %s / %s | %s / %s | %s | %s | %s | %s |" % (
            r["placement"], r["workload"], r["throughput"], r["usd_per_million_ops"], r["egress_usd_per_million"],
            r["read_p50_ms"], r["read_p99_ms"], r["update_p50_ms"], r["update_p99_ms"], r["reads_by_cloud"],
            r["puts_by_cloud"], r["loaded_on"], r["storage_usd_per_month_loaded"]))
    text = "\n".join(lines) + "\n"
    open(os.path.join(out, "cost.md"), "w", encoding="utf-8").write(text)
    print(text)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no matplotlib: no cost.png)")
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    markers = {"A": "o", "B": "s", "C": "^"}
    colors = {"latency": "tab:blue", "cost": "tab:green", "balanced": "tab:orange"}
    for ax, pct in zip(axes, ("p50", "p99")):
        for r in rows:
            y = r["read_%s_ms" % pct] or r["update_%s_ms" % pct]
            ax.scatter(r["usd_per_million_ops"], y, marker=markers.get(r["workload"], "x"),
                       color=colors.get(r["placement"], "gray"), s=60)
            ax.annotate("%s/%s" % (r["placement"], r["workload"]), (r["usd_per_million_ops"], y), fontsize=7,
                        xytext=(4, 3), textcoords="offset points")
        ax.set_xlabel("$ per million operations (requests + egress)")
        ax.set_ylabel("READ %s latency (ms)" % pct)
        ax.grid(alpha=0.3)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "cost.png"), dpi=120)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2].split(), sys.argv[3])
