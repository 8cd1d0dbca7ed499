#!/usr/bin/env bash
# The change-feed notification latency benchmark: time from the start of a writer's call to a subscriber's
# listener, on ZooKeeper (curator-test TestingServer in process) and on Consul (consul agent -dev), with 1 and 100
# subscribers, Hybris side by side with raw Curator / raw consul-client doing the same metadata work and following
# the same log the same way (and a second baseline that also makes the reads Hybris's subscription makes). Sides
# alternate round by round in one JVM; every subscriber must receive every change or the run fails. Prints Markdown
# tables (p50/p90/p99/max and Hybris / baseline; the writer's call, CPU per change).
#
# Runs io.hybris.benchmarks.ChangeFeedLatencyRun from the benchmark jar (hybris-benchmarks; BUILD=0 skips building);
# the Consul binary comes from src/test/install-consul.sh (built once and cached).
# Usage: bench/change-feed.sh [key=value ...]
#   stores=zookeeper,consul  subscribers=1,100  changes=600,300 (per side)  gap=30,200 (ms between writes)
#   rounds=6  warmup=300,100  value=1024 (bytes)
# changes, gap and warmup take one value, or one per subscriber count.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out="$(results_dir change-feed)"
cp "$(benchmark_jar)" "$out/benchmarks.jar" # a private copy: a rebuild mid-run cannot change the run
consul="$("$repo_root/src/test/install-consul.sh")"
log "running; outputs in $out"
java -Xmx2g -Dhybris.test.consul="$consul" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -Dorg.slf4j.simpleLogger.log.org.apache.zookeeper=error \
    -cp "$out/benchmarks.jar" io.hybris.benchmarks.ChangeFeedLatencyRun "$@" | tee "$out/run.txt"
grep -v '^#' "$out/run.txt" >"$out/summary.md"
log "outputs in $out"
