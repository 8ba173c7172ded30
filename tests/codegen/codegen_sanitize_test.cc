// JIT'd code under AddressSanitizer (the asan preset runs tests labelled `sanitize`):
// compiled expressions that touch every kind of memory generated code touches - frame
// Datums, row blobs, scratch temps, constants, strings grown by runtime calls - and errors.
#include <gtest/gtest.h>

#include "codegen/expr_codegen.h"
#include "codegen/jit.h"
#include "engine/row_value.h"
#include "planner/sql_error.h"
#include "tests/codegen/bind_helper.h"

namespace caracal::codegen::testing {
namespace {

using planner::Datum;
using planner::SqlType;
using planner::TypeId;

TEST(CodegenSanitize, FrameRowAndErrors) {
  Jit jit(OptLevel::kO2);
  Schema schema("t", {{"a", ColumnType::kInteger}, {"s", ColumnType::kText}, {"n", ColumnType::kNumeric, 8, 2}}, {0});
  std::vector<Value> values = {Value::Int(7), Value::String(std::string(100, 'x')), Value::Numeric(1234, 2)};
  RowValuePtr row = MakeRow(schema, values);
  TestScope scope({{"v", SqlType::Of(TypeId::kText), {planner::SlotSpace::kVariable, 0}},
                   {"a", SqlType::Of(TypeId::kInt4), {planner::SlotSpace::kColumn, 0}},
                   {"s", SqlType::Of(TypeId::kText), {planner::SlotSpace::kColumn, 1}},
                   {"n", SqlType::Numeric(8, 2), {planner::SlotSpace::kColumn, 2}}});
  std::vector<Datum> frame = {Datum::String(std::string(64, 'y'))};
  planner::EvalContext ctx;
  ctx.variables = frame;
  ctx.row = row.get();
  ctx.schema = &schema;
  auto eval = [&](const std::string& sql) { return CompileExpr(jit, *BindExpr(sql, scope), &schema).Eval(ctx); };
  EXPECT_EQ(eval("v || s || a").s, std::string(64, 'y') + std::string(100, 'x') + "7");
  EXPECT_EQ(eval("length(upper(s || v))").i, 164);
  EXPECT_EQ(eval("n * 2 + a").n.ToString(), "31.68");
  EXPECT_EQ(eval("coalesce(null::text, substr(s, 90))").s, std::string(11, 'x'));
  EXPECT_THROW(eval("a / (a - 7)"), planner::SqlError);
  EXPECT_THROW(eval("(s || 'z')::int"), planner::SqlError);
}

}  // namespace
}  // namespace caracal::codegen::testing
