#!/usr/bin/env python3
"""sql/native (or sql-set/native) throughput ratio of one workload, measured the only way that holds up on
a shared VM: many short caracal-bench runs in alternating pairs (native then sql, then
sql then native, ...), so that drift in the machine's speed falls on both sides. Prints
one JSON line per pair, then a summary: pooled (sum of sql txn/s over sum of native),
median, and the geometric mean of the pair ratios with its 95% interval.

  bench/procedure_ratio.py [--bench build/caracal-bench] [--workload tpcc] [--pairs 40]
                           [--seconds 6] [--workers 2] [--tpcc-mix 0,100,0,0,0]
                           [--procedures sql-set]
"""
import argparse
import json
import math
import pathlib
import statistics
import subprocess

root = pathlib.Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("--bench", default=str(root / "build" / "caracal-bench"))
ap.add_argument("--workload", default="tpcc")
ap.add_argument("--pairs", type=int, default=40)
ap.add_argument("--seconds", type=float, default=6)
ap.add_argument("--workers", type=int, default=2)
ap.add_argument("--tpcc-mix", help="tpcc only: one transaction type's share alone, say (see caracal-bench --help)")
ap.add_argument("--procedures", default="sql", choices=["sql", "sql-set"], help="the side compared with native")
args = ap.parse_args()


def rate(procedures):
    command = [args.bench, args.workload, "--procedures", procedures, "--seconds", str(args.seconds),
               "--workers", str(args.workers)]
    if args.tpcc_mix:
        command += ["--tpcc-mix", args.tpcc_mix]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    return result["txn_per_s"]


native, sql = [], []
for i in range(args.pairs):
    order = ["native", args.procedures] if i % 2 == 0 else [args.procedures, "native"]
    got = {p: rate(p) for p in order}
    got["sql"] = got[args.procedures]
    native.append(got["native"])
    sql.append(got["sql"])
    print(json.dumps({"pair": i + 1, "native": round(got["native"]), "sql": round(got["sql"]),
                      "ratio": round(got["sql"] / got["native"], 3)}), flush=True)

ratios = [s / n for s, n in zip(sql, native)]
summary = {"workload": args.workload, "procedures": args.procedures, "tpcc_mix": args.tpcc_mix, "pairs": len(ratios), "pooled": round(sum(sql) / sum(native), 3),
           "median": round(statistics.median(ratios), 3), "min": round(min(ratios), 3), "max": round(max(ratios), 3)}
if len(ratios) >= 2:
    logs = [math.log(r) for r in ratios]
    mean, se = statistics.mean(logs), statistics.stdev(logs) / math.sqrt(len(logs))
    z = 1.96  # normal approximation; with 40 pairs Student's t would widen it by 3%
    summary.update({"geomean": round(math.exp(mean), 3), "geomean_95": [round(math.exp(mean - z * se), 3),
                                                                         round(math.exp(mean + z * se), 3)]})
print(json.dumps(summary))
