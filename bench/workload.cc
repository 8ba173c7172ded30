#include "bench/workload.h"

#include <fmt/format.h>

#include <stdexcept>

#include "engine/storage/sequences.h"

#include "bench/tpcc/tpcc.h"
#include "bench/ycsb/ycsb.h"

namespace caracal::bench {

engine::TableId CreateOrAttachTable(engine::Store& store, engine::Schema schema, std::vector<engine::IndexSchema> indexes) {
  std::optional<engine::TableId> existing = store.FindTable(schema.table_name());
  if (!existing) return store.CreateTable(std::move(schema), std::move(indexes));
  const engine::Schema& have = store.schema(*existing);
  bool same = have.num_columns() == schema.num_columns() && have.primary_key() == schema.primary_key();
  for (int c = 0; same && c < schema.num_columns(); ++c) {
    const engine::Column& a = have.column(c);
    const engine::Column& b = schema.column(c);
    same = a.name == b.name && a.type == b.type && a.precision == b.precision && a.scale == b.scale;
  }
  if (!same)
    throw std::invalid_argument(fmt::format("table {} of the SQL schema differs from the native workload's",
                                            schema.table_name()));
  return *existing;
}

void CreateOrAttachSequence(engine::Store& store, const std::string& name, int64_t start, int64_t increment) {
  if (!store.sequences().Exists(name)) store.sequences().Create(name, start, increment);
}

std::unique_ptr<Workload> MakeWorkload(const std::string& name, const WorkloadOptions& options) {
  if (name == "ycsb-uniform") return MakeYcsb(options, YcsbVariant::kUniform);
  if (name == "ycsb-skew") return MakeYcsb(options, YcsbVariant::kSkew);
  if (name == "ycsb-contention") return MakeYcsb(options, YcsbVariant::kContention);
  if (name == "ycsb-contention-skew") return MakeYcsb(options, YcsbVariant::kContentionSkew);
  if (name == "tpcc") return MakeTpcc(options, false);
  if (name == "tpcc-1wh") return MakeTpcc(options, true);
  return nullptr;
}

}  // namespace caracal::bench
