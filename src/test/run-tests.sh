#!/usr/bin/env bash
# Runs the whole Hybris test suite on a fresh machine: the Maven build with every module's unit, contract,
# fault and end-to-end tests, against real servers on loopback:
# - ZooKeeper runs in-process (its own server classes and curator-test's TestingServer/TestingCluster).
# - Consul is a real binary: install-consul.sh builds it from source once (about 6 minutes; needs Go) and caches
#   it; the tests start their own agents from it on free loopback ports and stop them.
# - MinIO, Azurite, fake-gcs-server and toxiproxy: test-env.sh installs them (cached by version; MinIO takes
#   about 4 minutes to build the first time), starts them on free loopback ports, writes their endpoints to
#   target/test-env/endpoints.properties for the tests (-Dhybris.test.env), and they are stopped on exit.
# - The real S3 clients the S3 gateway is tested with (AWS CLI v1 and boto3 in a Python virtual environment,
#   rclone built from source, about 3.5 minutes the first time): install-s3-clients.sh installs them (cached by
#   version) and lists their paths, written to target/test-env/s3-clients.properties (-Dhybris.test.s3clients).
# - Native libraries (ISA-L for the erasure coder) come from Debian's packages (install-native-deps.sh).
# Maven gets -Dhybris.test.require-env=true, the suite's one switch: a test whose server (an endpoints file,
# Consul) or native library is missing fails instead of being skipped, so nothing missing can turn a run green.
set -euo pipefail
cd "$(dirname "$0")/../.."
consul="$(./src/test/install-consul.sh)"
s3clients_listing="$(./src/test/install-s3-clients.sh)"
if [ -x ./src/test/install-native-deps.sh ]; then
    ./src/test/install-native-deps.sh
fi
env_dir="$PWD/target/test-env"
trap './src/test/test-env.sh stop "$env_dir"' EXIT
endpoints="$(./src/test/test-env.sh start "$env_dir")"
s3clients="$env_dir/s3-clients.properties"
printf '%s\n' "$s3clients_listing" >"$s3clients.tmp"
mv -f "$s3clients.tmp" "$s3clients"
mvn -B -ntp verify -Dhybris.test.require-env=true -Dhybris.test.consul="$consul" -Dhybris.test.env="$endpoints" \
    -Dhybris.test.s3clients="$s3clients" "$@"
