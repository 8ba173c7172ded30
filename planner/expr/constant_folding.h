// Constant folding: an expression node whose arguments are all constants is evaluated
// once, when it is bound, instead of at every call. Every function and operator the
// binder knows is immutable (now() and nextval() are slots, not calls), so folding never
// changes a result; PostgreSQL's planner folds the same expressions.
#pragma once

#include "planner/expr/expr.h"

namespace caracal::planner {

// Folds `e` itself (not its arguments, which the binder has already folded) into a
// constant of the same type when every argument is a constant. An evaluation that
// raises an error (1/0, a bad cast) is left unfolded: the error is the call's, raised at
// run time with its location, as PostgreSQL raises it.
void FoldConstantNode(Expr& e);

}  // namespace caracal::planner
