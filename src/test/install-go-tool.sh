#!/usr/bin/env bash
# Installs one Go-built test server with `go install`, cached by name and version, and prints the binary's
# path (only the path goes to standard output; progress goes to standard error).
#
#   ${HYBRIS_TEST_CACHE:-$HOME/.cache/hybris-test}/<name>/<version>/<binary>
#
# Usage: src/test/install-go-tool.sh <name> <package@version> [binary-name]
#   src/test/install-go-tool.sh minio github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c
# A fresh build of MinIO takes about 4 minutes on 2 cores; fake-gcs-server and toxiproxy under one.
set -euo pipefail

name="$1"
package="$2"
binary_name="${3:-$name}"
version="${package##*@}"
cache_dir="${HYBRIS_TEST_CACHE:-${HOME:-/tmp}/.cache/hybris-test}/$name/$version"
binary="$cache_dir/$binary_name"

log() { echo "install-go-tool: $*" >&2; }

if [ -x "$binary" ]; then
    echo "$binary"
    exit 0
fi
if ! command -v go >/dev/null 2>&1; then
    log "Go is needed to build $name ($package) and none is on PATH; install Go, or put the binary at $binary"
    exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/hybris-$name-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
log "building $package (cached afterwards at $binary)"
started=$SECONDS
GOBIN="$work/bin" GOTOOLCHAIN=local GOFLAGS="-trimpath ${GOFLAGS:-}" go install "$package" >&2 \
    || { log "building $package failed (see the go output above)"; exit 1; }
built="$(find "$work/bin" -type f -perm -u+x | head -n 1)"
[ -n "$built" ] || { log "go install $package produced no binary"; exit 1; }
mkdir -p "$cache_dir"
# Move in atomically, so a concurrent or interrupted run never sees a half-written binary.
mv "$built" "$binary.tmp.$$"
mv -f "$binary.tmp.$$" "$binary"
log "built in $((SECONDS - started)) s: $binary"
echo "$binary"
