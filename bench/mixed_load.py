#!/usr/bin/env python3
"""Analytical queries while TPC-C runs, here and on PostgreSQL 15: what each query costs
under load, and how much OLTP throughput the queries take away.

  bench/mixed_load.py [--caracal build/caracal] [--warehouses 10] [--seconds 20] [--clients 8]

Both systems get the same data (tests/sql_on_postgres/tpcc_load.sql, loaded into
PostgreSQL and copied into `caracal --listen` as CSV) and the same TPC-C client (pgbench
with tools/pgbench_tpcc.py's scripts, prepared). Per system: pgbench alone for --seconds,
then pgbench again with one more connection running bench/queries/queries.sql in a loop
(psql, \\timing) for the same time. Prints one JSON line per system: TPC-C txn/s alone and
with the queries, the loss, and each query's median time under load; then a table with the
ratio PostgreSQL / caracal of each query's time (above 1: caracal is faster).
PostgreSQL runs with fsync=off and synchronous_commit=off (caracal here is in memory).
"""
import argparse
import json
import os
import pathlib
import re
import statistics
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests" / "server"))
import pgbench_tpcc  # noqa: E402
from caracal_server import CaracalServer  # noqa: E402
import pg_cluster  # noqa: E402

TIME = re.compile(r"^Time: ([0-9.]+) ms", re.M)


def queries():
    out, name = [], None
    for line in (ROOT / "bench" / "queries" / "queries.sql").read_text().splitlines():
        if line.startswith("-- "):
            name = line[3:]
        elif line.strip():
            out.append((name, line))
    return out


def query_loop(psql, stop, times):
    """Runs every query in turn until `stop` is set; appends (name, ms) to `times`."""
    qs = queries()
    script = "\\timing on\n" + "\n".join(q for _, q in qs) + "\n"
    while not stop.is_set():
        r = psql("-q", "-X", input=script)
        found = [float(t) for t in TIME.findall(r.stdout)]
        if r.returncode != 0 or len(found) != len(qs):
            raise RuntimeError(f"the queries failed:\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
        times.extend(zip([n for n, _ in qs], found))


def measure(name, psql, host, port, user, db, work, sset, args):
    alone, _ = pgbench_tpcc.run_pgbench(host, port, user, db, work, sset, args.clients, args.seconds, "prepared")
    stop, times, errors = threading.Event(), [], []

    def loop():
        try:
            query_loop(psql, stop, times)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
    t = threading.Thread(target=loop)
    t.start()
    time.sleep(1)
    mixed, _ = pgbench_tpcc.run_pgbench(host, port, user, db, work, sset, args.clients, args.seconds, "prepared")
    stop.set()
    t.join()
    if errors:
        raise errors[0]
    per_query = {}
    for q, ms in times:
        per_query.setdefault(q, []).append(ms)
    row = {"system": name, "tpcc_alone": round(alone, 1), "tpcc_with_queries": round(mixed, 1),
           "loss_percent": round(100 * (1 - mixed / alone), 1),
           "query_ms": {q: round(statistics.median(v), 2) for q, v in per_query.items()},
           "query_runs": min(len(v) for v in per_query.values()) if per_query else 0}
    print(json.dumps(row), flush=True)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--caracal", default=str(ROOT / "build" / "caracal"))
    ap.add_argument("--warehouses", type=int, default=10)
    ap.add_argument("--items", type=int, default=10000)
    ap.add_argument("--customers", type=int, default=300, help="per district; also orders per district")
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2, help="caracal worker threads")
    args = ap.parse_args()
    W = args.warehouses
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        os.chmod(work, 0o777)
        with pg_cluster.PgCluster(max_connections=300, settings=["fsync=off", "synchronous_commit=off",
                                                                  "shared_buffers=256MB"]) as pg, \
                CaracalServer(args.caracal, workers=args.workers) as cs:
            pgbench_tpcc.load_both(pg, cs, work, W, args.items, args.customers)
            sset = pgbench_tpcc.scripts(W, False, args.items, args.customers)
            rows = [measure("postgresql", pg.psql, pg.host, pg.port, "postgres", "postgres", work, sset, args),
                    measure("caracal", cs.psql, cs.host, cs.port, "bench", "caracal", work, sset, args)]
    pg_row, c_row = rows
    print(f"\nTPC-C, {args.clients} clients, {W} warehouses: txn/s alone -> with the queries (loss)")
    for r in rows:
        print(f"  {r['system']:10} {r['tpcc_alone']:>9} -> {r['tpcc_with_queries']:>9} ({r['loss_percent']}%)")
    print(f"\n{'query (median ms under load)':48} {'postgresql':>10} {'caracal':>9} {'pg/caracal':>10}")
    for q in pg_row["query_ms"]:
        a, b = pg_row["query_ms"][q], c_row["query_ms"].get(q)
        print(f"{q[:48]:48} {a:>10} {b:>9} {round(a / b, 2) if b else '':>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
