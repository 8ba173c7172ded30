#!/usr/bin/env bash
# Installs every build and test dependency from Debian 12 packages, then configures
# and builds the project in ./build. Idempotent: a second run only rebuilds.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake g++ ninja-build pkg-config
  libtbb-dev libjemalloc-dev libgtest-dev
  libpg-query-dev libprotobuf-c-dev
  llvm-19-dev libzstd-dev libedit-dev
  nlohmann-json3-dev libxxhash-dev libcli11-dev libfmt-dev
  libssl-dev  # the wire server's SCRAM-SHA-256 (PBKDF2, HMAC, SHA-256, base64)
  postgresql  # the test oracle and benchmark peer, never a runtime part (psql, pgbench: postgresql-15)
  python3-psycopg2 python3-psycopg  # tests/server: the Python drivers against caracal --listen
  libpostgresql-jdbc-java default-jdk-headless  # tests/server: pgjdbc against caracal --listen
  python3     # tests/differential/run.py, tests/frontend/shell/*.py
  tmux        # tests/frontend/shell/interactive.py drives the shell in a terminal
  clang libclang-rt-14-dev  # tools/fuzz.sh (libFuzzer)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi

build_type="${BUILD_TYPE:-RelWithDebInfo}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$build_type" >/dev/null
cmake --build build -j2
