#!/usr/bin/env python3
"""Differential tests: PostgreSQL 15 is the oracle.

Each case in cases/NAME.sql is a script of DDL, procedures and final SELECTs with one line
`--- calls: GENERATOR COUNT`, which this runner replaces by a seeded stream of calls. The
script runs serially on a throwaway PostgreSQL 15 cluster with psql, then on this database
(build/caracal) with the calls between \\startpipeline and \\endpipeline, so that many
share an epoch, for every worker count, epoch size and caracal.jit setting (compiled and
interpreted procedures) asked for. The outputs (results, NOTICEs and errors, in order)
must be identical line by line. Both sides print with psql's default verbosity, so errors
are compared with their DETAIL, HINT and CONTEXT lines.

  tests/differential/run.py [--caracal build/caracal] [--workers 1,2] [--epochs 1,7,500]
                            [--jit on,off] [--seed N] [--keep] [--server] [CASE ...]

With --server the same scripts run through psql 15 against `caracal --listen` (a fresh
server per case and setting; statements one at a time, as psql sends them), so the
oracle checks the wire protocol's results, NOTICEs and errors too.

Exit status 0 when every case matches, 1 on a difference, 2 when PostgreSQL is missing.
"""
import argparse
import difflib
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PGBIN = pathlib.Path(os.environ.get("PGBIN", "/usr/lib/postgresql/15/bin"))


# ---- call generators: (rng, count) -> list of SQL lines ---------------------------------

def arr(values, sql_type):
    items = ",".join("NULL" if v is None else str(v) for v in values)
    return f"ARRAY[{items}]::{sql_type}[]" if values else f"'{{}}'::{sql_type}[]"


def gen_kv_hot(rng, n):
    out = []
    for _ in range(n):
        k = 0 if rng.random() < 0.4 else rng.randrange(1, 12)
        r = rng.random()
        if r < 0.35:
            out.append(f"CALL kv_add({k}, {rng.randrange(-5, 20)});")
        elif r < 0.6:
            out.append(f"SELECT kv_put({k}, {rng.randrange(0, 1000)});")
        elif r < 0.85:
            out.append(f"SELECT kv_get({k});")
        else:
            out.append(f"SELECT kv_del({k});")
    return out


def gen_aborts(rng, n):
    out = []
    for _ in range(n):
        a, b = rng.randrange(1, 7), rng.randrange(1, 7)
        amount = f"{rng.randrange(0, 6000) / 100:.2f}"
        if rng.random() < 0.6:
            out.append(f"SELECT transfer({a}, {b}, {amount});")
        else:
            out.append(f"SELECT withdraw_then_check({a}, {amount});")
    return out


def gen_inserts(rng, n):
    out = []
    for _ in range(n):
        i = rng.randrange(1, 40)
        r = rng.random()
        if r < 0.4:
            price = "NULL" if rng.random() < 0.2 else f"{rng.randrange(0, 100000) / 100:.2f}"
            out.append(f"SELECT add_item({i}, 'item{i}', {price});")
        elif r < 0.7:
            out.append(f"SELECT add_item_quietly({i}, 'quiet{i}');")
        else:
            out.append(f"SELECT restock({i}, {rng.randrange(1, 9)}, {rng.randrange(5, 30)});")
    return out


def gen_ranges(rng, n):
    out = []
    for _ in range(n):
        g = rng.randrange(1, 4)
        r = rng.random()
        if r < 0.45:
            out.append(f"SELECT ev_add({g}, {rng.randrange(0, 30)}, {rng.randrange(-50, 50)});")
        elif r < 0.7:
            lo = rng.randrange(0, 30)
            out.append(f"SELECT ev_bump({g}, {lo}, {lo + rng.randrange(0, 12)});")
        elif r < 0.8:
            out.append(f"SELECT ev_trim({g}, {rng.randrange(0, 15)});")
        elif r < 0.83:
            out.append(f"SELECT ev_clear({g});")
        elif r < 0.87:
            lo = rng.randrange(0, 30)
            strict = "true" if rng.random() < 0.3 else "false"
            out.append(f"SELECT ev_take({g}, {lo}, {lo + rng.randrange(0, 3)}, {strict});")
        elif r < 0.9:
            seqs = [rng.randrange(0, 30) for _ in range(rng.randrange(0, 4))]
            out.append(f"SELECT ev_add_settle({g}, {arr(seqs, 'integer')}, {rng.randrange(0, 15)});")
        else:
            out.append(f"SELECT ev_stats({g});")
    return out


def gen_indexes(rng, n):
    out = []
    owners = ["'ann'", "'bob'", "'cy'", "'ANN'", "'BOB'", "'cy.'"]
    for _ in range(n):
        r = rng.random()
        a = rng.randrange(1, 13)
        if r < 0.12:
            out.append(f"SELECT acct_open({a}, {rng.choice(owners)}, {rng.randrange(1, 4)});")
        elif r < 0.27:
            out.append(f"SELECT acct_owner_like({a}, {rng.randrange(1, 13)});")
        elif r < 0.37:
            out.append(f"SELECT acct_shout({a});")
        elif r < 0.52:
            out.append(f"SELECT acct_deposit({a}, {rng.randrange(-20, 40)});")
        elif r < 0.6:
            out.append(f"SELECT acct_move({a}, {a + rng.randrange(0, 4)}, {rng.randrange(1, 4)});")
        elif r < 0.68:
            out.append(f"SELECT acct_rename({a}, {rng.choice(owners)});")
        elif r < 0.72:
            out.append(f"SELECT acct_close({a});")
        else:
            out.append(f"SELECT acct_report({rng.choice(owners)}, {rng.randrange(1, 4)}, {rng.randrange(-10, 40)});")
    return out


def gen_arrays(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        ids = [rng.randrange(1, 25) for _ in range(rng.randrange(0, 6))]
        if r < 0.25:
            out.append(f"SELECT create_all({arr(ids, 'integer')});")
        elif r < 0.4:
            out.append(f"SELECT snapshot_bump({arr(ids, 'integer')}, {rng.randrange(0, 4)});")
        elif r < 0.75:
            ids = list(dict.fromkeys(ids))  # distinct keys per call, as YCSB's
            by = [None if rng.random() < 0.1 else rng.randrange(-3, 10) for _ in ids]
            out.append(f"SELECT bump_all({arr(ids, 'integer')}, {arr(by, 'bigint')});")
        else:
            out.append(f"SELECT sum_of({arr(ids, 'integer')});")
    return out


def gen_numeric_nulls(rng, n):
    out = []
    for _ in range(n):
        i = rng.randrange(1, 9)
        if rng.random() < 0.6:
            rate = f"{rng.randrange(-2000, 3000) / 10000:.4f}"
            label = "NULL" if rng.random() < 0.3 else f"'L{rng.randrange(0, 1000)}'"
            out.append(f"SELECT apply_rate({i}, {rate}, {label});")
        else:
            out.append(f"SELECT describe({i});")
    return out


def gen_function_attributes(rng, n):
    out = []
    for _ in range(n):
        i = "NULL" if rng.random() < 0.3 else str(rng.randrange(1, 5))
        note = "NULL" if rng.random() < 0.3 else f"'n{rng.randrange(0, 100)}'"
        r = rng.random()
        if r < 0.5:
            out.append(f"SELECT bump({i}, {note});")
        elif r < 0.8:
            out.append(f"SELECT bump_always({i}, {note});")
        else:
            out.append(f"SELECT * FROM pair({i});")
    return out


def gen_row_locking(rng, n):
    out = []
    for _ in range(n):
        i = rng.randrange(1, 5)
        if rng.random() < 0.7:
            out.append(f"SELECT take({i}, {rng.randrange(1, 8)});")
        else:
            out.append(f"SELECT restock({rng.randrange(5, 40)});")
    return out


def gen_record_variables(rng, n):
    out = []
    for _ in range(n):
        i = rng.randrange(1, 5)
        r = rng.random()
        if r < 0.4:
            out.append(f"SELECT pay({i}, {rng.randrange(-300, 500) / 100:.2f});")
        elif r < 0.6:
            out.append(f"SELECT describe({i});")
        elif r < 0.8:
            out.append(f"SELECT whole_row({i});")
        elif r < 0.9:
            out.append(f"SELECT adjust({rng.randrange(1, 9)}, {rng.randrange(-100, 100) / 10:.1f});")
        else:
            out.append("SELECT total_rows();")
    return out


def gen_aliases(rng, n):
    out = []
    for _ in range(n):
        i = rng.randrange(1, 5)
        if rng.random() < 0.7:
            out.append(f"SELECT add_to({i}, {rng.randrange(-10, 20)});")
        elif rng.random() < 0.5:
            out.append(f"SELECT tag_it({i}, 't{rng.randrange(0, 50)}');")
        else:
            out.append(f"SELECT bump({i}, 0);")
    return out


def gen_privileges(rng, n):
    return [f"SELECT credit({rng.randrange(1, 4)}, {rng.randrange(-5, 10)});" for _ in range(n)]


def gen_sequence_names(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.5:
            out.append(f"SELECT new_ticket('n{rng.randrange(0, 100)}');")
        elif r < 0.8:
            note = "NULL" if rng.random() < 0.3 else f"'u{rng.randrange(0, 100)}'"
            out.append(f"SELECT careful({rng.randrange(10, 40)}, {note});")
        else:
            out.append("INSERT INTO ticket (note) VALUES ('d');")
    return out


def gen_random(rng, n):
    out = []
    for i in range(1, n + 1):
        # Now and then an id taken already: the call aborts after it drew.
        p_id = rng.randrange(1, i) if i > 1 and rng.random() < 0.1 else i
        if rng.random() < 0.15:
            out.append(f"INSERT INTO draws (id, r) VALUES ({500 + i}, random());")
        else:
            out.append(f"SELECT play({p_id}, {rng.randrange(0, 5)});")
    return out


def gen_setof_record(rng, n):
    cols = "n integer, item integer, qty smallint, amount numeric, label varchar"
    return [f"SELECT * FROM lines_of({rng.randrange(0, 3)}) AS ({cols});" for _ in range(n)]


def gen_with_returning_from(rng, n):
    out = []
    for _ in range(n):
        k = rng.randrange(0, 4)
        items = [rng.randrange(1, 14) for _ in range(k)]  # 13: a row of no stock
        ws = [rng.randrange(1, 3) for _ in range(k)]
        qs = [rng.randrange(1, 11) for _ in range(k)]
        out.append(f"SELECT take({arr(items, 'integer')}, {arr(ws, 'integer')}, {arr(qs, 'integer')}, "
                   f"{rng.randrange(1, 500) / 100:.2f});")
    return out


def gen_prepare_execute(rng, n):
    out = []
    for _ in range(n):
        if rng.random() < 0.7:
            out.append(f"EXECUTE dep({rng.randrange(1, 5)}, {rng.randrange(-500, 2000) / 100:.2f});")
        else:
            out.append(f"EXECUTE get({rng.randrange(1, 5)});")
    return out


def gen_recon_shapes(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.4:
            items = [rng.randrange(1, 10) for _ in range(rng.randrange(0, 4))]  # 9: no such item
            out.append(f"SELECT take({rng.randrange(1, 3)}, {arr(items, 'integer')});")
        elif r < 0.7:
            out.append(f"SELECT deliver({rng.randrange(1, 14)}, {rng.randrange(1, 11)});")
        else:
            out.append(f"SELECT pay({rng.randrange(1, 14)}, {rng.randrange(1, 10000) / 100:.2f});")
    return out


def gen_port_tpcc(rng, n):
    out = []
    for k in range(n):
        ts = f"'2024-03-01 00:00:00+00'::timestamptz + interval '{k} minutes'"
        d = rng.randrange(1, 4)
        r = rng.random()
        if r < 0.45:
            items = rng.sample(range(1, 41), rng.randrange(1, 6))
            if rng.random() < 0.05:
                items[-1] = 41  # no such item: the order is rolled back
            qty = [rng.randrange(1, 11) for _ in items]
            out.append(f"SELECT new_order(1, {d}, pick({rng.randrange(0, 1000)}, 1, 12), {arr(items, 'integer')}, "
                       f"{arr(qty, 'integer')}, {ts});")
        elif r < 0.88:
            amount = f"{rng.randrange(100, 500000) / 100:.2f}"
            if rng.random() < 0.6:
                name = rng.choice(["'BAR'", "'OUGHT'", "'ABLE'", "'NONE'"])
                out.append(f"SELECT payment(1, {d}, NULL, {name}, {amount}, {ts});")
            else:
                out.append(f"SELECT payment(1, {d}, pick({rng.randrange(0, 1000)}, 1, 12), NULL, {amount}, {ts});")
        elif r < 0.92:
            out.append(f"SELECT * FROM order_status(1, {d}, {rng.randrange(1, 13)}) AS (n smallint, item integer, "
                       f"qty smallint, amount numeric, delivered timestamptz);")
        elif r < 0.96:
            out.append(f"SELECT delivery(1, {rng.randrange(1, 11)}, {ts});")
        else:
            out.append(f"SELECT stock_level(1, {d}, {rng.randrange(10, 21)});")
    return out


def gen_setof_table(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.6:
            out.append(f"SELECT * FROM sell({rng.randrange(1, 6)}, {rng.randrange(1, 4)});")
        elif r < 0.8:
            out.append(f"SELECT grade({rng.randrange(-1, 6)});")
        else:
            out.append(f"SELECT * FROM in_stock({rng.randrange(0, 20)});")
    return out


def gen_dependent(rng, n):
    out = []
    emails = ["a@x", "b@x", "c@x", "d@x", "e@x", "f@x"]
    for _ in range(n):
        if rng.random() < 0.65:
            out.append(f"SELECT award('{rng.choice(emails)}', {rng.randrange(1, 10)});")
        else:
            out.append(f"SELECT rename({rng.randrange(1, 6)}, '{rng.choice(emails)}');")
    return out


def gen_sequences(rng, n):
    out = []
    for _ in range(n):
        items = [rng.randrange(1, 100) for _ in range(rng.randrange(0, 5))]
        out.append(f"SELECT place({rng.randrange(1, 10)}, {arr(items, 'integer')});")
    return out


def gen_sequence_options(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            out.append(f"INSERT INTO tickets (label) VALUES ('t{rng.randrange(100)}');")
        elif r < 0.5:
            out.append(f"INSERT INTO slots (label) VALUES ('s{rng.randrange(100)}');")
        elif r < 0.75:
            out.append(f"SELECT note('n{rng.randrange(100)}');")
        else:
            out.append(rng.choice(["SELECT grab();", "SELECT grab2();"]))
    return out


def gen_sequence_functions(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.6:
            out.append(f"INSERT INTO items (qty) VALUES ({rng.choice([0, 1, 2, 3, 5, 8])});")
        elif r < 0.8:
            out.append(f"INSERT INTO \"Tagged\" (label) VALUES ('l{rng.randrange(50)}');")
        else:
            out.append("SELECT nextval('other');")
    return out


def gen_control_flow(rng, n):
    out = []
    for _ in range(n):
        p = rng.randrange(1, 6)
        r = rng.random()
        if r < 0.5:
            out.append(f"SELECT play({p}, {rng.randrange(0, 8)}, {rng.randrange(0, 100)});")
        elif r < 0.75:
            out.append(f"SELECT * FROM leaderboard({p});")
        else:
            out.append(f"SELECT * FROM top_rounds({p}, {rng.randrange(0, 4)});")
    return out


def gen_error_context(rng, n):
    out = []
    # Every case of trip() at least once, on rows that exist, then a random stream.
    sweep = [0] * 4 + list(range(1, 21))
    for i in range(n):
        k = rng.randrange(1, 5) if i < len(sweep) else rng.randrange(1, 9)
        r = rng.random() if i >= len(sweep) else 0
        if r < 0.6:
            if i < len(sweep):
                case = sweep[i]
            else:
                case = 0 if rng.random() < 0.3 else rng.randrange(1, 21)
            amt = "3000000000.5" if rng.random() < 0.3 else f"{rng.randrange(0, 10000) / 100:.2f}"
            ids = "NULL" if rng.random() < 0.2 else arr([rng.randrange(0, 4) for _ in range(rng.randrange(0, 4))], "integer")
            out.append(f"SELECT trip({case}, {k}, 'n{k}', {amt}, '2024-01-0{rng.randrange(1, 10)} 10:30:00', {ids});")
        elif r < 0.7:
            n = "NULL" if rng.random() < 0.3 else str(rng.randrange(0, 9))
            out.append(f"SELECT init_trip({rng.randrange(0, 7)}, {n});")
        elif r < 0.8:
            out.append(f"CALL move_ec({k}, {rng.randrange(1, 9)}, 0);")
        elif r < 0.9:
            out.append(f"SELECT * FROM ec_ratio({k});")
        else:
            out.append(f"SELECT * FROM ec_div({rng.randrange(0, 3)});")
    return out


def gen_wide_keys(rng, n):
    bigs = [-9223372036854775808, -4294967296, -1, 0, 1, 4294967296, 9223372036854775807]
    smalls = [-32768, -1, 0, 1, 32767]
    ints = [-2147483648, -70000, 0, 70000, 2147483647]
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.35:
            a = rng.choice(bigs[1:])  # b = -a: not the bigint minimum
            out.append(f"SELECT wide_put({a}, {rng.choice(bigs)}, {rng.randrange(-50, 50)});")
        elif r < 0.45:
            a = rng.choice(bigs[1:])
            out.append(f"SELECT wide_del({a}, {-a}, {rng.choice(bigs)});")
        elif r < 0.9:
            out.append(f"SELECT mixed_put(({rng.choice(smalls)})::smallint, {rng.choice(ints)}, "
                       f"{rng.choice(bigs)}, {rng.randrange(-50, 50)});")
        else:
            out.append(f"SELECT mixed_del(({rng.choice(smalls)})::smallint, {rng.choice(ints)}, {rng.choice(bigs)});")
    return out


def gen_ordered_scans(rng, n):
    texts = ["x", "y", "z", "xx", "a b", "Z"]
    out = []
    for _ in range(n):
        r = rng.random()
        a, b, c = rng.randrange(0, 5), rng.randrange(-2, 6), rng.choice(texts)
        if r < 0.45:
            v = "NULL" if rng.random() < 0.15 else str(rng.randrange(0, 30))
            out.append(f"SELECT put({a}, {b}, '{c}', {v});")
        elif r < 0.55:
            out.append(f"SELECT drop_row({a}, {b}, '{c}');")
        elif r < 0.7:
            out.append(f"SELECT * FROM row_of({a}, {rng.randrange(0, 4)}, {rng.randrange(0, 6)});")
        elif r < 0.78:
            out.append(f"SELECT * FROM row_values({a});")
        elif r < 0.9:
            out.append(f"SELECT * FROM sorted_of({a}, {rng.randrange(1, 5)});")
        else:
            lo = rng.randrange(0, 5)
            out.append(f"SELECT * FROM band({lo}, {lo + rng.randrange(0, 3)}, {rng.randrange(1, 8)});")
    return out


def gen_diagnostics(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.4:
            lo = rng.randrange(1, 40)
            out.append(f"SELECT bump_range({lo}, {lo + rng.randrange(0, 6)}, {rng.randrange(1, 5)});")
        elif r < 0.65:
            out.append(f"SELECT touch({1 if rng.random() < 0.7 else rng.randrange(2, 5)});")
        else:
            out.append(f"SELECT * FROM churn({rng.randrange(1, 45)}, {rng.randrange(1, 45)});")
    return out


def gen_for_query(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.25:
            out.append(f"SELECT restock({rng.randrange(0, 4)}, {rng.randrange(1, 6)});")
        elif r < 0.5:
            out.append(f"SELECT * FROM sweep({rng.randrange(1, 30)});")
        elif r < 0.8:
            out.append(f"SELECT add_item({rng.randrange(1, 34)}, {rng.randrange(0, 3)}, {rng.randrange(0, 10)});")
        else:
            out.append(f"SELECT take({rng.randrange(0, 3)}, {rng.randrange(1, 3)});")
    return out


def gen_cursors(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            out.append(f"SELECT drain({rng.randrange(0, 3)}, {rng.randrange(1, 5)});")
        elif r < 0.55:
            out.append(f"SELECT restock({rng.randrange(1, 20)}, {rng.randrange(1, 9)});")
        elif r < 0.7:
            out.append(f"SELECT walk({rng.randrange(0, 3)});")
        elif r < 0.85:
            out.append(f"SELECT pick({rng.randrange(1, 15)}, {rng.randrange(1, 20)});")
        else:
            out.append(f"SELECT two_queries({rng.randrange(0, 3)});")
    return out


def gen_string_updates(rng, n):
    words = ["NULL", "''", "'a'", "'ab'", "'é'", "'ü€x'", "'same'", "'a longer note'"]
    out = []
    for _ in range(n):
        k = rng.randrange(1, 10)
        r = rng.random()
        if r < 0.35:
            out.append(f"CALL pay({k}, {rng.randrange(1, 900) / 100});")
        elif r < 0.55:
            name = rng.choice(["'x'", "'ann'", "'bob'", "'ü€'", "'twelve chars'", "'thirteen char'"])
            out.append(f"SELECT rename({k}, {name});")
        elif r < 0.85:
            out.append(f"CALL annotate({k}, {rng.choice(words)}, {rng.choice(words)});")
        else:
            lo = rng.randrange(1, 8)
            out.append(f"SELECT stamp({lo}, {lo + rng.randrange(0, 4)}, {rng.choice(words[1:])});")
    return out


def gen_q_procedures(rng, n):
    names = ["'ann'", "'bob'", "'cy'", "'dee'", "'eve'", "'nobody'"]
    out = []
    for _ in range(n):
        r = rng.random()
        acct = rng.choice([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 99])
        if r < 0.3:
            out.append(f"SELECT pay_by_name({rng.choice(names)}, {acct}, {rng.randrange(1, 30)});")
        elif r < 0.4:
            out.append(f"SELECT consolidate({rng.randrange(1, 7)});")
        elif r < 0.55:
            out.append(f"SELECT classify({acct});")
        elif r < 0.7:
            out.append(f"SELECT drain({acct}, {rng.randrange(1, 20)});")
        elif r < 0.8:
            out.append(f"SELECT open_account({rng.randrange(1, 7)}, {rng.randrange(0, 50)});")
        elif r < 0.9:
            out.append(f"SELECT busy_owners({rng.randrange(1, 4)});")
        else:
            out.append(f"SELECT * FROM owner_report({rng.choice(['1', '2', '3', 'NULL'])});")
    return out


def gen_q_dml(rng, n):
    out = []
    orders = 2
    for _ in range(n):
        r = rng.random()
        if r < 0.55:
            orders += 1
            k = rng.randrange(1, 5)
            items = rng.sample(range(1, 15), k)  # distinct: PostgreSQL updates a joined row once
            qtys = [rng.randrange(1, 10) for _ in items]
            out.append(f"SELECT new_order({orders}, {rng.randrange(1, 4)}, {arr(items, 'integer')}, {arr(qtys, 'integer')});")
        elif r < 0.75:
            out.append(f"SELECT cancel({rng.randrange(1, orders + 2)});")
        else:
            out.append(f"SELECT restock({rng.randrange(1, 4)}, {rng.randrange(5, 30)});")
    return out


def gen_q_with(rng, n):
    out = []
    for _ in range(n):
        if rng.random() < 0.6:
            k = rng.randrange(0, 4)
            amounts = [f"{rng.randrange(1, 2000) / 100:.2f}" for _ in range(k)]
            out.append(f"SELECT new_order({rng.randrange(1, 3)}, {rng.randrange(1, 4)}, {rng.randrange(1, 5)}, "
                       f"{arr(amounts, 'numeric')});")
        else:
            out.append(f"SELECT delivery({rng.randrange(1, 3)}, {rng.randrange(1, 11)});")
    return out


def gen_datetime(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        k = rng.randrange(1, 7)
        if r < 0.5:
            out.append(f"SELECT shift_event({k}, {rng.randrange(-40, 40)}, {rng.randrange(-30, 30)});")
        elif r < 0.8:
            out.append(f"SELECT month_later({k}, {rng.randrange(-14, 14)});")
        else:
            a = f"2024-{rng.randrange(1, 13):02}-{rng.randrange(1, 29):02} {rng.randrange(0, 24):02}:{rng.randrange(0, 60):02}"
            b = f"2023-{rng.randrange(1, 13):02}-{rng.randrange(1, 29):02} {rng.randrange(0, 24):02}:00"
            out.append(f"SELECT span('{b}', '{a}');" if rng.random() < 0.5 else f"SELECT span('{a}', '{b}');")
    return out


def gen_serial_identity(rng, n):
    return [f"SELECT place('c{rng.randrange(0, 9)}', {rng.randrange(-1, 6)});" for _ in range(n)]


def gen_check_constraints(rng, n):
    out = []
    for _ in range(n):
        if rng.random() < 0.7:
            out.append(f"SELECT move({rng.randrange(1, 8)}, {rng.randrange(1, 8)}, {rng.randrange(-5, 30)});")
        else:
            lo = rng.randrange(-120, 10)
            out.append(f"SELECT reshape({rng.randrange(1, 10)}, {lo}, {lo + rng.randrange(-3, 6)});")
    return out


def gen_exception_blocks(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            out.append(f"SELECT bump({rng.randrange(1, 7)}, {rng.randrange(-5, 30)});")
        elif r < 0.55:
            amount = f"{rng.randrange(0, 8000) / 100:.2f}"
            out.append(f"SELECT pay({rng.randrange(1, 7)}, {rng.randrange(1, 8)}, {amount});")
        elif r < 0.7:
            out.append(f"SELECT ratio({rng.randrange(100, 130)}, {rng.randrange(-2, 3)});")
        elif r < 0.8:
            out.append(f"SELECT fill({rng.randrange(200, 230)}, {rng.randrange(1, 5)});")
        elif r < 0.92:
            k = rng.choice([rng.randrange(100, 125), rng.randrange(200, 235)])
            out.append(f"SELECT take({k});")
        else:
            out.append(f"SELECT first_free({rng.randrange(200, 225)});")
    return out


def gen_unique_constraints(rng, n):
    def email():
        return "NULL" if rng.random() < 0.15 else f"'e{rng.randrange(0, 8)}@x'"

    def nick():
        return "NULL" if rng.random() < 0.15 else f"'{rng.choice('abcd')}'"
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.35:
            out.append(f"SELECT join_team({rng.randrange(1, 16)}, {email()}, {rng.randrange(1, 4)}, {nick()});")
        elif r < 0.55:
            out.append(f"SELECT rename({rng.randrange(1, 16)}, {nick()});")
        elif r < 0.85:
            out.append(f"SELECT claim({rng.randrange(1, 6)}, {rng.randrange(1, 7)});")
        else:
            out.append(f"SELECT quiet_add({rng.randrange(14, 24)}, {email()});")
    return out


def gen_no_primary_key(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.4:
            out.append(f"SELECT move({rng.randrange(1, 8)}, {rng.randrange(1, 7)}, {rng.randrange(0, 40)});")
        elif r < 0.65:
            out.append(f"SELECT spend({rng.randrange(1, 7)}, {rng.randrange(1, 30)}, {rng.randrange(0, 4)});")
        elif r < 0.75:
            out.append(f"SELECT audit({rng.randrange(0, 120)});")
        elif r < 0.9:
            out.append(f"SELECT claim('{rng.choice('abcdefg')}', {rng.randrange(1, 5)});")
        else:
            out.append(f"SELECT forget({rng.randrange(1, 7)});")
    return out


def gen_alter_layout(rng, n):
    out = []
    for _ in range(n):
        if rng.random() < 0.8:
            out.append(f"SELECT pay({rng.randrange(1, 14)}, {rng.randrange(-50, 100)});")
        else:
            out.append(f"SELECT visit({rng.randrange(1, 14)});")
    return out


def gen_views(rng, n):
    out = []
    for _ in range(n):
        a, b = rng.randrange(1, 6), rng.randrange(1, 6)
        amount = f"{rng.randrange(-2000, 6000) / 100:.2f}"
        r = rng.random()
        if r < 0.7:
            out.append(f"SELECT move({a}, {b}, {amount});")
        elif r < 0.85:
            out.append("SELECT richest();")
        else:
            out.append("SELECT * FROM city_report();")
    return out


def gen_serial_procedures(rng, n):
    out = []
    names = ['red', 'green', 'blue', 'cyan']
    for _ in range(n):
        r = rng.random()
        if r < 0.45:
            out.append(f"SELECT vote({rng.randrange(100, 106)}, {rng.randrange(0, 5)});")
        elif r < 0.65:
            out.append(f"SELECT tag('{rng.choice(names)}');")
        elif r < 0.85:
            what = rng.choice(['ok', 'ok', 'bad'])
            out.append(f"SELECT note({rng.randrange(1, 12)}, '{what}');")
        elif r < 0.93:
            out.append(f"SELECT walk({rng.choice([1, 2, 3, 5, 8, 12, 13])});")
        else:
            out.append(f"SELECT copy_votes({rng.randrange(1, 4)});")
    return out


def gen_foreign_keys(rng, n):
    out = []
    next_order = 100
    for _ in range(n):
        r = rng.random()
        if r < 0.35:
            out.append(f"SELECT place({next_order}, {rng.randrange(0, 12)}, {rng.randrange(0, 4)});")
            next_order += 1
        elif r < 0.45:
            out.append(f"SELECT drop_customer({rng.randrange(4, 12)});")
        elif r < 0.55:
            cid = rng.randrange(4, 12)
            out.append(f"INSERT INTO customers VALUES ({cid}, 'c{cid}', 'c{cid}@x');")
        elif r < 0.75:
            out.append(f"SELECT note({rng.randrange(0, 12)}, 'n{rng.randrange(100)}');")
        elif r < 0.85:
            out.append(f"DELETE FROM customers WHERE id = {rng.randrange(4, 12)};")
        else:
            out.append(f"SELECT rehire({rng.randrange(1, 6)}, {rng.choice(['NULL', 1, 2, 3, 4, 9])});")
    return out


def gen_routine_calls(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            out.append(f"SELECT pay_fee({rng.randrange(1, 10)}, {rng.randrange(10, 400)});")
        elif r < 0.4:
            out.append(f"SELECT tip_richest({rng.choice([5, 10, 20, -1])});")
        elif r < 0.8:
            amount = rng.choice([10, 50, 200, 700, -3])
            out.append(f"SELECT transfer({rng.randrange(1, 9)}, {rng.randrange(1, 9)}, {amount});")
        elif r < 0.85:
            out.append(f"SELECT strict_pay({rng.randrange(1, 9)}, {rng.choice([5, 15, -2])});")
        elif r < 0.92:
            out.append(f"SELECT open_pair({rng.randrange(9, 16)}, {rng.choice([0, 30, -1])});")
        else:
            out.append(f"UPDATE accounts SET balance = balance + clamp({rng.randrange(-50, 50)}) WHERE id = {rng.randrange(1, 9)};")
    return out


def gen_sql_functions(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.4:
            out.append(f"SELECT sell({rng.randrange(1, 6)}, {rng.randrange(1, 4)});")
        elif r < 0.6:
            out.append(f"SELECT restock({rng.randrange(1, 6)}, {rng.randrange(1, 10)});")
        elif r < 0.8:
            out.append(f"SELECT order_total({rng.randrange(1, 6)}, {rng.randrange(1, 5)});")
        else:
            out.append(f"SELECT cheapest_in_stock(), price_of({rng.randrange(1, 6)});")
    return out


def gen_alter_table(rng, n):
    out = []
    for _ in range(n):
        if rng.random() < 0.5:
            owner = "NULL" if rng.random() < 0.1 else f"'o{rng.randrange(0, 12)}'"
            out.append(f"SELECT open_acct({rng.randrange(5, 25)}, {owner});")
        else:
            out.append(f"SELECT spend({rng.randrange(1, 25)}, {rng.randrange(-300, 400)});")
    return out


def gen_byte_types(rng, n):
    ids = ["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1" + str(i) for i in (1, 2, 3, 4)]
    missing = "ffffffff-9c0b-4ef8-bb6d-6bb9bd380a11"
    tokens = ["b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1" + str(i) for i in range(1, 6)]
    out = []
    opened = 0
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            target = missing if rng.random() < 0.05 else rng.choice(ids)
            # Spelled as clients spell them: upper case, braces, no hyphens.
            spelled = rng.choice([target, target.upper(), "{" + target + "}", target.replace("-", "")])
            amount = f"{rng.randrange(-5000, 5000)}.{rng.randrange(0, 1000):03d}"
            out.append(f"SELECT deposit('{spelled}', {amount});")
        elif r < 0.5:
            key = "".join(f"{rng.randrange(0, 4):02x}" for _ in range(rng.randrange(0, 3)))
            out.append(f"SELECT tag('\\x{key}', 'v{rng.randrange(0, 100)}');")
        elif r < 0.7:
            whole = rng.choice([1, 0, 7, 12345678901234567890])
            scale = rng.randrange(0, 4)
            frac = rng.choice(["", "5", "50", "500", "25"])[:scale] if scale else ""
            num = f"{whole}.{frac}" if frac else str(whole)
            out.append(f"SELECT put_amount({num}, 'p{rng.randrange(0, 10)}');")
        elif r < 0.8:
            out.append(f"SELECT set_token('{rng.choice(ids)}', '{rng.choice(tokens)}');")
        elif r < 0.9:
            opened += 1
            out.append(f"SELECT open_account({opened}, 'o{rng.randrange(0, 5)}');")
        else:
            picked = rng.sample(ids + [missing], rng.randrange(0, 4))
            items = ",".join(f"'{i}'" for i in picked)
            out.append(f"SELECT touch_all(ARRAY[{items}]::uuid[]);")
    return out


def gen_json_types(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.4:
            out.append(f"SELECT bump({rng.randrange(1, 7)}, {rng.randrange(-3, 10)});")
        elif r < 0.7:
            tag = rng.choice(["red", "blue", 'qu"ote', "back\\slash", "t\u00e9"])
            out.append(f"SELECT tag_doc({rng.randrange(1, 7)}, '{tag}');")
        else:
            amount = rng.choice(["NULL", "0", f"{rng.randrange(-999, 999)}.{rng.randrange(0, 100):02d}"])
            ok = rng.choice(["true", "false", "NULL"])
            out.append(f"SELECT log_event({rng.randrange(1, 12)}, 'k{rng.randrange(0, 5)}', {amount}, {ok});")
    return out


def gen_array_columns(rng, n):
    out = []
    tags = ["a", "b", "x", "new", "q\"q", "sp ace", "NULL"]
    for _ in range(n):
        r = rng.random()
        post = rng.randrange(1, 9)
        if r < 0.35:
            out.append(f"SELECT tag_post({post}, '{rng.choice(tags)}');")
        elif r < 0.55:
            out.append(f"SELECT untag_post({post}, '{rng.choice(tags)}');")
        elif r < 0.8:
            out.append(f"SELECT score_post({post}, {rng.randrange(-5, 40)});")
        else:
            picked = ", ".join(f"'{rng.choice(tags)}'" for _ in range(rng.randrange(0, 3)))
            out.append(f"SELECT new_post({post}, ARRAY[{picked}]::text[]);")
    return out


def gen_enum_types(rng, n):
    out = []
    prios = ["low", "medium", "high", "urgent"]
    states = ["open", "working", "blocked", "closed"]
    for _ in range(n):
        r = rng.random()
        ticket = rng.randrange(1, 12)
        if r < 0.3:
            out.append(f"SELECT escalate({ticket});")
        elif r < 0.65:
            out.append(f"SELECT move_ticket({rng.randrange(1, 6)}, '{rng.choice(states)}');")
        elif r < 0.9:
            out.append(f"SELECT * FROM open_ticket({ticket}, 't{ticket}', '{rng.choice(prios)}');")
        else:
            out.append("SELECT * FROM state_counts();")
    return out


def gen_generated_columns(rng, n):
    out = []
    names = ["Ann", "Bob", "Cy", None]
    for _ in range(n):
        r = rng.random()
        account = rng.randrange(1, 12)
        if r < 0.35:
            out.append(f"SELECT pay({account}, {rng.randrange(-300, 600)});")
        elif r < 0.55:
            email = rng.choice(["ann", "Ann", "bob", "eve", "EVE", "zed"]) + f"{rng.randrange(0, 3)}@example.com"
            out.append(f"SELECT sign_up({account}, '{email}', 'n{account}');")
        elif r < 0.8:
            out.append(f"SELECT add_line({rng.randrange(1, 5)}, {rng.randrange(1, 4)}, {rng.randrange(1, 5)}, {rng.randrange(1, 2000) / 100});")
        else:
            first, last = rng.choice(names), rng.choice(names)
            q = lambda v: "NULL" if v is None else f"'{v}'"
            out.append(f"SELECT rename({account}, {q(first)}, {q(last)});")
    return out


def gen_domains(rng, n):
    out = []
    skus = ["'A1'", "'B2'", "'C3'", "'D4'", "'N5'"]
    for _ in range(n):
        r = rng.random()
        if r < 0.4:
            out.append(f"SELECT take({rng.choice(skus)}, {rng.randrange(1, 20)});")
        elif r < 0.7:
            out.append(f"SELECT set_discount({rng.randrange(1, 4)}, {rng.randrange(0, 100)}.{rng.randrange(0, 100):02d});")
        else:
            out.append(f"SELECT restock({rng.choice(skus)}, {rng.randrange(1, 30)});")
    return out


def gen_triggers(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.45:
            out.append(f"SELECT transfer({rng.randrange(1, 8)}, {rng.randrange(1, 8)}, {rng.randrange(1, 40)});")
        elif r < 0.75:
            out.append(f"SELECT add_line({rng.randrange(1, 4)}, {rng.choice([5, 10, 20, 2000])});")
        elif r < 0.85:
            out.append(f"SELECT drop_line({rng.randrange(1, 4)});")
        elif r < 0.93:
            out.append(f"SELECT open_or_deposit({rng.randrange(1, 12)}, {rng.randrange(-20, 40)});")
        else:
            out.append(f"SELECT rename_owner({rng.randrange(1, 6)}, 'o{rng.randrange(0, 9)}');")
    return out


def gen_composite_types(rng, n):
    out = []
    for _ in range(n):
        if rng.random() < 0.6:
            out.append(f"SELECT * FROM take({rng.randrange(1, 5)}, {rng.randrange(1, 4)});")
        else:
            out.append(f"SELECT * FROM quote({rng.randrange(1, 4)});")
    return out


def gen_uuid_extensions(rng, n):
    return [f"SELECT add_item('item{rng.randrange(0, 30)}');" for _ in range(n)]


def gen_transaction_blocks(rng, n):
    out = []
    for _ in range(n):
        if rng.random() < 0.15:  # a statement outside any block
            out.append(f"UPDATE account SET balance = balance + 1 WHERE id = {rng.randrange(1, 8)};")
            continue
        out.append("BEGIN;")
        savepoint = False
        for _ in range(rng.randrange(1, 6)):
            k, d = rng.randrange(1, 8), rng.randrange(-40, 60)
            r = rng.random()
            if r < 0.2:
                out.append(f"UPDATE account SET balance = balance + {d} WHERE id = {k} RETURNING balance;")
            elif r < 0.32:
                out.append(f"SELECT id, balance FROM account WHERE id IN ({k}, {k % 6 + 1}) ORDER BY id;")
            elif r < 0.44:
                out.append(f"INSERT INTO ledger (account, amount) VALUES ({k}, {d}) RETURNING id, amount;")
            elif r < 0.54:
                out.append(f"CALL deposit({k}, {d});")
            elif r < 0.62:
                out.append(f"SELECT balance_of({k});")
            elif r < 0.68:
                out.append(f"INSERT INTO account VALUES ({k}, 0);")  # a duplicate for 1-6
            elif r < 0.74:
                out.append(f"INSERT INTO audit VALUES ({k}, 'seen {d}');")
            elif r < 0.8:
                out.append("SELECT count(*), sum(balance) FROM account;")
            elif r < 0.88:
                out.append("SAVEPOINT s;")
                savepoint = True
            elif r < 0.95:
                out.append("ROLLBACK TO SAVEPOINT s;" if savepoint or rng.random() < 0.2 else "RELEASE SAVEPOINT s;")
            else:
                out.append(f"DELETE FROM audit WHERE account = {k};")
        out.append("ROLLBACK;" if rng.random() < 0.3 else "COMMIT;")
    return out


GENERATORS = {name[4:]: fn for name, fn in globals().items() if name.startswith("gen_")}

# ---- scripts -----------------------------------------------------------------------------

CALLS_LINE = re.compile(r"^--- calls: (\w+) (\d+)\s*$", re.M)


INCLUDE_LINE = re.compile(r"^--- include: (\S+)\s*$", re.M)
IR_LINE = re.compile(r"^\\ir (\S+)\s*$", re.M)


def inline(path):
    """The text of `path` with its \\ir includes inlined (the scripts run from a work dir)."""
    text = path.read_text()
    return IR_LINE.sub(lambda m: inline(path.parent / m.group(1)), text)


def expand(case_text, seed, pipelined, settings):
    # `--- include: sql/tpcc/demo.sql` (from the repository root) shares a schema and its data.
    case_text = INCLUDE_LINE.sub(lambda m: inline(ROOT / m.group(1)), case_text)

    def repl(m):
        gen, count = m.group(1), int(m.group(2))
        lines = GENERATORS[gen](random.Random(seed), count)
        if pipelined:
            lines = ["\\startpipeline"] + lines + ["\\endpipeline"]
        return "\n".join(lines)
    body = CALLS_LINE.sub(repl, case_text)
    return "".join(f"SET {k} = {v};\n" for k, v in settings) + body


PREFIX = re.compile(r"^(psql|caracal):[^:\n]*:\d+: ", re.M)


def normalize(output):
    return PREFIX.sub("", output)


class PgCluster:
    def __init__(self, work):
        self.work = work
        self.data = work / "pgdata"
        self.runas = []
        if os.getuid() == 0:
            self.runas = ["runuser", "-u", "postgres", "--"]
            shutil.chown(work, "postgres")

    def start(self):
        subprocess.run(self.runas + [str(PGBIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                                     "-E", "UTF8", "--locale=C", "--no-sync"], check=True, capture_output=True)
        subprocess.run(self.runas + [str(PGBIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.work / "server.log"),
                                     "-w", "-o", f"-k {self.work} -c listen_addresses= -c fsync=off", "start"],
                       check=True, capture_output=True)

    def stop(self):
        if (self.data / "postmaster.pid").exists():
            subprocess.run(self.runas + [str(PGBIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
                           capture_output=True)

    def psql(self, db, *args, **kw):
        return subprocess.run(self.runas + [str(PGBIN / "psql"), "-X", "-h", str(self.work), "-U", "postgres",
                                            "-d", db, *args], capture_output=True, text=True, **kw)

    def run_script(self, name, script):
        self.psql("postgres", "-q", "-c", f"DROP DATABASE IF EXISTS {name}", "-c", f"CREATE DATABASE {name}")
        path = self.work / f"{name}.pg.sql"
        path.write_text(script)
        if self.runas:
            shutil.chown(path, "postgres")
        proc = subprocess.run(self.runas + [str(PGBIN / "psql"), "-X", "-h", str(self.work), "-U", "postgres", "-d",
                                            name, "-A", "-t", "-q", "-v", "VERBOSITY=default", "-f", str(path)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return normalize(proc.stdout)


def run_caracal(caracal, work, name, script):
    path = work / f"{name}.sql"
    path.write_text(script)
    proc = subprocess.run([str(caracal), "-X", "-A", "-t", "-q", "-v", "VERBOSITY=default", "-f", str(path)],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    return normalize(proc.stdout)


def write_script(work, name, script):
    path = work / f"{name}.sql"
    path.write_text(script)
    return path


def merged_psql(caracal, work, name, path):
    sys.path.insert(0, str(ROOT / "tests" / "server"))
    from caracal_server import CaracalServer
    with CaracalServer(caracal) as srv:
        env = dict(os.environ, PGHOST=srv.host, PGPORT=str(srv.port), PGUSER="tester", PGDATABASE="caracal")
        env.pop("PGPASSWORD", None)
        proc = subprocess.run(["psql", "-X", "-A", "-t", "-q", "-v", "VERBOSITY=default", "-f", str(path)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, timeout=300)
    return proc.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--caracal", default=str(ROOT / "build" / "caracal"))
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--epochs", default="1,7,500")
    ap.add_argument("--jit", default="on,off", help="caracal.jit values: compiled and interpreted procedures")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--pg-only", action="store_true", help="print PostgreSQL's output of each case and stop")
    ap.add_argument("--server", action="store_true", help="run through psql against caracal --listen")
    ap.add_argument("cases", nargs="*")
    args = ap.parse_args()

    if not (PGBIN / "psql").exists():
        print(f"run.py: PostgreSQL 15 not found in {PGBIN} (apt-get install postgresql)", file=sys.stderr)
        return 2
    cases = args.cases or sorted(p.stem for p in (HERE / "cases").glob("*.sql"))
    work = pathlib.Path(tempfile.mkdtemp(prefix="caracal-diff."))
    os.chmod(work, 0o755)
    cluster = PgCluster(work)
    failures = 0
    try:
        cluster.start()
        for case in cases:
            text = (HERE / "cases" / f"{case}.sql").read_text()
            expected = cluster.run_script(case, expand(text, args.seed, False, []))
            (work / f"{case}.expected").write_text(expected)
            if args.pg_only:
                print(f"== {case}\n{expected}")
                continue
            runs = [(w, e, j) for j in args.jit.split(",")
                    for w in args.workers.split(",") for e in args.epochs.split(",")]
            for workers, epoch, jit in runs:
                settings = [("caracal.workers", workers), ("caracal.epoch_max_txns", epoch), ("caracal.jit", jit)]
                label = f"{case} workers={workers} epoch_max_txns={epoch} jit={jit}"
                name = f"{case}_w{workers}_e{epoch}_jit{jit}"
                if args.server:
                    got = normalize(merged_psql(args.caracal, work, name,
                                                write_script(work, name, expand(text, args.seed, False, settings))))
                else:
                    got = run_caracal(args.caracal, work, name, expand(text, args.seed, True, settings))
                if got == expected:
                    print(f"ok    {label} ({expected.count(chr(10))} lines)")
                    continue
                failures += 1
                print(f"FAIL  {label}")
                diff = difflib.unified_diff(expected.splitlines(), got.splitlines(), "postgresql", "caracal",
                                            lineterm="", n=2)
                for i, line in enumerate(diff):
                    if i >= 40:
                        print("      ...")
                        break
                    print("      " + line)
    finally:
        cluster.stop()
        if args.keep:
            print(f"run.py: kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{len(cases)} case(s), {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
