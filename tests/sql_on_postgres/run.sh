#!/usr/bin/env bash
# Runs sql/tpcc and sql/ycsb, unchanged, on a throwaway PostgreSQL 15 cluster and checks
# the results (see README.md). Installs nothing: it needs the PostgreSQL 15 binaries
# (Debian 12: apt-get install postgresql) in $PGBIN (default /usr/lib/postgresql/15/bin).
# As root, the cluster runs as the `postgres` user (initdb refuses root).
#
#   tests/sql_on_postgres/run.sh             # TPC-C with 1 and 2 warehouses, YCSB
#   TPCC_TXNS=20000 tests/sql_on_postgres/run.sh
#   KEEP=1 ...                               # keep the temp dir (streams, outputs, logs)
#
# Exits 0 when every check passes, non-zero otherwise; always stops and removes the cluster.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
TPCC_TXNS=${TPCC_TXNS:-8000}
TPCC_ITEMS=${TPCC_ITEMS:-1000}
TPCC_CUSTOMERS=${TPCC_CUSTOMERS:-30}   # per district; = orders per district
YCSB_KEYS=${YCSB_KEYS:-1000}
YCSB_TXNS=${YCSB_TXNS:-2000}

for tool in initdb pg_ctl psql; do
  if [ ! -x "$PGBIN/$tool" ]; then
    echo "run.sh: $PGBIN/$tool not found; install PostgreSQL 15 (apt-get install postgresql) or set PGBIN" >&2
    exit 2
  fi
done
if ! "$PGBIN/postgres" --version | grep -q ' 15\.'; then
  echo "run.sh: $PGBIN/postgres is not PostgreSQL 15: $("$PGBIN/postgres" --version)" >&2
  exit 2
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/caracal-sql-pg.XXXXXX")
RUNAS=()
if [ "$(id -u)" = 0 ]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "run.sh: running as root needs a 'postgres' user to own the cluster" >&2
    exit 2
  fi
  RUNAS=(runuser -u postgres --)
fi

PGDATA_DIR="$WORK/data"
cleanup() {
  local rc=$?
  if [ -f "$PGDATA_DIR/postmaster.pid" ]; then
    "${RUNAS[@]}" "$PGBIN/pg_ctl" -D "$PGDATA_DIR" -m immediate stop >/dev/null 2>&1 || true
  fi
  if [ "${KEEP:-0}" = 1 ]; then
    echo "run.sh: kept $WORK"
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The scripts are copied into the work dir, so that the cluster's user can read them.
mkdir -p "$WORK/sql/tpcc" "$WORK/sql/ycsb" "$WORK/tests"
cp "$ROOT"/sql/tpcc/*.sql "$ROOT"/sql/tpcc/sequences.sh "$WORK/sql/tpcc/"
cp "$ROOT"/sql/ycsb/*.sql "$WORK/sql/ycsb/"
cp "$HERE"/*.sql "$WORK/tests/"
if [ ${#RUNAS[@]} -gt 0 ]; then chown -R postgres "$WORK"; fi

as_pg() { "${RUNAS[@]}" "$@"; }

echo "== cluster: $("$PGBIN/postgres" --version) in $WORK"
as_pg "$PGBIN/initdb" -D "$PGDATA_DIR" -A trust -U postgres -E UTF8 --locale=C --no-sync >"$WORK/initdb.log"
as_pg "$PGBIN/pg_ctl" -D "$PGDATA_DIR" -l "$WORK/server.log" -w \
  -o "-k $WORK -c listen_addresses= -c fsync=off -c synchronous_commit=off" start >/dev/null

psql_db() {  # psql_db DB [psql args...]
  local db=$1
  shift
  as_pg "$PGBIN/psql" -X -q -h "$WORK" -U postgres -d "$db" -v ON_ERROR_STOP=1 "$@"
}

run_tpcc() {  # run_tpcc WAREHOUSES [set]  (set: with sql/tpcc/procedures_set_based.sql)
  local w=$1 variant=${2:-} db="tpcc_w$1${2:+_$2}" dir="$WORK/tpcc_w$1${2:+_$2}"
  local vars=(-v warehouses="$w" -v items="$TPCC_ITEMS" -v customers="$TPCC_CUSTOMERS" -v orders="$TPCC_CUSTOMERS")
  as_pg mkdir -p "$dir"
  echo "== tpcc, $w warehouse(s): schema, sequences, procedures, load"
  psql_db postgres -c "CREATE DATABASE $db"
  psql_db "$db" -f "$WORK/sql/tpcc/schema.sql"
  psql_db "$db" -v warehouses="$w" -v orders_per_district="$TPCC_CUSTOMERS" \
    -v customers_per_district="$TPCC_CUSTOMERS" -f "$WORK/sql/tpcc/sequences.sql"
  psql_db "$db" -f "$WORK/sql/tpcc/procedures.sql"
  if [ "$variant" = set ]; then psql_db "$db" -f "$WORK/sql/tpcc/procedures_set_based.sql"; fi
  psql_db "$db" "${vars[@]}" -f "$WORK/tests/tpcc_load.sql"
  psql_db "$db" -f "$WORK/tests/tpcc_gen.sql"
  psql_db "$db" -At -c "SELECT * FROM test_tpcc_generate($w, $TPCC_ITEMS, $TPCC_CUSTOMERS, $TPCC_CUSTOMERS, \
$TPCC_TXNS, 7, 10)" -o "$dir/calls.sql"
  echo "== tpcc, $w warehouse(s): running $TPCC_TXNS generated calls ($(wc -l <"$dir/calls.sql") lines)"
  local t0=$SECONDS
  if ! psql_db "$db" -f "$dir/calls.sql" >"$dir/calls.out" 2>"$dir/calls.err"; then
    echo "run.sh: the tpcc stream stopped on an error:" >&2
    grep -v 'Item number is not valid' "$dir/calls.err" | tail -n 8 >&2
    return 1
  fi
  echo "   done in $((SECONDS - t0)) s; $(grep -c 'ERROR:  Item number is not valid' "$dir/calls.err" || true)" \
       "expected 'Item number is not valid' errors, $(grep -c 'ERROR' "$dir/calls.err" || true) errors in all"
  if grep 'ERROR' "$dir/calls.err" | grep -qv 'ERROR:  Item number is not valid'; then
    echo "run.sh: unexpected errors in the tpcc stream:" >&2
    grep 'ERROR' "$dir/calls.err" | grep -v 'Item number is not valid' | head >&2
    return 1
  fi
  echo "== tpcc, $w warehouse(s): checks"
  psql_db "$db" "${vars[@]}" -At -f "$WORK/tests/tpcc_check.sql"
  psql_db "$db" "${vars[@]}" -At -f "$WORK/tests/tpcc_targeted.sql"
  psql_db "$db" -At -c 'SELECT test_tpcc_state_md5()' >"$dir/state.md5"
  echo "   final state md5: $(cat "$dir/state.md5")"
}

# The set-based NewOrder and Stock-Level give the loop versions' results and final state.
compare_set_based() {  # compare_set_based WAREHOUSES
  local a="$WORK/tpcc_w$1" b="$WORK/tpcc_w$1_set"
  if ! diff -q "$a/calls.out" "$b/calls.out" >/dev/null || ! diff -q "$a/state.md5" "$b/state.md5" >/dev/null; then
    echo "run.sh: the set-based procedures differ from the loop versions:" >&2
    diff "$a/calls.out" "$b/calls.out" | head >&2
    diff "$a/state.md5" "$b/state.md5" >&2
    return 1
  fi
  echo "== tpcc, $1 warehouse(s): the set-based procedures gave the same $(wc -l <"$a/calls.out") result lines and final state"
}

run_sequences_sh() {
  echo "== sql/tpcc/sequences.sh makes the same sequences as sequences.sql"
  psql_db postgres -c "CREATE DATABASE seq_a" -c "CREATE DATABASE seq_b"
  psql_db seq_a -v warehouses=3 -f "$WORK/sql/tpcc/sequences.sql"
  sh "$ROOT/sql/tpcc/sequences.sh" 3 >"$WORK/sequences_3.sql"
  chmod a+r "$WORK/sequences_3.sql"
  psql_db seq_b -f "$WORK/sequences_3.sql"
  local q="SELECT string_agg(format('%s %s %s %s', sequencename, data_type, start_value, increment_by), ', '
             ORDER BY sequencename) FROM pg_sequences"
  local a b
  a=$(psql_db seq_a -At -c "$q")
  b=$(psql_db seq_b -At -c "$q")
  if [ "$a" != "$b" ]; then
    echo "run.sh: sequences.sh and sequences.sql differ:" >&2
    echo "  $a" >&2
    echo "  $b" >&2
    return 1
  fi
  echo "   ok: $(echo "$a" | tr ',' '\n' | wc -l) sequences, e.g.$(echo "$a" | tr ',' '\n' | grep o_id_3_10)," \
       "$(echo "$a" | tr ',' '\n' | grep history)"
}

run_ycsb() {
  local dir="$WORK/ycsb"
  as_pg mkdir -p "$dir"
  echo "== ycsb: schema, procedures, load $YCSB_KEYS keys, $YCSB_TXNS generated calls"
  psql_db postgres -c "CREATE DATABASE ycsb"
  psql_db ycsb -f "$WORK/sql/ycsb/schema.sql"
  psql_db ycsb -f "$WORK/sql/ycsb/procedures.sql"
  psql_db ycsb -v keys="$YCSB_KEYS" -v txns="$YCSB_TXNS" -v stream_file="$dir/calls.sql" \
    -v expected_file="$dir/expected.out" -f "$WORK/tests/ycsb_test.sql"
  local t0=$SECONDS
  if ! psql_db ycsb -At -f "$dir/calls.sql" >"$dir/calls.out"; then
    echo "run.sh: the ycsb stream stopped on an error" >&2
    return 1
  fi
  echo "   done in $((SECONDS - t0)) s"
  if ! diff -q "$dir/expected.out" "$dir/calls.out" >/dev/null; then
    echo "run.sh: ycsb_txn results differ from the expected checksums:" >&2
    diff "$dir/expected.out" "$dir/calls.out" | head >&2
    return 1
  fi
  echo "   ok: all $(wc -l <"$dir/calls.out") results equal the expected checksums"
  psql_db ycsb -At -f "$WORK/tests/ycsb_check.sql"
  echo "== ycsb: the native FillField ported exactly (evidence for the field-function proposal)"
  psql_db ycsb -At -f "$WORK/tests/ycsb_fillfield_exact.sql" | sed -e '/^$/d' -e 's/^/   /'
}

run_tpcc 1
run_tpcc 2
run_tpcc 2 set
compare_set_based 2
run_sequences_sh
run_ycsb
echo "== all PostgreSQL checks passed"
