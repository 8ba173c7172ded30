#include "planner/exec/system_view_scan.h"

#include <map>

#include "planner/analysis/explain_procedure.h"
#include "planner/catalog/system_views.h"
#include "planner/exec/select_exec.h"
#include "planner/plan/access_path.h"

namespace caracal::planner {

namespace {

// The view's rows in primary-key order.
class MemoryRowSource final : public RowSource {
 public:
  explicit MemoryRowSource(const TableInfo& table) : schema_(Catalog::EngineSchema(table)) {}
  void Add(engine::Key key, std::vector<engine::Value> values) { rows_.emplace(std::string(key.view()), MakeRow(schema_, values)); }

  const engine::Schema& schema(engine::TableId) override { return schema_; }
  const engine::RowValue* Read(engine::TableId, const engine::Key& key) override {
    auto it = rows_.find(std::string(key.view()));
    return it == rows_.end() ? nullptr : it->second.get();
  }
  void Scan(engine::TableId, const engine::Key& lo, const engine::Key& hi, const RowVisitor& visit) override {
    for (auto it = rows_.lower_bound(std::string(lo.view())); it != rows_.end(); ++it) {
      if (!hi.empty() && it->first >= hi.view()) break;
      engine::Key k;
      k.AppendBytes(it->first.data(), it->first.size());
      if (!visit(k, *it->second)) break;
    }
  }
  void ScanIndex(engine::TableId, int, const engine::Key&, const engine::Key&, const RowVisitor&) override {}

 private:
  engine::Schema schema_;
  std::map<std::string, engine::RowValuePtr> rows_;
};

}  // namespace

ResultSet ExecuteSystemViewSelect(const SelectPlan& plan, const Catalog& catalog) {
  const TableInfo& view = *plan.table;
  MemoryRowSource source(view);
  if (&view == &DurabilityView()) {
    std::vector<std::pair<std::string, std::string>> status = catalog.DurabilityStatus();
    if (status.empty()) status.emplace_back("data_directory", "");
    for (auto& [name, value] : status) {
      engine::Key key;
      AppendKeyValue(key, Datum::String(name), view.columns[0]);
      source.Add(std::move(key), {engine::Value::String(name), engine::Value::String(value)});
    }
    std::vector<std::vector<Datum>> rows = SelectRows(plan, source, {});
    return RowsToResultSet(plan, rows);
  }
  for (const auto& ir : catalog.Procedures()) {
    const std::string arguments = ir->ArgumentTypes();
    for (const WriteSetRow& r : AnalysisRows(*ir)) {
      if (!r.statement || r.access == "read") continue;
      std::vector<engine::Value> values = {engine::Value::String(ir->name),
                                   engine::Value::String(arguments),
                                   engine::Value::Int(*r.statement),
                                   r.line > 0 ? engine::Value::Int(r.line) : engine::Value::Null(),
                                   engine::Value::String(r.table),
                                   engine::Value::String(r.access),
                                   engine::Value::String(r.key_class),
                                   engine::Value::String(r.key_expr),
                                   engine::Value::Bool(r.apply_row_update),
                                   engine::Value::Int(r.weight),
                                   r.note.empty() ? engine::Value::Null() : engine::Value::String(r.note)};
      engine::Key key;
      AppendKeyValue(key, Datum::String(ir->name), view.columns[0]);
      AppendKeyValue(key, Datum::String(arguments), view.columns[1]);
      AppendKeyValue(key, Datum::Int(*r.statement), view.columns[2]);
      source.Add(std::move(key), std::move(values));
    }
  }
  std::vector<std::vector<Datum>> rows = SelectRows(plan, source, {});
  return RowsToResultSet(plan, rows);
}

}  // namespace caracal::planner
