#!/usr/bin/env python3
"""psql 15 against `caracal --listen`: queries, tags, NOTICEs, errors with positions,
exit statuses under ON_ERROR_STOP, settings, and every supported meta-command (\\dt, \\d,
\\d NAME with its foreign keys and triggers, \\di, \\ds, \\df, \\sf, \\l, \\conninfo) printed
exactly as PostgreSQL 15 prints them for the same schema (when PostgreSQL is installed).

  psql_test.py --caracal build/caracal
"""
import argparse
import sys

from caracal_server import CaracalServer
import pg_cluster

SCHEMA = r"""
CREATE TABLE accounts (id integer PRIMARY KEY, name varchar(20) NOT NULL, balance numeric(12,2), note text);
CREATE TABLE ev (g integer, t integer, v bigint, primary key (g, t));
CREATE INDEX accounts_name ON accounts (name);
CREATE SEQUENCE s1;
CREATE FUNCTION add(a integer, b integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN a + b; END $$;
CREATE PROCEDURE p(a integer) LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE 'hi %', a; END $$;
CREATE FUNCTION deposit(p_id integer, p_amount numeric) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE v numeric;
BEGIN
  UPDATE accounts SET balance = balance + p_amount WHERE id = p_id RETURNING balance INTO v;
  IF v < 0 THEN RAISE EXCEPTION 'overdrawn: %', v; END IF;
  RETURN v;
END $$;
INSERT INTO accounts VALUES (1, 'ann', 10.00, NULL), (2, 'bob', 20.50, 'x');
CREATE TABLE ledger (id integer PRIMARY KEY, account integer REFERENCES accounts, amount integer);
CREATE FUNCTION stamp() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER ledger_stamp BEFORE INSERT OR UPDATE OF amount ON ledger FOR EACH ROW EXECUTE FUNCTION stamp('a');
CREATE TRIGGER ledger_after AFTER DELETE ON ledger FOR EACH STATEMENT EXECUTE FUNCTION stamp();
"""

META = [r"\dt", r"\d", r"\d accounts", r"\d ev", r"\d ledger", r"\d accounts_pkey", r"\d accounts_name", r"\d s1", r"\di", r"\ds",
        r"\df", r"\df add", r"\dt acc*", r"\sf add", r"\sf p", r"\d nosuch", r"\sf nosuch"]

from checklist import check, failures  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--caracal", required=True)
    args = ap.parse_args()
    with CaracalServer(args.caracal) as srv:
        r = srv.psql("-v", "ON_ERROR_STOP=1", "-q", input=SCHEMA)
        check("schema loads", r.returncode == 0, r.stderr)

        r = srv.psql("-c", "SELECT * FROM accounts ORDER BY id", "-c", "SELECT deposit(1, 5)", "-c", "CALL p(7)")
        check("rows, calls and NOTICE", r.returncode == 0 and " 1 | ann  |   10.00 | " in r.stdout
              and "15.00" in r.stdout and "CALL" in r.stdout and "NOTICE:  hi 7" in r.stderr, r.stdout + r.stderr)

        r = srv.psql("-c", "SELECT 1; SELECT 2; INSERT INTO ev VALUES (1, 1, 1)")
        check("several statements in one message: every result and tag", r.returncode == 0
              and r.stdout.count("(1 row)") == 2 and r.stdout.endswith("INSERT 0 1\n"), r.stdout + r.stderr)

        r = srv.psql("-c", "SELECT * FROM nosuch")
        check("error with position (LINE and caret), exit 1", r.returncode == 1 and
              r.stderr == 'ERROR:  relation "nosuch" does not exist\nLINE 1: SELECT * FROM nosuch\n'
              '                      ^\n', repr(r.stderr))

        r = srv.psql("-c", "SELECT deposit(2, -100)")
        check("RAISE EXCEPTION is an ERROR", r.returncode == 1 and "ERROR:  overdrawn: -79.50" in r.stderr, r.stderr)

        script = "SELECT 1;\nSELECT * FROM nosuch;\nSELECT 3;\n"
        r = srv.psql("-v", "ON_ERROR_STOP=1", "-f", "-", input=script)
        check("ON_ERROR_STOP: exit 3, stops", r.returncode == 3 and "3\n" not in r.stdout.replace("(1 row)", ""),
              r.stdout + r.stderr)
        r = srv.psql("-f", "-", input=script)
        check("without ON_ERROR_STOP: goes on, exit 0", r.returncode == 0 and r.stdout.count("(1 row)") == 2,
              r.stdout + r.stderr)

        r = srv.psql("-At", "-c", "SET application_name = 'x1'", "-c", "SHOW application_name",
                     "-c", "SET caracal.epoch_max_txns = 50", "-c", "SHOW caracal.epoch_max_txns",
                     "-c", "SELECT current_setting('DateStyle'), current_database(), current_user")
        check("SET / SHOW per connection and engine settings", r.stdout ==
              "SET\nx1\nSET\n50\nISO, MDY|caracal|tester\n", repr(r.stdout) + r.stderr)

        r = srv.psql("-At", "-c", "BEGIN", "-c", "UPDATE accounts SET note = 'in block' WHERE id = 1", "-c", "ROLLBACK",
                     "-c", "SELECT note IS NULL FROM accounts WHERE id = 1")
        check("BEGIN; UPDATE; ROLLBACK leaves the row as it was",
              r.stderr == "" and r.stdout == "BEGIN\nUPDATE 1\nROLLBACK\nt\n", r.stdout + r.stderr)

        r = srv.psql("-c", "")
        check("empty query", r.returncode == 0 and r.stdout == "", r.stdout + r.stderr)

        r = srv.psql("-c", r"\conninfo")
        check(r"\conninfo", r.stdout.strip() == f'You are connected to database "caracal" as user "tester" on host '
              f'"127.0.0.1" at port "{srv.port}".', r.stdout + r.stderr)

        r = srv.psql("-c", r"\l")
        check(r"\l", "caracal" in r.stdout and "UTF8" in r.stdout and "(1 row)" in r.stdout, r.stdout + r.stderr)

        if not pg_cluster.available():
            print("skip  meta-commands against PostgreSQL (not installed)")
        else:
            with pg_cluster.PgCluster() as pg:
                pg.psql("-q", "-v", "ON_ERROR_STOP=1", input=SCHEMA)
                for cmd in META:
                    want = pg.psql("-c", cmd)
                    got = srv.psql("-c", cmd, env={"PGUSER": "postgres"})
                    same = (want.stdout, want.stderr, want.returncode) == (got.stdout, got.stderr, got.returncode)
                    check(f"{cmd} as psql prints it from PostgreSQL", same,
                          f"postgresql:\n{want.stdout}{want.stderr}\ncaracal:\n{got.stdout}{got.stderr}")
        check("server still alive", srv.alive(), srv.output())
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
