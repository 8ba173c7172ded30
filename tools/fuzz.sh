#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (./build-fuzz) and runs each for a bounded time
# from the seed corpus: the SQL of tests/planner/corpus, tests/planner/golden and sql/.
# A crash, a sanitizer report or a non-SQL exception fails the run; its input is kept in
# build-fuzz/crashes/.
#   FUZZ_SECONDS (default 60): time per target.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCARACAL_FUZZ=ON >/dev/null
cmake --build build-fuzz -j2 --target plpgsql_fuzz
seeds=build-fuzz/seeds
rm -rf "$seeds" && mkdir -p "$seeds" build-fuzz/crashes build-fuzz/corpus
# One seed per statement file, so the fuzzer starts from whole, valid scripts.
for f in tests/planner/corpus/*.sql tests/planner/golden/*.sql sql/*/*.sql tests/differential/cases/*.sql; do
  cp "$f" "$seeds/$(echo "$f" | tr '/' '_')"
done
echo "== plpgsql_fuzz for ${seconds}s"
log=build-fuzz/fuzz.log
status=0
LSAN_OPTIONS=suppressions=tests/fuzz/lsan.supp build-fuzz/tests/fuzz/plpgsql_fuzz build-fuzz/corpus "$seeds" -max_total_time="$seconds" -max_len=8192 \
  -timeout=10 -rss_limit_mb=4096 -artifact_prefix=build-fuzz/crashes/ -print_final_stats=1 >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  # The report's first lines name the cause (an assertion, a sanitizer finding); the tail
  # alone is libFuzzer's stack and statistics.
  echo "plpgsql_fuzz failed (exit $status); its report, from $log:"
  grep -v -e '^Suppressions used' -e '^ *count *bytes template' -e ' pg_query_raw_parse$' -e '^-----' -e '^$' "$log" |
    grep -m1 -A60 -E 'ERROR|Assertion|runtime error|terminate|deadly|Timeout|out-of-memory' || tail -60 "$log"
  exit "$status"
fi
grep "^stat::" "$log" || tail -6 "$log"
