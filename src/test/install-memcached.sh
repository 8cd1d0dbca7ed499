#!/usr/bin/env bash
# Installs memcached (the cache tier of hybris-cache) from Debian's packages if it is missing, and prints the
# path of the memcached binary (only the path goes to standard output). Idempotent: quiet when it is present.
# The package's own service is not used (and is stopped if the package just started it); test-env.sh starts
# its own memcached on a free loopback port.
set -euo pipefail
log() { echo "install-memcached: $*" >&2; }

binary="$(command -v memcached 2>/dev/null || true)"
if [ -z "$binary" ] && [ -x /usr/bin/memcached ]; then
    binary=/usr/bin/memcached
fi
if [ -n "$binary" ]; then
    echo "$binary"
    exit 0
fi
command -v apt-get >/dev/null 2>&1 || { log "memcached is not installed and apt-get is not available; install memcached (>= 1.5) and put it on PATH"; exit 1; }
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo_cmd=(sudo -n)
    else
        log "memcached is not installed and this is neither root nor has sudo; install the memcached package"
        exit 1
    fi
fi
log "installing memcached from Debian's packages"
export DEBIAN_FRONTEND=noninteractive
# do not let the package start its system service (policy-rc.d 101 = action forbidden), when we may
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ] && [ "$(id -u)" -eq 0 ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created_policy=1
fi
cleanup() { if [ "$created_policy" = 1 ]; then rm -f "$policy"; fi; }
trap cleanup EXIT
"${sudo_cmd[@]}" apt-get update -qq >&2
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends memcached >&2
binary="$(command -v memcached 2>/dev/null || echo /usr/bin/memcached)"
[ -x "$binary" ] || { log "memcached was installed but $binary is not executable"; exit 1; }
echo "$binary"
