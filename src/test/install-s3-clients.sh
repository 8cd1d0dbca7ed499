#!/usr/bin/env bash
# Installs the real S3 clients the S3-gateway tests run, cached by version, and prints where they are as a
# properties listing on standard output (progress goes to standard error):
#   aws=<venv>/bin/aws             AWS CLI v1 (its own vendored botocore, see below)
#   python=<venv>/bin/python       a Python in which `import boto3` works
#   rclone=<path>/rclone
#   awscli.version=..., boto3.version=..., rclone.version=...
# run-tests.sh writes it to target/test-env/s3-clients.properties and passes -Dhybris.test.s3clients=<file>.
#
# - awscli and boto3 come from PyPI into one virtual environment, every package pinned below:
#     ${HYBRIS_TEST_CACHE:-$HOME/.cache/hybris-test}/s3-clients-venv/awscli-<v>-boto3-<v>-py<major.minor>/venv
#   `venv` is a symlink, switched atomically to a fully installed and checked environment (venv.XXXXXX beside
#   it), so an interrupted run never leaves a half install behind that name. About 10 s the first time.
#   awscli 1.46 carries its own copy of botocore (1.43.62, awscli.botocore) and s3transfer; boto3 uses the
#   separate botocore pinned here. Both are >= 1.36, so both send CRC32 flexible checksums by default: over
#   https as aws-chunked bodies with an x-amz-checksum-crc32 trailer, over plain http as a header on a signed
#   payload (docs/s3-clients.md has what each client sends).
# - rclone is built with `go install github.com/rclone/rclone@<tag>` by install-go-tool.sh (needs Go >= 1.26;
#   about 3.5 minutes on 2 cores the first time) and cached at <cache>/rclone/<tag>/rclone.
# Cached, the script takes well under a second (it starts the venv's Python once to check it still runs).
#
# Usage: src/test/install-s3-clients.sh
# Environment: HYBRIS_RCLONE_VERSION picks another rclone tag; HYBRIS_PYTHON another Python (>= 3.10) for the
# virtual environment; HYBRIS_TEST_CACHE moves the cache. The Python pins are changed here, all together.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
AWSCLI_VERSION="1.46.3"
BOTO3_VERSION="1.44.8"
RCLONE_VERSION="${HYBRIS_RCLONE_VERSION:-v1.76.0}"
# The whole set pip resolves for the two, pinned so that every machine gets the same environment.
PINS=(
    "awscli==$AWSCLI_VERSION"
    "boto3==$BOTO3_VERSION"
    botocore==1.44.8
    s3transfer==0.19.3
    jmespath==1.1.0
    python-dateutil==2.9.0.post0
    six==1.17.0
    urllib3==2.8.0
    docutils==0.19
    PyYAML==6.0.4
    colorama==0.4.6
    rsa==4.7.2
    pyasn1==0.6.5
)
python="${HYBRIS_PYTHON:-python3}"
cache_root="${HYBRIS_TEST_CACHE:-${HOME:-/tmp}/.cache/hybris-test}"

log() { echo "install-s3-clients: $*" >&2; }

command -v "$python" >/dev/null 2>&1 \
    || { log "$python (Python >= 3.10, with its venv module) is needed for awscli and boto3 and is not on PATH"; exit 1; }
py_version="$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
cache_dir="$cache_root/s3-clients-venv/awscli-$AWSCLI_VERSION-boto3-$BOTO3_VERSION-py$py_version"
venv="$cache_dir/venv"

install_venv() {
    "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
        || { log "awscli $AWSCLI_VERSION and boto3 $BOTO3_VERSION need Python >= 3.10; $python is $py_version"; return 1; }
    mkdir -p "$cache_dir"
    local staged
    staged="$(mktemp -d "$cache_dir/venv.XXXXXX")"
    chmod 755 "$staged"
    # shellcheck disable=SC2064 # expand $staged now: it is removed unless it was switched in
    trap "[ \"\$(readlink '$venv' 2>/dev/null)\" = '$(basename "$staged")' ] || rm -rf '$staged'" EXIT
    log "installing awscli $AWSCLI_VERSION and boto3 $BOTO3_VERSION into a virtual environment (cached afterwards in $cache_dir)"
    "$python" -m venv "$staged" >&2 \
        || { log "$python -m venv failed; on Debian the venv module is the python3-venv package"; return 1; }
    "$staged/bin/python" -m pip install --disable-pip-version-check --no-input --quiet "${PINS[@]}" >&2 \
        || { log "pip install ${PINS[*]} failed (see the pip output above)"; return 1; }
    "$staged/bin/aws" --version >&2 \
        && "$staged/bin/python" -c "import boto3; assert boto3.__version__ == '$BOTO3_VERSION', boto3.__version__" \
        || { log "the new virtual environment does not run aws or import boto3 $BOTO3_VERSION"; return 1; }
    # Switch the symlink atomically, so a concurrent or interrupted run never sees a half-installed environment.
    ln -s "$(basename "$staged")" "$venv.tmp.$$"
    mv -T -f "$venv.tmp.$$" "$venv"
    # environments left by earlier installs (a broken one replaced, an interrupted run) once nothing uses them
    find "$cache_dir" -maxdepth 1 -name 'venv.*' -type d -mmin +60 ! -name "$(basename "$staged")" \
        -exec rm -rf {} + 2>/dev/null || true
}

# The venv's python is a symlink to the interpreter that made it: check that it still runs.
if ! { [ -x "$venv/bin/aws" ] && "$venv/bin/python" -c '' 2>/dev/null; }; then
    started=$SECONDS
    install_venv
    log "installed in $((SECONDS - started)) s: $venv"
fi

rclone="$("$here/install-go-tool.sh" rclone "github.com/rclone/rclone@$RCLONE_VERSION")"

cat <<PROPS
aws=$venv/bin/aws
python=$venv/bin/python
rclone=$rclone
awscli.version=$AWSCLI_VERSION
boto3.version=$BOTO3_VERSION
rclone.version=$RCLONE_VERSION
PROPS
