#!/usr/bin/env bash
# Scenario (c): YCSB core workloads A-F through the Hybris binding against a configured deployment.
#   bench/deployment.sh <hybris.properties> [container]
# The properties file is the one your application uses (secrets from the environment, HYBRIS_* variables); the
# container (default ycsb-bench) is loaded with RECORDS records first. Prints throughput and per-operation
# p50/p95/p99; writes results.csv, summary.md and latency.png. Knobs: see lib.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
config="${1:?usage: bench/deployment.sh <hybris.properties> [container]}"
[ -f "$config" ] || { log "no such file: $config"; exit 2; }
config="$(cd "$(dirname "$config")" && pwd)/$(basename "$config")"
container="${2:-ycsb-bench}"
out="$(results_dir deployment)"
build_classpath "$out"
trap 'rm -rf "$out/lib"' EXIT
hybris=(-p "hybris.config=$config" -p "hybris.container=$container")
ycsb "$out" hybris load a io.hybris.ycsb.HybrisClient "${hybris[@]}"
for w in $WORKLOADS; do
    ycsb "$out" hybris run "$w" io.hybris.ycsb.HybrisClient "${hybris[@]}"
done
report "$out" "Hybris YCSB, deployment $(basename "$config"), $THREADS threads"
log "results in $out"
