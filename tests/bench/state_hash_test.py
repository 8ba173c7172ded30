#!/usr/bin/env python3
"""The benchmark's promise, checked end to end: for the same --seed and --txns, the
final state_hash of caracal-bench is identical whether the transactions run as the
hand-written C++ procedures, as the compiled PL/pgSQL of sql/ (for several worker
counts and epoch sizes, with and without split-on-demand), or on the serial reference
executor; TPC-C stays consistent. A Payment-only TPC-C run (--tpcc-mix) puts the hot
warehouse rows and the c_data rewrites of bad-credit customers under every setting.

  tests/bench/state_hash_test.py --bench build/caracal-bench
"""
import argparse
import json
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--bench", required=True)
args = ap.parse_args()

workloads = [
    ("tpcc", ["--warehouses", "2", "--txns", "3000"]),
    ("tpcc-1wh", ["--txns", "3000"]),
    ("tpcc", ["--warehouses", "2", "--txns", "2000", "--tpcc-mix", "0,100,0,0,0"]),
    ("ycsb-uniform", ["--keys", "20000", "--txns", "5000"]),
    ("ycsb-contention", ["--keys", "20000", "--txns", "5000"]),
]
runs = [
    ["--reference"],
    ["--procedures", "native", "--workers", "2"],
    ["--procedures", "sql", "--workers", "1", "--epoch-txns", "10000"],
    ["--procedures", "sql", "--workers", "2", "--epoch-txns", "97"],
    # Hot rows split into pieces that run the compiled UPDATE code on the other core.
    ["--procedures", "sql", "--workers", "2", "--epoch-txns", "5000", "--split-threshold", "8"],
    # TPC-C's NewOrder and Stock-Level as set-based SQL (unnest, UPDATE ... FROM, joins).
    ["--procedures", "sql-set", "--workers", "2", "--epoch-txns", "97"],
    ["--procedures", "sql-set", "--workers", "1", "--epoch-txns", "10000"],
]
failures = 0
for workload, sizes in workloads:
    seen = {}
    for run in runs:
        if "sql-set" in run and not workload.startswith("tpcc"):
            continue
        out = subprocess.run([args.bench, workload, "--seed", "7", *sizes, *run], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"FAIL {workload} {' '.join(run)}: exit {out.returncode}\n{out.stderr}")
            failures += 1
            continue
        result = json.loads(out.stdout.strip().splitlines()[-1])
        seen[" ".join(run)] = result["state_hash"]
        if "--tpcc-mix" in sizes:
            generated = {k: v for k, v in result["tpcc_generated"].items() if v and not k.endswith("_remote")}
            if generated != {"payment": 2000}:
                print(f"FAIL {workload} {' '.join(run)}: --tpcc-mix 0,100,0,0,0 generated {generated}")
                failures += 1
        if result.get("consistency", "ok") != "ok":
            print(f"FAIL {workload} {' '.join(run)}: TPC-C consistency {result['consistency']}")
            failures += 1
    if len(set(seen.values())) != 1:
        print(f"FAIL {workload}: state hashes differ: {seen}")
        failures += 1
    else:
        print(f"ok   {workload} {' '.join(sizes)}: {next(iter(seen.values()))} for {len(seen)} runs")
sys.exit(1 if failures else 0)
