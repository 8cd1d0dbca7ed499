#!/usr/bin/env bash
# The S3 gateway's benchmark: boto3 (from src/test/install-s3-clients.sh) through `hybris gateway` — f=1 over
# MinIO, Azurite and fake-gcs-server (no injected latency), metadata on the embedded ZooKeeper — side by side,
# in the same run, with the same boto3 code straight to the same MinIO. See bench/s3_gateway_bench.py for what is
# measured. Usage: bench/s3-gateway.sh [rounds (2)] [seconds per small-object phase (15)]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
rounds="${1:-2}"
seconds="${2:-15}"
out="$(results_dir s3-gateway)"
env_dir="$out/env"
gateway_pid=""
cleanup() {
    if [ -n "$gateway_pid" ]; then kill "$gateway_pid" 2>/dev/null || true; wait "$gateway_pid" 2>/dev/null || true; fi
    "$repo_root/src/test/test-env.sh" stop "$env_dir" >/dev/null 2>&1 || true
    rm -rf "$out/data" "$out/large.bin"
}
trap cleanup EXIT
clients="$("$repo_root/src/test/install-s3-clients.sh")"
python="$(printf '%s\n' "$clients" | sed -n 's/^python=//p')"
log "starting MinIO, Azurite and fake-gcs-server under $env_dir"
endpoints="$(start_emulators "$env_dir")"
prop() { emulator_prop "$endpoints" "$1"; }
{
    cat <<PROPS
hybris.f=1
hybris.client-id=gateway-bench
hybris.rmds.type=embedded-zookeeper
hybris.rmds.embedded-zookeeper.data-dir=$out/data/zookeeper
PROPS
    emulated_clouds "$endpoints" hybris-gateway-bench endpoint
} >"$out/hybris.properties"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
HYBRIS_S3_ACCESS_KEY=bench HYBRIS_S3_SECRET_KEY=bench-secret \
    "$repo_root/hybris" --config "$out/hybris.properties" gateway --port "$port" >"$out/gateway.log" 2>&1 &
gateway_pid=$!
for _ in $(seq 1 180); do grep -q "serving S3" "$out/gateway.log" && break; sleep 1; done
grep -q "serving S3" "$out/gateway.log" || { cat "$out/gateway.log" >&2; exit 1; }
log "gateway on port $port; boto3 from $python"
"$python" "$repo_root/bench/s3_gateway_bench.py" "$out" "$rounds" "$seconds" \
    "gateway=http://127.0.0.1:$port,bench,bench-secret" \
    "minio=$(prop minio.endpoint),$(prop minio.access-key),$(prop minio.secret-key)" | tee "$out/summary.md"
