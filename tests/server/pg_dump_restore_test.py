#!/usr/bin/env python3
"""A PostgreSQL database moved into caracal with PostgreSQL 15's own tools, unchanged.

data/pg_dump_app.sql builds a small application in a throwaway PostgreSQL 15 cluster
(serial, bigserial and identity columns, sequences with AS / MINVALUE / MAXVALUE / CYCLE,
CHECK / UNIQUE / FOREIGN KEY constraints (one DEFERRABLE INITIALLY DEFERRED, as Django
writes them), indexes, a view, an enum type, a domain, a stored generated column, PL/pgSQL
functions that call each other, a SQL function, and triggers: BEFORE / AFTER, WHEN,
UPDATE OF, arguments, one disabled). It is then dumped with pg_dump, and restored
  1. by the caracal shell into a data directory (`caracal -v ON_ERROR_STOP=1 DIR -f
     dump.sql`), then opened again (so recovery replays the restore),
  2. by psql over the wire into `caracal --listen` (`psql -v ON_ERROR_STOP=1 -f dump.sql`),
  3. by pg_restore from pg_dump's custom format into `caracal --listen`.
Each restore must succeed with no error, and data/pg_dump_app_after.sql (reads of every
table and the view, calls of the functions, sequence draws up to their bounds, errors
from every constraint) must print exactly what it prints on the dumped PostgreSQL
database.

  pg_dump_restore_test.py --caracal build/caracal
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from caracal_server import CaracalServer
from checklist import check, failures
import pg_cluster

HERE = pathlib.Path(__file__).resolve().parent
APP = HERE / "data" / "pg_dump_app.sql"
AFTER = HERE / "data" / "pg_dump_app_after.sql"

# psql and the caracal shell name the script and line of an error differently.
PREFIX = re.compile(r"^(psql|caracal):[^:\n]*:(\d+): ", re.M)


def normalized(text):
    return PREFIX.sub(r"line \2: ", text)


def run(cmd, env=None):
    e = dict(os.environ, **(env or {}))
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=e, timeout=300)


def compare(name, got, want):
    if got == want:
        return check(name, True)
    import difflib
    diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "postgresql", "caracal"))[:60])
    return check(name, False, diff)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--caracal", required=True)
    args = ap.parse_args()
    if not pg_cluster.available() or not shutil.which("pg_dump") or not shutil.which("pg_restore"):
        print("skipped: PostgreSQL 15 (server, pg_dump, pg_restore) is not installed")
        return 2
    work = pathlib.Path(tempfile.mkdtemp(prefix="caracal-dump."))
    try:
        plain, custom = work / "dump.sql", work / "dump.custom"
        with pg_cluster.PgCluster() as pg:
            env = dict(PGHOST=pg.host, PGPORT=str(pg.port), PGUSER="postgres", PGDATABASE="postgres")
            r = run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", str(APP)], env)
            if not check("the application builds in PostgreSQL", r.returncode == 0, r.stdout):
                return 1
            r = run(["pg_dump", "-f", str(plain)], env)
            check("pg_dump (plain)", r.returncode == 0, r.stdout)
            r = run(["pg_dump", "-Fc", "-f", str(custom)], env)
            check("pg_dump (custom format)", r.returncode == 0, r.stdout)
            want = normalized(run(["psql", "-X", "-f", str(AFTER)], env).stdout)
        dump = plain.read_text()
        check("the dump has what this test is about",
              all(s in dump for s in ["set_config('search_path', '', false)", "ALTER SEQUENCE public.customers_id_seq OWNED BY",
                                      "ADD GENERATED ALWAYS AS IDENTITY", "NO MINVALUE", "CYCLE", "OWNER TO",
                                      "check_function_bodies = false", "DEFERRABLE INITIALLY DEFERRED"]))

        # 1. The shell, into a data directory, which is then opened again.
        data = work / "data"
        r = run([args.caracal, "-X", "-q", "-v", "ON_ERROR_STOP=1", str(data), "-f", str(plain)])
        check("shell: the plain dump restores", r.returncode == 0 and "ERROR" not in r.stdout, r.stdout[-3000:])
        got = normalized(run([args.caracal, "-X", str(data), "-f", str(AFTER)]).stdout)
        compare("shell: after reopening, the application behaves as in PostgreSQL", got, want)

        # 2. psql over the wire.
        with CaracalServer(args.caracal) as srv:
            r = srv.psql("-q", "-v", "ON_ERROR_STOP=1", "-f", str(plain))
            check("psql: the plain dump restores", r.returncode == 0 and "ERROR" not in r.stderr, r.stderr[-3000:])
            got = normalized(run(["psql", "-X", "-h", srv.host, "-p", str(srv.port), "-U", "tester", "-d", "caracal",
                                  "-f", str(AFTER)]).stdout)
            compare("psql: the application behaves as in PostgreSQL", got, want)

        # 3. pg_restore of the custom format over the wire.
        with CaracalServer(args.caracal) as srv:
            r = run(["pg_restore", "-h", srv.host, "-p", str(srv.port), "-U", "tester", "-d", "caracal", "--exit-on-error",
                     str(custom)])
            check("pg_restore: the custom-format dump restores", r.returncode == 0 and "error" not in r.stdout.lower(),
                  r.stdout[-3000:])
            got = normalized(run(["psql", "-X", "-h", srv.host, "-p", str(srv.port), "-U", "tester", "-d", "caracal",
                                  "-f", str(AFTER)]).stdout)
            compare("pg_restore: the application behaves as in PostgreSQL", got, want)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
