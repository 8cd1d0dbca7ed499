#!/usr/bin/env bash
# Builds Hybris and runs the quickstart on the embedded default: an in-process ZooKeeper and three directory
# "clouds" under ./target/quickstart-data (pass another directory as the first argument).
set -euo pipefail
cd "$(dirname "$0")"
mvn -B -q -ntp install -DskipTests -pl examples -am
exec mvn -B -q -ntp -pl examples exec:java -Dexec.args="${1:-$PWD/target/quickstart-data}"
