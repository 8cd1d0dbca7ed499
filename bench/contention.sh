#!/usr/bin/env bash
# Contention on one key (the performance issue's item 2, the paper's Fig. 8): N writers sharing one client PUT the
# same key; committed PUTs/s, CAS retries per PUT and the slowest writer, for N = 1, 4, 16, 64 (or the Ns given).
# Runs io.hybris.benchmarks.ContentionBenchmark from the benchmark jar (BUILD=0 skips building it); writes
# bench/results/contention-<time>/summary.md. Usage: bench/contention.sh [seconds per N (10)] [N ...]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out="$(results_dir contention)"
jar="$(benchmark_jar)"
java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.hybris.benchmarks.ContentionBenchmark "$@" \
    | tee "$out/summary.md"
log "results in $out"
