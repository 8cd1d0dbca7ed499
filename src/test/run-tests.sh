#!/usr/bin/env bash
# Runs the whole Hybris test suite on a fresh machine: the Maven build with every module's unit, contract,
# fault and end-to-end tests. ZooKeeper runs in-process (its own server classes and curator-test's
# TestingServer/TestingCluster on free loopback ports). Consul is a real binary: install-consul.sh builds it
# from source once (about 6 minutes; needs Go) and caches it, and the tests start their own agents from it on
# free loopback ports and stop them.
# Later test environments (MinIO, Azurite, fake-gcs-server, memcached, toxiproxy) are installed and started
# from this directory, cached between runs, and stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
consul="$(./src/test/install-consul.sh)"
exec mvn -B -ntp verify -Dhybris.test.consul="$consul" "$@"
