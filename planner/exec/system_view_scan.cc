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
  void Add(Key key, std::vector<Value> values) { rows_.emplace(std::string(key.view()), MakeRow(schema_, values)); }

  const Schema& schema(TableId) override { return schema_; }
  const RowValue* Read(TableId, const Key& key) override {
    auto it = rows_.find(std::string(key.view()));
    return it == rows_.end() ? nullptr : it->second.get();
  }
  void Scan(TableId, const Key& lo, const Key& hi, const RowVisitor& visit) override {
    for (auto it = rows_.lower_bound(std::string(lo.view())); it != rows_.end(); ++it) {
      if (!hi.empty() && it->first >= hi.view()) break;
      Key k;
      k.AppendBytes(it->first.data(), it->first.size());
      if (!visit(k, *it->second)) break;
    }
  }
  void ScanIndex(TableId, int, const Key&, const Key&, const RowVisitor&) override {}

 private:
  Schema schema_;
  std::map<std::string, RowValuePtr> rows_;
};

}  // namespace

ResultSet ExecuteSystemViewSelect(const SelectPlan& plan, const Catalog& catalog) {
  const TableInfo& view = *plan.table;
  MemoryRowSource source(view);
  if (&view == &DurabilityView()) {
    std::vector<std::pair<std::string, std::string>> status = catalog.DurabilityStatus();
    if (status.empty()) status.emplace_back("data_directory", "");
    for (auto& [name, value] : status) {
      Key key;
      AppendKeyValue(key, Datum::String(name), view.columns[0]);
      source.Add(std::move(key), {Value::String(name), Value::String(value)});
    }
    std::vector<std::vector<Datum>> rows = SelectRows(plan, source, {});
    return RowsToResultSet(plan, rows);
  }
  for (const auto& ir : catalog.Procedures()) {
    const std::string arguments = ir->ArgumentTypes();
    for (const WriteSetRow& r : AnalysisRows(*ir)) {
      if (!r.statement || r.access == "read") continue;
      std::vector<Value> values = {Value::String(ir->name),
                                   Value::String(arguments),
                                   Value::Int(*r.statement),
                                   r.line > 0 ? Value::Int(r.line) : Value::Null(),
                                   Value::String(r.table),
                                   Value::String(r.access),
                                   Value::String(r.key_class),
                                   Value::String(r.key_expr),
                                   Value::Bool(r.apply_row_update),
                                   Value::Int(r.weight),
                                   r.note.empty() ? Value::Null() : Value::String(r.note)};
      Key key;
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
