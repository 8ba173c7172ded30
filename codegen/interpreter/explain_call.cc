#include "codegen/interpreter/explain_call.h"

#include <fmt/format.h>

#include <set>
#include <shared_mutex>

#include "codegen/interpreter/procedure_interpreter.h"
#include "codegen/runtime/frame.h"
#include "codegen/interpreter/interpreted_procedure.h"
#include "engine/storage/committed_reads.h"
#include "engine/storage/sequences.h"
#include "engine/storage/table.h"
#include "planner/types/datum.h"

namespace caracal::codegen {

namespace {

using planner::ResultSet;
using planner::SqlType;
using planner::TypeId;

// A DeclareContext that declares nothing: it records each declaration as an EXPLAIN CALL
// row and answers reconnaissance from the committed state.
class RecordingDeclareContext final : public engine::DeclareContext {
 public:
  RecordingDeclareContext(const planner::Catalog& catalog, engine::Database& db, engine::TxnInput input)
      : catalog_(catalog), db_(db), input_(std::move(input)),
        committed_(db, engine::MakeSerialId(db.committed_epoch() + 1, 0)) {}

  void set_statement(const planner::Stmt& s) { statement_ = &s; }
  ResultSet TakeRows() { return std::move(rows_); }

  const engine::TxnInput& input() const override { return input_; }
  engine::Table& table(engine::TableId id) override { return db_.table(id); }
  // As if the call were the next epoch's first.
  uint64_t serial_id() const override { return engine::MakeSerialId(db_.committed_epoch() + 1, 1); }

  void DeclareWrite(engine::TableId table, const engine::Key& key, engine::WriteKind kind) override {
    static constexpr const char* kNames[] = {"insert", "upsert", "update", "delete"};
    Add(table, kNames[static_cast<int>(kind)], PrimaryKeyText(table, key), "");
  }
  bool DeclareInsertOnce(engine::TableId table, const engine::Key& key) override {
    if (!inserts_.emplace(table, std::string(key.view())).second) return false;
    DeclareWrite(table, key, engine::WriteKind::kInsert);
    return true;
  }
  int DeclareRange(engine::TableId table, const engine::Key& lo, const engine::Key& hi, engine::RangeKind kind) override {
    Add(table, kind == engine::RangeKind::kUpdate ? "range_update" : "range_delete", RangeText(table, lo, hi), "");
    return ranges_++;
  }
  void DeclareRowUpdate(engine::TableId table, const engine::Key& key, int weight) override {
    Add(table, "update", PrimaryKeyText(table, key), fmt::format("ApplyRowUpdate, weight {}", weight));
  }
  void DeclareIndexEntry(engine::TableId table, int index, const engine::Key& index_key, const engine::Key& primary_key) override {
    const planner::IndexInfo* info = IndexOf(table, index);
    std::string key = info ? KeyText(table, info->columns, index_key) : "?";
    Add(table, "index_entry", key, fmt::format("index {} -> row {}", info ? info->name : "?", PrimaryKeyText(table, primary_key)));
  }
  void DeclareIndexUnknown(engine::TableId table, int index, const engine::Key& lo, const engine::Key& hi) override {
    const planner::IndexInfo* info = IndexOf(table, index);
    Add(table, "index_unknown", IsPointSpan(lo, hi) ? PrimaryKeyText(table, lo) : RangeText(table, lo, hi),
        fmt::format("index {}: entries made by the writes; its scans also read these rows this epoch",
                    info ? info->name : "?"));
  }
  void Prefetch(engine::TableId table, const engine::Key& key) override { Add(table, "read_prefetch", PrimaryKeyText(table, key), ""); }

  const engine::RowValue* ReadCommitted(engine::TableId table, const engine::Key& key) override {
    const engine::RowValue* row = committed_.Read(table, key);
    Add(table, "recon_read", PrimaryKeyText(table, key), row ? "found" : "not found");
    return row;
  }
  void ScanCommitted(engine::TableId table, const engine::Key& lo, const engine::Key& hi,
                     const std::function<bool(const engine::Key&, const engine::RowValue&)>& visit) override {
    int seen = 0;
    committed_.Scan(table, lo, hi, [&](const engine::Key& k, const engine::RowValue& v) { return ++seen, visit(k, v); });
    Add(table, "recon_scan", RangeText(table, lo, hi), fmt::format("{} rows read", seen));
  }
  void ScanIndexCommitted(engine::TableId table, int index, const engine::Key& lo, const engine::Key& hi,
                          const std::function<bool(const engine::Key&, const engine::RowValue&)>& visit) override {
    int seen = 0;
    committed_.ScanIndex(table, index, lo, hi, [&](const engine::Key& k, const engine::RowValue& v) { return ++seen, visit(k, v); },
                         "EXPLAIN CALL");
    const planner::IndexInfo* info = IndexOf(table, index);
    std::string range = info ? RangeText(table, info->columns, lo, hi) : "?";
    Add(table, "recon_scan", range, fmt::format("index {}, {} rows read", info ? info->name : "?", seen));
  }
  std::vector<engine::Value>& scratch() override { return scratch_; }
  std::any& attempt_state() override { return attempt_state_; }
  engine::WorkerScratch& worker_scratch() override { return worker_scratch_; }

 private:
  const planner::TableInfo* TableOf(engine::TableId id) const {
    for (const planner::TableInfo* t : catalog_.Tables())
      if (t->id == id) return t;
    return nullptr;
  }
  const planner::IndexInfo* IndexOf(engine::TableId table, int index) const {
    const planner::TableInfo* t = TableOf(table);
    if (t == nullptr || index < 0 || index >= static_cast<int>(t->indexes.size())) return nullptr;
    return catalog_.FindIndex(t->indexes[index]);
  }
  // The values of `columns` encoded in `key`, as a row literal: (1,5,'x').
  std::string KeyText(engine::TableId table, const std::vector<int>& columns, const engine::Key& key) const {
    const planner::TableInfo* t = TableOf(table);
    if (t == nullptr) return "?";
    std::vector<engine::Value> values = DecodeKey(db_.table(table).schema(), columns, key);
    std::string text = "(";
    for (size_t i = 0; i < values.size(); ++i) {
      const SqlType& type = t->columns[columns[i]].type;
      std::string v = values[i].is_null() ? "NULL" : planner::DatumToText(planner::DatumFromValue(values[i], type), type);
      bool quote = type.id == TypeId::kText || type.id == TypeId::kVarchar || type.id == TypeId::kBpchar ||
                   type.id == TypeId::kTimestamp;
      text += (i ? "," : "") + (quote && !values[i].is_null() ? "'" + v + "'" : v);
    }
    return text + ")";
  }
  std::string PrimaryKeyText(engine::TableId table, const engine::Key& key) const {
    const planner::TableInfo* t = TableOf(table);
    if (t == nullptr) return "?";
    if (t->HasRowIdentity()) return RowIdentityText(table, key);
    return KeyText(table, t->primary_key, key);
  }
  // A hidden row identity (planner/catalog/row_identity.h) as PostgreSQL shows a ctid:
  // (transaction, item), the transaction as epoch.position.
  std::string RowIdentityText(engine::TableId table, const engine::Key& key) const {
    const engine::Schema& schema = db_.table(table).schema();
    std::vector<engine::Value> v = DecodeKey(schema, schema.primary_key(), key);
    const uint64_t xact = static_cast<uint64_t>(v[0].as_int());
    const uint64_t item = static_cast<uint64_t>(v[1].as_int());
    return fmt::format("ctid ({}.{}, {}.{})", xact >> 32, xact & 0xffffffffu, item >> 32, item & 0xffffffffu);
  }
  // A primary-key range; the bounds may be key prefixes.
  std::string RangeText(engine::TableId table, const engine::Key& lo, const engine::Key& hi) const {
    const planner::TableInfo* t = TableOf(table);
    if (t != nullptr && t->HasRowIdentity() && lo.empty() && hi.empty()) return "(all rows)";
    return t ? RangeText(table, t->primary_key, lo, hi) : "?";
  }
  // A range of keys over `columns`. The upper bound of an equality on a prefix is the
  // prefix's successor, which is no encoding of values: that range reads "= prefix".
  std::string RangeText(engine::TableId table, const std::vector<int>& columns, const engine::Key& lo, const engine::Key& hi) const {
    if (!lo.empty() && !hi.empty() && hi == lo.PrefixSuccessor()) return "= " + PrefixText(table, columns, lo);
    return fmt::format("[{}, {})", PrefixText(table, columns, lo),
                       hi.empty() ? std::string("end") : PrefixText(table, columns, hi));
  }
  // The longest prefix of `columns` whose encoding `key` is, as a row literal.
  std::string PrefixText(engine::TableId table, const std::vector<int>& columns, const engine::Key& key) const {
    for (size_t n = columns.size(); n > 0; --n) {
      std::vector<int> prefix(columns.begin(), columns.begin() + static_cast<long>(n));
      try {
        if (EncodedLength(table, prefix, key)) return KeyText(table, prefix, key);
      } catch (const std::exception&) {
      }
    }
    return key.empty() ? "start" : "?";
  }
  // Whether `key` is exactly the encoding of `columns`' values (not longer or shorter).
  bool EncodedLength(engine::TableId table, const std::vector<int>& columns, const engine::Key& key) const {
    const engine::Schema& schema = db_.table(table).schema();
    std::vector<engine::Value> values = DecodeKey(schema, columns, key);
    return EncodeKey(schema, columns, values).view() == key.view();
  }

  void Add(engine::TableId table, const char* access, std::string key, std::string note) {
    const planner::TableInfo* t = TableOf(table);
    std::vector<std::optional<std::string>> row;
    row.emplace_back(statement_ ? std::optional(std::to_string(statement_->id)) : std::nullopt);
    row.emplace_back(statement_ ? std::optional(std::to_string(statement_->line)) : std::nullopt);
    row.emplace_back(t ? t->name : std::string("?"));
    row.emplace_back(access);
    row.emplace_back(std::move(key));
    row.emplace_back(std::move(note));
    rows_.rows.push_back(std::move(row));
  }

  const planner::Catalog& catalog_;
  engine::Database& db_;
  engine::TxnInput input_;
  engine::CommittedReads committed_;
  const planner::Stmt* statement_ = nullptr;
  std::vector<engine::Value> scratch_;
  std::any attempt_state_;
  engine::WorkerScratch worker_scratch_;
  std::set<std::pair<engine::TableId, std::string>> inserts_;  // declared by DeclareInsertOnce
  int ranges_ = 0;
  ResultSet rows_;
};

}  // namespace

ResultSet ExplainCall(std::shared_ptr<const planner::ProcedureIr> procedure_ir, const planner::Catalog& catalog,
                      engine::Database& db, std::vector<engine::Value> args) {
  const planner::ProcedureIr& ir = *procedure_ir;
  // Held as a snapshot reader holds it: the engine then neither compacts a table nor
  // rebuilds its indexes under these reads (an epoch of another session may end meanwhile).
  std::shared_lock structure(db.structure_mutex());
  engine::TxnInput input;
  input.args = std::move(args);
  // The sequence step on a copy of the sequences: the values the next call would draw.
  engine::Sequences preview = db.sequences();
  InterpretedProcedure procedure(std::move(procedure_ir), catalog);
  procedure.Sequence(preview, input);

  RecordingDeclareContext recorder(catalog, db, input);
  Frame frame = MakeFrame(ir, recorder.input());
  ProcedureInterpreter runner(ir, catalog, recorder, frame);
  runner.set_declare_observer([&](const planner::Stmt& s) { recorder.set_statement(s); });
  runner.RunInit();

  ResultSet result = recorder.TakeRows();
  const SqlType text = SqlType::Of(TypeId::kText), integer = SqlType::Of(TypeId::kInt4);
  result.columns = {{"statement", integer}, {"line", integer}, {"table_name", text},
                    {"access", text},       {"key", text},     {"note", text}};
  return result;
}

}  // namespace caracal::codegen
