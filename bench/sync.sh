#!/usr/bin/env bash
# Two sync clients propagating 1,000 small files and one 100 MiB file over the embedded default, side by side with
# the same transfers through the plain API (see SyncPropagationBenchmark). Usage: bench/sync.sh [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
out="target/sync-bench"
rm -rf "$out"
if [ "${BUILD:-1}" = 1 ]; then
  mvn -B -q -ntp install -DskipTests -pl examples -am
fi
exec mvn -B -q -ntp -pl examples exec:java -Dexec.mainClass=io.hybris.examples.sync.SyncPropagationBenchmark \
  -Dexec.args="$PWD/$out $rounds"
