# Shared by the bench scripts (sourced, not run). Builds the benchmark jar (module hybris-benchmarks: all the
# benchmark code, the YCSB binding, YCSB and the cloud drivers in one jar), runs YCSB phases with progress, and
# turns the outputs into a CSV, a summary and a PNG (report.py).
#
# Knobs (environment): WORKLOADS (default "a b c d e f"), RECORDS (1000), SECONDS per workload run (30),
# THREADS (8), FIELDS (10) and FIELD_LENGTH (100) per record, STATUS_INTERVAL in seconds (5), OUT (results dir),
# BUILD=0 to skip building (use the hybris-benchmarks/target/benchmarks.jar already built).

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$bench_dir/.." && pwd)"
WORKLOADS="${WORKLOADS:-a b c d e f}"
RECORDS="${RECORDS:-1000}"
SECONDS_PER_RUN="${SECONDS:-30}"
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
