#!/usr/bin/env python3
"""Python drivers against `caracal --listen`, unchanged: psycopg2 (libpq, client-side
parameters, implicit BEGIN/COMMIT) and psycopg 3 (server-side parameters through the
extended protocol, binary parameters and results, prepared statements after repeated
use, pipelines). Needs Debian's python3-psycopg2 and python3-psycopg (exit 2 without).

  drivers_test.py --caracal build/caracal
"""
import argparse
import datetime
import sys
import uuid
from decimal import Decimal

try:
    import psycopg
    import psycopg2
except ImportError as e:
    print(f"skip: {e} (apt-get install python3-psycopg2 python3-psycopg)")
    sys.exit(2)

from caracal_server import CaracalServer

SCHEMA = r"""
CREATE TABLE acc (id integer PRIMARY KEY, bal numeric(14,2) NOT NULL, name varchar(20), ts timestamp,
                  small smallint, big bigint, f8 double precision, f4 real, ok boolean, note text);
CREATE FUNCTION deposit(p_id integer, p_amount numeric) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE v numeric;
BEGIN
  UPDATE acc SET bal = bal + p_amount WHERE id = p_id RETURNING bal INTO v;
  IF NOT FOUND THEN RAISE EXCEPTION 'no account %', p_id; END IF;
  RAISE NOTICE 'deposit % to %', p_amount, p_id;
  RETURN v;
END $$;
CREATE PROCEDURE touch(p_id integer, p_ts timestamp) LANGUAGE plpgsql AS $$
BEGIN UPDATE acc SET ts = p_ts WHERE id = p_id; END $$;
CREATE TABLE post (id serial PRIMARY KEY, title text);
CREATE TABLE doc (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), body bytea, amount numeric, n integer, meta jsonb);
"""

from checklist import check, failures  # noqa: E402


def psycopg2_checks(srv):
    # psycopg2 opens a transaction block (BEGIN) before the first statement unless in
    # autocommit mode: rollback() undoes what it did.
    conn = psycopg2.connect(srv.dsn())
    cur = conn.cursor()
    cur.execute("INSERT INTO acc (id, bal, note) VALUES (%s, 0, %s)", (99, "rolled back"))
    cur.execute("SELECT note FROM acc WHERE id = %s", (99,))
    check("psycopg2: a block reads its own insert", cur.fetchone() == ("rolled back",))
    conn.rollback()
    cur.execute("SELECT count(*) FROM acc WHERE id = %s", (99,))
    check("psycopg2: rollback() undid the insert", cur.fetchone() == (0,))
    conn.rollback()
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("INSERT INTO acc VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (1, Decimal("10.50"), "o'neil", datetime.datetime(2024, 1, 2, 3, 4, 5), 7, 2**40, 1.5, 0.25, True,
                 "back\\slash"))
    conn.commit()
    cur.execute("SELECT * FROM acc WHERE id = %s", (1,))
    row = cur.fetchone()
    check("psycopg2: typed round trip", row == (1, Decimal("10.50"), "o'neil", datetime.datetime(2024, 1, 2, 3, 4, 5),
                                                7, 2**40, 1.5, 0.25, True, "back\\slash"), row)
    check("psycopg2: type OIDs in description", [c.type_code for c in cur.description] ==
          [23, 1700, 1043, 1114, 21, 20, 701, 700, 16, 25], cur.description)
    cur.execute("SELECT deposit(%s, %s)", (1, Decimal("4.50")))
    check("psycopg2: function call and NOTICE", cur.fetchone() == (Decimal("15.00"),) and
          any("deposit 4.50 to 1" in n for n in conn.notices), conn.notices)
    try:
        cur.execute("SELECT deposit(%s, %s)", (99, Decimal("1")))
        check("psycopg2: error raised", False)
    except psycopg2.Error as e:
        check("psycopg2: error with SQLSTATE", e.pgcode == "P0001" and "no account 99" in e.pgerror, e.pgerror)
    conn.rollback()
    cur.execute("SELECT 1")
    check("psycopg2: usable after rollback", cur.fetchone() == (1,))
    cur.execute("CALL touch(%s, %s)", (1, datetime.datetime(2030, 5, 6, 7, 8, 9)))
    cur.execute("SELECT ts FROM acc WHERE id = 1")
    check("psycopg2: CALL with a timestamp", cur.fetchone() == (datetime.datetime(2030, 5, 6, 7, 8, 9),))
    conn.close()


def psycopg3_checks(srv):
    with psycopg.connect(srv.dsn(), autocommit=True) as conn:
        conn.execute("INSERT INTO acc VALUES (%b, %b, %b, %b, %b, %b, %b, %b, %b, %b)",
                     (2, Decimal("-123456789.05"), "ü", datetime.datetime(1999, 12, 31, 23, 59, 59, 250000), -3,
                      -(2**50), -2.5, 1.25, False, None))
        row = conn.execute("SELECT * FROM acc WHERE id = %b", (2,), binary=True).fetchone()
        check("psycopg3: binary parameters and binary results", row ==
              (2, Decimal("-123456789.05"), "ü", datetime.datetime(1999, 12, 31, 23, 59, 59, 250000), -3, -(2**50),
               -2.5, 1.25, False, None), row)
        row = conn.execute("SELECT * FROM acc WHERE id = %s", (2,)).fetchone()
        check("psycopg3: text results", row[1] == Decimal("-123456789.05") and row[3].microsecond == 250000, row)
        for i in range(8):  # prepare_threshold is 5: later executions use a prepared statement
            v = conn.execute("SELECT deposit(%s, %s)", (2, Decimal("1.00"))).fetchone()[0]
        check("psycopg3: prepared after repeated use", v == Decimal("-123456781.05"), v)
        check("psycopg3: the statement was prepared", len(getattr(conn._prepared, "_names", {"x": 1})) >= 1)
        v = conn.execute("SELECT deposit(%b, %b)", (2, Decimal("0.05")), binary=True).fetchone()[0]
        check("psycopg3: binary NUMERIC in and out", v == Decimal("-123456781.00"), v)
        try:
            conn.execute("SELECT deposit(%s, %s)", (42, 1))
            check("psycopg3: error raised", False)
        except psycopg.Error as e:
            check("psycopg3: error SQLSTATE", e.sqlstate == "P0001", e)
        check("psycopg3: connection usable after error", conn.execute("SELECT 7").fetchone() == (7,))
        with conn.pipeline():
            curs = [conn.execute("SELECT deposit(%s, %s)", (1, Decimal(i))) for i in range(5)]
        vals = [c.fetchone()[0] for c in curs]
        check("psycopg3: pipeline of calls", vals == [Decimal("15.00"), Decimal("16.00"), Decimal("18.00"),
                                                      Decimal("21.00"), Decimal("25.00")], vals)
        conn.execute("CALL touch(%s, %s)", (1, datetime.datetime(2001, 1, 1)))
        check("psycopg3: CALL with parameters", conn.execute("SELECT ts FROM acc WHERE id = 1").fetchone()[0] ==
              datetime.datetime(2001, 1, 1))
        with conn.cursor(name="c1") as named:  # a server-side cursor is DECLARE: not supported, reported
            try:
                named.execute("SELECT * FROM acc")
                named.fetchall()
                check("psycopg3: named cursor reports an error", False)
            except psycopg.Error:
                check("psycopg3: named cursor reports an error (DECLARE is not supported)", True)
    # Not autocommit: the driver sends BEGIN before the first statement; the block's
    # writes show only once it commits, and a rolled-back block changes nothing.
    with psycopg.connect(srv.dsn(), autocommit=True) as check_conn:
        before = check_conn.execute("SELECT note FROM acc WHERE id = 1").fetchone()
        with psycopg.connect(srv.dsn()) as conn:
            conn.execute("UPDATE acc SET note = %s WHERE id = %s", ("txn", 1))
            check("psycopg3: another connection does not see an open block's write",
                  check_conn.execute("SELECT note FROM acc WHERE id = 1").fetchone() == before)
            conn.rollback()
        check("psycopg3: the rolled-back block changed nothing",
              check_conn.execute("SELECT note FROM acc WHERE id = 1").fetchone() == before)
        with psycopg.connect(srv.dsn()) as conn:
            with conn.transaction():
                conn.execute("UPDATE acc SET note = %s WHERE id = %s", ("txn", 1))
        check("psycopg3: a committed block's write shows",
              check_conn.execute("SELECT note FROM acc WHERE id = 1").fetchone() == ("txn",))


def currval_checks(srv):
    # What PHP's PDO lastInsertId() and psycopg2-era code do after an INSERT: currval and
    # lastval are per connection, and see the connection's own pipelined INSERTs.
    a = psycopg2.connect(srv.dsn())
    a.autocommit = True
    b = psycopg2.connect(srv.dsn())
    b.autocommit = True
    ca, cb = a.cursor(), b.cursor()
    try:
        cb.execute("SELECT currval('post_id_seq')")
        check("currval before any draw fails", False)
    except psycopg2.Error as e:
        check("currval before any draw fails (55000)", e.pgcode == "55000" and "not yet defined in this session" in e.pgerror,
              e.pgerror)
    ca.execute("INSERT INTO post (title) VALUES ('a')")
    ca.execute("SELECT currval('post_id_seq')")
    first = ca.fetchone()[0]
    cb.execute("INSERT INTO post (title) VALUES ('b'), ('c')")
    cb.execute("SELECT lastval()")
    check("lastval is the connection's own last draw", cb.fetchone()[0] == first + 2)
    ca.execute("SELECT currval('post_id_seq')")
    check("another connection's draws leave currval alone", ca.fetchone()[0] == first)
    ca.execute("SELECT id FROM post WHERE title = 'a'")
    check("currval names the row just inserted", ca.fetchone()[0] == first)
    a.close()
    b.close()
    with psycopg.connect(srv.dsn(), autocommit=True) as conn:
        with conn.pipeline():
            conn.execute("INSERT INTO post (title) VALUES ('p1')")
            conn.execute("INSERT INTO post (title) VALUES ('p2')")
            cur = conn.execute("SELECT lastval()")
        last = cur.fetchone()[0]
        check("lastval after pipelined INSERTs is the last of them",
              conn.execute("SELECT id FROM post WHERE title = 'p2'").fetchone() == (last,), last)


def byte_type_checks(srv):
    # uuid, bytea and an unconstrained numeric as the drivers adapt them: psycopg 3 in
    # binary and text formats, psycopg2 with its uuid adapter.
    key = uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
    body = bytes([0, 1, 2, 255, 92, 39])
    amount = Decimal("123456789012345678901234.5678")
    with psycopg.connect(srv.dsn(), autocommit=True) as conn:
        conn.execute("INSERT INTO doc (id, body, amount, n) VALUES (%b, %b, %b, 1)", (key, body, amount))
        row = conn.execute("SELECT id, body, amount FROM doc WHERE id = %b", (key,), binary=True).fetchone()
        check("psycopg3: uuid, bytea and wide numeric in binary", row == (key, body, amount), row)
        row = conn.execute("SELECT id, body, amount FROM doc WHERE id = %s", (key,)).fetchone()
        check("psycopg3: uuid, bytea and wide numeric in text", row == (key, body, amount), row)
        from psycopg.types.json import Jsonb
        meta = {"tags": ["a", "b"], "n": 1.5, "ok": True, "none": None}
        conn.execute("UPDATE doc SET meta = %b WHERE id = %b", (Jsonb(meta), key))
        row = conn.execute("SELECT meta, meta->'tags', meta->>'n' FROM doc WHERE id = %b", (key,), binary=True).fetchone()
        check("psycopg3: jsonb in binary, out as Python objects", row == (meta, ["a", "b"], "1.5"), row)
        row = conn.execute("SELECT meta FROM doc WHERE meta @> %s", (Jsonb({"ok": True}),)).fetchone()
        check("psycopg3: jsonb containment with a parameter", row == (meta,), row)
        made = conn.execute("INSERT INTO doc (body, n) VALUES (%s, 2) RETURNING id", (b"x",)).fetchone()[0]
        check("psycopg3: a gen_random_uuid() default is a version 4 uuid", isinstance(made, uuid.UUID) and
              made.version == 4, made)
    import psycopg2.extras
    psycopg2.extras.register_uuid()
    conn = psycopg2.connect(srv.dsn())
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("SELECT id, body, amount FROM doc WHERE n = %s", (1,))
    got = cur.fetchone()
    check("psycopg2: uuid, bytea and wide numeric", got is not None and got[0] == key and bytes(got[1]) == body and
          got[2] == amount, got)
    cur.execute("UPDATE doc SET body = %s WHERE id = %s", (psycopg2.Binary(b"\x00\xfe"), key))
    cur.execute("SELECT encode(body, 'hex') FROM doc WHERE id = %s", (key,))
    check("psycopg2: bytea parameter", cur.fetchone() == ("00fe",))
    conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--caracal", required=True)
    args = ap.parse_args()
    with CaracalServer(args.caracal) as srv:
        r = srv.psql("-q", "-v", "ON_ERROR_STOP=1", input=SCHEMA)
        check("schema", r.returncode == 0, r.stderr)
        psycopg2_checks(srv)
        psycopg3_checks(srv)
        currval_checks(srv)
        byte_type_checks(srv)
        check("server still alive", srv.alive(), srv.output())
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
