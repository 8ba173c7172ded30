#!/usr/bin/env python3
"""The wire protocol at the byte level against `caracal --listen`: SSL/GSSAPI requests,
the start-up ParameterStatus set, simple-query tags and EmptyQueryResponse, ErrorResponse
fields, the extended protocol (named/unnamed statements and portals, Describe, binary
parameters and results, row limits with PortalSuspended, error recovery up to Sync,
replies held until Sync/Flush), CancelRequest, Terminate, SCRAM-SHA-256, and the limits
(connections, message size, start-up and idle timeouts), COPY FROM STDIN and TO STDOUT.

  protocol_test.py --caracal build/caracal
"""
import argparse
import os
import struct
import subprocess
import sys
import threading
import time

from caracal_server import CaracalServer
from pgwire import (Conn, FLUSH, SYNC, TERMINATE, bind, close, data_row, describe, execute, fields, msg, parse, query,
                    row_description, startup_packet)

from checklist import check, failures  # noqa: E402


def kinds(messages):
    return "".join(k.decode() for k, _ in messages)


def test_startup(srv):
    c = Conn(srv.host, srv.port)
    c.send(struct.pack("!ii", 8, 80877103))
    check("SSLRequest answered N", c.read_byte() == b"N")
    c.send(struct.pack("!ii", 8, 80877104))
    check("GSSENCRequest answered N", c.read_byte() == b"N")
    ms = c.startup(application_name="proto", DateStyle="ISO, MDY")
    params = {b.split(b"\0")[0].decode(): b.split(b"\0")[1].decode() for k, b in ms if k == b"S"}
    want = {"server_version", "client_encoding", "standard_conforming_strings", "DateStyle", "TimeZone",
            "integer_datetimes", "is_superuser", "server_encoding", "session_authorization", "IntervalStyle",
            "application_name", "default_transaction_read_only", "in_hot_standby"}
    check("AuthenticationOk, PostgreSQL 15's ParameterStatus set, BackendKeyData, ReadyForQuery",
          ms[0] == (b"R", struct.pack("!i", 0)) and want <= set(params) and params["client_encoding"] == "UTF8"
          and params["standard_conforming_strings"] == "on" and params["integer_datetimes"] == "on"
          and params["application_name"] == "proto" and params["server_version"].startswith("15")
          and kinds(ms)[-2:] == "KZ" and ms[-1][1] == b"I", ms)
    return c


def test_simple(c):
    c.send(query("CREATE TABLE t (id integer PRIMARY KEY, v text, n numeric(10,2), ts timestamp); "
                 "INSERT INTO t VALUES (1, 'a', 1.50, '2024-01-01 00:00:00'), (2, NULL, -2.25, NULL); "
                 "SELECT * FROM t ORDER BY id; UPDATE t SET v = 'b' WHERE id = 2; DELETE FROM t WHERE id = 9"))
    ms = c.until_ready()
    tags = [b.rstrip(b"\0").decode() for k, b in ms if k == b"C"]
    check("simple query: several statements, tags", tags == ["CREATE TABLE", "INSERT 0 2", "SELECT 2", "UPDATE 1",
                                                             "DELETE 0"], tags)
    rows = [data_row(b) for k, b in ms if k == b"D"]
    check("simple query: text rows with NULL", rows == [[b"1", b"a", b"1.50", b"2024-01-01 00:00:00"],
                                                        [b"2", None, b"-2.25", None]], rows)
    cols = [row_description(b) for k, b in ms if k == b"T"][0]
    check("RowDescription types and typmods", [(n, o, m) for n, o, _, m, _ in cols] ==
          [("id", 23, -1), ("v", 25, -1), ("n", 1700, (10 << 16 | 2) + 4), ("ts", 1114, -1)], cols)
    c.send(query(""))
    check("empty query: EmptyQueryResponse", kinds(c.until_ready()) == "IZ")
    c.send(query("SELECT 1; SELECT * FROM nosuch; SELECT 3"))
    ms = c.until_ready()
    err = [fields(b) for k, b in ms if k == b"E"]
    check("error stops the query; ErrorResponse with severity, SQLSTATE, message, position",
          kinds(ms) == "TDCEZ" and err[0].get("S") == "ERROR" and err[0].get("V") == "ERROR"
          and err[0].get("C") == "42P01" and err[0].get("P") == "25" and "nosuch" in err[0].get("M", ""), ms)
    c.send(query("SELEC 1"))
    ms = c.until_ready()
    check("syntax error: 42601 with position", fields(ms[0][1]).get("C") == "42601" and fields(ms[0][1]).get("P") == "1")
    c.send(query("CREATE FUNCTION f(p integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN "
                 "RAISE NOTICE 'got %', p; RETURN p * 2; END $$; SELECT f(21)"))
    ms = c.until_ready()
    notice = [fields(b) for k, b in ms if k == b"N"]
    check("RAISE NOTICE: NoticeResponse", notice and notice[0]["M"] == "got 21" and notice[0]["S"] == "NOTICE"
          and [data_row(b) for k, b in ms if k == b"D"] == [[b"42"]], ms)
    # Transaction blocks: ReadyForQuery says T inside one and E inside a failed one; a
    # ROLLBACK undoes what the block did, and a failed block commits nothing.
    c.send(query("SELECT v FROM t WHERE id = 1"))
    before = [data_row(b) for k, b in c.until_ready() if k == b"D"]
    c.send(query("BEGIN"))
    ms = c.until_ready()
    check("BEGIN: tag BEGIN, status T", b"BEGIN\0" in [b for k, b in ms if k == b"C"] and ms[-1][1] == b"T", ms)
    c.send(query("UPDATE t SET v = 'changed' WHERE id = 1"))
    ms = c.until_ready()
    check("UPDATE in a block: status T", ms[-1][1] == b"T", ms)
    c.send(query("SELECT v FROM t WHERE id = 1"))
    check("the block reads its own write", [data_row(b) for k, b in c.until_ready() if k == b"D"] == [[b"changed"]])
    c.send(query("ROLLBACK"))
    ms = c.until_ready()
    check("ROLLBACK: status I", b"ROLLBACK\0" in [b for k, b in ms if k == b"C"] and ms[-1][1] == b"I", ms)
    c.send(query("SELECT v FROM t WHERE id = 1"))
    check("... and the row is unchanged", [data_row(b) for k, b in c.until_ready() if k == b"D"] == before)
    c.send(query("BEGIN; UPDATE t SET v = 'changed' WHERE id = 1; SELECT 1/0"))
    ms = c.until_ready()
    check("an error in a block: status E", kinds(ms).endswith("EZ") and ms[-1][1] == b"E", ms)
    c.send(query("SELECT 1"))
    ms = c.until_ready()
    err = [fields(b) for k, b in ms if k == b"E"]
    check("a failed block ignores statements (25P02), status E", err and err[0].get("C") == "25P02" and ms[-1][1] == b"E", ms)
    c.send(query("COMMIT"))
    ms = c.until_ready()
    check("COMMIT of a failed block answers ROLLBACK, status I",
          b"ROLLBACK\0" in [b for k, b in ms if k == b"C"] and ms[-1][1] == b"I", ms)
    c.send(query("SELECT v FROM t WHERE id = 1"))
    check("... and the failed block changed nothing", [data_row(b) for k, b in c.until_ready() if k == b"D"] == before)
    # Several statements in one message are one transaction: a failure undoes them all.
    c.send(query("UPDATE t SET v = 'implicit' WHERE id = 1; SELECT v FROM t WHERE id = 1; SELECT 1/0"))
    ms = c.until_ready()
    check("an implicit transaction reads its own write, then fails, status I",
          [data_row(b) for k, b in ms if k == b"D"] == [[b"implicit"]] and kinds(ms).endswith("EZ") and ms[-1][1] == b"I", ms)
    c.send(query("SELECT v FROM t WHERE id = 1"))
    check("... and the whole message was rolled back", [data_row(b) for k, b in c.until_ready() if k == b"D"] == before)
    c.send(query("COMMIT"))
    ms = c.until_ready()
    notice = [fields(b) for k, b in ms if k == b"N"]
    check("COMMIT outside a block: a WARNING, tag COMMIT, status I",
          notice and notice[0].get("M") == "there is no transaction in progress" and notice[0].get("S") == "WARNING" and b"COMMIT\0" in [b for k, b in ms if k == b"C"] and ms[-1][1] == b"I", ms)
    c.send(query("SAVEPOINT s"))
    ms = c.until_ready()
    check("SAVEPOINT outside a block: 25P01", fields(ms[0][1]).get("C") == "25P01" and ms[-1][1] == b"I", ms)


def test_extended(c):
    c.send(parse("s1", "SELECT id, v, n FROM t WHERE id >= $1 ORDER BY id") + describe(b"S", "s1") + SYNC)
    ms = c.until_ready()
    check("Parse + Describe statement: ParseComplete, ParameterDescription, RowDescription",
          kinds(ms) == "1tTZ" and ms[1][1] == struct.pack("!hi", 1, 25), ms)
    # Binary int4 parameter, binary results; one row at a time.
    c.send(parse("s2", "SELECT id, n, ts FROM t WHERE id >= $1 ORDER BY id", [23]) +
           bind("p1", "s2", [struct.pack("!i", 1)], [1], [1]) + describe(b"P", "p1") + execute("p1", 1) +
           execute("p1", 1) + execute("p1", 1) + SYNC)
    ms = c.until_ready()
    rows = [data_row(b) for k, b in ms if k == b"D"]
    check("binary parameter, binary results, PortalSuspended between row limits",
          kinds(ms) == "12TDsDCCZ" or kinds(ms) == "12TDsDC" + "CZ", kinds(ms))
    check("binary int4 / numeric / timestamp results", rows[0] == [struct.pack("!i", 1),
          struct.pack("!hhhhhh", 2, 0, 0, 2, 1, 5000), struct.pack("!q", 757382400000000)], rows)
    # Error recovery: a failing Bind skips everything up to Sync.
    c.send(bind("", "nosuch") + execute() + parse("", "SELECT 1") + SYNC)
    ms = c.until_ready()
    check("error recovery: ErrorResponse then ReadyForQuery only", kinds(ms) == "EZ" and
          fields(ms[0][1])["C"] == "26000", ms)
    c.send(parse("", "SELECT 1 +") + SYNC)
    ms = c.until_ready()
    check("Parse error: 42601", kinds(ms) == "EZ" and fields(ms[0][1])["C"] == "42601")
    c.send(parse("", "SELECT 1; SELECT 2") + SYNC)
    check("two statements in Parse: 42601", fields(c.until_ready()[0][1])["C"] == "42601")
    # Replies are held until Sync or Flush.
    c.send(parse("", "SELECT $1::integer + 1") + bind("", "", ["41"]) + execute())
    c.sock.settimeout(0.4)
    try:
        early = c.sock.recv(1)
    except OSError:
        early = b""
    c.sock.settimeout(10)
    c.send(FLUSH)
    ms = [c.read_message() for _ in range(4)]
    check("replies held until Flush, then sent", early == b"" and kinds(ms) == "12DC" and data_row(ms[2][1]) == [b"42"],
          (early, ms))
    c.send(SYNC)
    c.until_ready()
    # Unnamed statements are replaced; named ones are closed explicitly.
    c.send(close(b"S", "s1") + bind("", "s1", ["1"]) + SYNC)
    ms = c.until_ready()
    check("Close statement, then Bind to it fails", kinds(ms) == "3EZ")
    c.send(parse("dup", "SELECT 1") + parse("dup", "SELECT 2") + SYNC)
    check("duplicate prepared statement: 42P05", fields(c.until_ready()[1][1])["C"] == "42P05")
    # Parameters in a call; an empty statement.
    c.send(parse("", "SELECT f($1)") + describe(b"S", "") + bind("", "", [struct.pack("!i", 5)], [1]) + execute() +
           parse("e", "") + bind("", "e") + execute() + SYNC)
    ms = c.until_ready()
    check("a function parameter's type inferred (int4); EmptyQueryResponse for an empty statement",
          ms[1][1] == struct.pack("!hi", 1, 23) and [data_row(b) for k, b in ms if k == b"D"] == [[b"10"]]
          and "I" in kinds(ms), ms)
    # SQL PREPARE and the protocol share one namespace (pgtcl's pg_exec_prepared Binds a
    # statement PREPAREd in SQL); DEALLOCATE drops it for both.
    c.send(query("PREPARE sq (integer) AS SELECT $1 + 1 AS n"))
    c.until_ready()
    c.send(bind("", "sq", ["41"]) + execute() + SYNC)
    ms = c.until_ready()
    check("Bind to a statement PREPAREd in SQL", [data_row(b) for k, b in ms if k == b"D"] == [[b"42"]], ms)
    c.send(query("EXECUTE sq(1)"))
    ms = c.until_ready()
    check("SQL EXECUTE of it", [data_row(b) for k, b in ms if k == b"D"] == [[b"2"]], ms)
    c.send(query("DEALLOCATE sq"))
    c.until_ready()
    c.send(bind("", "sq", ["1"]) + SYNC)
    ms = c.until_ready()
    check("DEALLOCATE drops it for Bind too", kinds(ms) == "EZ" and fields(ms[0][1])["C"] == "26000", ms)
    c.send(parse("", "SELECT $1") + bind("", "", [b"\x00\x01"], [1]) + execute() + SYNC)
    ms = c.until_ready()
    check("NUL in a parameter: 22021", kinds(ms).startswith("1E") and fields(ms[1][1])["C"] == "22021", ms)


def test_copy(c):
    c.send(query("CREATE TABLE cp (id integer PRIMARY KEY, v text); COPY cp FROM STDIN"))
    ms = []
    while not ms or ms[-1][0] != b"G":
        ms.append(c.read_message())
    check("COPY FROM STDIN: CopyInResponse, text format, one code per column",
          kinds(ms) == "CG" and ms[-1][1] == b"\0" + struct.pack("!hhh", 2, 0, 0), ms)
    c.send(msg(b"d", b"1\tone\n2\t") + msg(b"H") + msg(b"d", b"\\N\n") + msg(b"c"))
    ms = c.until_ready()
    check("CopyData split anywhere, Flush ignored, CopyDone: COPY 2",
          [b for k, b in ms if k == b"C"] == [b"COPY 2\0"] and ms[-1][1] == b"I", ms)
    c.send(query("COPY cp FROM STDIN"))
    check("CopyInResponse again", c.read_message()[0] == b"G")
    c.send(msg(b"d", b"3\tthree\n") + msg(b"f", b"client gave up\0"))
    ms = c.until_ready()
    err = [fields(b) for k, b in ms if k == b"E"]
    check("CopyFail: 57014 naming the client's message, nothing loaded",
          err and err[0].get("C") == "57014" and "client gave up" in err[0].get("M", ""), ms)
    c.send(query("COPY cp TO STDOUT"))
    ms = c.until_ready()
    check("COPY TO STDOUT: CopyOutResponse, a CopyData per row, CopyDone, COPY 2",
          kinds(ms) == "HddcCZ" and [b for k, b in ms if k == b"d"] == [b"1\tone\n", b"2\t\\N\n"]
          and ms[-2][1] == b"COPY 2\0", ms)


def test_cancel_and_terminate(srv):
    setup = Conn(srv.host, srv.port)
    setup.startup()
    setup.send(query("CREATE TABLE kv (k integer PRIMARY KEY, v integer); INSERT INTO kv VALUES (1, 0);"
                     "CREATE PROCEDURE bump() LANGUAGE plpgsql AS $$ BEGIN UPDATE kv SET v = v + 1 WHERE k = 1; END $$;"
                     "SET caracal.epoch_interval_ms = 700; SET caracal.epoch_max_txns = 100000; SET caracal.adaptive_epochs = off"))
    setup.until_ready()
    c = Conn(srv.host, srv.port)
    ms = c.startup()
    pid, secret = struct.unpack("!ii", [b for k, b in ms if k == b"K"][0])
    # Statement by statement (a SET keeps the message from being one transaction): the
    # first CALL waits for its epoch; the cancel fails the statement after it (a call
    # submitted to the engine commits: there is no taking it back).
    c.send(query("CALL bump(); SET application_name = 'cancelled'; CALL bump(); CALL bump()"))
    time.sleep(0.2)
    k = Conn(srv.host, srv.port)
    k.send(struct.pack("!iiii", 16, 80877102, pid, secret))
    check("CancelRequest: the server closes the cancel connection", k.closed())
    ms = c.until_ready()
    errs = [fields(b) for kk, b in ms if kk == b"E"]
    check("CancelRequest: the next statement fails with 57014", errs and errs[0]["C"] == "57014", ms)
    setup.send(query("SET caracal.epoch_interval_ms = 1; SET caracal.adaptive_epochs = on"))
    setup.until_ready()
    c.send(TERMINATE)
    check("Terminate closes the connection", c.closed())
    setup.close()


def test_limits(caracal):
    with CaracalServer(caracal, "--max-connections", "3", "--max-message-bytes", "4096", "--idle-timeout", "1",
                       "--startup-timeout", "1") as srv:
        conns = [Conn(srv.host, srv.port) for _ in range(3)]
        for c in conns:
            c.startup()
        extra = Conn(srv.host, srv.port)
        extra.send(startup_packet())
        m = extra.read_message()
        check("connection limit: FATAL 53300", m[0] == b"E" and fields(m[1])["C"] == "53300" and extra.closed(), m)
        conns[0].send(msg(b"Q", b"SELECT '" + b"x" * 10000 + b"'\0"))
        m = conns[0].read_message()
        check("message over --max-message-bytes: FATAL 08P01, disconnected",
              fields(m[1]).get("S") == "FATAL" and fields(m[1])["C"] == "08P01" and conns[0].closed(), m)
        conns[1].send(msg(b"Z", b"junk"))
        m = conns[1].read_message()
        check("unknown message type: FATAL 08P01, disconnected", fields(m[1])["C"] == "08P01" and conns[1].closed())
        conns[2].send(query("SELECT 1"))
        check("the other connection is undisturbed", "D" in kinds(conns[2].until_ready()))
        time.sleep(1.5)
        m = conns[2].read_message()
        check("idle timeout: FATAL 57P05", fields(m[1])["C"] == "57P05" and conns[2].closed(), m)
        silent = Conn(srv.host, srv.port)
        start = time.time()
        check("start-up timeout closes a silent client", silent.closed(timeout=5) and time.time() - start < 4)
        again = Conn(srv.host, srv.port)
        again.startup()
        again.send(query("SELECT 2"))
        check("slots are freed: a new client is served", "D" in kinds(again.until_ready()))
        check("server alive after the limits", srv.alive(), srv.output())


def test_scram(caracal):
    with CaracalServer(caracal, env={"CARACAL_PASSWORD": "s3cret pass"}) as srv:
        r = srv.psql("-At", "-c", "SELECT 1", env={"PGPASSWORD": "s3cret pass"})
        check("SCRAM-SHA-256: psql with the password", r.returncode == 0 and r.stdout.strip() == "1", r.stderr)
        r = srv.psql("-At", "-c", "SELECT 1", env={"PGPASSWORD": "wrong"})
        check("SCRAM-SHA-256: wrong password refused (28P01)", r.returncode == 2 and
              "password authentication failed" in r.stderr, r.stderr)
        r = srv.psql("-At", "-w", "-c", "SELECT 1")
        check("SCRAM-SHA-256: no password refused", r.returncode == 2, r.stderr)
        c = Conn(srv.host, srv.port)
        c.send(startup_packet())
        m = c.read_message()
        check("AuthenticationSASL offers SCRAM-SHA-256", m[0] == b"R" and m[1][:4] == struct.pack("!i", 10)
              and b"SCRAM-SHA-256" in m[1])
        c.send(msg(b"p", b"SCRAM-SHA-256\0" + struct.pack("!i", 5) + b"bogus"))
        m = c.read_message()
        check("malformed SCRAM message: FATAL, disconnected", m[0] == b"E" and c.closed())
    pwfile = f"/tmp/caracal-pw-{os.getpid()}"
    with open(pwfile, "w") as f:
        f.write("filepw\n")
    try:
        with CaracalServer(caracal, "--password-file", pwfile) as srv:
            r = srv.psql("-At", "-c", "SELECT 1", env={"PGPASSWORD": "filepw"})
            check("--password-file", r.returncode == 0, r.stderr)
    finally:
        os.unlink(pwfile)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--caracal", required=True)
    args = ap.parse_args()
    with CaracalServer(args.caracal) as srv:
        c = test_startup(srv)
        test_simple(c)
        test_extended(c)
        test_copy(c)
        test_cancel_and_terminate(srv)
        check("server alive", srv.alive(), srv.output())
    test_limits(args.caracal)
    test_scram(args.caracal)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
