#!/usr/bin/env bash
# Installs the native libraries the optional native coders build against, from Debian's packages:
# ISA-L (libisal-dev) for hybris-erasure's JNI Reed-Solomon coder. Idempotent and quiet when everything is
# present; without root or apt-get it prints one warning and exits 0 (the build then leaves the native coder out and
# the Java coder is used; its tests are skipped, or fail under run-tests.sh's -Dhybris.test.require-env=true).
set -euo pipefail
packages=(libisal-dev)
missing=()
for p in "${packages[@]}"; do
    if ! dpkg -s "$p" >/dev/null 2>&1; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-native-deps: apt-get not found; ${missing[*]} not installed, the native erasure coder will not be built and its tests fail under -Dhybris.test.require-env=true" >&2
    exit 0
fi
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo_cmd=(sudo -n)
    else
        echo "install-native-deps: not root and no sudo; ${missing[*]} not installed, the native erasure coder will not be built and its tests fail under -Dhybris.test.require-env=true" >&2
        exit 0
    fi
fi
echo "install-native-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq >&2
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
