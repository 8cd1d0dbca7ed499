#!/usr/bin/env bash
# Runs the S3 gateway (docs/s3-gateway.md) on the embedded default — an in-process ZooKeeper and three directory
# "clouds" under ./target/gateway-data — at http://127.0.0.1:9000, until Ctrl-C. Extra arguments go to
# `hybris gateway` (e.g. --port 9100). The access key and secret come from HYBRIS_S3_ACCESS_KEY and
# HYBRIS_S3_SECRET_KEY, with a development pair as the default; set your own before serving anything but this
# machine. To serve a real deployment: ./hybris --config hybris.properties gateway
set -euo pipefail
cd "$(dirname "$0")"
export HYBRIS_S3_ACCESS_KEY="${HYBRIS_S3_ACCESS_KEY:-hybris}"
export HYBRIS_S3_SECRET_KEY="${HYBRIS_S3_SECRET_KEY:-hybris-secret}"
echo "gateway.sh: access key $HYBRIS_S3_ACCESS_KEY, secret key from HYBRIS_S3_SECRET_KEY" >&2
exec ./hybris --data-dir "${HYBRIS_DATA_DIR:-$PWD/target/gateway-data}" gateway "$@"
