// Window function calls: f(...) OVER (PARTITION BY ... ORDER BY ... [frame]) or OVER w
// (a WINDOW clause's). Each call becomes a WindowCall of its block and a kWindowRef the
// planner turns into the Window node's appended column.
#include <fmt/format.h>

#include "planner/binder/coerce.h"
#include "planner/binder/query_binder.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

namespace caracal::planner {

namespace {

// PostgreSQL's FRAMEOPTION_* bits (nodes/parsenodes.h).
constexpr int kNonDefault = 0x1, kRange = 0x2, kRows = 0x4, kGroups = 0x8, kStartUnboundedPreceding = 0x20,
              kEndUnboundedFollowing = 0x100, kStartCurrentRow = 0x200, kEndCurrentRow = 0x400,
              kStartOffsetPreceding = 0x800, kEndOffsetPreceding = 0x1000, kStartOffsetFollowing = 0x2000,
              kEndOffsetFollowing = 0x4000, kExclude = 0x8000 | 0x10000 | 0x20000;

int64_t FrameOffset(const PgQuery__Node* n, int location) {
  if (n && n->node_case == PG_QUERY__NODE__NODE_A_CONST && n->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
    if (n->a_const->ival->ival < 0) throw SqlError("22013", "frame starting offset must not be negative", location);
    return n->a_const->ival->ival;
  }
  throw NotSupported("a window frame offset other than an integer constant", location);
}

void BindFrame(const PgQuery__WindowDef* w, WindowSpec& spec, int location) {
  const int o = w->frame_options;
  if (!(o & kNonDefault)) {
    spec.whole_partition = spec.order_by.empty();
    return;
  }
  if (o & (kGroups | kExclude)) throw NotSupported("GROUPS frames and EXCLUDE in window frames", location);
  spec.rows_mode = (o & kRows) != 0;
  if ((o & kRange) && (o & (kStartOffsetPreceding | kStartOffsetFollowing | kEndOffsetPreceding | kEndOffsetFollowing)))
    throw NotSupported("RANGE frames with an offset", location);
  if (o & kStartUnboundedPreceding) spec.start_offset = INT64_MIN;
  else if (o & kStartCurrentRow) spec.start_offset = 0;
  else if (o & kStartOffsetPreceding) spec.start_offset = -FrameOffset(w->start_offset, location);
  else if (o & kStartOffsetFollowing) spec.start_offset = FrameOffset(w->start_offset, location);
  else throw SqlError(sqlstate::kWindowingError, "frame start cannot be UNBOUNDED FOLLOWING", location);
  if (o & kEndUnboundedFollowing) spec.end_offset = INT64_MAX;
  else if (o & kEndCurrentRow) spec.end_offset = 0;
  else if (o & kEndOffsetPreceding) spec.end_offset = -FrameOffset(w->end_offset, location);
  else if (o & kEndOffsetFollowing) spec.end_offset = FrameOffset(w->end_offset, location);
  else spec.end_offset = 0;  // ROWS n PRECEDING alone: up to the current row
  // RANGE over the whole partition, or without ORDER BY (every row a peer).
  if (!spec.rows_mode && spec.start_offset == INT64_MIN && (spec.end_offset == INT64_MAX || spec.order_by.empty()))
    spec.whole_partition = true;
  if (spec.rows_mode && spec.start_offset == INT64_MIN && spec.end_offset == INT64_MAX) spec.whole_partition = true;
}

bool SameSpec(const WindowSpec& a, const WindowSpec& b) {
  auto same = [](const std::vector<ExprPtr>& x, const std::vector<ExprPtr>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (!x[i]->Equals(*y[i])) return false;
    return true;
  };
  if (!same(a.partition_by, b.partition_by) || !same(a.order_by, b.order_by) || a.order.size() != b.order.size()) return false;
  for (size_t i = 0; i < a.order.size(); ++i)
    if (a.order[i].descending != b.order[i].descending || a.order[i].nulls_first != b.order[i].nulls_first) return false;
  return a.rows_mode == b.rows_mode && a.whole_partition == b.whole_partition && a.start_offset == b.start_offset &&
         a.end_offset == b.end_offset;
}

}  // namespace

ExprPtr QueryBlock::BindWindowCall(const PgQuery__FuncCall* f, ExprBinder& binder) {
  const int loc = f->location;
  const std::string name = StringValue(f->funcname[f->n_funcname - 1]);
  const PgQuery__WindowDef* w = f->over;
  const PgQuery__WindowDef* base = nullptr;
  const std::string ref = w->name && *w->name ? w->name : (w->refname && *w->refname ? w->refname : "");
  if (!ref.empty()) {
    for (size_t i = 0; stmt && i < stmt->n_window_clause && !base; ++i)
      if (ref == stmt->window_clause[i]->window_def->name) base = stmt->window_clause[i]->window_def;
    if (!base) throw SqlError(sqlstate::kUndefinedObject, fmt::format("window \"{}\" does not exist", ref), loc);
  }
  binder.AllowWindows(false);
  WindowSpec spec;
  const PgQuery__WindowDef* partition_def = base && base->n_partition_clause > 0 ? base : w;
  for (size_t i = 0; i < partition_def->n_partition_clause; ++i) spec.partition_by.push_back(binder.Bind(partition_def->partition_clause[i]));
  const PgQuery__WindowDef* order_def = base && base->n_order_clause > 0 ? base : w;
  for (size_t i = 0; i < order_def->n_order_clause; ++i) {
    const PgQuery__SortBy* sb = order_def->order_clause[i]->sort_by;
    SortKey key;
    key.descending = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
    key.nulls_first = sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT
                          ? key.descending
                          : sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST;
    key.output = static_cast<int>(spec.order_by.size());
    ExprPtr e = binder.Bind(sb->node);
    if (e->type.is_unknown()) e = Coerce(std::move(e), SqlType::Of(TypeId::kText), CastContext::kImplicit);
    spec.order_by.push_back(std::move(e));
    spec.order.push_back(key);
  }
  BindFrame(base && (w->frame_options & kNonDefault) == 0 ? base : w, spec, loc);

  WindowCall call;
  auto no_args = [&](WindowFunc func, TypeId type) {
    if (f->n_args != 0)
      throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function {} with arguments does not exist", name), loc);
    call.func = func;
    call.type = SqlType::Of(type);
  };
  auto value_arg = [&]() {
    if (f->n_args < 1) throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function {}() does not exist", name), loc);
    ExprPtr v = binder.Bind(f->args[0]);
    if (v->type.is_unknown()) v = Coerce(std::move(v), SqlType::Of(TypeId::kText), CastContext::kImplicit);
    call.type = v->type;
    call.args.push_back(std::move(v));
  };
  auto int_arg = [&](size_t i, TypeId t) {
    call.args.push_back(Coerce(binder.Bind(f->args[i]), SqlType::Of(t), CastContext::kImplicit));
  };
  if (name == "row_number") no_args(WindowFunc::kRowNumber, TypeId::kInt8);
  else if (name == "rank") no_args(WindowFunc::kRank, TypeId::kInt8);
  else if (name == "dense_rank") no_args(WindowFunc::kDenseRank, TypeId::kInt8);
  else if (name == "percent_rank") no_args(WindowFunc::kPercentRank, TypeId::kFloat8);
  else if (name == "cume_dist") no_args(WindowFunc::kCumeDist, TypeId::kFloat8);
  else if (name == "ntile") {
    if (f->n_args != 1) throw SqlError(sqlstate::kUndefinedFunction, "function ntile() does not exist", loc);
    call.func = WindowFunc::kNtile;
    call.type = SqlType::Of(TypeId::kInt4);
    int_arg(0, TypeId::kInt4);
  } else if (name == "lag" || name == "lead") {
    call.func = name == "lag" ? WindowFunc::kLag : WindowFunc::kLead;
    value_arg();
    if (f->n_args > 3) throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function {} does not exist", name), loc);
    if (f->n_args >= 2) int_arg(1, TypeId::kInt4);
    if (f->n_args == 3) {
      ExprPtr d = binder.Bind(f->args[2]);
      // PostgreSQL's lag(anycompatible, integer, anycompatible): the common type of both.
      std::vector<SqlType> both{call.args[0]->type, d->type};
      SqlType t = CommonType(both, name, loc);
      call.args[0] = Coerce(std::move(call.args[0]), t, CastContext::kImplicit);
      call.args.push_back(Coerce(std::move(d), t, CastContext::kImplicit));
      call.type = t;
    }
  } else if (name == "first_value" || name == "last_value" || name == "nth_value") {
    call.func = name == "first_value" ? WindowFunc::kFirstValue : name == "last_value" ? WindowFunc::kLastValue : WindowFunc::kNthValue;
    value_arg();
    if (call.func == WindowFunc::kNthValue) {
      if (f->n_args != 2) throw SqlError(sqlstate::kUndefinedFunction, "function nth_value does not exist", loc);
      int_arg(1, TypeId::kInt4);
    }
  } else if (name == "count" || name == "sum" || name == "avg" || name == "min" || name == "max" || name == "array_agg" ||
             name == "string_agg" || name == "bool_and" || name == "bool_or" || name == "every") {
    if (f->n_agg_order > 0)
      throw SqlError(sqlstate::kFeatureNotSupported, "aggregate ORDER BY is not implemented for window functions", loc);
    // The aggregate as it would be bound without OVER.
    PgQuery__FuncCall plain = *f;
    plain.over = nullptr;
    PgQuery__Node node = PG_QUERY__NODE__INIT;
    node.node_case = PG_QUERY__NODE__NODE_FUNC_CALL;
    node.func_call = &plain;
    binder.AllowAggregates(true);
    ExprPtr agg = binder.BindWindowAggregate(&node);
    if (agg->kind != ExprKind::kAggRef) throw NotSupported(fmt::format("{}() as a window function", name), loc);
    call.func = WindowFunc::kAgg;
    call.type = agg->type;
    call.agg = AggregateSpec::Of(*agg);
    if (agg->distinct) throw SqlError(sqlstate::kFeatureNotSupported, "DISTINCT is not implemented for window functions", loc);
  } else {
    throw NotSupported(fmt::format("{}() as a window function", name), loc);
  }
  binder.AllowWindows(true);

  int index = -1;
  for (size_t i = 0; i < window_specs.size() && index < 0; ++i)
    if (SameSpec(window_specs[i], spec)) index = static_cast<int>(i);
  if (index < 0) {
    index = static_cast<int>(window_specs.size());
    window_specs.push_back(std::move(spec));
  }
  call.window = index;
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kWindowRef;
  e->type = call.type;
  e->location = loc;
  e->window_func = call.func;
  e->subplan = static_cast<int>(window_calls.size());
  window_calls.push_back(std::move(call));
  return e;
}

}  // namespace caracal::planner
