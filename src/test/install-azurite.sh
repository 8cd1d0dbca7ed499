#!/usr/bin/env bash
# Installs Azurite (Microsoft's Azure Storage emulator, an npm package) into the test cache, cached by version,
# and prints the path of its blob-service launcher (only the path goes to standard output).
#
#   ${HYBRIS_TEST_CACHE:-$HOME/.cache/hybris-test}/azurite/<version>/node_modules/.bin/azurite-blob
set -euo pipefail

version="${HYBRIS_AZURITE_VERSION:-3.35.0}"
# 3.35.0 is the newest release that supports the Node.js 20 this machine has (3.36+ need Node 22).
cache_dir="${HYBRIS_TEST_CACHE:-${HOME:-/tmp}/.cache/hybris-test}/azurite/$version"
launcher="$cache_dir/node_modules/.bin/azurite-blob"

log() { echo "install-azurite: $*" >&2; }

if [ -x "$launcher" ] && [ -f "$cache_dir/.complete" ]; then
    echo "$launcher"
    exit 0
fi
command -v npm >/dev/null 2>&1 || { log "npm (Node.js) is needed to install Azurite and none is on PATH"; exit 1; }

log "installing azurite@$version with npm (cached afterwards in $cache_dir)"
rm -rf "$cache_dir"
mkdir -p "$cache_dir"
( cd "$cache_dir" && npm install --no-audit --no-fund --loglevel=error "azurite@$version" >&2 ) \
    || { log "npm install azurite@$version failed (see above)"; rm -rf "$cache_dir"; exit 1; }
touch "$cache_dir/.complete"
echo "$launcher"
