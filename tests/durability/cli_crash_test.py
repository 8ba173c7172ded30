#!/usr/bin/env python3
"""Crash test of the `caracal DATADIR` binary, as a user runs it: a psql-style script of
pipelined calls, ad-hoc INSERTs, COPY, DDL and CHECKPOINT fed to `caracal DATADIR`, the
process sent SIGKILL at a random moment, the directory read back by another run of the
binary, over and over.

Each life's script prints "ack I" (\\echo) once item I's result is in, which for a
pipelined batch means once its epoch is durable. After each kill the data directory is
read with `caracal DATADIR -c ...` and checked:
  - the recovered state is a prefix [0, R) of the item stream: every item before R that
    leaves a trace left it, none after R did; every acknowledged item is before R;
  - nothing is half there: balances equal 1000 + money in - money out of the ledger,
    every COPY batch has all its rows, ledger numbers drawn by nextval grow with the id;
and the next life resumes the stream at R. The last check runs items [0, R) on an
in-memory caracal and requires the same tables, rows and sequence position.

    cli_crash_test.py --caracal PATH [--cycles 12] [--seed 1]
"""
import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ACCOUNTS = 10
SETUP = 7
COPY_ROWS = 30


def transfer_function(version):
    m = 1 + version % 3
    return ("create or replace function transfer(p_id bigint, p_src int, p_dst int, p_amt bigint) "
            "returns bigint language plpgsql as $$\n-- version %d\ndeclare k bigint;\nbegin\n"
            "  k := nextval('ledger_seq');\n"
            "  update accounts set balance = balance - p_amt * %d where id = p_src;\n"
            "  update accounts set balance = balance + p_amt * %d where id = p_dst;\n"
            "  insert into ledger values (p_id, p_src, p_dst, p_amt * %d, k);\n"
            "  return k;\nend $$;" % (version, m, m, m))


class Stream:
    """Item i of the deterministic statement stream: (kind, sql)."""

    def __init__(self, seed, files):
        self.seed = seed
        self.files = files

    def item(self, i):
        if i == 0:
            return "setup", "create table accounts (id int primary key, balance bigint not null);"
        if i == 1:
            return "setup", ("create table ledger (id bigint primary key, src int not null, dst int not null, "
                             "amount bigint not null, n bigint not null);")
        if i == 2:
            return "setup", "create sequence ledger_seq;"
        if i == 3:
            return "setup", "create table bulk (batch bigint, seq int, payload text, primary key (batch, seq));"
        if i == 4:
            return "setup", transfer_function(0)
        if i == 5:
            return "setup", ("create function unlucky(p_id bigint) returns bigint language plpgsql as $$ begin "
                             "raise exception 'unlucky %', p_id; end $$;")
        if i == 6:
            return "setup", "insert into accounts values %s;" % ", ".join(
                "(%d, 1000)" % a for a in range(ACCOUNTS))
        r = i % 50
        if r == 11:
            return "function", transfer_function(i)
        if r == 23:
            path = os.path.join(self.files, "bulk_%d.csv" % i)
            if not os.path.exists(path):
                with open(path + ".tmp", "w") as f:
                    for s in range(COPY_ROWS):
                        f.write("%d,%d,%s\n" % (i, s, chr(ord("a") + s % 26) * (10 + (i + s) % 90)))
                os.rename(path + ".tmp", path)
            return "copy", "copy bulk from '%s' (format csv);" % path
        if r == 37:
            return "checkpoint", "checkpoint;"
        if r == 41:
            return "table", "create table extra_%d (a int primary key);" % i
        if r % 7 == 3:
            return "abort", "select unlucky(%d);" % i
        if r % 10 == 5:
            return "insert", "insert into ledger values (%d, 0, 0, 0, nextval('ledger_seq'));" % i
        rng = random.Random(self.seed * 1000003 + i)
        src = rng.randrange(ACCOUNTS)
        dst = (src + 1 + rng.randrange(ACCOUNTS - 1)) % ACCOUNTS
        return "transfer", "select transfer(%d, %d, %d, %d);" % (i, src, dst, 1 + rng.randrange(50))

    def script(self, start, end, batch=16):
        """Items [start, end): calls and INSERTs pipelined in batches, the rest alone;
        an \\echo ack after each batch or statement."""
        out, pending = [], []

        def flush():
            if pending:
                out.append("\\startpipeline")
                out.extend(sql for _, sql in pending)
                out.append("\\endpipeline")
                out.append("\\echo ack %d" % pending[-1][0])
                pending.clear()

        for i in range(start, end):
            kind, sql = self.item(i)
            if kind in ("transfer", "insert", "abort"):
                pending.append((i, sql))
                if len(pending) >= batch:
                    flush()
            else:
                flush()
                out.append(sql)
                out.append("\\echo ack %d" % i)
        flush()
        return "\n".join(out) + "\n"


DUMP = [
    ("tables", "\\dt"),
    ("version", "\\sf transfer"),
    ("ledger", "select id, src, dst, amount, n from ledger order by id;"),
    ("accounts", "select id, balance from accounts order by id;"),
    ("bulk", "select batch, count(*), sum(seq) from bulk group by batch order by batch;"),
]


def dump_script(with_nextval):
    lines = []
    for name, query in DUMP:
        lines += ["\\echo ==%s==" % name, query]
    if with_nextval:
        lines += ["\\echo ==nextval==", "select nextval('ledger_seq');"]
    return "\n".join(lines) + "\n"


def parse_dump(text):
    sections, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^==(\w+)==$", line)
        if m:
            current = m.group(1)
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
    return sections


def run_caracal(caracal, args, stdin_text, timeout=120):
    p = subprocess.run([caracal, "-X", "-A", "-t", "-q"] + args, input=stdin_text, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


class Failure(Exception):
    pass


def check(stream, sections, acked):
    """Returns R, the length of the recovered prefix, after checking it."""
    tables = {line.split("|")[1] for line in sections.get("tables", []) if "|" in line}
    version = -1
    for line in sections.get("version", []):
        m = re.search(r"-- version (\d+)", line)
        if m:
            version = int(m.group(1))
    ledger = {}
    for line in sections.get("ledger", []):
        f = [int(x) for x in line.split("|")]
        ledger[f[0]] = f
    accounts = {int(a): int(b) for a, b in (line.split("|") for line in sections.get("accounts", []))}
    bulk = {}
    for line in sections.get("bulk", []):
        batch, count, total = (int(x) for x in line.split("|"))
        if count != COPY_ROWS or total != COPY_ROWS * (COPY_ROWS - 1) // 2:
            raise Failure("COPY batch %d holds %d of its %d rows" % (batch, count, COPY_ROWS))
        bulk[batch] = count

    def trace(i):
        """Whether item i left its trace (None: it leaves none)."""
        kind, _ = stream.item(i)
        if kind == "setup":
            return [lambda: "accounts" in tables, lambda: "ledger" in tables, lambda: None,
                    lambda: "bulk" in tables, lambda: version >= 0, lambda: None,
                    lambda: len(accounts) > 0][i]()
        if kind in ("transfer", "insert"):
            return i in ledger
        if kind == "copy":
            return i in bulk
        if kind == "table":
            return ("extra_%d" % i) in tables
        if kind == "function":
            return version >= i
        return None

    resume = 0
    while True:
        t = trace(resume)
        if t is False:
            break
        resume += 1
    if resume <= acked:
        raise Failure("item %d was acknowledged, but the recovered prefix ends before item %d" % (acked, resume))
    for j in range(resume, resume + 400):
        if trace(j):
            raise Failure("item %d (%s) is there, but the prefix ends before item %d" % (j, stream.item(j)[1], resume))
    # Money moves only with whole transfers, numbered in serial order.
    if resume > SETUP:
        balance = {a: 1000 for a in range(ACCOUNTS)}
        last_n = 0
        for i in sorted(ledger):
            _, src, dst, amount, n = ledger[i]
            balance[src] -= amount
            balance[dst] += amount
            if n <= last_n:
                raise Failure("ledger row %d has n = %d, not above %d" % (i, n, last_n))
            last_n = n
        if balance != accounts:
            raise Failure("balances %s, the ledger says %s" % (accounts, balance))
    return resume


def life(caracal, data, script, delay):
    """Runs caracal DATADIR on `script`, kills it after `delay` s. Returns (acks, stderr)."""
    proc = subprocess.Popen([caracal, "-X", "-A", "-t", "-q", data], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    acks, err = [], []

    def feed():
        try:
            proc.stdin.write(script)
            proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass

    def read_out():
        for line in proc.stdout:
            if line.startswith("ack "):
                acks.append(int(line.split()[1]))

    def read_err():
        err.append(proc.stderr.read())

    threads = [threading.Thread(target=f) for f in (feed, read_out, read_err)]
    for t in threads:
        t.start()
    try:
        proc.wait(timeout=delay)
        killed = False
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        killed = True
    for t in threads:
        t.join()
    return acks, "".join(err), killed, proc.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--caracal", required=True)
    ap.add_argument("--cycles", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    base = args.keep or tempfile.mkdtemp(prefix="caracal-cli-crash-")
    data, files = os.path.join(base, "data"), os.path.join(base, "files")
    os.makedirs(files, exist_ok=True)
    stream = Stream(args.seed, files)
    started = time.time()
    acked = -1
    try:
        for cycle in range(args.cycles):
            code, out, err = run_caracal(args.caracal, [data], dump_script(False))
            if code != 0:
                raise Failure("reading the data directory failed (exit %d): %s" % (code, err))
            resume = check(stream, parse_dump(out), acked)
            delay = rng.uniform(0.2, 1.2)
            acks, err, killed, code = life(args.caracal, data, stream.script(resume, resume + 20000), delay)
            errors = [l for l in err.splitlines() if "ERROR" in l and "unlucky" not in l]
            if errors or (not killed and code != 0):
                raise Failure("life %d: unexpected errors (exit %s): %s" % (cycle, code, errors[:3] or err[-500:]))
            if acks:
                acked = max(acked, acks[-1])
            print("life %2d: resumed at %d, %d acks (last %d), %s" % (
                cycle, resume, len(acks), acked, "killed after %.2f s" % delay if killed else "finished"))
        # The last check, then an uncrashed in-memory run of the same prefix.
        code, out, err = run_caracal(args.caracal, [data], dump_script(True))
        if code != 0:
            raise Failure("reading the data directory failed: %s" % err)
        recovered = parse_dump(out)
        resume = check(stream, recovered, acked)
        code, out, err = run_caracal(args.caracal, [], stream.script(0, resume) + dump_script(True), timeout=300)
        uncrashed = parse_dump(out)
        for name in [n for n, _ in DUMP if n != "tables"] + ["nextval"]:
            if recovered.get(name) != uncrashed.get(name):
                raise Failure("after %d items, %s differs from an uncrashed run:\n%s\nvs\n%s" % (
                    resume, name, recovered.get(name, [])[:5], uncrashed.get(name, [])[:5]))
        if sorted(recovered["tables"]) != sorted(uncrashed["tables"]):
            raise Failure("the tables differ from an uncrashed run")
        print("%d lives in %.1f s: %d items recovered, equal to an uncrashed run" % (
            args.cycles, time.time() - started, resume))
        return 0
    except Failure as e:
        sys.stderr.write("CHECK FAILED: %s\n" % e)
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
