#!/usr/bin/env python3
"""Bad input of every kind never takes the shell down: a 10 MB statement, a 10 MB line of
garbage, deeply nested parentheses, random binary input (seeded), NUL bytes, a huge
meta-command argument. After each, a following command still runs ("alive") and the
exit status is an ordinary one (0 or 1, never a signal).

  tests/frontend/shell/robustness.py [--caracal build/caracal] [CHECK ...]
"""
import argparse
import os
import pathlib
import random
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[3]
MB = 1024 * 1024


def run(caracal, work, name, data, extra=()):
    path = work / name
    path.write_bytes(data)
    proc = subprocess.run([str(caracal), "-X", "-A", "-t", "-f", str(path), *extra, "-c", "select 'alive' as a"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120, env=dict(os.environ, HOME=str(work)))
    return proc


def check(proc, want_in_stdout=(), want_in_stderr=()):
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    problems = []
    if proc.returncode not in (0, 1):
        problems.append(f"exit status {proc.returncode}")
    if not out.rstrip().endswith("alive"):
        problems.append("the command after the bad input did not run")
    for w in want_in_stdout:
        if w not in out:
            problems.append(f"stdout lacks {w!r}")
    for w in want_in_stderr:
        if w not in err:
            problems.append(f"stderr lacks {w!r}")
    return problems, out[-300:], err[-600:]


def big_statement(caracal, work):
    data = b"select length('" + b"x" * (10 * MB) + b"') as big;\n"
    return check(run(caracal, work, "big.sql", data), want_in_stdout=[str(10 * MB)])


def big_garbage_line(caracal, work):
    rng = random.Random(7)
    data = bytes(rng.choice(b"abcdefghij +-*/<>=") for _ in range(10 * MB)) + b";\n"
    return check(run(caracal, work, "garbage_line.sql", data), want_in_stderr=["ERROR:"])


def deep_nesting(caracal, work):
    data = b"select " + b"(" * 100000 + b"1" + b")" * 100000 + b" as deep;\n"
    return check(run(caracal, work, "deep.sql", data), want_in_stderr=["ERROR:"])


def random_binary(caracal, work):
    rng = random.Random(20261122)
    data = bytes(rng.randrange(256) for _ in range(256 * 1024))
    return check(run(caracal, work, "random.bin", data))


def nul_bytes(caracal, work):
    # As in psql, a NUL ends its line: "select \0 2 as two;" leaves "select " open, which
    # the next line then continues (a syntax error), and the session goes on.
    data = b"select 1 as one;\n\x00\x00\x00;\nselect \x002 as two;\nselect 3 as three;\nselect 4 as four;\n"
    return check(run(caracal, work, "nul.sql", data), want_in_stdout=["1\n", "4\n"], want_in_stderr=["ERROR:"])


def huge_meta_argument(caracal, work):
    data = b"\\echo " + b"y" * (4 * MB) + b"\n\\set v '" + b"z" * MB + b"'\nselect length(:'v') as n;\n"
    return check(run(caracal, work, "meta.sql", data), want_in_stdout=[str(MB)])


def unterminated_everything(caracal, work):
    data = b"select 'open quote;\n"
    a = check(run(caracal, work, "q.sql", data), want_in_stderr=["unterminated quoted string"])
    data = b"select $x$ open dollar quote;\n"
    b = check(run(caracal, work, "d.sql", data), want_in_stderr=["unterminated dollar-quoted string"])
    data = b"select 1 /* open comment;\n"
    c = check(run(caracal, work, "c.sql", data), want_in_stderr=["unterminated /* comment"])
    return a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]


CHECKS = {f.__name__: f for f in [big_statement, big_garbage_line, deep_nesting, random_binary, nul_bytes,
                                   huge_meta_argument, unterminated_everything]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--caracal", default=str(ROOT / "build" / "caracal"))
    ap.add_argument("checks", nargs="*")
    args = ap.parse_args()
    caracal = pathlib.Path(args.caracal).resolve()
    failures = 0
    with tempfile.TemporaryDirectory(prefix="caracal-robust.") as tmp:
        work = pathlib.Path(tmp)
        for name in args.checks or CHECKS:
            problems, out, err = CHECKS[name](caracal, work)
            if problems:
                failures += 1
                print(f"FAIL  {name}: {'; '.join(problems)}\n  stdout: ...{out!r}\n  stderr: ...{err!r}")
            else:
                print(f"ok    {name}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
