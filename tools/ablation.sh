#!/usr/bin/env bash
# Reproduces the contention figures of the closing notes (paper Fig. 8 ablation and
# Fig. 10 threshold sweep) on this machine: one JSON line per run into $OUT (default
# ablation.jsonl) and a summary table on stdout. Takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=./build/caracal-bench
OUT=${OUT:-ablation.jsonl}
TXNS=${TXNS:-200000}
KEYS=${KEYS:-1000000}
: > "$OUT"
run() { "$BENCH" "$@" 2>/dev/null | tee -a "$OUT" >/dev/null; }

for w in ycsb-contention ycsb-contention-skew tpcc-1wh; do
  run $w --keys "$KEYS" --txns "$TXNS" --workers 2 --no-batch-append --no-split
  run $w --keys "$KEYS" --txns "$TXNS" --workers 2 --no-split
  run $w --keys "$KEYS" --txns "$TXNS" --workers 2
done
for t in 1 8 64 512 4096 32768; do
  run ycsb-contention --keys "$KEYS" --txns "$TXNS" --workers 2 --split-threshold "$t"
done
for n in 4 8; do
  run ycsb-contention --keys "$KEYS" --txns "$TXNS" --workers "$n"
  run ycsb-contention --keys "$KEYS" --txns "$TXNS" --workers "$n" --no-batch-append --no-split
done
for i in 1 2; do
  run ycsb-uniform --keys "$KEYS" --txns "$TXNS" --workers 2
  run ycsb-uniform --keys "$KEYS" --txns "$TXNS" --workers 2 --no-batch-append --no-split --gc-k 0 --no-minor-gc
done
python3 - "$OUT" <<'PY'
import json, sys
print(f"{'workload':22} {'w':>2} {'batch':>5} {'split':>5} {'thr':>6} {'gc_k':>4} {'txn/s':>9} {'init ms':>8} {'exec ms':>8} {'split rows':>10} {'pieces':>8} {'batched':>8} {'lockwait p999 us':>16} {'rss MB':>7}")
for line in open(sys.argv[1]):
    j = json.loads(line)
    print(f"{j['workload']:22} {j['workers']:>2} {str(j['batch_append'])[0]:>5} {str(j['split_on_demand'])[0]:>5} {j['split_threshold']:>6} {j['gc_k']:>4} {j['txn_per_s']:>9.0f} {j['init_ms_per_epoch']:>8.1f} {j['exec_ms_per_epoch']:>8.1f} {j['split_rows']:>10} {j['split_pieces']:>8} {j['batch_appended_versions']:>8} {j['lock_wait_p999_us']:>16.1f} {j['rss_mb']:>7.0f}")
PY
