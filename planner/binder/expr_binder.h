// ExprBinder: a parsed SQL expression (libpg_query node) -> a typed, coerced Expr.
// Name resolution is delegated to a NameScope, so the same binder serves a SELECT over a
// table (columns -> kColumn slots) and, later, PL/pgSQL (variables -> kVariable slots).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planner/binder/coerce.h"
#include "planner/expr/expr.h"
#include "planner/types/sql_error.h"

struct PgQuery__Node;
struct PgQuery__FuncCall;
struct PgQuery__TypeCast;

namespace caracal::planner {

struct RoutineArgs;

struct NameBinding {
  Slot slot;
  SqlType type;
};

// A PL/pgSQL record variable as a whole (a trigger's NEW and OLD, `r t%ROWTYPE`, a
// `record` once a query shaped it): its fields in column order and, when the record
// itself can be NULL (NEW in a DELETE trigger), the bool variable that says it is.
struct RecordBinding {
  std::vector<std::pair<std::string, NameBinding>> fields;
  std::optional<NameBinding> is_null;
};

class NameScope {
 public:
  virtual ~NameScope() = default;
  // Resolves a column reference of 1..n names (`a`, `t.a`). Returns nullopt when no
  // such name exists; throws SqlError for a bad qualifier or an ambiguous name.
  virtual std::optional<NameBinding> Lookup(std::span<const std::string> names, int location) const = 0;
  // Where now() / CURRENT_TIMESTAMP read the epoch's timestamp (a procedure frame slot);
  // nullopt: not available here (ad-hoc statements).
  virtual std::optional<Slot> NowSlot() const { return std::nullopt; }
  // Resolves a positional parameter `$n` (PL/pgSQL); nullopt: no such parameter here.
  virtual std::optional<NameBinding> LookupParameter(int number, int location) const { return std::nullopt; }
  // The record variable `name` as a whole (to_json(NEW), NEW IS DISTINCT FROM OLD);
  // nullopt: no such record here.
  virtual std::optional<RecordBinding> LookupRecord(const std::string& name) const { return std::nullopt; }
  // The subscript of the first element of the array variable in `slot`: 1, but 0 for a
  // trigger's TG_ARGV, as PostgreSQL gives it.
  virtual int LowerBound(const Slot& slot) const { return 1; }
};

class Catalog;
class ExprBinder;

// Binds what only a query binder knows: subqueries used as expressions and window
// function calls (binder/query_binder.cc implements it).
class SubqueryBinder {
 public:
  virtual ~SubqueryBinder() = default;
  struct Bound {
    int subplan = -1;
    std::vector<SqlType> columns;
    std::vector<ExprPtr> params;  // correlation values, over the binder's scope
  };
  virtual Bound BindSubquery(const PgQuery__Node* select, int location) = 0;
  // Casts output column `column` of `subplan` to `type` (ANY / IN with another type).
  virtual void CoerceColumn(int subplan, size_t column, const SqlType& type) = 0;
  // f(...) OVER (...): a kWindowRef.
  virtual ExprPtr BindWindowCall(const PgQuery__FuncCall* f, ExprBinder& binder) = 0;
  // generate_series(...) / unnest(...) in a select list: the column of its values.
  virtual ExprPtr BindSetReturningCall(const PgQuery__FuncCall* f, ExprBinder& binder) = 0;
};

class ExprBinder {
 public:
  // `scope` may be null (SELECT without FROM). `catalog` (may be null) lets an error name
  // a user function called inside an expression (only a whole statement can call one).
  explicit ExprBinder(const NameScope* scope, const Catalog* catalog = nullptr) : scope_(scope), catalog_(catalog) {}

  // Aggregates (kAggRef) are accepted only while allowed; `clause` names where we are
  // for the error otherwise ("aggregate functions are not allowed in WHERE").
  void AllowAggregates(bool allow, std::string clause = {}) {
    allow_aggregates_ = allow;
    clause_ = std::move(clause);
  }

  // Constant subexpressions are folded (constant_folding.h) unless this is turned off,
  // which only tests of the compiled code do, so that constant operands still reach it.
  void FoldConstants(bool fold) { fold_constants_ = fold; }
  // now() where the scope has no transaction timestamp: by default the wall clock when
  // the statement is bound (an ad-hoc SELECT's statement time); deferred, a
  // Func::kNow that each INSERT replaces with its own (a column DEFAULT).
  void DeferNow(bool defer) { defer_now_ = defer; }
  // Where type names resolve (enum types, domains) when the binder has no catalog of its
  // own: DDL binds defaults and constraints without one, so that they call no user
  // function, yet `'x'::mood` must name the enum.
  void ResolveTypesIn(const Catalog* types) { types_ = types; }

  // Where subqueries and window functions are bound; null: they are not supported here.
  void SetSubqueries(SubqueryBinder* subqueries) { subqueries_ = subqueries; }
  // Where PostgreSQL forbids subqueries: "cannot use subquery in <where>" (0A000).
  void ForbidSubqueries(std::string where) { no_subqueries_in_ = std::move(where); }
  // Window function calls are accepted only while allowed (the target list, ORDER BY).
  void AllowWindows(bool allow) { allow_windows_ = allow; }
  // Set-returning functions (generate_series, unnest) are accepted only while allowed (a
  // select list).
  void AllowSetReturning(bool allow) { allow_set_returning_ = allow; }
  bool in_aggregate() const { return in_aggregate_; }
  // An aggregate call used with OVER (`node` without it): its argument may itself hold
  // aggregates (sum(sum(x)) OVER (...) in a grouped query), computed per group first.
  ExprPtr BindWindowAggregate(const PgQuery__Node* node);

  ExprPtr Bind(const PgQuery__Node* node);
  // A condition (WHERE, HAVING, CASE WHEN): must be boolean ("argument of WHERE must be
  // type boolean, not type integer").
  ExprPtr BindCondition(const PgQuery__Node* node, std::string_view clause);
  // A value for a column/variable of `type`, with assignment coercion.
  ExprPtr BindAssignment(const PgQuery__Node* node, const SqlType& type, std::string_view column);
  // An array subscript as int4 (an element's, a slice bound's, UPDATE's SET a[i]);
  // 42804 "array subscript must have type integer" at `location` for another type.
  ExprPtr BindSubscript(const PgQuery__Node* node, int location);

 private:
  // Bind without folding the result (Bind folds it: see constant_folding.h).
  ExprPtr BindNode(const PgQuery__Node* node);
  ExprPtr BindConst(const PgQuery__Node* node);
  ExprPtr BindColumnRef(const PgQuery__Node* node);
  ExprPtr BindAExpr(const PgQuery__Node* node);
  // A call of user function `name` (kRoutineCall); throws 42883 / 42809 / 0A000.
  ExprPtr BindRoutineCall(const std::string& name, RoutineArgs args, int location);
  ExprPtr BindFuncCall(const PgQuery__Node* node);
  // A reference to a whole record variable (`r`, `r.*`, `ROW(r.*)`); nullopt if `n` is
  // none (a column or variable of that name comes first).
  std::optional<RecordBinding> RecordRef(const PgQuery__Node* n) const;
  // to_json / to_jsonb / row_to_json of a record: the object of its fields (NULL when the
  // record is).
  ExprPtr RecordAsJson(const RecordBinding& r, bool jsonb, int location);
  // l IS [NOT] DISTINCT FROM r (`op` "distinct" / "not distinct"), l = r, l <> r over
  // two records, field by field as PostgreSQL compares rows.
  ExprPtr CompareRecords(const RecordBinding& l, const RecordBinding& r, std::string_view op, int location);
  ExprPtr BindAggregateCall(const PgQuery__Node* node, const std::string& name);
  ExprPtr BindAggregate(const PgQuery__Node* node, const std::string& name);
  // An aggregate's argument (or ORDER BY key); `nested_check`: an aggregate inside is an
  // error (false for a window aggregate's argument, which may hold one).
  ExprPtr BindAggregateArgument(const PgQuery__Node* node, bool nested_check);
  // string_agg(value, delimiter) into the kAggRef `e` (its DISTINCT and ORDER BY checked).
  ExprPtr BindStringAgg(const PgQuery__Node* node, ExprPtr e);
  // The ORDER BY of array_agg / string_agg call `f` whose aggregated value is `value`:
  // by the value alone (default NULLS), `e.sort`; else the keys, returned to follow the
  // other arguments, with `e.order` their directions.
  std::vector<ExprPtr> BindAggregateOrder(const PgQuery__FuncCall* f, Expr& e, const Expr& value);
  ExprPtr BindTypeCast(const PgQuery__Node* node);
  ExprPtr BindRegclassCast(const PgQuery__TypeCast* tc);  // null unless the cast is to regclass
  ExprPtr BindCase(const PgQuery__Node* node);
  ExprPtr BindBool(const PgQuery__Node* node);
  ExprPtr BindList(std::vector<ExprPtr> items, ExprKind kind, std::string_view construct, int location);
  ExprPtr BindArray(const PgQuery__Node* node);
  ExprPtr BindIndirection(const PgQuery__Node* node);
  // now() as `type` (timestamptz, or timestamp / date / time: LOCALTIMESTAMP, CURRENT_DATE, LOCALTIME).
  ExprPtr BindNow(int location, TypeId type = TypeId::kTimestampTz);
  ExprPtr BindSubLink(const PgQuery__Node* node);
  // (a, b) op (c, d) for = <> < <= > >=, as PostgreSQL compares rows.
  ExprPtr BindRowComparison(const std::string& name, const PgQuery__Node* left, const PgQuery__Node* right, int location);
  // Functions whose signature is polymorphic or variadic (array_length, format, nextval);
  // nullptr if `name` is not one of them.
  ExprPtr BindUuidFunction(const std::string& name, const PgQuery__FuncCall* f);
  ExprPtr BindSpecialFunction(const std::string& name, const PgQuery__FuncCall* f);

  const NameScope* scope_;
  const Catalog* catalog_;
  bool allow_aggregates_ = false;
  bool in_aggregate_ = false;
  bool fold_constants_ = true;
  bool defer_now_ = false;
  const Catalog* types_ = nullptr;
  std::string no_subqueries_in_;
  bool allow_windows_ = false;
  bool window_aggregate_ = false;
  bool allow_set_returning_ = false;  // BindWindowAggregate's call: its argument is not nested
  SubqueryBinder* subqueries_ = nullptr;
  std::string clause_;
};

// Binary operators, usable by other binders (PL/pgSQL): resolves `name` over the two
// operand types with PostgreSQL's promotion rules and builds the node.
ExprPtr MakeOperator(std::string_view name, ExprPtr left, ExprPtr right, int location);
// `e` as text the way its type's output function prints it (concat(), format(), a
// constraint violation's failing row): the assignment cast to text, except that char(n)
// keeps its padding and booleans print 't' / 'f'.
ExprPtr OutputText(ExprPtr e);
// PostgreSQL's 42883 "function name(types) does not exist", with its HINT.
SqlError NoSuchFunction(std::string_view name, std::span<const ExprPtr> args, int location);
// Coerces a bound expression to boolean for a clause.
ExprPtr RequireBoolean(ExprPtr e, std::string_view clause);

}  // namespace caracal::planner
