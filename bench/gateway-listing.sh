#!/usr/bin/env bash
# S3 gateway listings and HEADs (the S3-gateway issue; docs/s3-gateway.md, "Limits"): starts `hybris gateway` on the
# embedded default in a fresh data directory and times, with boto3 from src/test/install-s3-clients.sh (cached), a
# full paginated list_objects_v2, a top-level Delimiter='/' listing, 200 HEADs and a first page of 10 under a prefix
# over <objects> small objects (bench/gateway_listing.py). Prints the results; the gateway's log goes to
# bench/results/gateway-listing-<time>/gateway.log.
# Usage: bench/gateway-listing.sh [objects (5000)] [rounds (5)] [port (9107)]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out="$(results_dir gateway-listing)"
objects="${1:-5000}"
rounds="${2:-5}"
port="${3:-9107}"
python="$("$repo_root/src/test/install-s3-clients.sh" | sed -n 's/^python=//p')"
data="$out/data"
HYBRIS_S3_ACCESS_KEY=hybris HYBRIS_S3_SECRET_KEY=hybris-secret "$repo_root/hybris" --data-dir "$data" gateway \
    --port "$port" > "$out/gateway.log" 2>&1 &
gateway=$!
trap 'kill "$gateway" 2>/dev/null || true; wait "$gateway" 2>/dev/null || true' EXIT
for _ in $(seq 120); do
    curl -s -o /dev/null "http://127.0.0.1:$port/" && break
    kill -0 "$gateway" 2>/dev/null || { cat "$out/gateway.log" >&2; exit 1; }
    sleep 1
done
"$python" "$bench_dir/gateway_listing.py" "$port" "$objects" "$rounds" | tee "$out/summary.txt"
log "results in $out"
