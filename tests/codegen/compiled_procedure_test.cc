// CompiledProcedure against the reference interpreter (InterpretedProcedure), both run
// by the engine's serial reference executor on the same calls: results, notices, abort
// SQLSTATEs and messages must be identical. Also MakeProcedure's fallback rule.
#include <gtest/gtest.h>

#include "codegen/procedures/compiled_procedure.h"
#include "codegen/runtime/frame.h"
#include "codegen/jit/init_parameters.h"
#include "codegen/interpreter/interpreted_procedure.h"
#include "engine/storage/database.h"
#include "engine/execution/reference_executor.h"
#include "frontend/session/session.h"
#include "tests/codegen/ir_builder.h"
#include "tests/engine/test_util.h"

namespace caracal::codegen::testing {
namespace {

using planner::ProcedureIr;
using planner::SqlType;
using planner::StmtKind;
using planner::TypeId;
using planner::VariableKind;

const SqlType kInt = SqlType::Of(TypeId::kInt4);

std::string Describe(const engine::TxnResult& r) {
  std::string out = r.status == engine::TxnResult::Status::kCommitted ? "committed" : "aborted " + r.sqlstate + ": " + r.message;
  for (const auto& n : r.notices) out += " | notice " + n;
  for (const auto& row : r.rows) {
    out += " | row";
    for (const engine::Value& v : row) out += " " + (v.is_null() ? std::string("NULL") : v.ToText());
  }
  return out;
}

class CompiledVsInterpreted : public ::testing::Test {
 protected:
  // Runs `calls` through both procedures; returns the compiled run's descriptions.
  std::vector<std::string> Compare(std::shared_ptr<const ProcedureIr> ir, const std::vector<std::vector<engine::Value>>& calls) {
    CompiledProcedure compiled(jit_, ir, catalog_);
    InterpretedProcedure interpreted(ir, catalog_);
    std::vector<std::string> out;
    for (const auto& args : calls) {
      engine::TxnResult a, b;
      {
        engine::ReferenceExecutor ex;
        caracal::engine::testing::SubmitTo(ex, interpreted, args, &a);
        ex.Drain();
      }
      {
        engine::ReferenceExecutor ex;
        caracal::engine::testing::SubmitTo(ex, compiled, args, &b);
        ex.Drain();
      }
      EXPECT_EQ(Describe(a), Describe(b));
      out.push_back(Describe(b));
    }
    return out;
  }

  Jit jit_{OptLevel::kO2};
  engine::Database db_;
  planner::Catalog catalog_{db_};
};

TEST_F(CompiledVsInterpreted, ScalarFunctionWithLoopsAndErrors) {
  IrBuilder b;
  [[maybe_unused]] int n = b.Var("n", kInt, VariableKind::kParameter);
  int s = b.Var("s", SqlType::Of(TypeId::kInt8), VariableKind::kLocal, false, "0");
  int i = b.Var("i", kInt, VariableKind::kLoopVar);
  b.Var("found", SqlType::Of(TypeId::kBool), VariableKind::kFound);
  b.ir().returns = ProcedureIr::Returns::kScalar;
  b.ir().result_columns.push_back({"f", SqlType::Numeric(10, 2)});
  b.ir().body = Blk(b.If("n < 0", Blk(b.Raise(planner::RaiseLevel::kException, "negative: %", {"n"}, "P0042"))),
                    b.Raise(planner::RaiseLevel::kNotice, "n is %", {"n"}),
                    b.For(i, "1", "n", Blk(b.Assign(s, "s + i * i"), b.Exit("s > 1000000"))),
                    b.Return("s / 3.0"));
  std::vector<std::string> r = Compare(b.Take(), {{engine::Value::Int(10)}, {engine::Value::Int(-1)}, {engine::Value::Null()}, {engine::Value::Int(100000)}});
  EXPECT_EQ(r[0], "committed | notice n is 10 | row 128.33");
  EXPECT_EQ(r[1], "aborted P0042: negative: -1");
  EXPECT_EQ(r[2], "aborted 22004: upper bound of FOR loop cannot be null | notice n is <NULL>");
}

TEST_F(CompiledVsInterpreted, MissingReturnAndNotNull) {
  IrBuilder b;
  [[maybe_unused]] int p = b.Var("p", kInt, VariableKind::kParameter);
  int k = b.Var("k", kInt, VariableKind::kLocal, true, "1");
  b.ir().returns = ProcedureIr::Returns::kScalar;
  b.ir().result_columns.push_back({"f", kInt});
  b.ir().body = Blk(b.Assign(k, "nullif(p, 5)"), b.If("p > 10", Blk(b.Return("p"))));
  std::vector<std::string> r = Compare(b.Take(), {{engine::Value::Int(20)}, {engine::Value::Int(1)}, {engine::Value::Int(5)}});
  EXPECT_EQ(r[0], "committed | row 20");
  EXPECT_EQ(r[1], "aborted 2F005: control reached end of function without RETURN");
  EXPECT_EQ(r[2], "aborted 22004: null value cannot be assigned to variable \"k\" declared NOT NULL");
}

TEST_F(CompiledVsInterpreted, ProcedureWithPublishAndStrings) {
  IrBuilder b;
  [[maybe_unused]] int t = b.Var("t", SqlType::Of(TypeId::kText), VariableKind::kParameter);
  int acc = b.Var("acc", SqlType{TypeId::kVarchar, 12, -1}, VariableKind::kLocal, false, "''");
  b.ir().kind = ProcedureIr::Kind::kProcedure;
  b.ir().body = Blk(b.While("length(acc) < 12", Blk(b.Assign(acc, "acc || upper(t)"))), b.New(StmtKind::kPublish),
                    b.Raise(planner::RaiseLevel::kNotice, "acc=%", {"acc"}));
  std::vector<std::string> r = Compare(b.Take(), {{engine::Value::String("ab")}, {engine::Value::String("abcde")}});
  EXPECT_EQ(r[0], "committed | notice acc=ABABABABABAB");
  EXPECT_EQ(r[1], "aborted 22001: value too long for type character varying(12)");
}

// A worker keeps a procedure's frame and temps from one transaction to the next
// (RunBuffers): every run must still start from NULL locals, whatever the last one left.
TEST_F(CompiledVsInterpreted, ReusedFramesStartFromNull) {
  IrBuilder b;
  [[maybe_unused]] int p = b.Var("p", SqlType::Of(TypeId::kBool), VariableKind::kParameter);
  int v = b.Var("v", SqlType::Of(TypeId::kText), VariableKind::kLocal);
  int n = b.Var("n", SqlType::Numeric(8, 2), VariableKind::kLocal);
  b.ir().returns = ProcedureIr::Returns::kScalar;
  b.ir().result_columns.push_back({"f", SqlType::Of(TypeId::kText)});
  b.ir().body = Blk(b.If("p", Blk(b.Assign(v, "repeat('long value ', 4)"), b.Assign(n, "12.5"))),
                    b.Return("coalesce(v, 'v null') || ' ' || coalesce(n::text, 'n null')"));
  CompiledProcedure compiled(jit_, b.Take(), catalog_);
  engine::ReferenceExecutor ex;  // one executor: one worker scratch for every call
  std::vector<engine::TxnResult> results(4);
  for (size_t i = 0; i < results.size(); ++i) caracal::engine::testing::SubmitTo(ex, compiled, {engine::Value::Bool(i % 2 == 0)}, &results[i]);
  ex.Drain();
  for (size_t i = 0; i < results.size(); ++i)
    EXPECT_EQ(Describe(results[i]), i % 2 == 0 ? "committed | row long value long value long value long value  12.50"
                                               : "committed | row v null n null");
}

// Temps are not reset between runs either: the generated code must write each one
// before it reads it. Runs that alternate between paths that fill temps (numeric
// products, casts to text, concatenations) and paths that leave them NULL must give
// what the interpreter gives, on one worker's reused buffers.
TEST_F(CompiledVsInterpreted, ReusedTempsAreWrittenBeforeRead) {
  IrBuilder b;
  [[maybe_unused]] int p = b.Var("p", SqlType::Of(TypeId::kBool), VariableKind::kParameter);
  [[maybe_unused]] int x = b.Var("x", SqlType::Numeric(8, 2), VariableKind::kParameter);
  b.ir().returns = ProcedureIr::Returns::kScalar;
  b.ir().result_columns.push_back({"f", SqlType::Of(TypeId::kText)});
  b.ir().body = Blk(b.Return("coalesce(CASE WHEN p THEN (x * 2.5)::text END, 'none') || '/' || "
                             "coalesce(nullif(x, 0)::text, 'zero') || '/' || coalesce((x + 1)::text, 'null')"));
  std::shared_ptr<const ProcedureIr> ir = b.Take();
  const std::vector<std::vector<engine::Value>> calls = {
      {engine::Value::Bool(true), engine::Value::Int(4)},  {engine::Value::Bool(false), engine::Value::Null()}, {engine::Value::Bool(true), engine::Value::Int(0)},
      {engine::Value::Null(), engine::Value::Int(7)},      {engine::Value::Bool(true), engine::Value::Null()},  {engine::Value::Bool(false), engine::Value::Int(3)}};
  auto run_all = [&](const engine::Procedure& procedure) {
    engine::ReferenceExecutor ex;  // one executor: one worker scratch for every call
    std::vector<engine::TxnResult> results(calls.size());
    for (size_t i = 0; i < calls.size(); ++i) caracal::engine::testing::SubmitTo(ex, procedure, calls[i], &results[i]);
    ex.Drain();
    std::vector<std::string> out;
    for (const engine::TxnResult& r : results) out.push_back(Describe(r));
    return out;
  };
  CompiledProcedure compiled(jit_, ir, catalog_);
  InterpretedProcedure interpreted(ir, catalog_);
  std::vector<std::string> got = run_all(compiled);
  EXPECT_EQ(got, run_all(interpreted));
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0], "committed | row 10.000/4.00/5.00");
  EXPECT_EQ(got[1], "committed | row none/zero/null");
  EXPECT_EQ(got[4], "committed | row none/zero/null");
}

// Declare converts only the parameters its init program can read: TPC-C NewOrder's
// shape, where the quantities change no key and the items and warehouses do, through a
// loop, an index entry and a reconnaissance read.
TEST(InitParametersTest, OnlyWhatTheInitProgramReads) {
  frontend::Session session{frontend::SessionOptions{}};
  auto run = [&](const std::string& sql) {
    for (const auto& r : session.Execute(sql)) EXPECT_FALSE(r.error) << sql << ": " << r.error->message;
  };
  run("CREATE TABLE stock (w int, i int, qty int, PRIMARY KEY (w, i))");
  run("CREATE TABLE line (o int PRIMARY KEY, i int, qty int, note text)");
  run("CREATE INDEX line_i ON line (i)");
  run("CREATE TABLE cust (id int PRIMARY KEY, name text NOT NULL, bal int)");
  run("CREATE INDEX cust_name ON cust (name)");
  run(R"(CREATE FUNCTION f(p_w int, p_items int[], p_qty int[], p_o int, p_note text, p_name text, p_unused int)
      RETURNS void LANGUAGE plpgsql AS $$
    DECLARE v_id int;
    BEGIN
      FOR k IN 1..array_length(p_items, 1) LOOP
        UPDATE stock SET qty = qty - p_qty[k] WHERE w = p_w AND i = p_items[k];
      END LOOP;
      INSERT INTO line VALUES (p_o, p_items[1], p_qty[1], p_note);
      SELECT id INTO v_id FROM cust WHERE name = p_name;
      UPDATE cust SET bal = bal + 1 WHERE id = v_id;
    END $$)");
  auto procs = session.catalog().FindProcedures("f");
  ASSERT_EQ(procs.size(), 1u);
  // p_w, p_items: the stock keys. p_o and p_items: the line key and its index entry;
  // p_qty and p_note are values of that row too, which the walk over-approximates.
  // p_name: the reconnaissance read of the dependent cust key. p_unused: nothing.
  EXPECT_EQ(ParametersReadByInit(*procs[0]).read, (std::vector<bool>{true, true, true, true, true, true, false}));

  // A DECLARE default counts: here it alone reads p_items, for the loop's bound.
  run(R"(CREATE FUNCTION h(p_w int, p_items int[]) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE v_n int := array_length(p_items, 1);
    BEGIN
      FOR k IN 1..v_n LOOP
        INSERT INTO stock VALUES (p_w, k, p_items[k]);
      END LOOP;
    END $$)");
  auto h = session.catalog().FindProcedures("h");
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(ParametersReadByInit(*h[0]).read, (std::vector<bool>{true, true}));

  run(R"(CREATE FUNCTION g(p_w int, p_items int[], p_qty int[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      FOR k IN 1..array_length(p_items, 1) LOOP
        UPDATE stock SET qty = qty - p_qty[k] WHERE w = p_w AND i = p_items[k];
      END LOOP;
    END $$)");
  procs = session.catalog().FindProcedures("g");
  ASSERT_EQ(procs.size(), 1u);
  const InitParameters before = ParametersReadByInit(*procs[0]);
  EXPECT_EQ(before.read, (std::vector<bool>{true, true, false}));
  EXPECT_TRUE(before.Holds());
  // Once stock has an index on a column g sets, declaring g's updates needs the new
  // values: what was worked out for the IR as analysed before no longer holds, and the
  // IR analysed again reads p_qty.
  run("CREATE INDEX stock_qty ON stock (qty)");
  EXPECT_FALSE(before.Holds());
  procs = session.catalog().FindProcedures("g");
  ASSERT_EQ(procs.size(), 1u);
  EXPECT_EQ(ParametersReadByInit(*procs[0]).read, (std::vector<bool>{true, true, true}));
}

// A frame whose Declare left an array parameter unconverted (NULL, elements kept) gets
// it back whole in the next full conversion, rewritten in place.
TEST(InitParametersTest, AnUnconvertedArrayParameterIsConvertedNextTime) {
  IrBuilder b;
  b.Var("p_a", SqlType::ArrayOf(SqlType::Of(TypeId::kInt4)), VariableKind::kParameter);
  b.Var("p_b", SqlType::ArrayOf(SqlType::Of(TypeId::kInt4)), VariableKind::kParameter);
  std::shared_ptr<const ProcedureIr> ir = b.Take();
  auto array = [](std::vector<int64_t> xs) {
    std::vector<engine::Value> v;
    for (int64_t x : xs) v.push_back(engine::Value::Int(x));
    return engine::Value::Array(std::move(v));
  };
  engine::TxnInput first;
  first.args = {array({1, 2}), array({3, 4, 5})};
  Frame frame = MakeFrame(*ir, first);
  const planner::Datum* b_elements = frame.vars[1].array->data();
  engine::TxnInput second;
  second.args = {array({6}), array({7, 8})};
  const std::vector<bool> only_a = {true, false};
  frame = MakeFrame(*ir, second, std::move(frame.vars), &only_a);
  EXPECT_EQ(frame.vars[0].array->size(), 1u);
  EXPECT_TRUE(frame.vars[1].is_null());
  frame = MakeFrame(*ir, second, std::move(frame.vars));
  ASSERT_EQ(frame.vars[1].kind, planner::Datum::Kind::kArray);
  ASSERT_EQ(frame.vars[1].array->size(), 2u);
  EXPECT_EQ((*frame.vars[1].array)[1].i, 8);
  EXPECT_EQ(frame.vars[1].array->data(), b_elements);  // the same elements, rewritten
}

TEST(MakeProcedure, CompilesOrFallsBack) {
  Jit jit(OptLevel::kO1);
  engine::Database db;
  planner::Catalog catalog(db);
  IrBuilder b;
  int x = b.Var("x", kInt);
  b.ir().body = Blk(b.Assign(x, "1"));
  std::string why;
  double ms = -1;
  auto p = MakeProcedure(&jit, b.Take(), catalog, {}, &ms, &why);
  EXPECT_NE(dynamic_cast<CompiledProcedure*>(p.get()), nullptr) << why;
  EXPECT_GT(ms, 0);

  IrBuilder off;
  off.ir().body = Blk(off.New(StmtKind::kNull));
  auto q = MakeProcedure(nullptr, off.Take(), catalog, {}, &ms, &why);
  EXPECT_NE(dynamic_cast<InterpretedProcedure*>(q.get()), nullptr);
  EXPECT_EQ(why, "the JIT is off");
}

TEST(BorrowedBuffersTest, AWorkerLendsItsBuffersToOneRunAtATime) {
  engine::WorkerScratch scratch;
  int owner = 0;
  const planner::Datum* first_temps = nullptr;
  {
    BorrowedBuffers outer(scratch, &owner);
    outer.temps().resize(3);
    first_temps = outer.temps().data();
    std::vector<planner::Datum> vars = outer.TakeVars();
    vars.resize(5);
    Frame frame;
    frame.vars = std::move(vars);
    outer.Hold(std::move(frame));
    {
      // A second run while the first holds them: buffers of its own, not the first's.
      BorrowedBuffers inner(scratch, &owner);
      EXPECT_TRUE(inner.temps().empty());
      EXPECT_TRUE(inner.TakeVars().empty());
      inner.temps().resize(7);
    }
    EXPECT_EQ(outer.temps().size(), 3u);
    EXPECT_EQ(outer.temps().data(), first_temps);
  }
  // The next run gets the same temps back, and the frame's variables of the first.
  BorrowedBuffers next(scratch, &owner);
  EXPECT_EQ(next.temps().data(), first_temps);
  EXPECT_EQ(next.TakeVars().size(), 5u);
  // Another owner's run has buffers apart.
  BorrowedBuffers other(scratch, &first_temps);
  EXPECT_TRUE(other.temps().empty());
}

// A temp that boxed an array argument must not keep sharing it once the run is over:
// the next run's MakeFrame rewrites a parameter's array in place only when the frame is
// its only holder, and otherwise allocates a new one for every transaction.
TEST(BorrowedBuffersTest, ReturnedBuffersShareNoArrayWithTheFrame) {
  engine::WorkerScratch scratch;
  int owner = 0;
  {
    BorrowedBuffers run(scratch, &owner);
    Frame frame;
    frame.vars = run.TakeVars();
    frame.vars.push_back(planner::Datum::Array({planner::Datum::Int(1), planner::Datum::Int(2)}));
    run.temps().push_back(frame.vars[0]);       // array_length(p, 1)'s boxed argument
    run.body_temps().push_back(frame.vars[0]);  // FOREACH's held copy
    run.body_temps().push_back(planner::Datum::String("kept"));
    run.Hold(std::move(frame));
  }
  BorrowedBuffers next(scratch, &owner);
  std::vector<planner::Datum> vars = next.TakeVars();
  ASSERT_EQ(vars.size(), 1u);
  ASSERT_EQ(vars[0].kind, planner::Datum::Kind::kArray);
  EXPECT_EQ(vars[0].array.use_count(), 1);
  EXPECT_TRUE(next.temps()[0].is_null());
  EXPECT_TRUE(next.body_temps()[0].is_null());
  EXPECT_EQ(next.body_temps()[1].s, "kept");  // only arrays are dropped
}

}  // namespace
}  // namespace caracal::codegen::testing
