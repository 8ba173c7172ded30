// A benchmark workload: a schema, an initial load and a deterministic stream of
// transactions, all with hand-written native procedures against the engine API.
// Given the same options and seed, every method produces the same result, so a run on
// the epoch engine and a run on the serial reference executor can be compared by
// StateHash.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/procedure/executor.h"
#include "engine/storage/store.h"

namespace caracal::bench {

struct WorkloadOptions {
  uint64_t keys = 1'000'000;  // YCSB rows
  int warehouses = 2;         // TPC-C warehouses
  uint64_t seed = 1;
  // TPC-C transaction mix in percent: NewOrder, Payment, Order-Status, Delivery,
  // Stock-Level (sums to 100). Clause 5.2.3's 45/43/4/4/4 unless a profile asks for one
  // transaction type alone.
  std::vector<int> tpcc_mix = {45, 43, 4, 4, 4};
};

// Reports load progress (rows done so far); no-op when output is not a terminal.
using ProgressFn = std::function<void(uint64_t rows_done, uint64_t rows_total)>;

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  // Creates tables, indexes and sequences, and loads the initial rows.
  virtual void Setup(engine::Store& store, const ProgressFn& progress) = 0;
  // The next transaction of the stream. `rng` is the stream's generator: the same seed
  // gives the same stream. The request's procedure must outlive the run.
  virtual engine::TxnRequest Next(std::mt19937_64& rng) = 0;
  // Every procedure Next() may return (valid after Setup): what replaying a logged run
  // resolves the log's procedure identities against.
  virtual std::vector<const engine::Procedure*> procedures() const = 0;
  // Workload-specific checks and counters for the JSON line (e.g. TPC-C consistency).
  virtual nlohmann::json Report(const engine::Store& store) { return nlohmann::json::object(); }
};

// Creates `schema`'s table, or returns the table of that name that SQL DDL created before
// the load (caracal-bench --procedures sql runs sql/<workload>/schema.sql first). Throws
// std::invalid_argument when the existing table's columns or key differ from `schema`:
// the SQL schema and the native one must stay the same tables.
engine::TableId CreateOrAttachTable(engine::Store& store, engine::Schema schema, std::vector<engine::IndexSchema> indexes = {});
// Creates a sequence unless one of that name exists (made by the SQL schema).
void CreateOrAttachSequence(engine::Store& store, const std::string& name, int64_t start, int64_t increment = 1);

// Factories: nullptr for an unknown name.
std::unique_ptr<Workload> MakeWorkload(const std::string& name, const WorkloadOptions& options);

}  // namespace caracal::bench
