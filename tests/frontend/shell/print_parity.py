#!/usr/bin/env python3
"""Randomised printing parity with psql 15: for each seed, a small table of awkward
values (newlines, tabs, CR, wide and combining characters, quotes, separators, empty
strings, NULLs) and a random sequence of \\pset / \\x / \\t changes and queries run on
caracal and on a throwaway PostgreSQL; the outputs must be byte-identical.

  tests/frontend/shell/print_parity.py [--caracal build/caracal] [--seeds 30] [--first 1]

Exit status 0 when every seed matches, 1 on a difference, 2 without PostgreSQL.
"""
import argparse
import csv
import pathlib
import random
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import run  # noqa: E402  (PgCluster, normalize)

PIECES = ["a", "bb", "ccc", "x y", "tab\there", "new\nline", "日本", "é", "naïve", "", " lead", "trail ", '"q"',
          "a,b", "|pipe|", "multi\nline\ntext", "\\.", "\\", "CR\rhere", "long " * 8, "e\u0301"]
OPTIONS = ["\\pset border 0", "\\pset border 1", "\\pset border 2", "\\x on", "\\x off", "\\pset format unaligned",
           "\\pset format aligned", "\\pset format csv", "\\pset linestyle unicode", "\\pset linestyle ascii", "\\t on",
           "\\t off", "\\pset null NULL", "\\pset title 'T'", "\\pset title", "\\pset footer off", "\\pset footer on",
           "\\pset fieldsep ';'", "\\pset recordsep '#'", "\\pset recordsep '\\n'", "\\pset csv_fieldsep '|'",
           "\\pset csv_fieldsep ','"]
QUERIES = ["select * from t order by id;", "select s as \"hdr\nline\", id from t order by id;",
           "select id, n from t where id > 100;", "select s from t order by id limit 1;",
           "select b, n, s from t order by id desc;", "select count(*) as \"n\", max(s) as \"max s\" from t;"]


def scenario(seed, work):
    rng = random.Random(seed)
    with open(work / f"p{seed}.csv", "w", newline="") as f:
        w = csv.writer(f)
        for i in range(1, rng.randrange(1, 7)):
            w.writerow([i, "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 3))),
                        rng.choice(["", "1.5", "-3.25", "100000.00"]), rng.choice(["", "t", "f"])])
    lines = ["create table t (id int primary key, s text, n numeric(9,2), b boolean);",
             f"\\copy t from 'p{seed}.csv' (format csv)"]
    for _ in range(25):
        lines.append(rng.choice(OPTIONS) if rng.random() < 0.5 else rng.choice(QUERIES))
    path = work / f"p{seed}.sql"
    path.write_text("\n".join(lines) + "\n")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--caracal", default=str(run.ROOT / "build" / "caracal"))
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("--first", type=int, default=1)
    args = ap.parse_args()
    if not (run.PGBIN / "psql").exists():
        print(f"print_parity.py: PostgreSQL 15 not found in {run.PGBIN}", file=sys.stderr)
        return 2
    caracal = pathlib.Path(args.caracal).resolve()
    failures = 0
    with run.PgCluster() as cluster:
        work = cluster.cases
        for seed in range(args.first, args.first + args.seeds):
            path = scenario(seed, work)
            if cluster.runas:
                subprocess.run(["chown", "postgres", str(path), str(work / f"p{seed}.csv")], check=True)
            config = {"args": "-X -f {file}", "stdin": False, "psql": True}
            pg = cluster.output(path, config)
            got = run.run([str(caracal), "-X", "-f", path.name], path, config, cwd=work)
            if pg != got:
                failures += 1
                print(f"FAIL  seed {seed}\n{run.diff(pg, got, 'psql', 'caracal')}")
    print(f"{args.seeds} seed(s), {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
