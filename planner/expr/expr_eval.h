// The expression interpreter: evaluates a bound Expr against the values its slots name.
// It is the reference semantics codegen/ must reproduce.
#pragma once

#include <functional>
#include <optional>
#include <span>

#include "engine/types/row_value.h"
#include "engine/types/types.h"
#include "planner/types/datum.h"
#include "planner/expr/expr.h"
#include "planner/expr/random_draws.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

struct EvalContext;

// Compiled code for some expressions (codegen/ registers a procedure's): Eval asks it
// first and interprets only what it does not have. Same values, same errors. Constants
// and lone slots are never asked for.
class ExprAccelerator {
 public:
  virtual ~ExprAccelerator() = default;
  // Evaluates `e` into `out` if it has code for it; false otherwise. Throws SqlError.
  virtual bool Eval(const Expr& e, const EvalContext& ctx, Datum& out) const = 0;
};

// Runs a query's subplans for kSubquery expressions (exec/query_exec implements it).
class SubqueryRunner {
 public:
  virtual ~SubqueryRunner() = default;
  // Hands the rows of subplan `subplan`, run with correlation values `params`, to `row`
  // (false: stop). The span is valid during the call only.
  virtual void Run(int subplan, std::span<const Datum> params,
                   const std::function<bool(std::span<const Datum>)>& row) const = 0;
  // `value = ANY (subplan)` for an uncorrelated subplan, answered from a hash of its rows:
  // TRUE, FALSE or NULL as the row-by-row comparison would give; nullopt: not available
  // (the caller compares row by row).
  virtual std::optional<Datum> AnyEquals(int subplan, const Datum& value, const SqlType& type) const { return std::nullopt; }
};

// Runs the user functions expressions call (kRoutineCall): codegen/'s interpreter runs the
// function's body inside the running transaction, or over the snapshot a query reads.
class RoutineRunner {
 public:
  virtual ~RoutineRunner() = default;
  // The value of `call` (a kRoutineCall; `args` its evaluated arguments) as its type: NULL
  // without running the body when the function is STRICT and an argument is NULL, as
  // PostgreSQL (which evaluates every argument first). Throws what the body raises.
  virtual Datum Call(const Expr& call, std::span<const Datum> args) const = 0;
  // The next random() value of draw site `site` (RandomDraws::Next): the transaction's
  // stream, so that a replay draws the same.
  virtual double Random(int site) const = 0;
};

// The RoutineRunner of a read of the snapshot (ad-hoc SELECT): no function body runs,
// random() draws from an unseeded stream (nothing it computes is written).
class SnapshotRoutines final : public RoutineRunner {
 public:
  Datum Call(const Expr& call, std::span<const Datum> args) const override;
  double Random(int site) const override;

 private:
  mutable std::optional<RandomDraws> draws_;
};

// The error of calling user function `call` where no body can run.
SqlError RoutineCallNotSupportedHere(const Expr& call);

// Where slot values come from. Unused spaces stay empty.
struct EvalContext {
  const engine::RowValue* row = nullptr;  // SlotSpace::kColumn
  const engine::Schema* schema = nullptr;
  std::span<const Datum> variables;
  std::span<const Datum> group_keys;
  std::span<const Datum> aggregates;
  const engine::RowValue* excluded = nullptr;  // SlotSpace::kExcluded (same schema as `row`)
  const ExprAccelerator* accelerator = nullptr;  // may be null: interpret everything
  std::span<const Datum> tuple;  // SlotSpace::kTuple
  std::span<const Datum> outer;  // SlotSpace::kOuter
  const SubqueryRunner* subqueries = nullptr;  // kSubquery; null: none in the expression
  const RoutineRunner* routines = nullptr;     // kRoutineCall; null: none can run here
};

Datum Eval(const Expr& e, const EvalContext& ctx);
// A WHERE/HAVING condition: only TRUE passes (NULL and FALSE do not).
bool EvalCondition(const Expr& e, const EvalContext& ctx);

// Binary arithmetic on two non-null datums of the operand family of `type` (the result
// type): integer overflow, division by zero and float overflow raise SqlError.
Datum Arithmetic(Op op, const Datum& a, const Datum& b, const SqlType& type);
// a op b for numerics (+ - * / %; nullopt for another operator). Throws SqlError on
// overflow and division by zero.
std::optional<Numeric> NumericArithmetic(Op op, const Numeric& a, const Numeric& b);
// SQL comparison of two non-null datums of one family (bpchar: trailing blanks ignored).
int CompareForType(const Datum& a, const Datum& b, const SqlType& type);
// A kAnyAll of its evaluated operands: ANY is true when a comparison with an
// element is, ALL false when one is false; otherwise NULL if a comparison was NULL (a
// NULL value or element), else false (ANY) / true (ALL). A NULL array is NULL; an empty
// one gives false (ANY) / true (ALL), whatever the value.
// `op` is the comparison, `type` the value's (the elements compare as that type).
Datum EvalAnyAll(Op op, bool all, const SqlType& type, const Datum& value, const Datum& array);
// LIKE with PostgreSQL's default escape character '\'.
bool LikeMatch(std::string_view text, std::string_view pattern, bool case_insensitive);

}  // namespace caracal::planner
