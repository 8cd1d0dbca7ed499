#!/usr/bin/env bash
# A faulty fastest cloud and tail latency (the performance issue's items 3 and 4): on MinIO, Azurite and
# fake-gcs-server behind toxiproxy (S3 20 ms, Azure 30 ms, GCS 40 ms per response), Hybris GETs while S3 serves
# corrupt bytes, stale bytes or hangs — first GET and steady state against the direct GET from Azure in the same
# run — and GET p50/p99/p99.9 with S3 answering 1% of GETs 10x slow, hedged reads off and on.
# Runs io.hybris.benchmarks.FaultyCloudRun from the benchmark jar (BUILD=0 skips building it); writes
# bench/results/faulty-cloud-<time>/summary.md.
# Usage: bench/faulty-cloud.sh [GETs per fault scenario (100)] [tail GETs per mode (4000)] [threads (4)]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out="$(results_dir faulty-cloud)"
jar="$(benchmark_jar)"
env_dir="$out/env"
trap '"$repo_root/src/test/test-env.sh" stop "$env_dir" >/dev/null 2>&1 || true' EXIT
log "starting MinIO, Azurite, fake-gcs-server and toxiproxy under $env_dir"
endpoints="$(start_emulators "$env_dir")"
java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.hybris.benchmarks.FaultyCloudRun \
    "$endpoints" "$@" | tee "$out/summary.md"
log "results in $out"
