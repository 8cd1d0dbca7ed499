#!/usr/bin/env bash
# The large-value (streaming) benchmark: a 1 GiB value PUT and GET through Hybris (f=1, the S3 / Azure / GCS drivers
# on MinIO, Azurite and fake-gcs-server behind toxiproxy, metadata on the in-process embedded ZooKeeper) and moved the
# same way by the provider SDKs directly (S3 multipart and Azure staged blocks at once; parallel ranged S3 GETs),
# repetitions alternating which side goes first; then the live-heap high-water mark of each operation and the time to
# first byte of range reads. Prints Markdown tables: median [min - max].
# Runs io.hybris.benchmarks.LargeValuesBenchmark from the benchmark jar (hybris-benchmarks; BUILD=0 skips building
# it). Starts its own servers under target/bench-large-values and stops them on exit, unless ENDPOINTS names the
# endpoints.properties of a running test environment (src/test/test-env.sh start <dir>), which is then used as is.
# Usage: bench/large-values.sh [key=value ...]
#   size=MiB (1024)  reps=n (5)  latency=s3,azure,gcs ms (10,30,60)  metadata=zookeeper|memory (zookeeper)
#   chunk=MiB (8)  parallel=n (4)  readahead=n (4)  ttfb=rounds (15)  heap=true|false (true)
# HEAP sets the benchmark JVM's -Xmx (default 1g: the value cannot fit, so it must stream).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
jar="$(benchmark_jar)"
if [ -n "${ENDPOINTS:-}" ]; then
    endpoints="$ENDPOINTS"
else
    env_dir="$repo_root/target/bench-large-values"
    trap '"$repo_root/src/test/test-env.sh" stop "$env_dir" >/dev/null 2>&1 || true' EXIT
    log "starting MinIO, Azurite, fake-gcs-server and toxiproxy under $env_dir"
    endpoints="$("$repo_root/src/test/test-env.sh" start "$env_dir")"
fi
java -Xmx"${HEAP:-1g}" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.log.com.azure=error \
    -Dorg.slf4j.simpleLogger.log.org.apache.zookeeper=error \
    -cp "$jar" io.hybris.benchmarks.LargeValuesBenchmark "$endpoints" "$@"
