#!/usr/bin/env bash
# The cloud-path latency benchmark (issue 3): on MinIO, Azurite and fake-gcs-server behind toxiproxy with
# injected per-response latencies, each provider SDK's direct GET/PUT, raw Curator's metadata read and CAS on an
# in-process ZooKeeper, and Hybris (f=1) GET/PUT, for 100 KiB, 1 MiB and 10 MiB values, interleaved round by round.
# Prints a Markdown table of medians / p99s (ms) and the ratio of Hybris to the paper's expectation (§5.1):
#   GET <= fastest direct GET + one metadata read;  PUT <= second-fastest direct PUT + one metadata read + one CAS.
# Runs io.hybris.benchmarks.CloudPathBenchmark from the benchmark jar (hybris-benchmarks; BUILD=0 skips building
# it). Starts its own servers under target/bench-cloud-path and stops them on exit.
# Usage: bench/cloud-path.sh [s3-ms azure-ms gcs-ms [sizes in KiB ...]]    (defaults: 10 30 60  100 1024 10240)
# BANDWIDTH_KBPS=n also limits each connection's downloads to n KB/s (toxiproxy's bandwidth toxic), as a real
# cloud's per-connection throughput does; unset or 0: no limit.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
env_dir="$repo_root/target/bench-cloud-path"
trap '"$repo_root/src/test/test-env.sh" stop "$env_dir" >/dev/null 2>&1 || true' EXIT
jar="$(benchmark_jar)"
log "starting MinIO, Azurite, fake-gcs-server and toxiproxy under $env_dir"
endpoints="$("$repo_root/src/test/test-env.sh" start "$env_dir")"
[ $# -gt 0 ] || set -- 10 30 60 100 1024 10240
java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dhybris.bench.bandwidth-kbps="${BANDWIDTH_KBPS:-0}" \
    -cp "$jar" io.hybris.benchmarks.CloudPathBenchmark \
    "$endpoints" "$@"
