#include "planner/exec/select_exec.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "planner/exec/snapshot_source.h"
#include "planner/expr/aggregate.h"
#include "planner/expr/expr_eval.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

// Orders group keys: NULLs group together (GROUP BY treats them as equal).
struct GroupKeyLess {
  const std::vector<ExprPtr>* types;
  bool operator()(const std::vector<Datum>& a, const std::vector<Datum>& b) const {
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].is_null() || b[i].is_null()) {
        if (a[i].is_null() != b[i].is_null()) return a[i].is_null() < b[i].is_null();
        continue;
      }
      int c = CompareForType(a[i], b[i], (*types)[i]->type);
      if (c != 0) return c < 0;
    }
    return false;
  }
};

struct Group {
  std::vector<Accumulator> accumulators;
};

std::optional<int64_t> EvalCount(const ExprPtr& e, const EvalContext& ctx, const char* what, const char* code) {
  if (!e) return std::nullopt;
  Datum v = Eval(*e, ctx);
  if (v.is_null()) return std::nullopt;
  if (v.i < 0) throw SqlError(code, std::string(what) + " must not be negative");
  return v.i;
}

}  // namespace

bool SortFollowsAccessPath(const SelectPlan& plan) {
  if (plan.sort.empty()) return true;
  if (plan.table == nullptr || plan.grouped) return false;
  const AccessPath& path = plan.access;
  if (path.kind == AccessPath::Kind::kPointRead) return true;  // at most one row
  if (path.kind != AccessPath::Kind::kRangeScan && path.kind != AccessPath::Kind::kFullScan) return false;
  // Primary-key paths visit rows in key order, and every key column is NOT NULL. A row
  // that passes the WHERE has the same value as every other in each column the path
  // fixes by equality, so the sort may name those anywhere; the others must follow the
  // key, ascending.
  const std::vector<int>& key = plan.table->primary_key;
  const size_t fixed = path.kind == AccessPath::Kind::kFullScan ? 0 : std::min(path.prefix.size(), key.size());
  size_t next = fixed;
  for (const SortKey& k : plan.sort) {
    const Expr& e = *plan.outputs.at(static_cast<size_t>(k.output));
    if (e.kind != ExprKind::kSlot || e.slot.space != SlotSpace::kColumn) return false;
    const int column = e.slot.index;
    if (std::find(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(fixed), column) !=
        key.begin() + static_cast<std::ptrdiff_t>(fixed))
      continue;
    if (k.descending || next >= key.size() || key[next] != column) return false;
    ++next;
  }
  return true;
}

namespace {

// Runs `plan` and hands each output row (visible and hidden columns) to `emit`, in the
// order, and within the OFFSET and LIMIT, of SelectRows' result; `emit` may move from the
// row and returns false to stop. Rows stream from the scan when they need no sorting or
// grouping; otherwise they are collected, sorted and then handed over.
template <typename Emit>
void RunSelect(const SelectPlan& plan, RowSource& source, std::span<const Datum> variables,
               const ExprAccelerator* accelerator, Emit&& emit) {
  // LIMIT/OFFSET first: their errors come before any row is read, as in PostgreSQL.
  EvalContext vars_only;
  vars_only.variables = variables;
  vars_only.accelerator = accelerator;
  vars_only.routines = source.routines;
  std::optional<int64_t> limit = EvalCount(plan.limit, vars_only, "LIMIT", sqlstate::kInvalidRowCountInLimit);
  int64_t offset = EvalCount(plan.offset, vars_only, "OFFSET", sqlstate::kInvalidRowCountInOffset).value_or(0);

  const bool stream = !plan.grouped && !plan.distinct && SortFollowsAccessPath(plan);
  std::vector<std::vector<Datum>> rows;  // collected (grouped, or to be sorted)
  std::vector<Datum> out;                // streamed: one row at a time
  int64_t skipped = 0, emitted = 0;
  std::map<std::vector<Datum>, Group, GroupKeyLess> groups(GroupKeyLess{&plan.group_by});

  auto new_group = [&]() {
    Group g;
    for (const AggregateSpec& a : plan.aggregates) g.accumulators.push_back(a.NewAccumulator());
    return g;
  };
  // An aggregate query without GROUP BY has exactly one group, even over no input: made
  // up front, outside the map, so that rows do not look it up.
  std::optional<Group> lone_group;
  Group* single_group = nullptr;
  if (plan.grouped && plan.group_by.empty()) single_group = &lone_group.emplace(new_group());
  // Aggregates whose argument is a column of an integer or numeric type read it straight
  // from the row (Accumulator::AddInt / AddNumeric), not through a Datum: the column,
  // else nullptr. Set once the table's schema is known.
  std::vector<const engine::Column*> column_args(plan.aggregates.size(), nullptr);
  // A collected output row: the outputs over `ctx`.
  auto project = [&](const EvalContext& ctx) {
    std::vector<Datum> row;
    row.reserve(plan.outputs.size());
    for (const auto& e : plan.outputs) row.push_back(Eval(*e, ctx));
    rows.push_back(std::move(row));
  };
  // The per-row filter: the whole WHERE, or what an exact key range leaves of it.
  const Expr* filter = plan.where.get();
  // Processes one input row; returns false to stop the scan.
  auto visit = [&](const EvalContext& ctx) -> bool {
    if (filter && !EvalCondition(*filter, ctx)) return true;
    if (plan.grouped) {
      Group* group = single_group;
      if (group == nullptr) {
        std::vector<Datum> key;
        for (const auto& g : plan.group_by) key.push_back(Eval(*g, ctx));
        auto it = groups.find(key);
        if (it == groups.end()) it = groups.emplace(std::move(key), new_group()).first;
        group = &it->second;
      }
      for (size_t i = 0; i < plan.aggregates.size(); ++i) {
        const AggregateSpec& a = plan.aggregates[i];
        Accumulator& acc = group->accumulators[i];
        if (const engine::Column* c = column_args[i]; c != nullptr) {
          if (a.filter && !EvalCondition(*a.filter, ctx)) continue;
          const int col = a.arg->slot.index;
          if (ctx.row->IsNull(col)) acc.Add(Datum::Null());
          else if (c->type == engine::ColumnType::kNumeric) acc.AddNumeric(Numeric(ctx.row->GetInt(col), c->scale));
          else acc.AddInt(ctx.row->GetInt(col));
          continue;
        }
        a.Feed(acc, ctx);
      }
      return true;
    }
    if (!stream) {
      project(ctx);
      return true;
    }
    // OFFSET's rows are computed and dropped, as PostgreSQL's Limit node drops the rows
    // its scan projected (an error in one of them is raised).
    out.resize(plan.outputs.size());
    for (size_t i = 0; i < plan.outputs.size(); ++i) out[i] = Eval(*plan.outputs[i], ctx);
    if (skipped < offset) {
      ++skipped;
      return true;
    }
    ++emitted;
    return emit(out) && (!limit || emitted < *limit);
  };

  if (!plan.table) {
    if (!limit || *limit > 0) visit(vars_only);
  } else if (!limit || *limit > 0 || !stream) {
    EvalContext ctx = vars_only;
    ctx.schema = &source.schema(plan.table->id);
    for (size_t i = 0; i < plan.aggregates.size(); ++i) {
      const Expr* arg = plan.aggregates[i].arg.get();
      if (arg == nullptr || arg->kind != ExprKind::kSlot || arg->slot.space != SlotSpace::kColumn ||
          !plan.aggregates[i].order.empty())
        continue;
      const engine::Column& c = ctx.schema->column(arg->slot.index);
      if ((IsIntegerType(c.type) && arg->type.is_integer()) || (c.type == engine::ColumnType::kNumeric && arg->type.id == TypeId::kNumeric))
        column_args[i] = &c;
    }
    KeyRange range = ResolveAccessPath(plan.access, *plan.table, vars_only);
    if (range.exact && plan.has_residual) filter = plan.residual.get();
    if (!range.empty) {
      if (range.point) {
        if (const engine::RowValue* row = source.Read(plan.table->id, range.lo)) {
          ctx.row = row;
          visit(ctx);
        }
      } else if (plan.access.kind == AccessPath::Kind::kIndexScan) {
        source.ScanIndex(plan.table->id, plan.access.index, range.lo, range.hi, [&](const engine::Key&, const engine::RowValue& row) {
          ctx.row = &row;
          return visit(ctx);
        });
      } else {
        source.Scan(plan.table->id, range.lo, range.hi, [&](const engine::Key&, const engine::RowValue& row) {
          ctx.row = &row;
          return visit(ctx);
        });
      }
    }
  }
  if (stream) return;

  if (plan.grouped) {
    auto finish = [&](std::span<const Datum> key, const Group& group) {
      std::vector<Datum> aggs;
      for (const Accumulator& a : group.accumulators) aggs.push_back(a.Result());
      EvalContext ctx = vars_only;
      ctx.group_keys = key;
      ctx.aggregates = aggs;
      if (plan.having && !EvalCondition(*plan.having, ctx)) return;
      project(ctx);
    };
    if (lone_group) finish({}, *lone_group);
    for (const auto& [key, group] : groups) finish(key, group);
  }

  if (plan.distinct) {
    // The first of equal rows stays, so that the stable sort below orders the survivors
    // as it would have ordered them all.
    std::set<std::vector<Datum>, GroupKeyLess> seen(GroupKeyLess{&plan.outputs});
    std::vector<std::vector<Datum>> kept;
    for (std::vector<Datum>& row : rows)
      if (seen.insert(row).second) kept.push_back(std::move(row));
    rows = std::move(kept);
  }

  if (!plan.sort.empty()) {
    std::stable_sort(rows.begin(), rows.end(), [&](const std::vector<Datum>& a, const std::vector<Datum>& b) {
      for (const SortKey& k : plan.sort) {
        const Datum& x = a[k.output];
        const Datum& y = b[k.output];
        if (x.is_null() || y.is_null()) {
          if (x.is_null() == y.is_null()) continue;
          return x.is_null() == k.nulls_first;
        }
        int c = CompareForType(x, y, plan.outputs[k.output]->type);
        if (c != 0) return k.descending ? c > 0 : c < 0;
      }
      return false;
    });
  }

  int64_t end = static_cast<int64_t>(rows.size());
  if (limit) end = std::min<int64_t>(end, offset + *limit);
  for (int64_t i = offset; i < end; ++i)
    if (!emit(rows[static_cast<size_t>(i)])) return;
}

}  // namespace

std::vector<std::vector<Datum>> SelectRows(const SelectPlan& plan, RowSource& source,
                                           std::span<const Datum> variables, const ExprAccelerator* accelerator) {
  std::vector<std::vector<Datum>> rows;
  RunSelect(plan, source, variables, accelerator, [&](std::vector<Datum>& row) {
    rows.push_back(std::move(row));
    return true;
  });
  return rows;
}

void ForEachSelectedRow(const SelectPlan& plan, RowSource& source, std::span<const Datum> variables,
                        const ExprAccelerator* accelerator, const std::function<bool(std::span<const Datum>)>& visit) {
  RunSelect(plan, source, variables, accelerator, [&](std::vector<Datum>& row) { return visit(row); });
}


ResultSet ExecuteSelect(const SelectPlan& plan, engine::Database& db) {
  SnapshotSource source(db);
  return ExecuteSelect(plan, source);
}

ResultSet ExecuteSelect(const SelectPlan& plan, RowSource& source) { return RowsToResultSet(plan, SelectRows(plan, source, {})); }

ResultSet RowsToResultSet(const SelectPlan& plan, const std::vector<std::vector<Datum>>& rows) {
  ResultSet result;
  for (const OutputColumn& c : plan.columns) result.columns.push_back(ResultColumn{c.name, c.type});
  for (const auto& row : rows) {
    std::vector<std::optional<std::string>> text;
    for (size_t c = 0; c < plan.columns.size(); ++c) {
      const Datum& d = row[c];
      text.push_back(d.is_null() ? std::nullopt : std::optional<std::string>(DatumToText(d, plan.columns[c].type)));
    }
    result.rows.push_back(std::move(text));
  }
  return result;
}

}  // namespace caracal::planner
