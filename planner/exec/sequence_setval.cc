#include "planner/exec/sequence_setval.h"

#include <fmt/format.h>

#include <limits>
#include <string>
#include <string_view>

#include "planner/parser/function_call_select.h"
#include "planner/parser/qualified_name.h"
#include "planner/parser/synthetic_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

// The setval call a target is, or null.
const PgQuery__FuncCall* SetvalCall(const PgQuery__Node* target) {
  std::string name;
  const PgQuery__FuncCall* call = PlainCallTarget(target, name);
  return call != nullptr && name == "setval" ? call : nullptr;
}

[[noreturn]] void NotConstant(int position) {
  throw SqlError(sqlstate::kFeatureNotSupported,
                 fmt::format("setval() here takes constants only (argument {})", position))
      .WithHint("Write the sequence name, the value and is_called as literals, as pg_dump does.");
}

// A constant argument, under any casts ('s'::regclass, 42::bigint).
const PgQuery__AConst* Constant(const PgQuery__Node* arg, int position) {
  while (arg != nullptr && arg->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) arg = arg->type_cast->arg;
  if (arg == nullptr || arg->node_case != PG_QUERY__NODE__NODE_A_CONST || arg->a_const->isnull) NotConstant(position);
  return arg->a_const;
}

int64_t IntArgument(const PgQuery__Node* arg) {
  bool negative = false;
  // -5 parses as the unary minus of 5.
  if (arg != nullptr && arg->node_case == PG_QUERY__NODE__NODE_A_EXPR && arg->a_expr->lexpr == nullptr &&
      arg->a_expr->n_name == 1 && arg->a_expr->name[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
      std::string_view(arg->a_expr->name[0]->string->sval) == "-") {
    negative = true;
    arg = arg->a_expr->rexpr;
  }
  const PgQuery__AConst* c = Constant(arg, 2);
  int64_t v = 0;
  try {
    switch (c->val_case) {
      case PG_QUERY__A__CONST__VAL_IVAL: v = c->ival->ival; break;
      case PG_QUERY__A__CONST__VAL_FVAL: v = std::stoll(c->fval->fval); break;  // beyond int32
      case PG_QUERY__A__CONST__VAL_SVAL: v = std::stoll(c->sval->sval); break;
      default: NotConstant(2);
    }
  } catch (const std::logic_error&) {
    throw SqlError(sqlstate::kNumericOutOfRange, "setval(): the value is out of range for type bigint");
  }
  return negative ? -v : v;
}

bool BoolArgument(const PgQuery__Node* arg) {
  const PgQuery__AConst* c = Constant(arg, 3);
  if (c->val_case == PG_QUERY__A__CONST__VAL_BOOLVAL) return c->boolval->boolval;
  if (c->val_case == PG_QUERY__A__CONST__VAL_SVAL) {
    const std::string_view s = c->sval->sval;
    if (s == "t" || s == "true" || s == "on" || s == "1") return true;
    if (s == "f" || s == "false" || s == "off" || s == "0") return false;
  }
  NotConstant(3);
}

}  // namespace

bool IsSetvalSelect(const PgQuery__Node* stmt) {
  if (stmt == nullptr || stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) return false;
  const PgQuery__SelectStmt* s = stmt->select_stmt;
  if (s->n_target_list == 0) return false;
  for (size_t i = 0; i < s->n_target_list; ++i)
    if (SetvalCall(s->target_list[i]) == nullptr) return false;
  return true;
}

std::vector<ResultColumn> SetvalColumns(const PgQuery__SelectStmt* select) {
  std::vector<ResultColumn> columns;
  for (size_t i = 0; i < select->n_target_list; ++i) {
    const char* alias = select->target_list[i]->res_target->name;
    columns.push_back({alias != nullptr && *alias != '\0' ? alias : "setval", SqlType::Of(TypeId::kInt8)});
  }
  return columns;
}

namespace {

struct Change {
  std::string sql_name;
  std::string engine_name;
  int64_t value;
  bool is_called;
  int64_t min, max;
};

const SequenceInfo& SequenceNamed(const std::string& text, const Catalog& catalog, int location) {
  const RelationText relation = RelationNameFromText(text);
  const SequenceInfo* seq = relation.in_pg_catalog ? nullptr : catalog.FindSequence(relation.name);
  if (seq == nullptr)
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", relation.display), location);
  return *seq;
}

bool IsConstantArgument(const PgQuery__Node* arg) {
  while (arg != nullptr && arg->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) arg = arg->type_cast->arg;
  if (arg != nullptr && arg->node_case == PG_QUERY__NODE__NODE_A_EXPR && arg->a_expr->lexpr == nullptr) arg = arg->a_expr->rexpr;
  return arg != nullptr && arg->node_case == PG_QUERY__NODE__NODE_A_CONST && !arg->a_const->isnull;
}

// Sets every change between epochs, all checked before any is set.
void Apply(const std::vector<Change>& changes, engine::Engine& engine) {
  engine.RunExclusive([&] {
    engine::Sequences& sequences = engine.database().sequences();
    const std::vector<engine::SequenceState> states = sequences.States();
    std::vector<engine::SequenceState> updated;
    for (const Change& c : changes)
      for (const engine::SequenceState& s : states) {
        if (s.name != c.engine_name) continue;
        if (c.value < c.min || c.value > c.max)
          throw SqlError(sqlstate::kNumericOutOfRange,
                         fmt::format("setval: value {} is out of bounds for sequence \"{}\" ({}..{})", c.value,
                                     c.sql_name, c.min, c.max));
        engine::SequenceState next = s;
        next.last = c.value;
        // is_called false: next == last. Past int64 too (Restore tells the two apart).
        if (!c.is_called || __builtin_add_overflow(c.value, s.increment, &next.next)) next.next = c.value;
        updated.push_back(std::move(next));
      }
    for (const engine::SequenceState& s : updated) sequences.Restore(s);
  });
}

// setval over a query (Django's sqlsequencereset: `SELECT setval(pg_get_serial_sequence(
// '"t"', 'id'), coalesce(max("id"), 1), max("id") IS NOT null) FROM "t"`): the query of
// its arguments runs on the committed state, and each row sets its sequence, in order.
ResultSet RunSetvalQuery(const PgQuery__SelectStmt* select, const Catalog& catalog, engine::Engine& engine,
                         const QueryRunner& run_query) {
  SyntheticNodes nodes;
  PgQuery__SelectStmt* query = nodes.Copy(*select);
  std::vector<PgQuery__Node*> targets;
  std::vector<size_t> arity;
  std::vector<int> name_locations;  // of a constant sequence name, for its error
  for (size_t i = 0; i < select->n_target_list; ++i) {
    const PgQuery__FuncCall* call = SetvalCall(select->target_list[i]);
    if (call->n_args != 2 && call->n_args != 3)
      throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function setval with {} arguments does not exist", call->n_args))
          .WithHint("setval(regclass, bigint [, boolean])");
    for (size_t a = 0; a < call->n_args; ++a) targets.push_back(nodes.Target(call->args[a]));
    arity.push_back(call->n_args);
    const PgQuery__Node* name = call->args[0];
    while (name != nullptr && name->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) name = name->type_cast->arg;
    name_locations.push_back(name != nullptr && name->node_case == PG_QUERY__NODE__NODE_A_CONST ? name->a_const->location : -1);
  }
  query->target_list = nodes.Array(targets, query->n_target_list);
  const ResultSet args = run_query(query);
  ResultSet out;
  out.columns = SetvalColumns(select);
  std::vector<Change> changes;
  for (const auto& row : args.rows) {
    std::vector<std::optional<std::string>> values;
    size_t at = 0;
    for (size_t c = 0; c < arity.size(); ++c) {
      const size_t n = arity[c];
      const std::optional<std::string>& name = row[at];
      const std::optional<std::string>& value = row[at + 1];
      const std::optional<std::string> called = n == 3 ? row[at + 2] : std::optional<std::string>("t");
      at += n;
      // setval is strict: a NULL argument sets nothing and returns NULL.
      if (!name || !value || !called) {
        values.emplace_back(std::nullopt);
        continue;
      }
      int64_t v = 0;
      try {
        size_t used = 0;
        v = std::stoll(*value, &used);
        if (used != value->size()) throw std::invalid_argument("not an integer");
      } catch (const std::logic_error&) {
        throw SqlError(sqlstate::kInvalidTextRepresentation, fmt::format("invalid input syntax for type bigint: \"{}\"", *value));
      }
      const SequenceInfo& seq = SequenceNamed(*name, catalog, name_locations[c]);
      changes.push_back({seq.name, seq.engine_name, v, *called == "t", seq.min, seq.max});
      values.emplace_back(std::to_string(v));
    }
    out.rows.push_back(std::move(values));
  }
  Apply(changes, engine);
  return out;
}

}  // namespace

ResultSet RunSetval(const PgQuery__SelectStmt* select, const Catalog& catalog, engine::Engine& engine,
                    const QueryRunner& run_query) {
  bool constant = HasOnlyTargets(select);
  for (size_t i = 0; constant && i < select->n_target_list; ++i) {
    const PgQuery__FuncCall* call = SetvalCall(select->target_list[i]);
    for (size_t a = 0; a < call->n_args; ++a) constant = constant && IsConstantArgument(call->args[a]);
  }
  if (!constant) {
    if (!run_query || select->into_clause != nullptr || select->op != PG_QUERY__SET_OPERATION__SETOP_NONE)
      throw SqlError(sqlstate::kFeatureNotSupported, "setval() is supported only alone in a SELECT, as pg_dump writes it");
    return RunSetvalQuery(select, catalog, engine, run_query);
  }
  std::vector<Change> changes;
  for (size_t i = 0; i < select->n_target_list; ++i) {
    const PgQuery__FuncCall* call = SetvalCall(select->target_list[i]);
    if (call->n_args != 2 && call->n_args != 3)
      throw SqlError(sqlstate::kUndefinedFunction,
                     fmt::format("function setval with {} arguments does not exist", call->n_args))
          .WithHint("setval(regclass, bigint [, boolean])");
    const PgQuery__AConst* name = Constant(call->args[0], 1);
    if (name->val_case != PG_QUERY__A__CONST__VAL_SVAL) NotConstant(1);
    const SequenceInfo& seq = SequenceNamed(name->sval->sval, catalog, name->location);
    changes.push_back({seq.name, seq.engine_name, IntArgument(call->args[1]),
                       call->n_args == 3 ? BoolArgument(call->args[2]) : true, seq.min, seq.max});
  }
  Apply(changes, engine);
  ResultSet out;
  out.columns = SetvalColumns(select);
  std::vector<std::optional<std::string>> row;
  for (const Change& c : changes) row.emplace_back(std::to_string(c.value));
  out.rows.push_back(std::move(row));
  return out;
}

}  // namespace caracal::planner
