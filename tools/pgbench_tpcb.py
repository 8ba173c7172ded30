#!/usr/bin/env python3
"""pgbench's built-in tpcb-like (an explicit BEGIN ... END block of five statements) against
PostgreSQL 15 (fsync off, at READ COMMITTED and at SERIALIZABLE) and `caracal --listen` on
the same machine, one run: txn/s, share of transactions retried after 40001 (pgbench
--max-tries), failed transactions, and p50 / p99 latency (from pgbench's per-transaction
log). Then the same transaction as one PL/pgSQL function call per transaction (a custom
script), on both, to show what interactivity costs.

  tools/pgbench_tpcb.py [--caracal build/caracal] [--clients 8,32,128] [--seconds 10]
                        [--scale 1] [--mode prepared]

Prints one JSON line per (script, clients, system) and a table.
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "server"))
from caracal_server import CaracalServer  # noqa: E402
import pg_cluster  # noqa: E402

# tpcb-like's five statements as one function (the same on both systems).
FUNCTION = """
CREATE FUNCTION tpcb(p_aid integer, p_bid integer, p_tid integer, p_delta integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  bal integer;
BEGIN
  UPDATE pgbench_accounts SET abalance = abalance + p_delta WHERE aid = p_aid;
  SELECT abalance INTO bal FROM pgbench_accounts WHERE aid = p_aid;
  UPDATE pgbench_tellers SET tbalance = tbalance + p_delta WHERE tid = p_tid;
  UPDATE pgbench_branches SET bbalance = bbalance + p_delta WHERE bid = p_bid;
  INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (p_tid, p_bid, p_aid, p_delta, CURRENT_TIMESTAMP);
  RETURN bal;
END $$;
"""

FUNCTION_SCRIPT = """\\set aid random(1, 100000 * :scale)
\\set bid random(1, 1 * :scale)
\\set tid random(1, 10 * :scale)
\\set delta random(-5000, 5000)
SELECT tpcb(:aid, :bid, :tid, :delta);
"""


def percentile(sorted_values, p):
    if not sorted_values:
        return None
    k = min(len(sorted_values) - 1, max(0, int(round(p / 100.0 * (len(sorted_values) - 1)))))
    return sorted_values[k]


def run_pgbench(target, work, clients, seconds, mode, script, env_extra=None):
    host, port, user, db = target
    logdir = pathlib.Path(tempfile.mkdtemp(dir=work))
    os.chmod(logdir, 0o777)
    args = ["pgbench", "-h", host, "-p", str(port), "-U", user, "-n", "-M", mode, "-c", str(clients),
            "-j", str(min(clients, 2)), "-T", str(seconds), "--max-tries", "100", "-l",
            "--log-prefix", str(logdir / "tx")]
    if script is None:
        args += ["-b", "tpcb-like"]
    else:
        path = work / "tpcb_function.sql"
        path.write_text(script)
        args += ["-f", str(path)]
    env = dict(os.environ, **(env_extra or {}))
    p = subprocess.run(args + [db], capture_output=True, text=True, timeout=seconds * 4 + 120, env=env, cwd=logdir)
    tps = re.search(r"tps = ([\d.]+) \(without initial connection time\)", p.stdout)
    failed = re.search(r"number of failed transactions: (\d+)", p.stdout)
    retried = re.search(r"number of transactions retried: (\d+)", p.stdout)
    processed = re.search(r"number of transactions actually processed: (\d+)", p.stdout)
    if p.returncode not in (0, 2) or not tps:
        raise RuntimeError(f"pgbench failed:\n{p.stdout}\n{p.stderr}")
    latencies = []
    for f in logdir.iterdir():
        for line in f.read_text().splitlines():
            fields = line.split()
            # client_id transaction_no time script_no time_epoch time_us [schedule_lag] [retries]
            if len(fields) >= 6 and fields[2].isdigit():
                latencies.append(int(fields[2]))
    latencies.sort()
    n = int(processed.group(1)) if processed else 0
    return {
        "tps": round(float(tps.group(1)), 1),
        "retried_pct": round(100.0 * int(retried.group(1)) / n, 2) if retried and n else 0.0,
        "failed": int(failed.group(1)) if failed else 0,
        "p50_ms": round(percentile(latencies, 50) / 1000.0, 3) if latencies else None,
        "p99_ms": round(percentile(latencies, 99) / 1000.0, 3) if latencies else None,
    }


def init(target, scale, run_sql):
    host, port, user, db = target
    p = subprocess.run(["pgbench", "-h", host, "-p", str(port), "-U", user, "-i", "-q", "-s", str(scale), db],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(p.stdout + p.stderr)
    r = run_sql(FUNCTION)
    if r.returncode != 0:
        raise RuntimeError(r.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--caracal", default=str(ROOT / "build" / "caracal"))
    ap.add_argument("--clients", default="8,32,128")
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--mode", default="prepared", choices=["simple", "extended", "prepared"])
    ap.add_argument("--workers", type=int, default=2, help="caracal worker threads")
    args = ap.parse_args()
    results = []
    serializable = {"PGOPTIONS": "-c default_transaction_isolation=serializable"}
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        os.chmod(work, 0o777)
        with pg_cluster.PgCluster(max_connections=300, settings=["fsync=off", "synchronous_commit=off",
                                                                  "shared_buffers=256MB"]) as pg, \
                CaracalServer(args.caracal, "--max-connections", "300", workers=args.workers) as cs:
            pg_target = (pg.host, pg.port, "postgres", "postgres")
            cs_target = (cs.host, cs.port, "bench", "caracal")
            init(pg_target, args.scale, lambda sql: pg.psql("-q", "-v", "ON_ERROR_STOP=1", input=sql))
            init(cs_target, args.scale, lambda sql: cs.psql("-q", "-v", "ON_ERROR_STOP=1", input=sql))
            systems = [("postgresql-rc", pg_target, None), ("postgresql-ser", pg_target, serializable),
                       ("caracal", cs_target, None)]
            for script_name, script in (("tpcb-like", None), ("function", FUNCTION_SCRIPT)):
                for clients in [int(c) for c in args.clients.split(",")]:
                    for system, target, env in systems:
                        if script is not None and system == "postgresql-ser":
                            continue
                        row = {"script": script_name, "clients": clients, "mode": args.mode, "system": system,
                               **run_pgbench(target, work, clients, args.seconds, args.mode, script, env)}
                        results.append(row)
                        print(json.dumps(row), flush=True)
    print(f"\n{'script':10} {'clients':>7} {'system':15} {'txn/s':>9} {'retried%':>9} {'failed':>7} "
          f"{'p50 ms':>8} {'p99 ms':>8}")
    for r in results:
        print(f"{r['script']:10} {r['clients']:>7} {r['system']:15} {r['tps']:>9} {r['retried_pct']:>9} "
              f"{r['failed']:>7} {r['p50_ms']!s:>8} {r['p99_ms']!s:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
