#!/usr/bin/env python3
"""pgbench (PostgreSQL 15's) against `caracal --listen` with a custom script of CALLs and
SELECT f(...) in each query mode (-M simple, extended, prepared), 8 clients, a bounded
number of transactions: every transaction succeeds and the database holds exactly their
effect. Then pgbench's own `-i -s 2` and its built-in scripts (tpcb-like, simple-update,
select-only: explicit transaction blocks) with pgbench's invariant after each. Also: many
connections' calls share epochs (with epochs held open 50 ms, 16
clients x 10 sequential calls finish in a fraction of the 160 epochs serial calls need).

  pgbench_test.py --caracal build/caracal
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

from caracal_server import CaracalServer

SCHEMA = r"""
CREATE TABLE kv (k integer PRIMARY KEY, v bigint NOT NULL);
INSERT INTO kv VALUES (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0);
CREATE PROCEDURE bump(p_k integer, p_by integer) LANGUAGE plpgsql AS $$
BEGIN UPDATE kv SET v = v + p_by WHERE k = p_k; END $$;
CREATE FUNCTION get_v(p_k integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE r bigint; BEGIN SELECT v INTO r FROM kv WHERE k = p_k; RETURN r; END $$;
"""

SCRIPT = r"""\set k random(1, 8)
CALL bump(:k, 1);
SELECT get_v(:k);
"""

from checklist import check, failures  # noqa: E402
import pg_cluster  # noqa: E402

# What pgbench's scripts changed, in an order both systems give alike.
STATE_QUERIES = [
    ("accounts changed", "SELECT aid, bid, abalance FROM pgbench_accounts WHERE abalance <> 0 ORDER BY aid"),
    ("tellers", "SELECT tid, bid, tbalance FROM pgbench_tellers ORDER BY tid"),
    ("branches", "SELECT bid, bbalance FROM pgbench_branches ORDER BY bid"),
    ("history", "SELECT tid, bid, aid, delta FROM pgbench_history ORDER BY aid, tid, bid, delta"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--caracal", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work, CaracalServer(args.caracal) as srv:
        script = os.path.join(work, "bump.sql")
        with open(script, "w") as f:
            f.write(SCRIPT)
        r = srv.psql("-q", "-v", "ON_ERROR_STOP=1", input=SCHEMA)
        check("schema", r.returncode == 0, r.stderr)
        expected = 0
        for mode in ["simple", "extended", "prepared"]:
            p = subprocess.run(["pgbench", "-h", srv.host, "-p", str(srv.port), "-U", "tester", "-n", "-M", mode,
                                "-c", "8", "-j", "2", "-t", "100", "-f", script, "caracal"],
                               capture_output=True, text=True, timeout=120)
            expected += 800
            ok = p.returncode == 0 and "number of transactions actually processed: 800/800" in p.stdout \
                and "number of failed transactions: 0" in p.stdout
            check(f"pgbench -M {mode}: 800/800 transactions", ok, p.stdout + p.stderr)
            r = srv.psql("-At", "-c", "SELECT sum(v) FROM kv")
            check(f"pgbench -M {mode}: sum(v) = {expected}", r.stdout.strip() == str(expected), r.stdout + r.stderr)

        # pgbench's own initialisation (tables without primary keys, ALTER TABLE ADD
        # PRIMARY KEY, TRUNCATE and COPY FROM STDIN in one transaction block, VACUUM) and
        # its built-in scripts in explicit blocks (BEGIN ... END), with retries on 40001.
        p = subprocess.run(["pgbench", "-h", srv.host, "-p", str(srv.port), "-U", "tester", "-i", "-s", "2", "caracal"],
                           capture_output=True, text=True, timeout=120)
        check("pgbench -i -s 2", p.returncode == 0 and "done in" in p.stderr, p.stdout + p.stderr)
        r = srv.psql("-At", "-c", "SELECT count(*), sum(abalance) FROM pgbench_accounts")
        check("pgbench -i: 200000 accounts", r.stdout.strip() == "200000|0", r.stdout + r.stderr)
        sums_sql = ("SELECT (SELECT sum(abalance) FROM pgbench_accounts), (SELECT sum(tbalance) FROM pgbench_tellers), "
                    "(SELECT sum(bbalance) FROM pgbench_branches), (SELECT sum(delta) FROM pgbench_history), "
                    "(SELECT count(*) FROM pgbench_history)")
        for builtin in ["tpcb-like", "simple-update", "select-only"]:
            p = subprocess.run(["pgbench", "-h", srv.host, "-p", str(srv.port), "-U", "tester", "-n", "-M", "prepared",
                                "-b", builtin, "-c", "8", "-j", "2", "-t", "40", "--max-tries", "20",
                                "--random-seed", "7", "caracal"], capture_output=True, text=True, timeout=120)
            check(f"pgbench -b {builtin}: 320/320 transactions, none failed",
                  p.returncode == 0 and "actually processed: 320/320" in p.stdout and "failed transactions: 0 " in p.stdout,
                  p.stdout + p.stderr)
            a, t, b, h, n = srv.psql("-At", "-c", sums_sql).stdout.strip().split("|")
            if builtin == "tpcb-like":
                check("tpcb-like: pgbench's invariant, accounts = tellers = branches = history, 320 history rows",
                      a == t == b == h and n == "320", (a, t, b, h, n))
            else:
                # simple-update moves accounts only; select-only nothing.
                check(f"{builtin}: accounts = history, 640 history rows", a == h and n == "640", (a, t, b, h, n))
        # The same runs with the same seeds on PostgreSQL 15: every client draws the same
        # transactions there (pgbench seeds each client from --random-seed and replays a
        # retried one's values), and their effects commute, so the tables must be equal.
        if pg_cluster.available():
            with pg_cluster.PgCluster() as pg:
                pg_args = ["-h", pg.host, "-p", str(pg.port), "-U", "postgres"]
                p = subprocess.run(["pgbench", *pg_args, "-i", "-s", "2", "postgres"], capture_output=True, text=True,
                                   timeout=120)
                check("PostgreSQL: pgbench -i -s 2", p.returncode == 0, p.stdout + p.stderr)
                for builtin in ["tpcb-like", "simple-update", "select-only"]:
                    p = subprocess.run(["pgbench", *pg_args, "-n", "-M", "prepared", "-b", builtin, "-c", "8", "-j", "2",
                                        "-t", "40", "--max-tries", "20", "--random-seed", "7", "postgres"],
                                       capture_output=True, text=True, timeout=120)
                    check(f"PostgreSQL: pgbench -b {builtin}", p.returncode == 0, p.stdout + p.stderr)
                for what, sql in STATE_QUERIES:
                    mine = srv.psql("-At", "-c", sql).stdout
                    theirs = pg.psql("-At", "-c", sql).stdout
                    check(f"same seeds as PostgreSQL: {what} equal ({len(mine.splitlines())} rows)",
                          mine == theirs and mine.strip() != "", (mine[:300], theirs[:300]))
        else:
            print("skip  same seeds as PostgreSQL: no PostgreSQL 15 server")

        # Calls from many connections share epochs.
        srv.psql("-c", "SET caracal.epoch_interval_ms = 50", "-c", "SET caracal.epoch_max_txns = 100000",
                 "-c", "SET caracal.adaptive_epochs = off")
        with open(script, "w") as f:
            f.write("CALL bump(1, 1);\n")
        start = time.time()
        p = subprocess.run(["pgbench", "-h", srv.host, "-p", str(srv.port), "-U", "tester", "-n", "-c", "16", "-j", "2",
                            "-t", "10", "-f", script, "caracal"], capture_output=True, text=True, timeout=120)
        elapsed = time.time() - start
        # Serially: 160 epochs of >= 50 ms = 8 s. Shared: about 10 epochs.
        check(f"16 connections share epochs (160 calls in {elapsed:.2f}s, serial would take >= 8s)",
              p.returncode == 0 and elapsed < 4.0, p.stdout + p.stderr)
        check("server still alive", srv.alive(), srv.output())
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
