#!/usr/bin/env python3
"""Times the ad-hoc analytical queries of bench/queries/queries.sql here and on PostgreSQL 15
over the same TPC-C data (bench/queries/load.sql), and checks that both answer alike.

  bench/query_compare.py [--caracal build/caracal] [--warehouses 10] [--runs 5]

Each query runs `runs` times in one session on each side (after one warm-up run); the
median of psql's / caracal's \\timing is reported, with the ratio PostgreSQL / caracal
(above 1: caracal is faster). PostgreSQL runs with its defaults after ANALYZE."""
import argparse
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "differential"))
import run as differential  # noqa: E402  (PgCluster, inline)

TIME = re.compile(r"^Time: ([0-9.]+) ms", re.M)


def queries():
    text = (HERE / "queries" / "queries.sql").read_text()
    out, name = [], None
    for line in text.splitlines():
        if line.startswith("-- "):
            name = line[3:]
        elif line.strip():
            out.append((name, line))
    return out


def load_script(warehouses):
    load = differential.inline(HERE / "queries" / "load.sql")
    calls = ["CALL bench_load_items(3000);"] + [f"CALL bench_load_warehouse({w}, 3000, 300);" for w in range(1, warehouses + 1)]
    return load + "\n" + "\n".join(calls) + "\n"


def timed_script(qs, runs):
    lines = ["\\timing on"]
    for _, q in qs:
        lines += [q] * (runs + 1)
    return "\n".join(lines) + "\n"


def parse(output, qs, runs):
    times = [float(t) for t in TIME.findall(output)]
    results = []
    per = runs + 1
    for i in range(len(qs)):
        results.append(statistics.median(times[i * per + 1:(i + 1) * per]))
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--caracal", default="build/caracal")
    ap.add_argument("--warehouses", type=int, default=10)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    qs = queries()
    with tempfile.TemporaryDirectory(prefix="caracal-queries.") as tmp:
        work = pathlib.Path(tmp)
        script = load_script(args.warehouses) + timed_script(qs, args.runs)
        (work / "c.sql").write_text(script)
        mine = subprocess.run([args.caracal, "-X", "-A", "-t", "-q", "-f", str(work / "c.sql")], capture_output=True, text=True)
        pg = differential.PgCluster(work)
        pg.start()
        try:
            pg_script = load_script(args.warehouses) + "ANALYZE;\n" + timed_script(qs, args.runs)
            theirs = pg.run_script("bench", pg_script)
        finally:
            pg.stop()
    strip = lambda s: [l for l in s.splitlines() if not l.startswith("Time:") and l.strip()]
    if strip(mine.stdout) != strip(theirs):
        print("answers differ:\n--- postgresql\n" + "\n".join(strip(theirs)[:40]) + "\n--- caracal\n" + "\n".join(strip(mine.stdout)[:40]))
        print(mine.stderr[-2000:])
        return 1
    ours, pgs = parse(mine.stdout, qs, args.runs), parse(theirs, qs, args.runs)
    print(f"{'query':60} {'postgres ms':>12} {'caracal ms':>12} {'pg/caracal':>10}")
    for (name, _), p, c in zip(qs, pgs, ours):
        print(f"{name[:60]:60} {p:12.2f} {c:12.2f} {p / c:10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
