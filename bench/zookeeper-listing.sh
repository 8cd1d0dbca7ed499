#!/usr/bin/env bash
# A full paged listing of one large container on an in-process ZooKeeper (docs/zookeeper.md, listings): the store's
# list page after page against raw ZooKeeper clients doing the same reads with getChildren once per listing (the fair
# baseline) and once per page (what the store did before it kept a listing's names). Runs
# io.hybris.benchmarks.ZooKeeperListingBenchmark from the benchmark jar (hybris-benchmarks; BUILD=0 skips building
# it) and writes its table to bench/results/zookeeper-listing-<time>/summary.md.
# Usage: bench/zookeeper-listing.sh [keys (40000)] [page (1000)] [rounds (6)]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out="$(results_dir zookeeper-listing)"
jar="$(benchmark_jar)"
java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.hybris.benchmarks.ZooKeeperListingBenchmark \
    "$@" | tee "$out/summary.md"
log "results in $out"
