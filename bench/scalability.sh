#!/usr/bin/env bash
# Scalability (the performance issue's item 1, the paper's Fig. 7): Hybris GET and PUT throughput and p50/p99 latency
# with 1, 4, 16, 64 and 256 concurrent callers (threads sharing one client, and 4 client processes), on one ZooKeeper,
# a 3-server ensemble and a Consul dev agent, with in-memory clouds, each point side by side with the raw metadata
# client (Curator / consul-client) issuing the same metadata requests at the same concurrency in the same run, each
# side measured in twelve half-second slices in the order A B B A A B B A ... so a drift of the machine weighs on both
# alike; each row gives the pooled ratio (operations over all slices) and the paired one (median over the 12
# back-to-back pairs of slices, with their range).
# Runs io.hybris.benchmarks.ScalabilityBenchmark from the benchmark jar (BUILD=0 skips building it); writes
# bench/results/scalability-<time>/summary.md, results.csv and scalability.png (throughput vs callers, Hybris and
# raw on one plot). Consul comes from src/test/install-consul.sh (cached; CONSUL=<binary> to give one); without it
# the Consul rows are left out.
# Usage: bench/scalability.sh [seconds per point and side (6)] [more ScalabilityBenchmark options, e.g. --callers 1,4,16]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out="$(results_dir scalability)"
jar="$(benchmark_jar)"
seconds="${1:-6}"
shift || true
stores=(--stores zookeeper,ensemble,consul)
consul="${CONSUL:-$("$repo_root/src/test/install-consul.sh" 2>/dev/null || true)}"
if [ -z "$consul" ]; then
    log "no Consul binary (src/test/install-consul.sh failed): ZooKeeper only"
    stores=(--stores zookeeper,ensemble)
fi
log "2 x (seconds + 3) s per row (twelve slices per side, A B B A A B B A ..., each after 0.25 s of warm-up), 54 rows with the defaults, plus 10 s (threads) and 30 s (processes) of JIT warm-up per side, op and store: about 25 minutes at 6 s"
java -Xmx3g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dhybris.test.consul="$consul" -cp "$jar" \
    io.hybris.benchmarks.ScalabilityBenchmark --seconds "$seconds" --out "$out" "${stores[@]}" "$@" \
    | tee "$out/summary.md"
py="$(plot_python)"
"${py:-python3}" "$bench_dir/scalability_report.py" "$out" | tee -a "$out/summary.md"
log "results in $out"
