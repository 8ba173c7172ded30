#!/usr/bin/env python3
"""Transaction blocks over the wire (psycopg2, explicit BEGIN / COMMIT): the isolation
anomalies of Adya's taxonomy as Hermitage runs them against PostgreSQL's SERIALIZABLE
(dirty write G0, aborted read G1a, intermediate read G1b, circular information flow G1c,
observed transaction vanishes, predicate-many-preceders, lost update P4, read skew
G-single, write skew G2-item, anti-dependency cycles G2), each with two or three
connections: each must be prevented, by a 40001 or by a result some serial order of the
committed transactions gives. Then a bank under load: 8 connections moving money in
explicit blocks and retrying on 40001, with the total unchanged and one history row per
committed transfer, also across kill -9 and recovery.

  transactions_test.py --caracal build/caracal [--seconds 4]
"""
import argparse
import os
import random
import signal
import sys
import tempfile
import threading
import time

from caracal_server import CaracalServer
from checklist import check, failures

try:
    import psycopg2
    import psycopg2.errors
except ImportError:
    print("psycopg2 is missing (Debian: python3-psycopg2)")
    sys.exit(2)


class Aborted(Exception):
    pass


class Txn:
    """One connection in a block; each statement's 40001 marks the block aborted."""

    def __init__(self, srv):
        self.conn = psycopg2.connect(host=srv.host, port=srv.port, user="tester", dbname="caracal")
        self.cur = self.conn.cursor()
        self.failed = None

    def run(self, sql, args=None):
        if self.failed:
            return None
        try:
            self.cur.execute(sql, args)
            return self.cur.fetchall() if self.cur.description else self.cur.rowcount
        except psycopg2.Error as e:
            self.failed = e.pgcode
            self.conn.rollback()
            return None

    def commit(self):
        if self.failed:
            return False
        try:
            self.conn.commit()
            return True
        except psycopg2.Error as e:
            self.failed = e.pgcode
            self.conn.rollback()
            return False

    def rollback(self):
        self.conn.rollback()

    def close(self):
        self.conn.close()


def reset(srv):
    conn = psycopg2.connect(host=srv.host, port=srv.port, user="tester", dbname="caracal")
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS test")
    cur.execute("CREATE TABLE test (id integer PRIMARY KEY, value integer)")
    cur.execute("INSERT INTO test VALUES (1, 10), (2, 20)")
    conn.close()


def state(srv):
    conn = psycopg2.connect(host=srv.host, port=srv.port, user="tester", dbname="caracal")
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("SELECT id, value FROM test ORDER BY id")
    rows = cur.fetchall()
    conn.close()
    return rows


def anomalies(srv):
    # G0: two blocks write the same two rows; the result is one of them after the other.
    reset(srv)
    t1, t2 = Txn(srv), Txn(srv)
    t1.run("UPDATE test SET value = 11 WHERE id = 1")
    t2.run("UPDATE test SET value = 12 WHERE id = 1")
    t1.run("UPDATE test SET value = 21 WHERE id = 2")
    c1 = t1.commit()
    t2.run("UPDATE test SET value = 22 WHERE id = 2")
    c2 = t2.commit()
    final = state(srv)
    serial = {(True, True): [[(1, 12), (2, 22)]], (True, False): [[(1, 11), (2, 21)]]}.get((c1, c2), [])
    check("G0 dirty write: the rows are one block's after the other's", final in serial, (c1, c2, final))

    # G1a: a block never reads what a block that rolled back wrote.
    reset(srv)
    t1, t2 = Txn(srv), Txn(srv)
    t1.run("UPDATE test SET value = 101 WHERE id = 1")
    r1 = t2.run("SELECT value FROM test WHERE id = 1")
    t1.rollback()
    r2 = t2.run("SELECT value FROM test WHERE id = 1")
    t2.commit()
    check("G1a aborted read: never sees 101", r1 == [(10,)] and r2 in ([(10,)], None), (r1, r2))
    check("G1a: a rolled-back block wrote nothing", state(srv) == [(1, 10), (2, 20)], state(srv))

    # G1b: a block never reads another's intermediate value.
    reset(srv)
    t1, t2 = Txn(srv), Txn(srv)
    t1.run("UPDATE test SET value = 101 WHERE id = 1")
    r1 = t2.run("SELECT value FROM test WHERE id = 1")
    t1.run("UPDATE test SET value = 11 WHERE id = 1")
    t1.commit()
    r2 = t2.run("SELECT value FROM test WHERE id = 1")
    c2 = t2.commit()
    check("G1b intermediate read: never sees 101", r1 == [(10,)] and r2 != [(101,)], (r1, r2))
    check("G1b: a block that saw 10 then 11 does not commit", not (c2 and r2 == [(11,)]), (r1, r2, c2))

    # G1c: each reads the other's row before the other's write: both cannot commit.
    reset(srv)
    t1, t2 = Txn(srv), Txn(srv)
    t1.run("UPDATE test SET value = 11 WHERE id = 1")
    t2.run("UPDATE test SET value = 22 WHERE id = 2")
    a = t1.run("SELECT value FROM test WHERE id = 2")
    b = t2.run("SELECT value FROM test WHERE id = 1")
    c1, c2 = t1.commit(), t2.commit()
    check("G1c circular information flow: not both commit", a == [(20,)] and b == [(10,)] and not (c1 and c2),
          (a, b, c1, c2, t2.failed))
    check("G1c: the failure is 40001", (t1.failed or t2.failed) == "40001", (t1.failed, t2.failed))
    check("G1c: the committed block's writes only", state(srv) == ([(1, 11), (2, 20)] if c1 else [(1, 10), (2, 22)]),
          state(srv))

    # OTV: a reader sees all of a committed block or none of it.
    reset(srv)
    t1, t2, t3 = Txn(srv), Txn(srv), Txn(srv)
    t1.run("UPDATE test SET value = 11 WHERE id = 1")
    t1.run("UPDATE test SET value = 19 WHERE id = 2")
    t2.run("UPDATE test SET value = 12 WHERE id = 1")
    t1.commit()
    x = t3.run("SELECT value FROM test WHERE id = 1")
    t2.run("UPDATE test SET value = 18 WHERE id = 2")
    y = t3.run("SELECT value FROM test WHERE id = 2")
    c2 = t2.commit()
    c3 = t3.commit()
    seen = (x[0][0] if x else None, y[0][0] if y else None)
    check("OTV observed transaction vanishes: the reader saw one block whole",
          not c3 or seen in [(11, 19), (12, 18), (10, 20)], (seen, c2, c3))

    # PMP: a predicate read is not changed by an insert committed in between.
    reset(srv)
    t1, t2 = Txn(srv), Txn(srv)
    a = t1.run("SELECT * FROM test WHERE value = 30")
    t2.run("INSERT INTO test VALUES (3, 30)")
    t2.commit()
    b = t1.run("SELECT * FROM test WHERE value % 3 = 0")
    c1 = t1.commit()
    check("PMP predicate many preceders: no phantom between two reads", a == [] and (b in ([], None) or not c1),
          (a, b, c1))

    # PMP with a write: a delete by a predicate that another block changed.
    reset(srv)
    t1, t2 = Txn(srv), Txn(srv)
    t1.run("UPDATE test SET value = value + 10")
    a = t2.run("SELECT * FROM test WHERE value = 20")
    t1.commit()
    t2.run("DELETE FROM test WHERE value = 20")
    c2 = t2.commit()
    final = state(srv)
    # Committing after the first block, the second's read would now give (1, 20): it
    # cannot commit, whatever its DELETE did.
    check("PMP write predicates: the block whose read changed does not commit",
          a == [(2, 20)] and not c2 and final == [(1, 20), (2, 30)], (a, c2, final))

    # P4: read-modify-write from the client on both sides: one of them must fail.
    reset(srv)
    t1, t2 = Txn(srv), Txn(srv)
    v1 = t1.run("SELECT value FROM test WHERE id = 1")[0][0]
    v2 = t2.run("SELECT value FROM test WHERE id = 1")[0][0]
    t1.run("UPDATE test SET value = %s WHERE id = 1", (v1 + 1,))
    t2.run("UPDATE test SET value = %s WHERE id = 1", (v2 + 1,))
    c1, c2 = t1.commit(), t2.commit()
    check("P4 lost update: not both commit", not (c1 and c2), (c1, c2))
    check("P4: the value is one increment", state(srv)[0] == (1, 11), state(srv))

    # G-single: a block never sees one row before and another after a concurrent change.
    reset(srv)
    t1, t2 = Txn(srv), Txn(srv)
    a = t1.run("SELECT value FROM test WHERE id = 1")
    t2.run("SELECT value FROM test WHERE id = 1")
    t2.run("SELECT value FROM test WHERE id = 2")
    t2.run("UPDATE test SET value = 12 WHERE id = 1")
    t2.run("UPDATE test SET value = 18 WHERE id = 2")
    t2.commit()
    b = t1.run("SELECT value FROM test WHERE id = 2")
    c1 = t1.commit()
    check("G-single read skew: 10 and 18 are never both seen by a committed block",
          a == [(10,)] and not (c1 and b == [(18,)]), (a, b, c1))

    # G2-item: write skew on two rows read by both.
    reset(srv)
    t1, t2 = Txn(srv), Txn(srv)
    t1.run("SELECT * FROM test WHERE id IN (1, 2)")
    t2.run("SELECT * FROM test WHERE id IN (1, 2)")
    t2.run("UPDATE test SET value = 11 WHERE id = 1")
    t1.run("UPDATE test SET value = 21 WHERE id = 2")
    c1, c2 = t1.commit(), t2.commit()
    check("G2-item write skew: not both commit", not (c1 and c2), (c1, c2))

    # G2: anti-dependency cycle through predicates and inserts.
    reset(srv)
    t1, t2 = Txn(srv), Txn(srv)
    t1.run("SELECT * FROM test WHERE value % 3 = 0")
    t2.run("SELECT * FROM test WHERE value % 3 = 0")
    t1.run("INSERT INTO test VALUES (3, 30)")
    t2.run("INSERT INTO test VALUES (4, 42)")
    c1, c2 = t1.commit(), t2.commit()
    check("G2 anti-dependency cycle: not both commit", not (c1 and c2), (c1, c2))
    check("G2: the failure is 40001", (t1.failed or t2.failed) == "40001", (t1.failed, t2.failed))

    # Savepoints and errors on the wire.
    reset(srv)
    t = Txn(srv)
    t.run("UPDATE test SET value = 100 WHERE id = 1")
    t.run("SAVEPOINT s")
    t.run("UPDATE test SET value = 200 WHERE id = 2")
    t.run("ROLLBACK TO SAVEPOINT s")
    t.run("INSERT INTO test VALUES (5, 50)")
    inside = t.run("SELECT * FROM test ORDER BY id")
    committed = t.commit()
    check("savepoints: ROLLBACK TO undoes only what followed it",
          committed and inside == [(1, 100), (2, 20), (5, 50)] and state(srv) == inside, (inside, state(srv)))
    reset(srv)
    t = Txn(srv)
    t.run("UPDATE test SET value = 100 WHERE id = 1")
    t.run("INSERT INTO test VALUES (1, 1)")
    check("a duplicate key fails the block (23505)", t.failed == "23505", t.failed)
    check("... and nothing of it stays", state(srv) == [(1, 10), (2, 20)], state(srv))
    for t in (t1, t2, t3):
        t.close()


def snapshot_tries(srv):
    """A block's statements are answered from the committed snapshot, without an epoch;
    its COMMIT waits for one. With epochs that close only on a 1.5 s interval the
    difference is plain."""
    reset(srv)
    srv.psql("-c", "SET caracal.adaptive_epochs = off", "-c", "SET caracal.epoch_interval_ms = 1500")
    t = Txn(srv)
    start = time.time()
    r1 = t.run("UPDATE test SET value = value + 1 WHERE id = 1 RETURNING value")
    r2 = t.run("SELECT id, value FROM test ORDER BY id")
    tried = time.time() - start
    ok = t.commit()
    committed = time.time() - start - tried
    t.close()
    srv.psql("-c", "SET caracal.epoch_interval_ms = 1", "-c", "SET caracal.adaptive_epochs = on")
    check("snapshot tries: the block's statements saw its own write", r1 == [(11,)] and r2 == [(1, 11), (2, 20)],
          (r1, r2))
    check(f"snapshot tries: they waited for no epoch ({tried:.2f} s), COMMIT did ({committed:.2f} s)",
          tried < 1.0 and committed >= 1.0 and ok, (tried, committed, ok))
    check("snapshot tries: the commit wrote the block", state(srv) == [(1, 11), (2, 20)], state(srv))


def settings_in_blocks(srv):
    """SET inside a block is undone by ROLLBACK and kept by COMMIT; SET LOCAL lasts until
    the block ends either way, and outside a block changes nothing (PostgreSQL's rules)."""
    r = srv.psql("-At", input="""SET LOCAL application_name = 'outside';
SHOW application_name;
BEGIN;
SET application_name = 'rolled_back';
SET LOCAL DateStyle = 'SQL, DMY';
SHOW DateStyle;
ROLLBACK;
SHOW application_name;
SHOW DateStyle;
BEGIN;
SET application_name = 'kept';
SET LOCAL DateStyle = 'SQL, DMY';
COMMIT;
SHOW application_name;
SHOW DateStyle;
""")
    shown = [l for l in r.stdout.splitlines() if l not in ("SET", "BEGIN", "ROLLBACK", "COMMIT")]
    check("SET in blocks: ROLLBACK undoes, COMMIT keeps, SET LOCAL ends with the block",
          shown == ["psql", "SQL, DMY", "psql", "ISO, MDY", "kept", "ISO, MDY"]
          and "SET LOCAL can only be used in transaction blocks" in r.stderr, (shown, r.stderr))


def implicit_blocks(srv, clients=8, messages=150):
    """Several statements in one message are one transaction; while its answers have not
    left the server, a conflict at its COMMIT runs the message again, so a client never
    sees 40001 from it. Each message reads the hot row and then increments it."""
    reset(srv)
    errors, counts = [], []

    def client():
        conn = psycopg2.connect(host=srv.host, port=srv.port, user="tester", dbname="caracal")
        conn.autocommit = True
        cur = conn.cursor()
        n = 0
        for _ in range(messages):
            try:
                cur.execute("SELECT value FROM test WHERE id = 1; UPDATE test SET value = value + 1 WHERE id = 1")
                n += 1
            except psycopg2.Error as e:
                errors.append(e.pgcode)
        counts.append(n)
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    final = state(srv)
    check("implicit blocks: no message failed", errors == [], errors[:5])
    check("implicit blocks: every message's increment is there once",
          final[0] == (1, 10 + sum(counts)) and sum(counts) == clients * messages, (final, sum(counts)))


def bank(srv, seconds, accounts=20, clients=8, kill_after=None):
    """Transfers in explicit blocks with retries; returns (committed transfers, errors)."""
    committed = [0] * clients
    errors = []
    stop = time.time() + seconds

    def client(i):
        rnd = random.Random(i)
        try:
            conn = psycopg2.connect(host=srv.host, port=srv.port, user="tester", dbname="caracal")
        except psycopg2.Error as e:
            errors.append(str(e))
            return
        cur = conn.cursor()
        while time.time() < stop:
            a, b = rnd.sample(range(1, accounts + 1), 2)
            amount = rnd.randint(1, 20)
            try:
                cur.execute("SELECT bal FROM bank WHERE id = %s", (a,))
                (bal,) = cur.fetchone()
                if bal >= amount:
                    cur.execute("UPDATE bank SET bal = bal - %s WHERE id = %s", (amount, a))
                    cur.execute("UPDATE bank SET bal = bal + %s WHERE id = %s", (amount, b))
                    cur.execute("INSERT INTO transfers (src, dst, amount) VALUES (%s, %s, %s)", (a, b, amount))
                conn.commit()
                if bal >= amount:
                    committed[i] += 1
            except psycopg2.errors.SerializationFailure:
                conn.rollback()
            except (psycopg2.OperationalError, psycopg2.InterfaceError):
                return  # the server went away (kill -9)
            except psycopg2.Error as e:
                errors.append(f"{e.pgcode}: {e}")
                conn.rollback()
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    if kill_after is not None:
        time.sleep(kill_after)
        os.killpg(srv.proc.pid, signal.SIGKILL)
    for t in threads:
        t.join()
    return sum(committed), errors


BANK = r"""
CREATE TABLE bank (id integer PRIMARY KEY, bal integer NOT NULL);
INSERT INTO bank SELECT g, 1000 FROM generate_series(1, 20) g;
CREATE TABLE transfers (id bigserial PRIMARY KEY, src integer, dst integer, amount integer);
"""


def bank_totals(srv):
    conn = psycopg2.connect(host=srv.host, port=srv.port, user="tester", dbname="caracal")
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("SELECT sum(bal), min(bal) FROM bank")
    total, low = cur.fetchone()
    cur.execute("SELECT count(*), count(DISTINCT id) FROM transfers")
    rows, distinct = cur.fetchone()
    cur.execute("SELECT coalesce(sum(CASE WHEN src = b.id THEN -amount ELSE amount END), 0) FROM transfers, bank b "
                "WHERE b.id = 1 AND (src = 1 OR dst = 1)")
    (delta1,) = cur.fetchone()
    cur.execute("SELECT bal FROM bank WHERE id = 1")
    (bal1,) = cur.fetchone()
    conn.close()
    return total, low, rows, distinct, bal1 - 1000 == delta1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--caracal", required=True)
    ap.add_argument("--seconds", type=float, default=4)
    args = ap.parse_args()
    with CaracalServer(args.caracal) as srv:
        anomalies(srv)
        snapshot_tries(srv)
        implicit_blocks(srv)
        settings_in_blocks(srv)
        # The same interleavings with every try run in an epoch instead of on a snapshot.
        srv.psql("-c", "SET caracal.snapshot_tries = off")
        anomalies(srv)
        srv.psql("-c", "SET caracal.snapshot_tries = on")
        r = srv.psql("-q", "-v", "ON_ERROR_STOP=1", input=BANK)
        check("bank schema", r.returncode == 0, r.stderr)
        n, errors = bank(srv, args.seconds)
        total, low, rows, distinct, balanced = bank_totals(srv)
        print(f"bank: {n} transfers committed in {args.seconds} s by 8 connections")
        check("bank: no error but 40001", errors == [], errors[:5])
        check("bank: the money is all there, none below zero", total == 20000 and low >= 0, (total, low))
        check("bank: one history row per committed transfer", rows == n and distinct == n, (rows, distinct, n))
        check("bank: an account's balance is its history's", balanced)

    with tempfile.TemporaryDirectory() as data:
        with CaracalServer(args.caracal, data) as srv:
            r = srv.psql("-q", "-v", "ON_ERROR_STOP=1", input=BANK)
            check("durable bank schema", r.returncode == 0, r.stderr)
            n, errors = bank(srv, args.seconds, kill_after=args.seconds / 2)
        with CaracalServer(args.caracal, data) as srv:
            total, low, rows, distinct, balanced = bank_totals(srv)
            check("kill -9: recovery keeps the money whole", total == 20000 and low >= 0, (total, low))
            check("kill -9: every acknowledged transfer survived, none half", rows >= n and rows == distinct and balanced,
                  (rows, n, balanced))
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
