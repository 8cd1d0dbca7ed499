#!/usr/bin/env bash
# Installs the Consul binary the hybris-rmds-consul tests and benchmark run, and prints its path (only the
# path goes to standard output; progress goes to standard error).
#
# Consul publishes no artifact to the registries this project may use, and it cannot be `go install`ed: its
# go.mod has replace directives. It does build as a dependency of a throwaway module (go get + go build), with
# GONOSUMDB for its nested modules (api, sdk, proto-public, ...), some of which the checksum database lacks.
# That takes about 6 minutes on 2 cores, so the binary is cached by version and built only once:
#   ${HYBRIS_TEST_CACHE:-$HOME/.cache/hybris-test}/consul/<version>/consul
#
# Usage: src/test/install-consul.sh            # prints e.g. /root/.cache/hybris-test/consul/1.22.7/consul
# Environment: HYBRIS_CONSUL_VERSION (default below) picks another release tag; HYBRIS_TEST_CACHE moves the cache.
set -euo pipefail

version="${HYBRIS_CONSUL_VERSION:-1.22.7}"
# Nested modules to pin when building $version as a dependency. Consul's own build replaces its nested modules
# (api, sdk, ...) with the copies in its tree; as a dependency it gets the versions its go.mod requires, and for
# 1.22.7 that api (v1.33.7) lacks fields the 1.22.7 commands use (ACLToken.Name, ACLAuthMethod.TokenNameFormat).
# api v1.34.1, the first release with them, builds; the server code is unchanged either way (api is the client).
case "$version" in
    1.22.7) pins="github.com/hashicorp/consul/api@v1.34.1" ;;
    *) pins="" ;;
esac
cache_dir="${HYBRIS_TEST_CACHE:-${HOME:-/tmp}/.cache/hybris-test}/consul/$version"
binary="$cache_dir/consul"

log() { echo "install-consul: $*" >&2; }

if [ -x "$binary" ] && "$binary" version >/dev/null 2>&1; then
    echo "$binary"
    exit 0
fi

if ! command -v go >/dev/null 2>&1; then
    log "Go is needed to build Consul $version (none on PATH); install Go, or put a consul binary at $binary"
    exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/hybris-consul-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT

log "building Consul $version from source with $(go version) (about 6 minutes on 2 cores; cached afterwards)"
started=$SECONDS
(
    cd "$work"
    # A throwaway module: Consul is built as its dependency, so Consul's own replace directives do not apply
    # and its nested modules resolve at the versions Consul's go.mod requires.
    export GO111MODULE=on GOTOOLCHAIN=local
    export GONOSUMDB="github.com/hashicorp/consul${GONOSUMDB:+,$GONOSUMDB}"
    export GOFLAGS="-mod=mod ${GOFLAGS:-}"
    go mod init hybris.test/consul-build >&2 2>&1
    # shellcheck disable=SC2086 # $pins is a list of module@version words
    go get "github.com/hashicorp/consul@v$version" $pins >&2 2>&1
    # -trimpath: reproducible paths; the version package's defaults already say $version.
    go build -trimpath -o "$work/consul" github.com/hashicorp/consul >&2 2>&1
) || { log "building Consul $version failed (see the go output above)"; exit 1; }

"$work/consul" version >&2
mkdir -p "$cache_dir"
# Move in atomically, so a concurrent or interrupted run never sees a half-written binary.
mv "$work/consul" "$binary.tmp.$$"
mv -f "$binary.tmp.$$" "$binary"
log "built in $((SECONDS - started)) s: $binary"
echo "$binary"
