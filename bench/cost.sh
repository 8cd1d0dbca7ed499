#!/usr/bin/env bash
# Cost-aware placement's benchmark (docs/cost.md, docs/benchmarks.md): YCSB workloads A, B and C on Hybris f=1 over
# the three emulated clouds behind toxiproxy latencies (S3 20 ms, Azure 30 ms, GCS 40 ms), each cloud priced with
# its provider's example sheet (list prices, docs/cost.md), once per placement (latency, cost, balanced) — all in
# one run. Each phase's client writes its per-cloud request and byte counts (the YCSB binding's hybris.usage.file);
# bench/cost_report.py prices them and writes cost.csv, cost.md (printed) and cost.png: $ per million operations
# and p50/p99 latency per placement and workload, in one table and one plot.
# Knobs: PLACEMENTS ("latency cost balanced"), S3_LATENCY_MS (20), AZURE_LATENCY_MS (30), GCS_LATENCY_MS (40), and
# those of lib.sh (this script's defaults: WORKLOADS "a b c", RECORDS 300, FIELD_LENGTH 10000 (100 KB records, so
# that egress weighs as it does for real objects), RUN_SECONDS 30 per run, THREADS 8).
set -euo pipefail
export WORKLOADS="${WORKLOADS:-a b c}" RECORDS="${RECORDS:-300}" FIELD_LENGTH="${FIELD_LENGTH:-10000}"
source "$(dirname "$0")/lib.sh"
PLACEMENTS="${PLACEMENTS:-latency cost balanced}"
S3_LATENCY_MS="${S3_LATENCY_MS:-20}"
AZURE_LATENCY_MS="${AZURE_LATENCY_MS:-30}"
GCS_LATENCY_MS="${GCS_LATENCY_MS:-40}"
out="$(results_dir cost)"
build_classpath "$out"

emulators_with_latency "$out" "$S3_LATENCY_MS" "$AZURE_LATENCY_MS" "$GCS_LATENCY_MS"

# The example sheets of docs/cost.md at their list prices (the first paid tier: what the next byte costs at scale;
# a short run would otherwise fall entirely in the free tiers). Per GB-month, per 1,000 requests, per GB.
cat >"$out/prices.properties" <<'PRICES'
hybris.cloud.s3.price.storage-gb-month=0.023
hybris.cloud.s3.price.put-list-per-1000=0.005
hybris.cloud.s3.price.get-head-per-1000=0.0004
hybris.cloud.s3.price.delete-per-1000=0
hybris.cloud.s3.price.egress-gb=0.09
hybris.cloud.azure.price.storage-gb-month=0.0184
hybris.cloud.azure.price.put-list-per-1000=0.0065
hybris.cloud.azure.price.get-head-per-1000=0.0005
hybris.cloud.azure.price.delete-per-1000=0
hybris.cloud.azure.price.egress-gb=0.087
hybris.cloud.gcs.price.storage-gb-month=0.020
hybris.cloud.gcs.price.put-list-per-1000=0.005
hybris.cloud.gcs.price.get-head-per-1000=0.0004
hybris.cloud.gcs.price.delete-per-1000=0
hybris.cloud.gcs.price.egress-gb=0.12
PRICES

for placement in $PLACEMENTS; do
    {
        cat <<PROPS
# Hybris f=1 over the three emulators behind toxiproxy, placement=$placement (written by bench/cost.sh)
hybris.f=1
hybris.ranking.probe-on-open=true
# re-measure every cloud in every size class in use every 5 s: the opening probe measures small values only, and a
# cloud that gets no traffic in the records' size class would otherwise keep its prior until the default 5 min probe
hybris.ranking.probe-interval=5s
hybris.placement=$placement
hybris.rmds.type=embedded-zookeeper
hybris.rmds.embedded-zookeeper.data-dir=$out/data/zookeeper-$placement
PROPS
        emulated_clouds "$endpoints" "hybris-cost-$placement" proxy
        cat "$out/prices.properties"
    } >"$out/hybris-$placement.properties"
    args=(-p "hybris.config=$out/hybris-$placement.properties")
    ycsb "$out" "$placement" load a io.hybris.ycsb.HybrisClient "${args[@]}" \
        -p "hybris.usage.file=$out/usage-$placement-load-workloada.properties"
    for w in $WORKLOADS; do
        ycsb "$out" "$placement" run "$w" io.hybris.ycsb.HybrisClient "${args[@]}" \
            -p "hybris.usage.file=$out/usage-$placement-run-workload$w.properties"
    done
done
py="$(plot_python)"
"${py:-python3}" "$bench_dir/cost_report.py" "$out" "$PLACEMENTS" \
    "YCSB on Hybris f=1 over S3/Azure/GCS emulators (+${S3_LATENCY_MS}/${AZURE_LATENCY_MS}/${GCS_LATENCY_MS} ms), $RECORDS x $((FIELDS * FIELD_LENGTH / 1000)) KB records, $THREADS threads"
log "results in $out"
