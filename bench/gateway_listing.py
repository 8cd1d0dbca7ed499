"""Times S3 listings and HEADs through a running gateway with boto3 (bench/gateway-listing.sh starts one).

Usage: gateway_listing.py <port> <objects> <rounds>. Fills bucket "lsbench" with <objects> objects of 64 bytes named
dirNN/obj-NNNNN under 50 prefixes (16 threads) if it is empty, then prints the median and minimum of <rounds> calls of:
a full paginated list_objects_v2 (pages of 1,000), a Delimiter='/' listing at the top, 200 HEADs one after another,
and a first page of 10 under dir07/.
"""
import sys, time, boto3, concurrent.futures as cf
from botocore.config import Config
port, n, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s3 = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", aws_access_key_id="hybris",
                  aws_secret_access_key="hybris-secret", region_name="us-east-1",
                  config=Config(s3={"addressing_style": "path"}, max_pool_connections=16))
b = "lsbench"
try:
    s3.create_bucket(Bucket=b)
except Exception:
    pass
have = s3.list_objects_v2(Bucket=b, MaxKeys=1).get("KeyCount", 0)
if have == 0:
    t = time.time()
    with cf.ThreadPoolExecutor(16) as ex:
        list(ex.map(lambda i: s3.put_object(Bucket=b, Key=f"dir{i % 50:02d}/obj-{i:05d}", Body=b"x" * 64), range(n)))
    print(f"put {n} in {time.time() - t:.1f}s", flush=True)
def full():
    keys, token = 0, None
    while True:
        kw = {"Bucket": b, "MaxKeys": 1000}
        if token: kw["ContinuationToken"] = token
        r = s3.list_objects_v2(**kw)
        keys += r.get("KeyCount", 0)
        token = r.get("NextContinuationToken")
        if not token: return keys
def delim():
    r = s3.list_objects_v2(Bucket=b, Delimiter="/")
    return len(r.get("CommonPrefixes", []))
head_keys = [f"dir{i % 50:02d}/obj-{i:05d}" for i in range(0, n, max(1, n // 200))][:200]
def heads():
    for k in head_keys:
        s3.head_object(Bucket=b, Key=k)
    return len(head_keys)
def first_page():
    return s3.list_objects_v2(Bucket=b, Prefix="dir07/", MaxKeys=10).get("KeyCount", 0)
for name, f in (("full listing (pages of 1000)", full), ("delimiter '/' top level", delim),
                (f"{min(200, n)} HEADs, one after another", heads), ("first page of 10 under dir07/", first_page)):
    times = []
    for _ in range(rounds):
        t = time.time(); got = f(); times.append(time.time() - t)
    times.sort()
    print(f"{name}: {got} entries, median {times[len(times)//2]*1000:.0f} ms, min {times[0]*1000:.0f} ms", flush=True)
