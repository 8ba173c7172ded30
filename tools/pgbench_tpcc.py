#!/usr/bin/env python3
"""sql/tpcc through the PostgreSQL wire protocol, driven by pgbench: PostgreSQL 15 and
`caracal --listen` on the same machine, the same client, the same custom scripts (one per
transaction type, weighted NewOrder 45 / Payment 43 / OrderStatus 4 / Delivery 4 /
StockLevel 4) and connection counts, in one run. Prints a table and one JSON line per
(workload, clients, system) with txn/s; the ratio is caracal / PostgreSQL.

  tools/pgbench_tpcc.py [--caracal build/caracal] [--clients 8,32,128] [--seconds 10]
                        [--warehouses 4] [--mode prepared]

Workloads: `tpcc` (--warehouses warehouses, clients spread over them) and `tpcc-1wh`
(every client on warehouse 1). Data: tests/sql_on_postgres/tpcc_load.sql's small
deterministic database (items/customers/orders reduced), loaded into PostgreSQL and
copied as CSV into caracal. PostgreSQL runs with fsync=off and synchronous_commit=off
(caracal here is in memory), shared_buffers=256MB, max_connections=300.

Delivery: pgbench cannot know which customer an undelivered order belongs to, so its
script names already-delivered orders: the procedure runs its reads (and no writes) on
both systems alike.
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

TABLES = ["warehouse", "district", "customer", "history", "orders", "new_order", "order_line", "item", "stock"]


def scripts(warehouses, one_warehouse, items, orders):
    first_undelivered = orders - (orders * 3) // 10 + 1
    w = "\\set w 1\n" if one_warehouse else f"\\set w random(1, {warehouses})\n"
    common = w + "\\set d random(1, 10)\n"
    item_vars = "".join(f"\\set i{k} random(1, {items})\n\\set q{k} random(1, 10)\n" for k in range(1, 11))
    arr = lambda fmt: "ARRAY[" + ", ".join(fmt.format(k) for k in range(1, 11)) + "]"
    new_order = (common + "\\set c random(1, %d)\n" % orders + item_vars +
                 f"SELECT * FROM tpcc_new_order(:w, :d, :c, {arr(':i{}::integer')}, {arr(':w::integer')}, "
                 f"{arr(':q{}::integer')}, '2024-02-01 00:00:00');\n")
    payment = (common + "\\set c random(1, %d)\n\\set amount random(1, 5000)\n" % orders +
               "CALL tpcc_payment(:w, :d, :w, :d, :c, :amount, '2024-02-01 00:00:00');\n")
    order_status = common + "\\set c random(1, %d)\n" % orders + "SELECT * FROM tpcc_order_status(:w, :d, :c);\n"
    delivery = (w + "\\set carrier random(1, 10)\n" +
                "".join(f"\\set o{k} random(1, {first_undelivered - 1})\n" for k in range(1, 11)) +
                f"SELECT * FROM tpcc_delivery(:w, :carrier, '2024-02-01 00:00:00', {arr(':o{}::integer')}, "
                f"{arr('0')});\n")
    stock_level = common + "\\set t random(10, 20)\n" + "SELECT tpcc_stock_level(:w, :d, :t);\n"
    return {"new_order": (new_order, 45), "payment": (payment, 43), "order_status": (order_status, 4),
            "delivery": (delivery, 4), "stock_level": (stock_level, 4)}


def load_both(pg, cs, work, warehouses, items, customers):
    """sql/tpcc (schema, sequences, procedures) on both systems, tpcc_load.sql's data loaded
    into PostgreSQL and copied into caracal as CSV."""
    seqs = subprocess.run(["sh", str(ROOT / "sql/tpcc/sequences.sh"), str(warehouses), str(customers), str(customers)],
                          capture_output=True, text=True, check=True).stdout
    for run in (pg.psql, cs.psql):
        for r in (run("-q", "-v", "ON_ERROR_STOP=1", "-f", str(ROOT / "sql/tpcc/schema.sql")),
                  run("-q", "-v", "ON_ERROR_STOP=1", input=seqs),
                  run("-q", "-v", "ON_ERROR_STOP=1", "-f", str(ROOT / "sql/tpcc/procedures.sql"))):
            if r.returncode != 0:
                raise RuntimeError(r.stderr)
    r = pg.psql("-q", "-v", "ON_ERROR_STOP=1", "-v", f"warehouses={warehouses}", "-v", f"items={items}",
                "-v", f"customers={customers}", "-v", f"orders={customers}",
                "-f", str(ROOT / "tests/sql_on_postgres/tpcc_load.sql"), timeout=3600)
    if r.returncode != 0:
        raise RuntimeError(r.stderr)
    pg.psql("-q", "-c", "VACUUM ANALYZE")
    for t in TABLES:  # PostgreSQL's rows, as CSV, into caracal
        path = work / f"{t}.csv"
        r = pg.psql("-q", "-c", f"\\copy {t} TO '{path}' CSV")
        r2 = cs.psql("-q", "-c", f"COPY {t} FROM '{path}' (FORMAT csv)")
        if r.returncode or r2.returncode:
            raise RuntimeError(r.stderr + r2.stderr)


def run_pgbench(host, port, user, db, work, script_set, clients, seconds, mode):
    args = ["pgbench", "-h", host, "-p", str(port), "-U", user, "-n", "-M", mode, "-c", str(clients),
            "-j", str(min(clients, 2)), "-T", str(seconds)]
    for name, (text, weight) in script_set.items():
        path = work / f"{name}.sql"
        path.write_text(text)
        args += ["-f", f"{path}@{weight}"]
    p = subprocess.run(args + [db], capture_output=True, text=True, timeout=seconds * 4 + 120)
    m = re.search(r"tps = ([\d.]+) \(without initial connection time\)", p.stdout)
    failed = re.search(r"number of failed transactions: (\d+)", p.stdout)
    if p.returncode != 0 or not m:
        raise RuntimeError(f"pgbench failed:\n{p.stdout}\n{p.stderr}")
    return float(m.group(1)), int(failed.group(1)) if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--caracal", default=str(ROOT / "build" / "caracal"))
    ap.add_argument("--clients", default="8,32,128")
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--warehouses", type=int, default=4)
    ap.add_argument("--items", type=int, default=10000)
    ap.add_argument("--customers", type=int, default=300, help="per district; also orders per district")
    ap.add_argument("--mode", default="prepared", choices=["simple", "extended", "prepared"])
    ap.add_argument("--workers", type=int, default=2, help="caracal worker threads")
    args = ap.parse_args()
    W = args.warehouses
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        os.chmod(work, 0o777)
        with pg_cluster.PgCluster(max_connections=300, settings=["fsync=off", "synchronous_commit=off",
                                                                  "shared_buffers=256MB"]) as pg, \
                CaracalServer(args.caracal, workers=args.workers) as cs:
            load_both(pg, cs, work, W, args.items, args.customers)
            for workload, one in (("tpcc", False), ("tpcc-1wh", True)):
                sset = scripts(W, one, args.items, args.customers)
                for clients in [int(c) for c in args.clients.split(",")]:
                    row = {"workload": workload, "clients": clients, "mode": args.mode, "warehouses": 1 if one else W}
                    for system, host, port, user, db in (("postgresql", pg.host, pg.port, "postgres", "postgres"),
                                                         ("caracal", cs.host, cs.port, "bench", "caracal")):
                        tps, failed = run_pgbench(host, port, user, db, work, sset, clients, args.seconds, args.mode)
                        row[system] = round(tps, 1)
                        row[system + "_failed"] = failed
                    row["ratio"] = round(row["caracal"] / row["postgresql"], 2) if row["postgresql"] else None
                    results.append(row)
                    print(json.dumps(row), flush=True)
    print(f"\n{'workload':10} {'clients':>7} {'postgresql':>11} {'caracal':>9} {'ratio':>6}")
    for r in results:
        print(f"{r['workload']:10} {r['clients']:>7} {r['postgresql']:>11} {r['caracal']:>9} {r['ratio']:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
