#!/usr/bin/env bash
# Starts or stops the servers the integration tests talk to, all on free loopback ports:
#   MinIO (S3), Azurite (Azure Blob), fake-gcs-server (GCS), toxiproxy (latency and outages) and memcached
#   (the value cache of hybris-cache; Debian's package, installed by install-memcached.sh only if missing).
# Each is installed first by install-go-tool.sh / install-azurite.sh (cached by version).
#
#   src/test/test-env.sh start [dir]   # starts them, waits until each answers, writes <dir>/endpoints.properties
#   src/test/test-env.sh stop  [dir]   # stops the servers started from <dir> (by their recorded PIDs)
#
# HYBRIS_TEST_GCS_BACKEND=filesystem starts fake-gcs-server on its filesystem backend (soak.sh does; see start()).
# <dir> defaults to target/test-env under the repository root. The tests find the servers through the
# properties file, passed to Maven as -Dhybris.test.env=<dir>/endpoints.properties (run-tests.sh does this).
# Keys written: minio.endpoint, minio.access-key, minio.secret-key, azurite.endpoint, azurite.account,
# azurite.key, gcs.endpoint, gcs.project, toxiproxy.api, and for each emulator a toxiproxy proxy in front of it
# (named s3, azure, gcs; no toxics, enabled): minio.proxy, azurite.proxy, gcs.proxy (same form as the
# endpoints). fake-gcs-server's upload URLs point at its proxy, so resumable uploads stay behind it too.
# memcached.address (host:port; memcached runs with -U 0 -I 16m so values up to 10 MiB can be cached).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
command="${1:-}"
dir="${2:-$root/target/test-env}"
log() { echo "test-env: $*" >&2; }

MINIO_VERSION="v0.0.0-20260212201848-7aac2a2c5b7c"
FAKE_GCS_VERSION="v1.56.1"
TOXIPROXY_VERSION="v2.5.0"
MINIO_USER="hybris-test"
MINIO_PASSWORD="hybris-test-secret"
# Azurite's well-known development account (public, documented by Microsoft; accepted only by the emulator).
AZURITE_ACCOUNT="devstoreaccount1"
AZURITE_KEY="Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

free_port() {
    python3 - <<'PY'
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
PY
}

# Waits until a URL answers (any HTTP status), up to 60 s, or fails naming the server and its log.
await_http() {
    local name="$1" url="$2" pid="$3" logfile="$4"
    for _ in $(seq 1 600); do
        if ! kill -0 "$pid" 2>/dev/null; then
            log "$name exited during start-up; its log ($logfile):"
            tail -n 30 "$logfile" >&2 || true
            return 1
        fi
        if curl -s -o /dev/null --max-time 1 "$url"; then
            return 0
        fi
        sleep 0.1
    done
    log "$name did not answer at $url within 60 s; its log ($logfile):"
    tail -n 30 "$logfile" >&2 || true
    return 1
}

create_proxy() { # toxiproxy-port name listen-port upstream-port
    local answer
    answer="$(curl -s -w '\n%{http_code}' -X POST "http://127.0.0.1:$1/proxies" \
        -d "{\"name\":\"$2\",\"listen\":\"127.0.0.1:$3\",\"upstream\":\"127.0.0.1:$4\",\"enabled\":true}")"
    if [ "${answer##*$'\n'}" != "201" ]; then
        log "toxiproxy refused proxy $2 (127.0.0.1:$3 -> 127.0.0.1:$4): $answer"
        return 1
    fi
}

# Waits until a TCP port accepts connections, up to 30 s, or fails naming the server and its log.
await_tcp() {
    local name="$1" host="$2" port="$3" pid="$4" logfile="$5"
    for _ in $(seq 1 300); do
        if ! kill -0 "$pid" 2>/dev/null; then
            log "$name exited during start-up; its log ($logfile):"
            tail -n 30 "$logfile" >&2 || true
            return 1
        fi
        if (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; then
            return 0
        fi
        sleep 0.1
    done
    log "$name did not accept connections on $host:$port within 30 s; its log ($logfile):"
    tail -n 30 "$logfile" >&2 || true
    return 1
}

start_server() { # name logfile command...
    local name="$1" logfile="$2"
    shift 2
    "$@" >"$logfile" 2>&1 &
    local pid=$!
    echo "$pid" >"$dir/$name.pid"
    echo "$pid"
}

stop() {
    [ -d "$dir" ] || return 0
    for pidfile in "$dir"/*.pid; do
        [ -e "$pidfile" ] || continue
        local pid
        pid="$(cat "$pidfile")"
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null || true
        fi
        rm -f "$pidfile"
    done
    rm -rf "$dir/data"
}

start() {
    local minio fake_gcs toxiproxy azurite
    minio="$("$here/install-go-tool.sh" minio "github.com/minio/minio@$MINIO_VERSION")"
    fake_gcs="$("$here/install-go-tool.sh" fake-gcs-server "github.com/fsouza/fake-gcs-server@$FAKE_GCS_VERSION")"
    toxiproxy="$("$here/install-go-tool.sh" toxiproxy "github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION" toxiproxy-server)"
    azurite="$("$here/install-azurite.sh")"
    local memcached
    memcached="$("$here/install-memcached.sh")"

    # checked before any server starts (see the fake-gcs-server start below for why there are two)
    local gcs_backend=(-backend memory)
    case "${HYBRIS_TEST_GCS_BACKEND:-memory}" in
        memory) ;;
        filesystem) gcs_backend=(-backend filesystem -filesystem-root "$dir/data/gcs") ;;
        *) log "HYBRIS_TEST_GCS_BACKEND must be memory or filesystem, not '$HYBRIS_TEST_GCS_BACKEND'"; return 1 ;;
    esac

    stop
    # a server that fails to come up must not leave the others running
    trap 'stop' ERR
    mkdir -p "$dir/data/minio" "$dir/data/gcs"
    local minio_port minio_console gcs_port azurite_port toxi_port pid
    minio_port="$(free_port)"; minio_console="$(free_port)"; gcs_port="$(free_port)"
    azurite_port="$(free_port)"; toxi_port="$(free_port)"
    local minio_proxy gcs_proxy azurite_proxy
    minio_proxy="$(free_port)"; gcs_proxy="$(free_port)"; azurite_proxy="$(free_port)"

    pid="$(MINIO_ROOT_USER="$MINIO_USER" MINIO_ROOT_PASSWORD="$MINIO_PASSWORD" MINIO_BROWSER=off \
        MINIO_UPDATE=off start_server minio "$dir/minio.log" \
        "$minio" server "$dir/data/minio" --address "127.0.0.1:$minio_port" \
        --console-address "127.0.0.1:$minio_console" --quiet)"
    await_http MinIO "http://127.0.0.1:$minio_port/minio/health/live" "$pid" "$dir/minio.log"

    # HYBRIS_TEST_GCS_BACKEND: memory (the default) or filesystem. The memory backend keeps a bucket's objects in
    # one list and scans it (formatting two strings per object) for every upload and read, under one lock: after a
    # 12-minute soak a 4 KiB upload took 20 ms against 0.6 ms on a fresh server, so soak.sh asks for the filesystem
    # backend, which finds an object by its path. The tests keep the memory backend: the filesystem one stores a
    # name's segments as file names, limited to 255 bytes, where GCS allows names of 1,024 (a contract test checks).
    pid="$(start_server fake-gcs-server "$dir/fake-gcs-server.log" \
        "$fake_gcs" -scheme http -host 127.0.0.1 -port "$gcs_port" \
        -public-host "127.0.0.1:$gcs_port" -external-url "http://127.0.0.1:$gcs_proxy" \
        "${gcs_backend[@]}" -log-level warn)"
    await_http fake-gcs-server "http://127.0.0.1:$gcs_port/storage/v1/b" "$pid" "$dir/fake-gcs-server.log"

    # --disableTelemetry: Azurite otherwise sends usage telemetry every few seconds, which here (no internet) is a
    # failed DNS lookup and an error in its log each time
    # azurite-blob-no-gc.js: Azurite's periodic sweep of deleted blobs blocks every request for a minute and more
    # after ten minutes of tests (it says why); the wrapper starts the same launcher with the sweep off
    pid="$(start_server azurite "$dir/azurite.log" \
        node "$here/azurite-blob-no-gc.js" "$azurite" --blobHost 127.0.0.1 --blobPort "$azurite_port" --inMemoryPersistence \
        --silent --skipApiVersionCheck --loose --disableTelemetry)"
    await_http Azurite "http://127.0.0.1:$azurite_port/$AZURITE_ACCOUNT?comp=list" "$pid" "$dir/azurite.log"

    pid="$(start_server toxiproxy "$dir/toxiproxy.log" "$toxiproxy" -host 127.0.0.1 -port "$toxi_port")"
    await_http toxiproxy "http://127.0.0.1:$toxi_port/version" "$pid" "$dir/toxiproxy.log"
    create_proxy "$toxi_port" s3 "$minio_proxy" "$minio_port"
    create_proxy "$toxi_port" azure "$azurite_proxy" "$azurite_port"
    create_proxy "$toxi_port" gcs "$gcs_proxy" "$gcs_port"

    local memcached_port memcached_user=()
    memcached_port="$(free_port)"
    # memcached refuses to run as root unless told which user to be
    if [ "$(id -u)" -eq 0 ]; then memcached_user=(-u root); fi
    pid="$(start_server memcached "$dir/memcached.log" \
        "$memcached" "${memcached_user[@]}" -l 127.0.0.1 -p "$memcached_port" -U 0 -m 256 -I 16m)"
    await_tcp memcached 127.0.0.1 "$memcached_port" "$pid" "$dir/memcached.log"

    cat >"$dir/endpoints.properties.tmp" <<PROPS
# Written by src/test/test-env.sh start; servers stop with src/test/test-env.sh stop.
minio.endpoint=http://127.0.0.1:$minio_port
minio.access-key=$MINIO_USER
minio.secret-key=$MINIO_PASSWORD
azurite.endpoint=http://127.0.0.1:$azurite_port/$AZURITE_ACCOUNT
azurite.account=$AZURITE_ACCOUNT
azurite.key=$AZURITE_KEY
gcs.endpoint=http://127.0.0.1:$gcs_port
gcs.project=hybris-test
toxiproxy.api=http://127.0.0.1:$toxi_port
minio.proxy=http://127.0.0.1:$minio_proxy
azurite.proxy=http://127.0.0.1:$azurite_proxy/$AZURITE_ACCOUNT
gcs.proxy=http://127.0.0.1:$gcs_proxy
memcached.address=127.0.0.1:$memcached_port
PROPS
    mv "$dir/endpoints.properties.tmp" "$dir/endpoints.properties"
    trap - ERR
    log "servers up; endpoints in $dir/endpoints.properties"
    echo "$dir/endpoints.properties"
}

case "$command" in
    start) start ;;
    stop) stop; rm -f "$dir/endpoints.properties"; log "servers stopped" ;;
    *) echo "usage: $0 start|stop [dir]" >&2; exit 2 ;;
esac
