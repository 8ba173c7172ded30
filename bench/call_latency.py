#!/usr/bin/env python3
"""Latency of one call from the shell: `caracal` on the TPC-C demo database runs N
`SELECT tpcc_stock_level(...)` one after another (each waits for its epoch to commit)
with \\timing on, at a given caracal.epoch_interval_ms; prints p50/p99/max in ms as JSON.

  bench/call_latency.py [--caracal build/caracal] [--calls 1000] [--epoch-interval-ms 5]
"""
import argparse
import json
import pathlib
import re
import subprocess
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("--caracal", default=str(root / "build" / "caracal"))
ap.add_argument("--calls", type=int, default=1000)
ap.add_argument("--epoch-interval-ms", type=int, default=5)
ap.add_argument("--workers", type=int, default=2)
args = ap.parse_args()

with tempfile.NamedTemporaryFile("w", suffix=".sql") as script:
    script.write(f"SET caracal.epoch_interval_ms = {args.epoch_interval_ms};\n")
    script.write(f"SET caracal.workers = {args.workers};\n\\o /dev/null\n\\timing on\n")
    for i in range(args.calls):
        script.write(f"SELECT tpcc_stock_level(1, {1 + i % 10}, {10 + i % 11});\n")
    script.flush()
    out = subprocess.run([args.caracal, "-X", "-q", "-f", str(root / "sql/tpcc/demo.sql"), "-f", script.name],
                         capture_output=True, text=True, check=True, cwd=root).stdout
times = sorted(float(m) for m in re.findall(r"^Time: ([0-9.]+) ms", out, re.M))
assert len(times) == args.calls, f"expected {args.calls} timings, got {len(times)}"
pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
print(json.dumps({"calls": len(times), "epoch_interval_ms": args.epoch_interval_ms, "workers": args.workers,
                  "p50_ms": pick(0.50), "p99_ms": pick(0.99), "max_ms": times[-1]}))
