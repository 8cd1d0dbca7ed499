#!/usr/bin/env bash
# Runs the whole Hybris test suite on a fresh machine: the Maven build with every module's unit, contract,
# fault and end-to-end tests. The servers these tests need today are started in-process by the tests
# themselves (ZooKeeper from its own server classes and curator-test's TestingServer/TestingCluster on free
# loopback ports), so nothing has to be installed beyond a JDK 17+ and Maven.
# Later test environments (MinIO, Azurite, fake-gcs-server, Consul, memcached, toxiproxy) are installed and
# started from this directory, cached between runs, and stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec mvn -B -ntp verify "$@"
