#!/usr/bin/env bash
# Scenario (b): Hybris f=1 over three emulated clouds — MinIO (S3), Azurite (Azure Blob), fake-gcs-server (GCS) —
# each behind toxiproxy with its own injected latency, metadata on an in-process ZooKeeper (on premises: no added
# latency); and in the same run the baseline: the same workloads through io.hybris.benchmarks.DirectS3Client
# straight to the same MinIO behind the same S3 proxy and latency. Runs interleave (A on Hybris, A on the
# baseline, B ...).
# Prints throughput, per-operation p50/p95/p99 and Hybris/baseline ratios; writes results.csv, summary.md and
# latency.png. Starts its own servers under the results directory and stops them on exit.
# Knobs: S3_LATENCY_MS (20), AZURE_LATENCY_MS (30), GCS_LATENCY_MS (40), and those of lib.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
S3_LATENCY_MS="${S3_LATENCY_MS:-20}"
AZURE_LATENCY_MS="${AZURE_LATENCY_MS:-30}"
GCS_LATENCY_MS="${GCS_LATENCY_MS:-40}"
out="$(results_dir emulated)"
build_classpath "$out"

env_dir="$out/env"
cleanup() {
    "$repo_root/src/test/test-env.sh" stop "$env_dir" >/dev/null 2>&1 || true
    rm -rf "$out/lib" "$out/data"
}
trap cleanup EXIT
log "starting MinIO, Azurite, fake-gcs-server and toxiproxy under $env_dir"
endpoints="$("$repo_root/src/test/test-env.sh" start "$env_dir")"
prop() { sed -n "s/^$1=//p" "$endpoints"; }
toxiproxy="$(prop toxiproxy.api)"

add_latency() { # proxy-name milliseconds
    local answer
    answer="$(curl -s -w '\n%{http_code}' -X POST "$toxiproxy/proxies/$1/toxics" \
        -d "{\"name\":\"bench-latency\",\"type\":\"latency\",\"stream\":\"downstream\",\"toxicity\":1.0,\"attributes\":{\"latency\":$2,\"jitter\":0}}")"
    [ "${answer##*$'\n'}" = 200 ] || { log "toxiproxy refused latency on $1: $answer"; return 1; }
    log "proxy $1: +$2 ms per response"
}
add_latency s3 "$S3_LATENCY_MS"
add_latency azure "$AZURE_LATENCY_MS"
add_latency gcs "$GCS_LATENCY_MS"

cat >"$out/hybris.properties" <<PROPS
# Hybris f=1 over the three emulators behind toxiproxy (written by bench/emulated.sh)
hybris.f=1
# rank the clouds at start-up (the paper's client does): the run phase is a fresh, read-only client
hybris.ranking.probe-on-open=true
hybris.rmds.type=embedded-zookeeper
hybris.rmds.embedded-zookeeper.data-dir=$out/data/zookeeper
hybris.cloud.s3.type=s3
hybris.cloud.s3.endpoint=$(prop minio.proxy)
hybris.cloud.s3.region=us-east-1
hybris.cloud.s3.bucket=hybris-bench
hybris.cloud.s3.access-key=$(prop minio.access-key)
hybris.cloud.s3.secret-key=$(prop minio.secret-key)
hybris.cloud.s3.path-style=true
hybris.cloud.s3.create-bucket=true
hybris.cloud.azure.type=azure
hybris.cloud.azure.endpoint=$(prop azurite.proxy)
hybris.cloud.azure.container=hybris-bench
hybris.cloud.azure.account=$(prop azurite.account)
hybris.cloud.azure.key=$(prop azurite.key)
hybris.cloud.azure.create-bucket=true
hybris.cloud.gcs.type=gcs
hybris.cloud.gcs.endpoint=$(prop gcs.proxy)
hybris.cloud.gcs.project=$(prop gcs.project)
hybris.cloud.gcs.bucket=hybris-bench
hybris.cloud.gcs.anonymous=true
hybris.cloud.gcs.create-bucket=true
PROPS
hybris=(-p "hybris.config=$out/hybris.properties")
baseline=(-p "s3.endpoint=$(prop minio.proxy)" -p s3.bucket=ycsb-baseline -p "s3.access-key=$(prop minio.access-key)"
    -p "s3.secret-key=$(prop minio.secret-key)")

ycsb "$out" hybris load a io.hybris.ycsb.HybrisClient "${hybris[@]}"
ycsb "$out" baseline load a io.hybris.benchmarks.DirectS3Client "${baseline[@]}"
for w in $WORKLOADS; do
    ycsb "$out" hybris run "$w" io.hybris.ycsb.HybrisClient "${hybris[@]}"
    ycsb "$out" baseline run "$w" io.hybris.benchmarks.DirectS3Client "${baseline[@]}"
done
report "$out" "YCSB, Hybris f=1 over S3/Azure/GCS emulators (+${S3_LATENCY_MS}/${AZURE_LATENCY_MS}/${GCS_LATENCY_MS} ms) vs direct S3 (+${S3_LATENCY_MS} ms), $THREADS threads"
log "results in $out"
