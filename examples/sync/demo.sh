#!/usr/bin/env bash
# Builds Hybris and runs the sync demo: two sync clients, alice and bob, syncing two folders through one embedded
# deployment (an in-process ZooKeeper and three directory "clouds"). Folders default to ./target/sync-demo/alice
# and ./target/sync-demo/bob (pass others as the first two arguments; paths without spaces). Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/../.."
alice="${1:-$PWD/target/sync-demo/alice}"
bob="${2:-$PWD/target/sync-demo/bob}"
mvn -B -q -ntp install -DskipTests -pl examples -am
exec mvn -B -q -ntp -pl examples exec:java -Dexec.mainClass=io.hybris.examples.sync.SyncDemo \
  -Dexec.args="$alice $bob"
