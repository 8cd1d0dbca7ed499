"""Throughput and latency of boto3 through the Hybris S3 gateway and straight to MinIO, in one run.

Usage: s3_gateway_bench.py <out-dir> <rounds> <seconds> <name>=<endpoint>,<key>,<secret> ...
Per target and round: one 1 GiB object put (upload_file: 8 MiB parts, 10 threads) and got (download_file), 4 KiB
PUT and GET ops/s with 16 threads for <seconds> each, and single-thread 4 KiB GET latency (p50/p99 of 300).
Targets alternate within a round and their order flips between rounds; the medians over rounds are printed.
With BENCH_PIDS=<name>=<pid>,... (the gateway and emulator processes), the CPU seconds each process and the whole
machine spent on every 1 GiB PUT and GET are printed too, and a table of their medians: on a host shared by the
client, the gateway and the emulators, that says whether the run was bound by CPU and which process took it.
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


tick = os.sysconf("SC_CLK_TCK")
pids = dict(p.split("=", 1) for p in os.environ.get("BENCH_PIDS", "").split(",") if "=" in p)
if pids:
    pids["boto3"] = str(os.getpid())


def cpu_seconds():
    """CPU seconds (user + system) of each watched process so far, and the machine's busy CPU seconds."""
    out = {}
    for name, pid in pids.items():
        try:
            with open("/proc/%s/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            out[name] = (int(fields[11]) + int(fields[12])) / tick
        except (FileNotFoundError, ProcessLookupError):
            out[name] = 0.0
    with open("/proc/stat") as f:
        cpu = [int(x) for x in f.readline().split()[1:]]
    out["machine"] = (sum(cpu) - cpu[3] - cpu[4]) / tick  # all but idle and iowait
    return out


def cpu_used(before):
    after = cpu_seconds()
    return {k: after[k] - before[k] for k in before}


cpu_rows = {}  # (target, op) -> {process: [seconds per round]}


def record_cpu(name, op, used, wall):
    if not pids:
        return
    row = cpu_rows.setdefault((name, op), {})
    for k, v in used.items():
        row.setdefault(k, []).append(v)
    row.setdefault("wall", []).append(wall)
    print("    CPU s for %s %s 1 GiB (%.1f s wall): %s" % (name, op, wall,
          ", ".join("%s %.1f" % (k, v) for k, v in used.items())), flush=True)


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
        c0 = cpu_seconds() if pids else None
        t0 = time.monotonic()
        s3.upload_file(large, bucket, "large.bin", Config=transfer)
        wall = time.monotonic() - t0
        put_mibs = 1024 / wall
        record_cpu(name, "PUT", cpu_used(c0) if pids else {}, wall)
        back = os.path.join(out, "large-back.bin")
        c0 = cpu_seconds() if pids else None
        t0 = time.monotonic()
        s3.download_file(bucket, "large.bin", back, Config=transfer)
        wall = time.monotonic() - t0
        get_mibs = 1024 / wall
        record_cpu(name, "GET", cpu_used(c0) if pids else {}, wall)
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

if cpu_rows:
    procs = list(next(iter(cpu_rows.values())).keys())
    procs.remove("wall")
    print()
    print("CPU seconds per 1 GiB transfer (median of %d rounds; machine = every process on the host, "
          "cores busy = machine / wall):" % rounds)
    print("| target | op | wall, s | " + " | ".join(procs) + " | cores busy |")
    print("|---|---|---|" + "---|" * (len(procs) + 1))
    for (name, op), row in cpu_rows.items():
        m = {k: statistics.median(v) for k, v in row.items()}
        print("| %s | %s | %.1f | %s | %.2f |" % (name, op, m["wall"], " | ".join("%.1f" % m[p] for p in procs),
                                                 m["machine"] / m["wall"]))

# the 1 GiB objects go once the results are printed, so the emulators (Azurite keeps blobs in memory) do not carry them
# into the per-cloud step that follows this script
for r in range(rounds):
    for name, endpoint, key, secret in targets:
        client(endpoint, key, secret).delete_object(Bucket="bench-gw-%d" % r, Key="large.bin")
