#!/usr/bin/env bash
# The cloud-path latency benchmark (issue 3): on MinIO, Azurite and fake-gcs-server behind toxiproxy with
# injected per-response latencies, each provider SDK's direct GET/PUT, raw Curator's metadata read and CAS on an
# in-process ZooKeeper, and Hybris (f=1) GET/PUT, for 100 KiB, 1 MiB and 10 MiB values, interleaved round by round.
# Prints a Markdown table of medians / p99s (ms) and the ratio of Hybris to the paper's expectation (§5.1):
#   GET <= fastest direct GET + one metadata read;  PUT <= second-fastest direct PUT + one metadata read + one CAS.
# Starts its own servers under target/bench-cloud-path and stops them on exit.
# Usage: bench/cloud-path.sh [s3-ms azure-ms gcs-ms [sizes in KiB ...]]    (defaults: 10 30 60  100 1024 10240)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
env_dir="$root/target/bench-cloud-path"
log() { echo "cloud-path: $*" >&2; }
trap '"$root/src/test/test-env.sh" stop "$env_dir" >/dev/null 2>&1 || true' EXIT
if [ "${BUILD:-1}" != 0 ]; then
    log "building the drivers and the benchmark"
    (cd "$root" && mvn -B -q -ntp install -DskipTests -pl hybris-clouds/e2e -am) >&2
fi
log "starting MinIO, Azurite, fake-gcs-server and toxiproxy under $env_dir"
endpoints="$("$root/src/test/test-env.sh" start "$env_dir")"
args=("$endpoints" "${@:-10 30 60 100 1024 10240}")
# shellcheck disable=SC2068 # the default is one word list on purpose
(cd "$root" && mvn -B -q -ntp exec:java -pl hybris-clouds/e2e \
    -Dexec.mainClass=io.hybris.cloud.e2e.CloudPathBenchmark -Dexec.args="${args[*]}" \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn)
