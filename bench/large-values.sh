#!/usr/bin/env bash
# The large-value (streaming) benchmark: a 1 GiB value PUT and GET through Hybris (f=1, the S3 / Azure / GCS drivers
# on MinIO, Azurite and fake-gcs-server behind toxiproxy, metadata on the in-process embedded ZooKeeper) and moved the
# same way by the provider SDKs directly (S3 multipart and Azure staged blocks at once; parallel ranged S3 GETs, also
# hashed), repetitions alternating which side goes first; then the live-heap high-water mark of each operation and
# the time to first byte of range reads. Prints Markdown tables: median [min - max].
#
# Azurite (started in-memory by test-env.sh) frees the space of overwritten and deleted blobs only every 10 minutes,
# and each repetition writes 2 GiB to it; so every repetition runs in its own JVM on freshly started emulators
# (about 2.5 GiB of Azurite memory at most), and a last run measures heap and TTFB. Each run warms up (JIT,
# connections) and checks both sides byte for byte on a smaller value (warmup=MiB, 256) first. With ENDPOINTS set to
# the endpoints.properties of a running test environment (src/test/test-env.sh start <dir>), everything runs in one
# JVM on it instead (mind Azurite's memory: about 2 GiB per repetition until its next sweep).
#
# Runs io.hybris.benchmarks.LargeValuesBenchmark from the benchmark jar (hybris-benchmarks; BUILD=0 skips building).
# Usage: bench/large-values.sh [key=value ...]
#   size=MiB (1024)  latency=s3,azure,gcs ms (10,30,60)  metadata=zookeeper|memory (zookeeper)  chunk=MiB (8)
#   parallel=n (4)  readahead=n (4)  ttfb=rounds (15)  warmup=MiB (256)
# REPS (5) repetitions; HEAP sets the benchmark JVM's -Xmx (default 1g: the value cannot fit, so it must stream).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
REPS="${REPS:-5}"
out="$(results_dir large-values)"
cp "$(benchmark_jar)" "$out/benchmarks.jar" # a private copy: a rebuild mid-run cannot change the runs
jar="$out/benchmarks.jar"
run() {
    java -Xmx"${HEAP:-1g}" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.log.com.azure=error \
        -Dorg.slf4j.simpleLogger.log.org.apache.zookeeper=error -Dorg.slf4j.simpleLogger.log.reactor=off \
        -cp "$jar" io.hybris.benchmarks.LargeValuesBenchmark "$@"
}
if [ -n "${ENDPOINTS:-}" ]; then
    run "$ENDPOINTS" reps="$REPS" "$@" | tee "$out/run.txt"
    exit 0
fi
env_dir="$repo_root/target/bench-large-values"
trap '"$repo_root/src/test/test-env.sh" stop "$env_dir" >/dev/null 2>&1 || true' EXIT
fresh_env() {
    "$repo_root/src/test/test-env.sh" stop "$env_dir" >/dev/null 2>&1 || true
    rm -rf "$env_dir"
    log "starting MinIO, Azurite, fake-gcs-server and toxiproxy under $env_dir"
    "$repo_root/src/test/test-env.sh" start "$env_dir"
}
for ((i = 0; i < REPS; i++)); do
    endpoints="$(fresh_env)"
    log "repetition $((i + 1)) of $REPS"
    run "$endpoints" reps=1 first="$i" heap=false ttfb=0 "$@" | tee "$out/rep-$((i + 1)).txt" >&2
done
endpoints="$(fresh_env)"
log "heap and time to first byte"
run "$endpoints" reps=0 "$@" | tee "$out/heap-ttfb.txt" >&2
"$repo_root/src/test/test-env.sh" stop "$env_dir" >/dev/null 2>&1 || true
echo
if [ "$REPS" -gt 0 ]; then
    run --summarize "$out"/rep-*.txt | tee "$out/summary.md"
fi
grep -v '^#' "$out/heap-ttfb.txt" | tee -a "$out/summary.md"
log "outputs in $out"
