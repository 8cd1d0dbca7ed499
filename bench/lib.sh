# Shared by the bench scripts (sourced, not run). Builds the benchmark jar (module hybris-benchmarks: all the
# benchmark code, the YCSB binding, YCSB and the cloud drivers in one jar), runs YCSB phases with progress, and
# turns the outputs into a CSV, a summary and a PNG (report.py).
#
# Knobs (environment): WORKLOADS (default "a b c d e f"), RECORDS (1000), RUN_SECONDS per workload run (30),
# THREADS (8), FIELDS (10) and FIELD_LENGTH (100) per record, STATUS_INTERVAL in seconds (5), OUT (results dir),
# BUILD=0 to skip building (use the hybris-benchmarks/target/benchmarks.jar already built).

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$bench_dir/.." && pwd)"
WORKLOADS="${WORKLOADS:-a b c d e f}"
RECORDS="${RECORDS:-1000}"
SECONDS_PER_RUN="${RUN_SECONDS:-30}" # not $SECONDS: bash sets that to its own run time
THREADS="${THREADS:-8}"
FIELDS="${FIELDS:-10}"
FIELD_LENGTH="${FIELD_LENGTH:-100}"
STATUS_INTERVAL="${STATUS_INTERVAL:-5}"

log() { echo "bench: $*" >&2; }

# Creates and prints a fresh results directory: $OUT, or bench/results/<scenario>-<UTC time>.
results_dir() {
    local dir="${OUT:-$bench_dir/results/$1-$(date -u +%Y%m%dT%H%M%SZ)}"
    mkdir -p "$dir"
    (cd "$dir" && pwd)
}

# Builds the benchmark jar in the reactor (unless BUILD=0; installs nothing into the local Maven repository) and
# prints its path.
benchmark_jar() {
    local jar="$repo_root/hybris-benchmarks/target/benchmarks.jar"
    if [ "${BUILD:-1}" != 0 ]; then
        log "building the benchmark jar (hybris-benchmarks and the modules it uses)"
        (cd "$repo_root" && mvn -B -q -ntp package -DskipTests -pl hybris-benchmarks -am) >&2
    fi
    [ -f "$jar" ] || { log "no $jar: build it (run without BUILD=0)"; return 1; }
    echo "$jar"
}

# Copies the benchmark jar to $1/lib and writes the class path to $1/classpath.txt: with a private copy, a
# rebuild mid-run cannot break the run.
build_classpath() {
    local out="$1" jar
    jar="$(benchmark_jar)"
    mkdir -p "$out/lib"
    cp "$jar" "$out/lib/benchmarks.jar"
    echo "$out/lib/benchmarks.jar" >"$out/classpath.txt"
}

# ycsb <out-dir> <system> <phase: load|run> <workload letter> <db class> [extra -p/-P arguments...]
# Runs site.ycsb.Client; progress (-s) goes to the terminal and <system>-<phase>-workload<x>.status, the final
# report to <system>-<phase>-workload<x>.txt. Fails if YCSB exits non-zero.
ycsb() {
    local out="$1" system="$2" phase="$3" w="$4" db="$5"
    shift 5
    local name="$system-$phase-workload$w" mode=-t
    local -a limits=(-p "operationcount=${OPERATIONS:-100000000}" -p "maxexecutiontime=$SECONDS_PER_RUN")
    if [ "$phase" = load ]; then
        mode=-load
        limits=(-p "insertcount=$RECORDS")
    fi
    log "$system: $phase workload $w ($THREADS threads$([ "$phase" = run ] && echo ", ${SECONDS_PER_RUN} s"))"
    java -Xmx2g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.log.io.hybris.ycsb=info \
        -Dorg.slf4j.simpleLogger.showDateTime=true -cp "$(cat "$out/classpath.txt")" \
        site.ycsb.Client "$mode" -db "$db" -P "$bench_dir/workloads/workload$w" \
        -p "recordcount=$RECORDS" "${limits[@]}" -p "fieldcount=$FIELDS" -p "fieldlength=$FIELD_LENGTH" \
        -p measurementtype=hdrhistogram -p hdrhistogram.percentiles=50,95,99 \
        -p status.interval="$STATUS_INTERVAL" -threads "$THREADS" -s "$@" \
        >"$out/$name.txt" 2> >(tee "$out/$name.status" | grep --line-buffered -E "sec: |Error|Exception|opened" >&2)
}

# Installs matplotlib into a cached virtual environment (once) and prints its python; prints nothing if that
# fails (the report then has no PNG).
plot_python() {
    local venv="${XDG_CACHE_HOME:-$HOME/.cache}/hybris-bench/venv"
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import matplotlib' 2>/dev/null; then
        log "installing matplotlib into $venv (once)"
        python3 -m venv "$venv" >&2 && "$venv/bin/pip" install -q matplotlib >&2 || {
            log "matplotlib could not be installed; the report will have no PNG"
            return 0
        }
    fi
    echo "$venv/bin/python"
}

# report <out-dir> <scenario title>: results.csv, summary.md (printed) and latency.png.
report() {
    local py
    py="$(plot_python)"
    "${py:-python3}" "$bench_dir/report.py" "$1" "$2"
}

# start_emulators <env-dir>: starts MinIO, Azurite, fake-gcs-server and toxiproxy (src/test/test-env.sh) and prints
# the endpoints file; emulator_prop <endpoints-file> <key> reads one of its properties.
start_emulators() {
    "$repo_root/src/test/test-env.sh" start "$1"
}
emulator_prop() { sed -n "s/^$2=//p" "$1"; }

# add_toxic <toxiproxy-api> <proxy-name> <toxic JSON>: adds the toxic to the proxy, or fails saying why.
add_toxic() {
    local answer
    answer="$(curl -s -w '\n%{http_code}' -X POST "$1/proxies/$2/toxics" -d "$3")"
    [ "${answer##*$'\n'}" = 200 ] || { log "toxiproxy refused a toxic on $2: $answer"; return 1; }
}

# add_latency <toxiproxy-api> <proxy-name> <milliseconds>: a fixed latency on every response through the proxy.
add_latency() {
    add_toxic "$1" "$2" "{\"name\":\"bench-latency\",\"type\":\"latency\",\"stream\":\"downstream\",\"toxicity\":1.0,\"attributes\":{\"latency\":$3,\"jitter\":0}}" || return 1
    log "proxy $2: +$3 ms per response"
}

# add_bandwidth <toxiproxy-api> <proxy-name> <KB/s>: every connection through the proxy carries at most that many
# kilobytes per second in each direction (toxiproxy's bandwidth toxic acts per connection, as a WAN link's
# round-trip time and window bound one TCP stream).
add_bandwidth() {
    local stream
    for stream in upstream downstream; do
        add_toxic "$1" "$2" "{\"name\":\"bench-bandwidth-$stream\",\"type\":\"bandwidth\",\"stream\":\"$stream\",\"toxicity\":1.0,\"attributes\":{\"rate\":$3}}" || return 1
    done
    log "proxy $2: at most $3 KB/s per connection each way"
}

# emulated_clouds <endpoints-file> <bucket> <via: proxy|endpoint>: the hybris.cloud.* lines of the three emulated
# clouds s3, azure and gcs, reached through their toxiproxy proxies or directly.
emulated_clouds() {
    local e="$1" bucket="$2" via="$3"
    cat <<PROPS
hybris.cloud.s3.type=s3
hybris.cloud.s3.endpoint=$(emulator_prop "$e" "minio.$via")
hybris.cloud.s3.region=us-east-1
hybris.cloud.s3.bucket=$bucket
hybris.cloud.s3.access-key=$(emulator_prop "$e" minio.access-key)
hybris.cloud.s3.secret-key=$(emulator_prop "$e" minio.secret-key)
hybris.cloud.s3.path-style=true
hybris.cloud.s3.create-bucket=true
hybris.cloud.azure.type=azure
hybris.cloud.azure.endpoint=$(emulator_prop "$e" "azurite.$via")
hybris.cloud.azure.container=$bucket
hybris.cloud.azure.account=$(emulator_prop "$e" azurite.account)
hybris.cloud.azure.key=$(emulator_prop "$e" azurite.key)
hybris.cloud.azure.create-bucket=true
hybris.cloud.gcs.type=gcs
hybris.cloud.gcs.endpoint=$(emulator_prop "$e" "gcs.$via")
hybris.cloud.gcs.project=$(emulator_prop "$e" gcs.project)
hybris.cloud.gcs.bucket=$bucket
hybris.cloud.gcs.anonymous=true
hybris.cloud.gcs.create-bucket=true
PROPS
}

# emulators_with_latency <out-dir> <s3-ms> <azure-ms> <gcs-ms>: starts the emulators and toxiproxy under
# <out-dir>/env, stops them (and removes <out-dir>/lib and <out-dir>/data) when the script exits, puts the given
# latency on each cloud's proxy, and sets $endpoints to the endpoints file.
emulators_with_latency() {
    bench_out="$1"
    bench_env="$1/env"
    trap '"$repo_root/src/test/test-env.sh" stop "$bench_env" >/dev/null 2>&1 || true; rm -rf "$bench_out/lib" "$bench_out/data"' EXIT
    log "starting MinIO, Azurite, fake-gcs-server and toxiproxy under $bench_env"
    endpoints="$(start_emulators "$bench_env")"
    local toxiproxy
    toxiproxy="$(emulator_prop "$endpoints" toxiproxy.api)"
    add_latency "$toxiproxy" s3 "$2"
    add_latency "$toxiproxy" azure "$3"
    add_latency "$toxiproxy" gcs "$4"
}
