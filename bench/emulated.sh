#!/usr/bin/env bash
# Scenario (b): Hybris f=1 over three emulated clouds — MinIO (S3), Azurite (Azure Blob), fake-gcs-server (GCS) —
# each behind toxiproxy with its own injected latency, metadata on an in-process ZooKeeper (on premises: no added
# latency); and in the same run the baseline: the same workloads through io.hybris.benchmarks.DirectS3Client
# straight to the same MinIO behind the same S3 proxy and latency. Runs interleave (A on Hybris, A on the
# baseline, B ...).
# Prints throughput, per-operation p50/p95/p99 and Hybris/baseline ratios; writes results.csv, summary.md and
# latency.png. Starts its own servers under the results directory and stops them on exit.
# Knobs: S3_LATENCY_MS (20), AZURE_LATENCY_MS (30), GCS_LATENCY_MS (40), ZOOKEEPER_DATA_DIR (under the results
# directory; a what-if: a directory on tmpfs, e.g. /dev/shm/<name>, takes the host disk's fsync out of each commit, as
# an on-premises ZooKeeper with a fast log device would), and those of lib.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
S3_LATENCY_MS="${S3_LATENCY_MS:-20}"
AZURE_LATENCY_MS="${AZURE_LATENCY_MS:-30}"
GCS_LATENCY_MS="${GCS_LATENCY_MS:-40}"
out="$(results_dir emulated)"
ZOOKEEPER_DATA_DIR="${ZOOKEEPER_DATA_DIR:-$out/data/zookeeper}"
build_classpath "$out"

emulators_with_latency "$out" "$S3_LATENCY_MS" "$AZURE_LATENCY_MS" "$GCS_LATENCY_MS"
prop() { emulator_prop "$endpoints" "$1"; }

{
    cat <<PROPS
# Hybris f=1 over the three emulators behind toxiproxy (written by bench/emulated.sh)
hybris.f=1
# rank the clouds at start-up (the paper's client does): the run phase is a fresh, read-only client
hybris.ranking.probe-on-open=true
hybris.rmds.type=embedded-zookeeper
hybris.rmds.embedded-zookeeper.data-dir=$ZOOKEEPER_DATA_DIR
PROPS
    emulated_clouds "$endpoints" hybris-bench proxy
} >"$out/hybris.properties"
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
