#!/usr/bin/env bash
# Runs the reliability campaign (hybris-reliability, docs/reliability.md) as a soak: by default 30 minutes of
# load per metadata service (ZooKeeper with encryption, then Consul), printing a running tally (ops, faults
# injected, violations) every 10 s and a final table per service. Starts and stops its own servers like
# run-tests.sh.
#
#   src/test/soak.sh [duration] [zookeeper|consul]      # e.g. src/test/soak.sh 30m zookeeper
#   HYBRIS_CAMPAIGN_SEED=123 src/test/soak.sh 5m         # replay a seed
set -euo pipefail
cd "$(dirname "$0")/../.."
duration="${1:-30m}"
only="${2:-}"
consul="$(./src/test/install-consul.sh)"
env_dir="$PWD/target/soak-env"
trap './src/test/test-env.sh stop "$env_dir"' EXIT
# fake-gcs-server's memory backend slows down as a long run fills its bucket (test-env.sh says why)
endpoints="$(HYBRIS_TEST_GCS_BACKEND=filesystem ./src/test/test-env.sh start "$env_dir")"
mvn -B -ntp -q install -DskipTests -pl hybris-reliability -am
mvn -B -ntp test -pl hybris-reliability -Dtest=ReliabilityCampaignTest \
    -Dhybris.test.require-env=true -Dhybris.test.consul="$consul" -Dhybris.test.env="$endpoints" \
    -Dhybris.campaign.duration="$duration" -Dhybris.campaign.metadata="$only" \
    -Dhybris.campaign.seed="${HYBRIS_CAMPAIGN_SEED:-}"
