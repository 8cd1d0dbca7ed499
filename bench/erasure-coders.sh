#!/usr/bin/env bash
# The erasure coders' throughput (ErasureCodingBenchmark, JMH, 3 forks): Java, native (ISA-L) and the byte-table
# reference coder (Backblaze-style) on 1 MiB chunks, encode and decode, with System.arraycopy as the memory
# reference; the host's SIMD features printed beside the results. A second pass runs the Java and reference coders
# with the JIT limited to AVX2 (-XX:UseAVX=2), as on a host without AVX-512. Writes ec.json, ec-avx2.json and
# summary.md (MiB/s, MiB per CPU-second, the Java coder's ratio to the reference) under bench/results.
# Knobs: SHAPES (default 4+2; e.g. "2+1,4+2,10+4"), FORKS (3), BUILD=0 to skip building the jar.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out="$(results_dir erasure-coders)"
jar="$(benchmark_jar)"
shapes="${SHAPES:-4+2}"
forks="${FORKS:-3}"
features="$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | tr ' ' '\n' \
    | grep -E '^(sse4_2|avx|avx2|avx512f|avx512bw|avx512vl|avx512vbmi|gfni|vpclmulqdq)$' | tr '\n' ' ' || true)"
log "host SIMD features: ${features:-unknown}"
java -jar "$jar" ErasureCodingBenchmark -p shape="$shapes" -f "$forks" -rf json -rff "$out/ec.json" >&2
java -jar "$jar" ErasureCodingBenchmark -p shape="$shapes" -p coder=java,reference -f "$forks" \
    -jvmArgsAppend -XX:UseAVX=2 -rf json -rff "$out/ec-avx2.json" >&2
python3 "$bench_dir/erasure_report.py" "$features" "$out/ec.json" "$out/ec-avx2.json" | tee "$out/summary.md"
log "results in $out"
