#!/usr/bin/env bash
# Sets everything up (Debian 12 packages, build) and runs the main job: until the SQL
# shell exists, a YCSB benchmark on the native engine, printing one JSON line.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
exec ./build/caracal-bench ycsb-uniform --keys 1000000 --txns 1000000 --workers 2 "$@"
