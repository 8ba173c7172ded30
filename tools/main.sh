#!/usr/bin/env bash
# Sets everything up (Debian 12 packages, build) and runs the main job: the caracal shell
# on a small TPC-C database (schema, sequences, the five procedures, a few rows, sample
# calls: sql/tpcc/demo.sql). At a terminal it stays interactive (\q leaves); otherwise it
# prints the demo and exits. Extra arguments go to caracal (e.g. -c "\dw tpcc_payment").
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
exec env CARACALRC=sql/tpcc/demo.sql ./build/caracal "$@"
