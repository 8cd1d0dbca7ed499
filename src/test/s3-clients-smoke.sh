#!/usr/bin/env bash
# Runs the real S3 clients (AWS CLI v1, boto3, rclone) through one scenario against an S3 endpoint, checking
# every byte that comes back, and prints one line per step: "PASS <step>" or "FAIL <step>" (then that step's
# output on standard error, and exit 1 at the first failure). Made to prove a server (MinIO, the gateway)
# speaks S3 the way those clients do.
#
#   src/test/s3-clients-smoke.sh <endpoint> <access-key> <secret-key>
#   src/test/s3-clients-smoke.sh http://127.0.0.1:9000 hybris-test hybris-test-secret
#
# The clients come from install-s3-clients.sh (or from the listing in $HYBRIS_S3_CLIENTS, a file it wrote).
# The clients' configuration lives only in a temporary directory: the AWS CLI gets its own AWS_CONFIG_FILE and
# AWS_SHARED_CREDENTIALS_FILE (keys in the environment, region us-east-1, path-style addressing, 8 MB
# multipart threshold and part size), boto3 the same environment, and rclone two remotes defined only by
# RCLONE_CONFIG_<NAME>_* variables (no config file): provider Other (ListObjects v1) and provider Minio
# (ListObjectsV2). A bucket named hybris-smoke-<random> is made and removed (also after a failed step).
#
# Environment:
#   S3_SMOKE_TRACE_DIR=<dir>  also run the clients with their wire logging (aws --debug, botocore's DEBUG
#                             stream logger, rclone -vv --dump headers,auth) and keep each step's log there
#   S3_SMOKE_KEEP=1           keep the temporary directory (its path is printed on standard error)
#   S3_SMOKE_CA_BUNDLE=<pem>  for an https endpoint with a private CA (AWS_CA_BUNDLE, rclone --ca-cert, curl --cacert)
#   S3_SMOKE_FULL=1           also the S3 gateway's acceptance: a 300 MiB multipart cp, ranges at chunk boundaries,
#                             aws s3 sync/rm, a delimiter listing, copy, 2,500 keys paginated and deleted, rclone sync
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 <endpoint> <access-key> <secret-key>" >&2
    exit 2
fi
endpoint="${1%/}"
here="$(cd "$(dirname "$0")" && pwd)"

# --- the clients -------------------------------------------------------------------------------------------
if [ -n "${HYBRIS_S3_CLIENTS:-}" ]; then
    listing="$(cat "$HYBRIS_S3_CLIENTS")"
else
    listing="$("$here/install-s3-clients.sh")"
fi
prop() { printf '%s\n' "$listing" | sed -n "s/^$1=//p" | head -n 1; }
AWS="$(prop aws)"; PY="$(prop python)"; RCLONE="$(prop rclone)"
for c in "$AWS" "$PY" "$RCLONE"; do
    [ -n "$c" ] && [ -x "$c" ] || { echo "s3-clients-smoke: a client is missing from the listing:" >&2; printf '%s\n' "$listing" >&2; exit 1; }
done

# --- an isolated environment -------------------------------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/hybris-s3-smoke.XXXXXX")"
bucket_made=0
cleanup() {
    if [ "$bucket_made" = 1 ]; then # a step failed: remove what it left, quietly and without the debug flags
        "$AWS" --endpoint-url "$endpoint" s3 rb --force "s3://$bucket" >/dev/null 2>&1 || true
    fi
    if [ "${S3_SMOKE_KEEP:-0}" = 1 ]; then
        echo "s3-clients-smoke: kept $work" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
mkdir -p "$work/logs" "$work/in" "$work/out"
trace="${S3_SMOKE_TRACE_DIR:-}"
ca="${S3_SMOKE_CA_BUNDLE:-}"
if [ -n "$ca" ]; then ca="$(cd "$(dirname "$ca")" && pwd)/$(basename "$ca")"; fi
if [ -n "$trace" ]; then mkdir -p "$trace"; trace="$(cd "$trace" && pwd)"; fi

# Keep anything from the caller's own AWS or rclone set-up out of the way.
for var in $(compgen -e); do
    case "$var" in AWS_* | RCLONE_*) unset "$var" ;; esac
done
export TZ=UTC # rclone lsl prints local times
export AWS_ACCESS_KEY_ID="$2"
export AWS_SECRET_ACCESS_KEY="$3"
export AWS_DEFAULT_REGION=us-east-1
export AWS_CONFIG_FILE="$work/aws-config"
export AWS_SHARED_CREDENTIALS_FILE="$work/aws-credentials"
export AWS_EC2_METADATA_DISABLED=true
if [ -n "$ca" ]; then export AWS_CA_BUNDLE="$ca"; fi
: >"$AWS_CONFIG_FILE"; : >"$AWS_SHARED_CREDENTIALS_FILE"
"$AWS" configure set default.s3.addressing_style path
"$AWS" configure set default.s3.multipart_threshold 8MB
"$AWS" configure set default.s3.multipart_chunksize 8MB
# no retries, here or in boto3 and rclone: a request that fails once is a failure of the server
"$AWS" configure set default.retry_mode standard
"$AWS" configure set default.max_attempts 1
# the same with SigV4 presigned URLs, as another config file (with --profile the CLI ignores keys in the environment)
cp "$AWS_CONFIG_FILE" "$work/aws-config-sigv4"
AWS_CONFIG_FILE="$work/aws-config-sigv4" "$AWS" configure set default.s3.signature_version s3v4
# rclone: no config file; remotes "other" and "minio" exist only in the environment
export RCLONE_CONFIG="$work/rclone.conf"
for remote in OTHER MINIO; do
    export "RCLONE_CONFIG_${remote}_TYPE=s3"
    export "RCLONE_CONFIG_${remote}_ENV_AUTH=false"
    export "RCLONE_CONFIG_${remote}_ACCESS_KEY_ID=$2"
    export "RCLONE_CONFIG_${remote}_SECRET_ACCESS_KEY=$3"
    export "RCLONE_CONFIG_${remote}_ENDPOINT=$endpoint"
    export "RCLONE_CONFIG_${remote}_REGION=us-east-1"
done
export RCLONE_CONFIG_OTHER_PROVIDER=Other RCLONE_CONFIG_MINIO_PROVIDER=Minio

aws_() { if [ -n "$trace" ]; then "$AWS" --debug --endpoint-url "$endpoint" "$@"; else "$AWS" --endpoint-url "$endpoint" "$@"; fi; }
rclone_() {
    local flags=(--retries 1 --low-level-retries 1)
    if [ -n "$ca" ]; then flags+=(--ca-cert "$ca"); fi
    if [ -n "$trace" ]; then flags+=(-vv --dump headers,auth); fi
    "$RCLONE" "${flags[@]}" "$@"
}
boto() { S3_ENDPOINT="$endpoint" BUCKET="$bucket" WORK="$work" TRACE="$trace" "$PY" "$work/boto3_steps.py" "$@"; }

# Runs one step in a subshell with errexit, its output to a log; prints PASS or FAIL, and stops at a failure.
n=0
step() {
    local name="$1" log
    shift
    n=$((n + 1))
    log="$work/logs/$(printf '%02d' "$n")-$(echo "$name" | tr -c 'A-Za-z0-9\n' '-' | tr -s '-').log"
    set +e
    ( set -euo pipefail; "$@" ) >"$log" 2>&1
    local rc=$?
    set -e
    if [ -n "$trace" ]; then cp "$log" "$trace/"; fi
    if [ "$rc" -eq 0 ]; then
        echo "PASS $name"
    else
        echo "FAIL $name"
        echo "--- output of step '$name' (exit $rc), last 40 lines (S3_SMOKE_KEEP=1 keeps the whole log):" >&2
        tail -n 40 "$log" >&2
        exit 1
    fi
}
expect() { # what actual expected
    if [ "$2" != "$3" ]; then echo "$1: got '$2', expected '$3'"; return 1; fi
}

bucket="hybris-smoke-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
size=$((20 * 1024 * 1024))
head -c "$size" /dev/urandom >"$work/in/big.bin"
# The ETag S3 gives a multipart upload: MD5 of the parts' binary MD5s, "-" and the part count (8 MiB parts).
multipart_etag="$("$PY" - "$work/in/big.bin" <<'PY'
import hashlib, sys
part, digests = 8 * 1024 * 1024, []
with open(sys.argv[1], "rb") as f:
    while chunk := f.read(part):
        digests.append(hashlib.md5(chunk).digest())
print('"%s-%d"' % (hashlib.md5(b"".join(digests)).hexdigest(), len(digests)))
PY
)"

# --- AWS CLI -----------------------------------------------------------------------------------------------
s_mb() { aws_ s3 mb "s3://$bucket"; }
s_cp_up() {
    aws_ s3 cp "$work/in/big.bin" "s3://$bucket/cli/big.bin"
}
s_ls() {
    aws_ s3 ls "s3://$bucket/cli/" >"$work/ls.txt"
    cat "$work/ls.txt"
    expect "aws s3 ls (size name)" "$(awk '{print $3, $4}' "$work/ls.txt")" "$size big.bin"
}
s_head() {
    aws_ s3api head-object --bucket "$bucket" --key cli/big.bin >"$work/head.json"
    cat "$work/head.json"
    expect ContentLength "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["ContentLength"])' "$work/head.json")" "$size"
    expect "ETag (multipart, 8 MiB parts)" "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["ETag"])' "$work/head.json")" "$multipart_etag"
}
s_cp_down() {
    aws_ s3 cp "s3://$bucket/cli/big.bin" "$work/out/cli-big.bin"
    cmp "$work/in/big.bin" "$work/out/cli-big.bin"
}
s_presign() { # expected-part config-file
    # AWS CLI v1 presigns with SigV2 (AWSAccessKeyId, Signature, Expires) unless s3.signature_version is s3v4
    local url expected="$1"
    url="$(AWS_CONFIG_FILE="$2" aws_ s3 presign "s3://$bucket/cli/big.bin" --expires-in 300)"
    echo "$url"
    case "$url" in *"$expected"*) ;; *) echo "expected $expected in the presigned URL"; return 1 ;; esac
    curl -fsS ${ca:+--cacert "$ca"} -o "$work/out/presigned.bin" "$url"
    cmp "$work/in/big.bin" "$work/out/presigned.bin"
}

# --- boto3 -------------------------------------------------------------------------------------------------
cat >"$work/boto3_steps.py" <<'PY'
import logging, os, sys
import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

if os.environ.get("TRACE"):
    boto3.set_stream_logger("botocore", logging.DEBUG)
s3 = boto3.client("s3", endpoint_url=os.environ["S3_ENDPOINT"], region_name="us-east-1",
                  config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))
bucket, work, op = os.environ["BUCKET"], os.environ["WORK"], sys.argv[1]

if op == "put-if-none-match":
    with open(sys.argv[2], "rb") as f:
        r = s3.put_object(Bucket=bucket, Key="boto3/small.bin", Body=f.read(), IfNoneMatch="*")
    print("ETag", r["ETag"])
elif op == "put-if-none-match-again":
    try:
        s3.put_object(Bucket=bucket, Key="boto3/small.bin", Body=b"second", IfNoneMatch="*")
    except ClientError as e:
        status, code = e.response["ResponseMetadata"]["HTTPStatusCode"], e.response["Error"]["Code"]
        print("refused:", status, code)
        sys.exit(0 if (status, code) == (412, "PreconditionFailed") else 1)
    print("a second put with IfNoneMatch='*' was accepted")
    sys.exit(1)
elif op == "get":
    body = s3.get_object(Bucket=bucket, Key=sys.argv[2])["Body"].read()
    open(sys.argv[3], "wb").write(body)
elif op == "ranged-get":
    r = s3.get_object(Bucket=bucket, Key=sys.argv[2], Range="bytes=%s-%s" % (sys.argv[3], sys.argv[4]))
    print("ContentRange", r["ContentRange"], "ContentLength", r["ContentLength"])
    open(sys.argv[5], "wb").write(r["Body"].read())
elif op == "put-many":
    for i in range(int(sys.argv[2])):
        s3.put_object(Bucket=bucket, Key="boto3/many/%03d.txt" % i, Body=b"object %d\n" % i)
elif op == "list-paginated":
    keys, pages = [], 0
    for page in s3.get_paginator("list_objects_v2").paginate(
            Bucket=bucket, Prefix="boto3/many/", PaginationConfig={"PageSize": int(sys.argv[2])}):
        pages += 1
        keys += [o["Key"] for o in page.get("Contents", [])]
    print("pages", pages)
    print("\n".join(keys), file=open(sys.argv[3], "w"))
elif op == "delete-many":
    keys = [o["Key"] for p in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix="boto3/")
            for o in p.get("Contents", [])]
    r = s3.delete_objects(Bucket=bucket, Delete={"Objects": [{"Key": k} for k in keys]})
    print("deleted", len(r.get("Deleted", [])), "errors", r.get("Errors", []))
    left = s3.list_objects_v2(Bucket=bucket, Prefix="boto3/")
    if r.get("Errors") or len(r.get("Deleted", [])) != len(keys) or left.get("KeyCount") != 0:
        sys.exit(1)
elif op == "put-numbered":
    from concurrent.futures import ThreadPoolExecutor
    n = int(sys.argv[2])
    with ThreadPoolExecutor(16) as pool:
        list(pool.map(lambda i: s3.put_object(Bucket=bucket, Key="boto3/numbered/%04d.txt" % i,
                                              Body=b"object %d\n" % i), range(n)))
elif op == "list-numbered":
    keys, pages = [], 0
    for page in s3.get_paginator("list_objects_v2").paginate(
            Bucket=bucket, Prefix="boto3/numbered/", PaginationConfig={"PageSize": int(sys.argv[2])}):
        pages += 1
        keys += [o["Key"] for o in page.get("Contents", [])]
    expected = ["boto3/numbered/%04d.txt" % i for i in range(int(sys.argv[3]))]
    print("pages", pages, "keys", len(keys))
    sys.exit(0 if keys == expected and pages == int(sys.argv[4]) else 1)
elif op == "delete-all":
    keys = [o["Key"] for p in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=sys.argv[2])
            for o in p.get("Contents", [])]
    deleted = 0
    for i in range(0, len(keys), 1000):
        r = s3.delete_objects(Bucket=bucket, Delete={"Objects": [{"Key": k} for k in keys[i:i + 1000]]})
        if r.get("Errors"):
            sys.exit("errors: %s" % r["Errors"])
        deleted += len(r.get("Deleted", []))
    left = s3.list_objects_v2(Bucket=bucket, Prefix=sys.argv[2])
    print("deleted", deleted, "of", len(keys), "left", left.get("KeyCount"))
    sys.exit(0 if deleted == len(keys) and left.get("KeyCount") == 0 else 1)
elif op == "ranges":
    # byte ranges at Hybris's chunk boundaries (8 MiB by default) and at the ends, against the local file
    key, local, chunk = sys.argv[2], sys.argv[3], 8 * 1024 * 1024
    size = os.path.getsize(local)
    wanted = [(0, 0), (0, chunk - 1), (chunk - 1, chunk), (chunk, 2 * chunk - 1), (2 * chunk - 1, 3 * chunk + 1),
              (size - 1, size - 1), (size - chunk - 5, size - 1)]
    with open(local, "rb") as f:
        for first, last in wanted:
            body = s3.get_object(Bucket=bucket, Key=key, Range="bytes=%d-%d" % (first, last))["Body"].read()
            f.seek(first)
            if body != f.read(last - first + 1):
                sys.exit("range %d-%d differs" % (first, last))
        suffix = s3.get_object(Bucket=bucket, Key=key, Range="bytes=-1000")["Body"].read()
        f.seek(size - 1000)
        if suffix != f.read(1000):
            sys.exit("suffix range differs")
    print("ranges ok", len(wanted) + 1)
elif op == "copy":
    s3.copy_object(Bucket=bucket, Key=sys.argv[3], CopySource={"Bucket": bucket, "Key": sys.argv[2]})
    a = s3.get_object(Bucket=bucket, Key=sys.argv[2])["Body"].read()
    b = s3.get_object(Bucket=bucket, Key=sys.argv[3])["Body"].read()
    sys.exit(0 if a == b and len(a) > 0 else "copy differs")
else:
    sys.exit("unknown step " + op)
PY
head -c 100000 /dev/urandom >"$work/in/small.bin"
s_boto_put() {
    boto put-if-none-match "$work/in/small.bin"
    boto get boto3/small.bin "$work/out/small.bin"
    cmp "$work/in/small.bin" "$work/out/small.bin"
}
s_boto_put_again() {
    boto put-if-none-match-again
    boto get boto3/small.bin "$work/out/small-after.bin"
    cmp "$work/in/small.bin" "$work/out/small-after.bin"
}
s_boto_range() {
    boto ranged-get boto3/small.bin 1000 4999 "$work/out/range.bin"
    dd if="$work/in/small.bin" of="$work/out/range-expected.bin" iflag=skip_bytes,count_bytes skip=1000 count=4000 status=none
    cmp "$work/out/range-expected.bin" "$work/out/range.bin"
    boto ranged-get cli/big.bin $((size - 100)) $((size - 1)) "$work/out/range-tail.bin"
    tail -c 100 "$work/in/big.bin" | cmp - "$work/out/range-tail.bin"
}
s_boto_list() {
    boto put-many 25
    boto list-paginated 10 "$work/out/keys.txt" | tee "$work/out/pages.txt"
    expect pages "$(cat "$work/out/pages.txt")" "pages 3"
    for i in $(seq 0 24); do printf 'boto3/many/%03d.txt\n' "$i"; done >"$work/out/keys-expected.txt"
    cmp "$work/out/keys-expected.txt" "$work/out/keys.txt"
}
s_boto_delete() { boto delete-many; }

# --- rclone ------------------------------------------------------------------------------------------------
mkdir -p "$work/in/tree/sub dir" "$work/in/tree/empty-parent/child"
cp "$work/in/big.bin" "$work/in/tree/big.bin"
printf 'hello, gateway\n' >"$work/in/tree/hello.txt"
: >"$work/in/tree/zero.bin"
head -c 300000 /dev/urandom >"$work/in/tree/sub dir/ü file.bin"
head -c 7 /dev/urandom >"$work/in/tree/empty-parent/child/seven.bin"
# fixed modification times, to check that rclone keeps them (X-Amz-Meta-Mtime)
find "$work/in/tree" -type f -exec touch -d '2021-02-03 04:05:06.5 UTC' {} +
mtimes() { # remote:path -> "size mtime path" lines, sorted
    rclone_ lsl "$1" | awk '{ sub(/\.[0-9]+$/, "", $3); print }' | sort -k4
}
s_rclone_copy() {
    # 8 MiB upload cutoff and 5 MiB chunks: big.bin goes up as a 4-part multipart upload
    rclone_ copy --s3-upload-cutoff 8M --s3-chunk-size 5M "$work/in/tree" "other:$bucket/rclone"
}
s_rclone_copy_minio() {
    # provider Minio also checks the multipart ETag (MD5 of the parts' MD5s, "-4") against its own parts
    rclone_ copy --s3-upload-cutoff 8M --s3-chunk-size 5M "$work/in/tree/big.bin" "minio:$bucket/rclone-minio"
    rclone_ check "$work/in/tree" "minio:$bucket/rclone-minio" --include big.bin
}
s_rclone_check() {
    rclone_ check "$work/in/tree" "other:$bucket/rclone"
    rclone_ check --download "$work/in/tree" "minio:$bucket/rclone"
}
s_rclone_mtime() {
    local got
    got="$(mtimes "minio:$bucket/rclone")"
    echo "$got"
    expect "rclone lsl" "$(echo "$got" | awk '{print $2, $3}' | sort -u)" "2021-02-03 04:05:06"
    expect "rclone lsl count" "$(echo "$got" | wc -l)" 5
}
s_rclone_touch() {
    # same content, new time: rclone updates the object's metadata in place (CopyObject onto itself, REPLACE)
    find "$work/in/tree" -type f -exec touch -d '2022-03-04 05:06:07 UTC' {} +
    rclone_ copy "$work/in/tree" "other:$bucket/rclone"
    expect "rclone lsl after touch" "$(mtimes "other:$bucket/rclone" | awk '{print $2, $3}' | sort -u)" "2022-03-04 05:06:07"
}
s_rclone_back() {
    rclone_ copy "minio:$bucket/rclone" "$work/out/tree"
    for f in big.bin hello.txt zero.bin "sub dir/ü file.bin" empty-parent/child/seven.bin; do
        cmp "$work/in/tree/$f" "$work/out/tree/$f"
    done
    expect "files downloaded" "$(find "$work/out/tree" -type f | wc -l)" 5
}
s_rb() { aws_ s3 rb --force "s3://$bucket"; }

# --- the gateway's acceptance (S3_SMOKE_FULL=1): larger and longer ----------------------------------------
s_big_cp() { # 300 MiB: the CLI splits it into 38 parts of 8 MiB
    head -c $((300 * 1024 * 1024)) /dev/urandom >"$work/in/300.bin"
    aws_ s3 cp "$work/in/300.bin" "s3://$bucket/cli/300.bin"
    expect ContentLength "$(aws_ s3api head-object --bucket "$bucket" --key cli/300.bin --query ContentLength)" \
        $((300 * 1024 * 1024))
    aws_ s3 cp "s3://$bucket/cli/300.bin" "$work/out/300.bin"
    cmp "$work/in/300.bin" "$work/out/300.bin"
    rm -f "$work/out/300.bin"
}
s_boto_ranges() { boto ranges cli/300.bin "$work/in/300.bin"; }
s_sync() {
    aws_ s3 sync "$work/in/tree" "s3://$bucket/sync"
    printf 'changed\n' >"$work/in/tree/hello.txt"
    printf 'new\n' >"$work/in/tree/sub dir/new.txt"
    aws_ s3 sync --no-progress "$work/in/tree" "s3://$bucket/sync" | tee "$work/sync2.txt"
    expect "files uploaded by the second sync" "$(grep -c '^upload:' "$work/sync2.txt")" 2
    aws_ s3 sync "s3://$bucket/sync" "$work/out/sync"
    diff -r "$work/in/tree" "$work/out/sync"
}
s_list_delim() {
    aws_ s3api list-objects-v2 --bucket "$bucket" --prefix sync/ --delimiter / >"$work/delim.json"
    cat "$work/delim.json"
    "$PY" - "$work/delim.json" <<'PYC'
import json, sys
d = json.load(open(sys.argv[1]))
prefixes = sorted(p["Prefix"] for p in d.get("CommonPrefixes", []))
keys = sorted(o["Key"] for o in d.get("Contents", []))
assert prefixes == ["sync/empty-parent/", "sync/sub dir/"], prefixes
assert keys == ["sync/big.bin", "sync/hello.txt", "sync/zero.bin"], keys
PYC
}
s_aws_rm() {
    aws_ s3 rm --recursive "s3://$bucket/sync"
    expect "left after rm" "$(aws_ s3 ls --recursive "s3://$bucket/sync" | wc -l)" 0
}
s_boto_copy() { boto copy cli/big.bin copies/big-copy.bin; }
s_boto_2500() {
    boto put-numbered 2500
    boto list-numbered 1000 2500 3
    boto delete-all boto3/numbered/
}
s_rclone_sync() {
    rm -f "$work/in/tree/zero.bin"
    printf 'synced by rclone\n' >"$work/in/tree/rclone-new.txt"
    rclone_ sync "$work/in/tree" "other:$bucket/rsync"
    rclone_ check "$work/in/tree" "other:$bucket/rsync"
    rclone_ sync "other:$bucket/rsync" "$work/out/rsync"
    diff -r "$work/in/tree" "$work/out/rsync"
}

step "aws s3 mb" s_mb
bucket_made=1
step "aws s3 cp upload (20 MiB, multipart)" s_cp_up
step "aws s3 ls" s_ls
step "aws s3api head-object (size, multipart ETag)" s_head
step "aws s3 cp download (cmp)" s_cp_down
step "aws s3 presign (SigV2 query string) + curl (cmp)" s_presign "&Signature=" "$AWS_CONFIG_FILE"
step "aws s3 presign (s3.signature_version s3v4) + curl (cmp)" s_presign "X-Amz-Signature=" "$work/aws-config-sigv4"
step "boto3 put_object IfNoneMatch='*' (cmp)" s_boto_put
step "boto3 put_object IfNoneMatch='*' again: 412 PreconditionFailed" s_boto_put_again
step "boto3 get_object Range (cmp)" s_boto_range
step "boto3 list_objects_v2 paginator (3 pages of 10)" s_boto_list
step "boto3 delete_objects" s_boto_delete
step "rclone copy (provider Other, 4-part multipart)" s_rclone_copy
step "rclone check (Other; Minio with --download)" s_rclone_check
step "rclone copy + check (provider Minio, multipart ETag)" s_rclone_copy_minio
step "rclone lsl: modification times kept" s_rclone_mtime
step "rclone copy after touch: modification times updated" s_rclone_touch
step "rclone copy back (provider Minio, cmp)" s_rclone_back
if [ "${S3_SMOKE_FULL:-0}" = 1 ]; then
    step "aws s3 cp 300 MiB (38-part multipart), head-object, download (cmp)" s_big_cp
    step "boto3 ranges at chunk boundaries of the 300 MiB object (cmp)" s_boto_ranges
    step "aws s3 sync up, change, sync again (2 uploads), sync down (diff -r)" s_sync
    step "aws s3api list-objects-v2 with a delimiter" s_list_delim
    step "aws s3 rm --recursive" s_aws_rm
    step "boto3 copy_object (cmp)" s_boto_copy
    step "boto3 2,500 keys: put, paginated listing (3 pages), delete_objects" s_boto_2500
    step "rclone sync (with a deletion) + check, sync back (diff -r)" s_rclone_sync
fi
step "aws s3 rb --force" s_rb
bucket_made=0
echo "s3-clients-smoke: all $n steps passed against $endpoint" >&2
