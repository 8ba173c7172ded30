#!/bin/sh
# Prints the TPC-C sequences as plain SQL (the same statements as sequences.sql):
#   sh sql/tpcc/sequences.sh WAREHOUSES [ORDERS_PER_DISTRICT [CUSTOMERS_PER_DISTRICT]]
set -eu
if [ $# -lt 1 ] || [ $# -gt 3 ]; then
  echo "usage: $0 WAREHOUSES [ORDERS_PER_DISTRICT [CUSTOMERS_PER_DISTRICT]]" >&2
  exit 2
fi
warehouses=$1
orders=${2:-3000}
customers=${3:-3000}
for n in "$warehouses" "$orders" "$customers"; do
  case $n in '' | *[!0-9]*) echo "$0: not a number: '$n'" >&2; exit 2 ;; esac
done
w=1
while [ "$w" -le "$warehouses" ]; do
  d=1
  while [ "$d" -le 10 ]; do
    echo "CREATE SEQUENCE tpcc_o_id_${w}_${d} START $((orders + 1));"
    d=$((d + 1))
  done
  w=$((w + 1))
done
echo "CREATE SEQUENCE tpcc_history_id START $((warehouses * 10 * customers + 1));"
