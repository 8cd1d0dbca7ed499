#!/usr/bin/env bash
# Scenario (a): YCSB core workloads A-F through the Hybris binding on the embedded default (in-process ZooKeeper,
# three directory clouds, f=1), data under the results directory. Prints throughput and per-operation
# p50/p95/p99; writes results.csv, summary.md and latency.png. Knobs: see lib.sh (WORKLOADS, RECORDS, RUN_SECONDS,
# THREADS, ...).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out="$(results_dir embedded)"
build_classpath "$out"
trap 'rm -rf "$out/lib" "$out/data"' EXIT
hybris=(-p "hybris.embedded.dir=$out/data")
ycsb "$out" hybris load a io.hybris.ycsb.HybrisClient "${hybris[@]}"
for w in $WORKLOADS; do
    ycsb "$out" hybris run "$w" io.hybris.ycsb.HybrisClient "${hybris[@]}"
done
report "$out" "Hybris YCSB, embedded default (in-process ZooKeeper, 3 directory clouds, f=1), $THREADS threads"
log "results in $out"
