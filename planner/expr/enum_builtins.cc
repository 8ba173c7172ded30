#include "planner/expr/enum_builtins.h"

#include <fmt/format.h>

#include <vector>

#include "planner/types/enum_type.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

Datum EvalEnumBuiltin(Func func, const SqlType& result, std::span<const Datum> a) {
  const EnumType* type = result.enum_type;
  if (!type) throw SqlError(sqlstate::kInternalError, "enum function without its enum type");
  switch (func) {
    case Func::kEnumFirst:
    case Func::kEnumLast:
      if (type->size() == 0)
        throw SqlError("55000", fmt::format("enum {} contains no values", type->name()));
      return Datum::Int(func == Func::kEnumFirst ? 0 : type->size() - 1);
    case Func::kEnumRange: {
      // One argument: every label; two: from the first to the second (a NULL bound is
      // open), nothing when the first comes after the second.
      int64_t lower = 0, upper = type->size() - 1;
      if (a.size() == 2) {
        if (!a[0].is_null()) lower = a[0].i;
        if (!a[1].is_null()) upper = a[1].i;
      }
      std::vector<Datum> labels;
      for (int64_t v = lower; v <= upper; ++v) labels.push_back(Datum::Int(v));
      return Datum::Array(std::move(labels));
    }
    default: throw SqlError(sqlstate::kInternalError, "not an enum builtin");
  }
}

}  // namespace caracal::planner
