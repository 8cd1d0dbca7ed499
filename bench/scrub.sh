#!/usr/bin/env bash
# The scrub and repair benchmark (docs/scrub.md): Hybris f=1 over MinIO, Azurite and fake-gcs-server (no injected
# latency), metadata on an in-process ZooKeeper; per kind of value (replicated, erasure-coded k=2, chunked), a listing
# and a deep scrub of healthy data, then a repairing scrub after one cloud lost every object: keys/s, requests, MiB/s
# rebuilt and bytes read per byte rebuilt. Runs io.hybris.benchmarks.ScrubBenchmark from the benchmark jar
# (hybris-benchmarks; BUILD=0 skips building it) and writes its table to bench/results/scrub-<time>/summary.md.
# Usage: bench/scrub.sh [keys per kind (300)] [value KiB (64)]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out="$(results_dir scrub)"
env_dir="$out/env"
trap '"$repo_root/src/test/test-env.sh" stop "$env_dir" >/dev/null 2>&1 || true' EXIT
jar="$(benchmark_jar)"
log "starting MinIO, Azurite, fake-gcs-server and toxiproxy under $env_dir"
endpoints="$(start_emulators "$env_dir")"
java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.hybris.benchmarks.ScrubBenchmark \
    "$endpoints" "$@" | tee "$out/summary.md"
log "results in $out"
