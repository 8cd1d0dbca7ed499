#!/usr/bin/env python3
"""Summarizes bench/erasure-coders.sh's JMH results: MiB/s (ops/s x k), MiB per CPU-second (the ratio of the
summed mib and cpuSeconds counters) and the Java coder's ratio to the byte-table reference, per shape and operation.

Usage: erasure_report.py "<host SIMD features>" <ec.json> [<ec-avx2.json>]
"""
import json
import sys


def rows(path):
    out = {}
    for r in json.load(open(path)):
        name = r["benchmark"].rsplit(".", 1)[1]
        p = r["params"]
        k = int(p["shape"].split("+")[0])
        sec = r.get("secondaryMetrics", {})
        cpu = sec.get("cpuSeconds", {}).get("score") or 0
        mib = sec.get("mib", {}).get("score") or 0
        out[(p["shape"], name, p["coder"])] = (r["primaryMetric"]["score"] * k, r["primaryMetric"]["scoreError"] * k,
                                               mib / cpu if cpu else None)
    return out


def table(title, data):
    print("### " + title)
    print()
    print("| shape | operation | coder | MiB/s (± error) | MiB per CPU-second | Java / reference |")
    print("|---|---|---|---|---|---|")
    for (shape, op, coder), (rate, err, per_cpu) in sorted(data.items()):
        ref = data.get((shape, op, "reference"))
        ratio = "%.2f" % (rate / ref[0]) if coder == "java" and ref and op != "arraycopy" else ""
        print("| %s | %s | %s | %.0f ± %.0f | %s | %s |" % (shape, op, coder, rate, err,
                                                          "%.0f" % per_cpu if per_cpu else "—", ratio))
    print()


features = sys.argv[1]
print("Host SIMD features: " + (features or "unknown"))
print()
table("All coders, the JIT free to use every SIMD extension", rows(sys.argv[2]))
if len(sys.argv) > 3:
    table("Java and reference coders, the JIT limited to AVX2 (-XX:UseAVX=2)", rows(sys.argv[3]))
