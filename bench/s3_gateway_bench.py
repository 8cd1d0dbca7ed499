"""Throughput and latency of boto3 through the Hybris S3 gateway and straight to MinIO, in one run.

Usage: s3_gateway_bench.py <out-dir> <rounds> <seconds> <name>=<endpoint>,<key>,<secret> ...
Per target and round: one 1 GiB object put (upload_file: 8 MiB parts, 10 threads) and got (download_file), 4 KiB
PUT and GET ops/s with 16 threads for <seconds> each, and single-thread 4 KiB GET latency (p50/p99 of 300).
Targets alternate within a round and their order flips between rounds; the medians over rounds are printed.
"""
import concurrent.futures
import filecmp
import os
import statistics
import sys
import threading
import time

import boto3
from boto3.s3.transfer import TransferConfig
from botocore.config import Config

out, rounds, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
targets = []
for spec in sys.argv[4:]:
    name, rest = spec.split("=", 1)
    endpoint, key, secret = rest.split(",")
    targets.append((name, endpoint, key, secret))

large = os.path.join(out, "large.bin")
if not os.path.exists(large) or os.path.getsize(large) != 1 << 30:
    with open(large, "wb") as f:
        for _ in range(1024):
            f.write(os.urandom(1 << 20))
small = os.urandom(4096)
transfer = TransferConfig(multipart_threshold=8 << 20, multipart_chunksize=8 << 20, max_concurrency=10)


def client(endpoint, key, secret):
    return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key,
                        aws_secret_access_key=secret,
                        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1},
                                      max_pool_connections=32))


def ops_per_second(fn, threads, duration):
    stop = time.monotonic() + duration
    counts = [0] * threads

    def worker(i):
        while time.monotonic() < stop:
            fn(i, counts[i])
            counts[i] += 1

    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        list(pool.map(worker, range(threads)))
    return sum(counts) / duration


results = {t[0]: {} for t in targets}
for r in range(rounds):
    order = targets if r % 2 == 0 else list(reversed(targets))
    for name, endpoint, key, secret in order:
        s3 = client(endpoint, key, secret)
        bucket = "bench-gw-%d" % r
        try:
            s3.create_bucket(Bucket=bucket)
        except s3.exceptions.BucketAlreadyOwnedByYou:
            pass
        t0 = time.monotonic()
        s3.upload_file(large, bucket, "large.bin", Config=transfer)
        put_mibs = 1024 / (time.monotonic() - t0)
        back = os.path.join(out, "large-back.bin")
        t0 = time.monotonic()
        s3.download_file(bucket, "large.bin", back, Config=transfer)
        get_mibs = 1024 / (time.monotonic() - t0)
        if not filecmp.cmp(large, back, shallow=False):
            sys.exit("%s: the 1 GiB object came back different" % name)
        os.remove(back)
        clients = [client(endpoint, key, secret) for _ in range(16)]
        put_ops = ops_per_second(lambda i, n: clients[i].put_object(Bucket=bucket, Key="small/%02d/%06d" % (i, n),
                                                                    Body=small), 16, seconds)
        get_ops = ops_per_second(lambda i, n: clients[i].get_object(Bucket=bucket, Key="small/%02d/%06d" % (i, n % 50))
                                 ["Body"].read(), 16, seconds)
        latencies = []
        for n in range(300):
            t0 = time.monotonic()
            s3.get_object(Bucket=bucket, Key="small/00/%06d" % (n % 50))["Body"].read()
            latencies.append((time.monotonic() - t0) * 1000)
        latencies.sort()
        row = {"put_mibs": put_mibs, "get_mibs": get_mibs, "put_ops": put_ops, "get_ops": get_ops,
               "get_p50_ms": latencies[len(latencies) // 2], "get_p99_ms": latencies[int(len(latencies) * 0.99)]}
        for k, v in row.items():
            results[name].setdefault(k, []).append(v)
        print("round %d %-8s PUT 1 GiB %6.1f MiB/s  GET %6.1f MiB/s  4 KiB PUT %6.0f/s GET %6.0f/s  "
              "GET p50 %.2f ms p99 %.2f ms" % (r + 1, name, put_mibs, get_mibs, put_ops, get_ops,
                                               row["get_p50_ms"], row["get_p99_ms"]), flush=True)

med = {n: {k: statistics.median(v) for k, v in m.items()} for n, m in results.items()}
names = [t[0] for t in targets]
print()
print("| measure (median of %d rounds) | %s | %s / %s |" % (rounds, " | ".join(names), names[0], names[1]))
print("|---|" + "---|" * (len(names) + 1))
for k, label in [("put_mibs", "PUT 1 GiB, MiB/s"), ("get_mibs", "GET 1 GiB, MiB/s"),
                 ("put_ops", "PUT 4 KiB, ops/s (16 threads)"), ("get_ops", "GET 4 KiB, ops/s (16 threads)"),
                 ("get_p50_ms", "GET 4 KiB p50, ms (1 thread)"), ("get_p99_ms", "GET 4 KiB p99, ms (1 thread)")]:
    a, b = med[names[0]][k], med[names[1]][k]
    print("| %s | %s | %.2f |" % (label, " | ".join("%.2f" % med[n][k] for n in names), a / b))
