#!/usr/bin/env python3
"""Shell tests: the real `caracal` binary run on scripts, its output compared with files.

Each case is cases/NAME.sql. Lines at its top starting with "--! " configure it:

  --! args: -X -A -f {file}   command line ({file}: the case file; default "-X -f {file}")
  --! stdin                   feed the case on stdin (default args then "-X")
  --! psql                    PostgreSQL's psql 15 prints exactly the same (checked by --psql)

stdout and stderr go to one pipe (so their interleaving is checked too) and the exit
status is appended as "[exit N]". The expected output is cases/NAME.out. Timings
("Time: 1.234 ms") and \\watch time stamps are normalised.

  tests/frontend/shell/run.py [--caracal build/caracal] [--accept] [--psql] [CASE ...]

--accept rewrites the .out files from caracal's output; --psql runs the "--! psql" cases
on a throwaway PostgreSQL 15 cluster too and requires psql's output (with "psql:" read
as "caracal:") to equal caracal's. Exit status 0 when everything matches.
"""
import argparse
import difflib
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
CASES = HERE / "cases"
ROOT = HERE.parent.parent.parent
PGBIN = pathlib.Path(os.environ.get("PGBIN", "/usr/lib/postgresql/15/bin"))

TIMING = re.compile(r"Time: \d+\.\d{3} ms( \([0-9:. d]+\))?")
WATCH = re.compile(r"^\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4} \(every ", re.M)


def normalize(text):
    text = TIMING.sub("Time: #.### ms", text)
    text = WATCH.sub("<timestamp> (every ", text)
    return re.sub(r"^psql:", "caracal:", text, flags=re.M)


def parse_case(path):
    config = {"args": None, "stdin": False, "psql": False}
    for line in path.read_text(errors="surrogateescape").splitlines():
        if not line.startswith("--! "):
            break
        key, _, value = line[4:].partition(":")
        key = key.strip()
        if key == "args":
            config["args"] = value.strip()
        elif key in ("stdin", "psql"):
            config[key] = True
    if config["args"] is None:
        config["args"] = "-X" if config["stdin"] else "-X -f {file}"
    return config


def run(argv, case_path, config, env=None, timeout=60, cwd=CASES):
    stdin = open(case_path, "rb") if config["stdin"] else subprocess.DEVNULL
    try:
        proc = subprocess.run(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd,
                              timeout=timeout, env=env)
    finally:
        if stdin is not subprocess.DEVNULL:
            stdin.close()
    out = proc.stdout.decode("utf-8", errors="surrogateescape")
    return normalize(out) + f"[exit {proc.returncode}]\n"


def caracal_output(caracal, path, config):
    args = shlex.split(config["args"].replace("{file}", path.name))
    env = dict(os.environ, HOME=tempfile.gettempdir(), COLUMNS="80", PAGER="cat")
    env.pop("CARACALRC", None)
    return run([str(caracal), *args], path, config, env)


class PgCluster:
    """A throwaway PostgreSQL 15 cluster on a Unix socket (as tests/differential does)."""

    def __init__(self):
        self.work = pathlib.Path(tempfile.mkdtemp(prefix="caracal-shell."))
        os.chmod(self.work, 0o755)
        self.runas = []
        if os.getuid() == 0:
            self.runas = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.work, "postgres")
        self.data = self.work / "pgdata"
        # psql runs as the cluster's owner: give it a copy of the cases it may write in.
        self.cases = self.work / "cases"
        shutil.copytree(CASES, self.cases)
        if self.runas:
            subprocess.run(["chown", "-R", "postgres", str(self.cases)], check=True)

    def __enter__(self):
        subprocess.run(self.runas + [str(PGBIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                                     "-E", "UTF8", "--locale=C", "--no-sync"], check=True, capture_output=True)
        subprocess.run(self.runas + [str(PGBIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.work / "log"), "-w",
                                     "-o", f"-k {self.work} -c listen_addresses= -c fsync=off", "start"],
                       check=True, capture_output=True)
        return self

    def __exit__(self, *exc):
        subprocess.run(self.runas + [str(PGBIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(self.work, ignore_errors=True)

    def output(self, path, config):
        db = "case_" + re.sub(r"\W", "_", path.stem)
        base = [str(PGBIN / "psql"), "-X", "-h", str(self.work), "-U", "postgres"]
        subprocess.run(self.runas + base + ["-d", "postgres", "-q", "-c", f"DROP DATABASE IF EXISTS {db}", "-c",
                                            f"CREATE DATABASE {db}"], check=True, capture_output=True)
        args = shlex.split(config["args"].replace("{file}", path.name))
        env = dict(os.environ, COLUMNS="80", PAGER="cat")
        return run(self.runas + base + ["-d", db, *args], self.cases / path.name, config, env, cwd=self.cases)


def diff(expected, got, a, b):
    lines = list(difflib.unified_diff(expected.splitlines(), got.splitlines(), a, b, lineterm="", n=2))
    return "\n".join("      " + l for l in lines[:60]) + ("\n      ..." if len(lines) > 60 else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--caracal", default=str(ROOT / "build" / "caracal"))
    ap.add_argument("--accept", action="store_true")
    ap.add_argument("--psql", action="store_true")
    ap.add_argument("--only-psql", action="store_true", help="with --psql: only the psql comparisons")
    ap.add_argument("cases", nargs="*")
    args = ap.parse_args()
    caracal = pathlib.Path(args.caracal).resolve()
    names = args.cases or sorted(p.stem for p in CASES.glob("*.sql"))
    failures = 0
    cluster = None
    if args.psql:
        if not (PGBIN / "psql").exists():
            print(f"run.py: PostgreSQL 15 not found in {PGBIN}", file=sys.stderr)
            return 2
        cluster = PgCluster().__enter__()
    try:
        for name in names:
            path = CASES / f"{name}.sql"
            config = parse_case(path)
            if args.only_psql and not config["psql"]:
                continue
            got = caracal_output(caracal, path, config)
            expected_path = CASES / f"{name}.out"
            if args.accept:
                expected_path.write_text(got, errors="surrogateescape")
            expected = expected_path.read_text(errors="surrogateescape") if expected_path.exists() else ""
            if args.only_psql:
                pass
            elif got != expected:
                failures += 1
                print(f"FAIL  {name}\n{diff(expected, got, 'expected', 'caracal')}")
            else:
                print(f"ok    {name}")
            if cluster and config["psql"]:
                pg = cluster.output(path, config)
                if pg != got:
                    failures += 1
                    print(f"FAIL  {name} differs from psql\n{diff(pg, got, 'psql', 'caracal')}")
                else:
                    print(f"ok    {name} (same as psql)")
    finally:
        if cluster:
            cluster.__exit__(None, None, None)
    print(f"{len(names)} case(s), {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
