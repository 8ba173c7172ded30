#!/usr/bin/env bash
# Sets everything up and runs the whole test suite: the include-layering check, the
# release build's ctest suite,
# then the tests labelled `sanitize` (concurrency and memory-safety heavy) under
# AddressSanitizer+UBSan and under ThreadSanitizer, then a bounded libFuzzer run over the
# compiler's front half (tools/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's header says when it started, so a slow step shows in the log.
step() { echo "== $* (at ${SECONDS}s)"; }
step "setup and release build (tools/setup.sh)"
tools/setup.sh

step "include layering (tools/check_layering.py)"
python3 tools/check_layering.py

step "ctest (release build)"
ctest --test-dir build -j2 --output-on-failure --timeout 900

for preset in asan tsan; do
  step "build under $preset"
  cmake --preset "$preset" >/dev/null
  targets=(stress_test engine_semantics_test engine_edge_cases_test snapshot_test point_index_test
           row_buffer_pool_test log_test)
  # JIT'd procedures under ASan (the whole front end built with it: ASan only, to keep
  # the suite's time in bounds).
  [ "$preset" = asan ] && targets+=(codegen_sanitize_test)
  cmake --build --preset "$preset" --target "${targets[@]}"
  step "sanitize-labelled tests under $preset"
  ctest --test-dir "build-$preset" -j2 --output-on-failure --timeout 900 -L sanitize
done

step "fuzzing the parse-bind-analyse path (libFuzzer, ${FUZZ_SECONDS:-60}s)"
bash tools/fuzz.sh
step "done"
