// JIT'd code under AddressSanitizer (the asan preset runs tests labelled `sanitize`):
// compiled expressions that touch every kind of memory generated code touches - frame
// Datums, row blobs, scratch temps, constants, strings grown by runtime calls - and errors.
#include <gtest/gtest.h>

#include "codegen/jit/expr_codegen.h"
#include "codegen/runtime/frame.h"
#include "codegen/jit/jit.h"
#include "frontend/session/session.h"
#include "engine/types/row_value.h"
#include "planner/types/sql_error.h"
#include "tests/codegen/bind_helper.h"

namespace caracal::codegen::testing {
namespace {

using planner::Datum;
using planner::SqlType;
using planner::TypeId;

TEST(CodegenSanitize, FrameRowAndErrors) {
  Jit jit(OptLevel::kO2);
  engine::Schema schema("t", {{"a", engine::ColumnType::kInteger}, {"s", engine::ColumnType::kText}, {"n", engine::ColumnType::kNumeric, 8, 2}}, {0});
  std::vector<engine::Value> values = {engine::Value::Int(7), engine::Value::String(std::string(100, 'x')), engine::Value::Numeric(1234, 2)};
  engine::RowValuePtr row = MakeRow(schema, values);
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

// Whole compiled procedures on two workers: the JIT'd body and init program, the
// compiled statement expressions, ApplyRowUpdate callbacks, a dependent key read through
// a secondary index, string growth and aborts, all pipelined so calls share epochs.
TEST(CodegenSanitize, CompiledProceduresOnTheEngine) {
  frontend::SessionOptions options;
  options.engine.workers = 2;
  options.engine.epoch_interval_ms = 1;
  frontend::Session session(options);
  auto run = [&](const std::string& sql) {
    std::vector<frontend::StatementResult> results = session.Execute(sql);
    for (const auto& r : results) EXPECT_FALSE(r.error) << sql << ": " << r.error->message;
    return results.empty() || !results.back().rows || results.back().rows->rows.empty()
               ? std::string()
               : results.back().rows->rows[0][0].value_or("");
  };
  run("CREATE TABLE acct (id int PRIMARY KEY, owner text NOT NULL, balance numeric(12,2), note text)");
  run("CREATE INDEX acct_owner ON acct (owner)");
  run("INSERT INTO acct VALUES (1, 'a', 0, '')");
  run(R"(CREATE FUNCTION open_acct(p_id int, p_owner text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO acct VALUES (p_id, p_owner, 100.50, repeat(p_owner, 3));
END $$)");
  run(R"(CREATE FUNCTION pay(p_owner text, p_ids int[], p_amount numeric) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE v_id int; v_total numeric := 0; v_bal numeric;
BEGIN
  SELECT id INTO v_id FROM acct WHERE owner = p_owner;
  IF NOT FOUND THEN RAISE EXCEPTION 'no account for %', p_owner; END IF;
  UPDATE acct SET balance = balance + p_amount, note = note || '+' WHERE id = v_id;
  FOREACH v_id IN ARRAY p_ids LOOP
    UPDATE acct SET balance = balance - 1 WHERE id = v_id;
    SELECT balance INTO v_bal FROM acct WHERE id = v_id;
    v_total := v_total + coalesce(v_bal, 0);
  END LOOP;
  RETURN v_total;
END $$)");
  std::string calls;
  for (int i = 2; i < 60; ++i) calls += "SELECT open_acct(" + std::to_string(i) + ", 'o" + std::to_string(i) + "');";
  for (int i = 0; i < 200; ++i)
    calls += "SELECT pay('o" + std::to_string(2 + i % 70) + "', ARRAY[" + std::to_string(2 + i % 5) + "," +
             std::to_string(3 + i % 7) + "], " + std::to_string(i) + ".25);";
  std::vector<frontend::PendingResult> pending = session.Submit(calls);
  int errors = 0, expected_errors = 0;
  for (auto& p : pending) errors += p.Get().error.has_value();
  for (int i = 0; i < 200; ++i) expected_errors += 2 + i % 70 >= 60;  // owners o60..o71 do not exist
  EXPECT_EQ(errors, expected_errors);
  EXPECT_EQ(run("SELECT count(*) FROM acct WHERE note LIKE '%+'"), "58");
}

// Arrays built in a body: element assignment growing an array in place past its first
// allocation, an alias taken before an assignment (which must copy), || and a FOREACH
// over the array it assigns to, on two workers.
TEST(CodegenSanitize, ArraysBuiltInTheBody) {
  frontend::SessionOptions options;
  options.engine.workers = 2;
  options.engine.epoch_interval_ms = 1;
  frontend::Session session(options);
  for (const auto& r : session.Execute(R"(CREATE FUNCTION build(n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE v text[]; alias text[]; w int[] := '{}'; x text;
BEGIN
  FOR i IN 1..n LOOP
    v[i] := repeat('s', i);
    IF i = n / 2 THEN alias := v; END IF;
    w := w || i;
  END LOOP;
  v[1] := 'first';
  FOREACH x IN ARRAY v LOOP
    v[cardinality(v) + 1] := x;
  END LOOP;
  RETURN cardinality(v) || ' ' || v[1] || ' ' || coalesce(alias[1], '-') || ' ' || length(v[n]) || ' ' ||
         cardinality(w) || ' ' || v[2 * n];
END $$)"))
    ASSERT_FALSE(r.error) << r.error->message;
  std::string calls;
  for (int i = 0; i < 120; ++i) calls += "SELECT build(" + std::to_string(1 + i % 40) + ");";
  std::vector<frontend::PendingResult> pending = session.Submit(calls);
  for (int i = 0; i < 120; ++i) {
    const int n = 1 + i % 40;
    // As PostgreSQL 15 gives (n = 1: "2 first - 5 1 first", n = 3: "6 first s 3 3 sss").
    const std::string last = n == 1 ? "first" : std::string(static_cast<size_t>(n), 's');
    const std::string expected = std::to_string(2 * n) + " first " + (n >= 2 ? "s" : "-") + " " +
                                 std::to_string(last.size()) + " " + std::to_string(n) + " " + last;
    frontend::StatementResult r = pending[static_cast<size_t>(i)].Get();
    ASSERT_FALSE(r.error) << r.error->message;
    ASSERT_TRUE(r.rows && r.rows->rows.size() == 1);
    EXPECT_EQ(r.rows->rows[0][0].value_or(""), expected) << "n = " << n;
  }
}

// A FOR over a query with a record, decided IFs and GET DIAGNOSTICS on two workers: the
// collected arrays, the record's fields and ROW_COUNT, against a serial simulation.
TEST(CodegenSanitize, ForOverAQueryAndRowCount) {
  frontend::SessionOptions options;
  options.engine.workers = 2;
  options.engine.epoch_interval_ms = 1;
  frontend::Session session(options);
  auto run = [&](const std::string& sql) {
    std::vector<frontend::StatementResult> results = session.Execute(sql);
    for (const auto& r : results) EXPECT_FALSE(r.error) << sql << ": " << r.error->message;
    return results.empty() || !results.back().rows || results.back().rows->rows.empty()
               ? std::string()
               : results.back().rows->rows[0][0].value_or("");
  };
  run("CREATE TABLE stock (id int PRIMARY KEY, qty int NOT NULL, note text NOT NULL)");
  std::vector<int> qty(31), note(31, 1);
  for (int id = 1; id <= 30; ++id) {
    qty[id] = id % 7;
    run("INSERT INTO stock VALUES (" + std::to_string(id) + ", " + std::to_string(qty[id]) + ", 'n')");
  }
  run(R"(CREATE FUNCTION restock(p_lo int, p_add int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE r record; n bigint;
BEGIN
  FOR r IN SELECT id, qty, note FROM stock WHERE id >= p_lo AND id < p_lo + 5 ORDER BY id LOOP
    IF r.qty < 3 THEN
      UPDATE stock SET qty = r.qty + p_add, note = r.note || repeat('r', p_add) WHERE id = r.id;
    END IF;
  END LOOP;
  UPDATE stock SET note = note || '.' WHERE id >= p_lo AND id < p_lo + 5;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END $$)");
  std::string calls;
  for (int i = 0; i < 100; ++i) {
    const int lo = 1 + (i * 7) % 26, add = 1 + i % 3;
    calls += "SELECT restock(" + std::to_string(lo) + ", " + std::to_string(add) + ");";
    for (int id = lo; id < lo + 5; ++id) {
      if (qty[id] < 3) {
        qty[id] += add;
        note[id] += add;
      }
      note[id] += 1;
    }
  }
  std::vector<frontend::PendingResult> pending = session.Submit(calls);
  for (auto& p : pending) {
    frontend::StatementResult r = p.Get();
    ASSERT_FALSE(r.error) << r.error->message;
    ASSERT_TRUE(r.rows && r.rows->rows.size() == 1);
    EXPECT_EQ(r.rows->rows[0][0].value_or(""), "5");
  }
  int qty_sum = 0, note_sum = 0;
  for (int id = 1; id <= 30; ++id) qty_sum += qty[id], note_sum += note[id];
  EXPECT_EQ(run("SELECT sum(qty) FROM stock"), std::to_string(qty_sum));
  EXPECT_EQ(run("SELECT sum(length(note)) FROM stock"), std::to_string(note_sum));
}

// Dropped and replaced procedures never remove their entries: the scratch stays bounded,
// and a run that borrowed buffers keeps them when the scratch drops every entry under it.
TEST(CodegenSanitize, TheScratchStaysBoundedAndLentBuffersOutliveItsEntries) {
  engine::WorkerScratch scratch;
  std::vector<int> owners(3 * engine::WorkerScratch::kMaxOwners);
  int held_owner = 0;
  BorrowedBuffers run(scratch, &held_owner);
  run.temps().resize(4);
  const planner::Datum* temps = run.temps().data();
  for (int& o : owners) {
    BorrowedBuffers other(scratch, &o);
    other.temps().resize(1);
    ASSERT_LE(scratch.owners(), engine::WorkerScratch::kMaxOwners);
  }
  // Cleared at least twice under `run`: its buffers are still its own and intact.
  EXPECT_EQ(run.temps().data(), temps);
  EXPECT_EQ(run.temps().size(), 4u);
  run.temps()[3] = planner::Datum::Int(7);  // ASan: no use after free
  EXPECT_EQ(run.temps()[3].i, 7);
}

}  // namespace
}  // namespace caracal::codegen::testing
