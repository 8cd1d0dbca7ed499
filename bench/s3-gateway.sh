#!/usr/bin/env bash
# The S3 gateway's benchmark: boto3 (from src/test/install-s3-clients.sh) through `hybris gateway` — f=1 over
# MinIO, Azurite and fake-gcs-server (no injected latency), metadata on the embedded ZooKeeper — side by side,
# in the same run, with the same boto3 code straight to the same MinIO. See bench/s3_gateway_bench.py for what is
# measured. Usage: bench/s3-gateway.sh [rounds (2)] [seconds per small-object phase (15)]
#
# Links (environment): LINK_KIBS=<KB/s> caps every connection to each cloud at that rate in each direction, and
# LINK_MS=<ms> adds that latency to each response, with toxiproxy. With either set, the gateway reaches its clouds
# and boto3 reaches MinIO directly through the same capped proxies, so the clouds' links, not the two cores the
# client, the gateway and three emulators share, bound the run, as when the clouds are remote (docs/benchmarks.md).
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
via=endpoint
if [ -n "${LINK_KIBS:-}" ] || [ -n "${LINK_MS:-}" ]; then
    via=proxy
    for proxy in s3 azure gcs; do
        if [ -n "${LINK_KIBS:-}" ]; then add_bandwidth "$(prop toxiproxy.api)" "$proxy" "$LINK_KIBS"; fi
        if [ -n "${LINK_MS:-}" ]; then add_latency "$(prop toxiproxy.api)" "$proxy" "$LINK_MS"; fi
    done
fi
{
    cat <<PROPS
hybris.f=1
hybris.client-id=gateway-bench
hybris.rmds.type=embedded-zookeeper
hybris.rmds.embedded-zookeeper.data-dir=$out/data/zookeeper
PROPS
    emulated_clouds "$endpoints" hybris-gateway-bench "$via"
} >"$out/hybris.properties"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
HYBRIS_S3_ACCESS_KEY=bench HYBRIS_S3_SECRET_KEY=bench-secret \
    "$repo_root/hybris" --config "$out/hybris.properties" gateway --port "$port" >"$out/gateway.log" 2>&1 &
gateway_pid=$!
for _ in $(seq 1 180); do grep -q "serving S3" "$out/gateway.log" && break; sleep 1; done
grep -q "serving S3" "$out/gateway.log" || { cat "$out/gateway.log" >&2; exit 1; }
log "gateway on port $port; boto3 from $python"
# CPU per process for each 1 GiB transfer: the gateway JVM (the wrapper script execs it, keeping its pid) and the
# emulators, from the pid files test-env.sh writes
BENCH_PIDS="gateway=$gateway_pid,minio=$(cat "$env_dir/minio.pid"),azurite=$(cat "$env_dir/azurite.pid"),gcs=$(cat "$env_dir/fake-gcs-server.pid"),toxiproxy=$(cat "$env_dir/toxiproxy.pid")" \
"$python" "$repo_root/bench/s3_gateway_bench.py" "$out" "$rounds" "$seconds" \
    "gateway=http://127.0.0.1:$port,bench,bench-secret" \
    "minio=$(prop "minio.$via"),$(prop minio.access-key),$(prop minio.secret-key)" | tee "$out/summary.md"

# each cloud's own throughput through its Hybris driver (through its proxy, so through the links set above), same
# sizes and callers: a PUT waits for the slower of the f+1 = 2 clouds it writes (the second best), a GET reads from
# the best
log "each cloud on its own (Hybris drivers, 4 KiB x 16 callers for ${seconds} s; 1 GiB as 8 MiB objects x 10)"
java -Xmx3g -cp "$(benchmark_jar)" io.hybris.benchmarks.CloudThroughputRun "$env_dir/endpoints.properties" \
    "$seconds" 16 1024 >"$out/clouds.tsv"
{
    echo
    echo "| cloud on its own | PUT 4 KiB ops/s | GET 4 KiB ops/s | PUT 8 MiB objects, MiB/s | GET 8 MiB objects, MiB/s |"
    echo "|---|---|---|---|---|"
    awk -F'\t' '{printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}' "$out/clouds.tsv"
    second() { cut -f"$1" "$out/clouds.tsv" | sort -g | tail -n 2 | head -n 1; }
    best() { cut -f"$1" "$out/clouds.tsv" | sort -g | tail -n 1; }
    echo "| second best (what a PUT waits for), best (what a GET reads) | $(second 2) | $(best 3) | $(second 4) | $(best 5) |"
} | tee -a "$out/summary.md"
