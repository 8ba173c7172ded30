// The procedure compiler on hand-built procedure IR (the PL/pgSQL binder's output shape):
// control flow, assignments with casts and NOT NULL, FOR/WHILE/EXIT/CONTINUE with labels,
// RAISE, RETURN, FOUND, publish, and statements handed to the hooks.
#include <gtest/gtest.h>

#include <algorithm>

#include "codegen/runtime/eval_state.h"
#include "codegen/runtime/point_key.h"
#include "codegen/jit/procedure_codegen.h"
#include "planner/types/sql_error.h"
#include "tests/codegen/bind_helper.h"
#include "tests/codegen/ir_builder.h"

namespace caracal::codegen::testing {
namespace {

using planner::Block;
using planner::Datum;
using planner::ProcedureIr;
using planner::SqlType;
using planner::Stmt;
using planner::StmtKind;
using planner::StmtPtr;
using planner::TypeId;

class RecordingHooks : public StatementHooks {
 public:
  bool RunStatement(const Stmt& s) override {
    delegated.push_back(s.id);
    return s.id == return_on;
  }
  const engine::RowValue* ReadRow(const Stmt& s, const engine::Key&) override {
    delegated.push_back(s.id);
    return nullptr;
  }
  void Notice(std::string message) override { notices.push_back(std::move(message)); }
  void Publish() override { ++published; }
  void Return(const Datum& value) override { returned.push_back(value); }
  Datum CallRoutine(const planner::Expr&, std::span<const Datum>) override { return Datum::Null(); }
  double Random(int) override { return 0.5; }

  std::vector<int> delegated;
  std::vector<std::string> notices;
  std::vector<Datum> returned;
  int published = 0;
  int return_on = -1;
};

class ProcCodegen : public ::testing::Test {
 protected:
  // Compiles and runs the body; returns the frame.
  std::vector<Datum> Run(ProcedureIr& ir, std::vector<Datum> args = {}) {
    auto code = ProcedureCode::Compile(jit_, ir);
    std::vector<Datum> frame(ir.variables.size());
    for (size_t i = 0; i < args.size(); ++i) frame[i] = args[i];
    end_ = code->RunBody(frame, hooks_);
    return frame;
  }
  std::string Error(ProcedureIr& ir) {
    try {
      Run(ir);
    } catch (const planner::SqlError& e) {
      return e.sqlstate() + ": " + e.what();
    }
    return "no error";
  }

  Jit jit_{OptLevel::kO2};
  RecordingHooks hooks_;
  BlockEnd end_ = BlockEnd::kEnd;
};

const SqlType kInt = SqlType::Of(TypeId::kInt4);
const SqlType kBig = SqlType::Of(TypeId::kInt8);

TEST_F(ProcCodegen, ForLoopSumsAndReturns) {
  IrBuilder b;
  [[maybe_unused]] int n = b.Var("n", kInt, planner::VariableKind::kParameter);
  int s = b.Var("s", kBig, planner::VariableKind::kLocal, false, "0");
  int i = b.Var("i", kInt, planner::VariableKind::kLoopVar);
  b.ir().returns = ProcedureIr::Returns::kScalar;
  b.ir().result_columns.push_back({"p", kBig});
  b.ir().body = Blk(b.For(i, "1", "n", Blk(b.Assign(s, "s + i"))), b.Return("s"));
  std::vector<Datum> frame = Run(b.ir(), {Datum::Int(10)});
  EXPECT_EQ(frame[s].i, 55);
  EXPECT_EQ(end_, BlockEnd::kReturned);
  ASSERT_EQ(hooks_.returned.size(), 1u);
  EXPECT_EQ(hooks_.returned[0].i, 55);
  EXPECT_EQ(hooks_.returned[0].kind, Datum::Kind::kInt);
}

TEST_F(ProcCodegen, ReverseByStepAndFound) {
  IrBuilder b;
  int s = b.Var("s", kInt, planner::VariableKind::kLocal, false, "0");
  int i = b.Var("i", kInt, planner::VariableKind::kLoopVar);
  int f1 = b.Var("f1", SqlType::Of(TypeId::kBool));
  int found = b.Var("found", SqlType::Of(TypeId::kBool), planner::VariableKind::kFound);
  b.ir().body = Blk(b.For(i, "10", "1", Blk(b.Assign(s, "s * 10 + i")), true, "3"), b.Assign(f1, "found"),
                    b.For(i, "5", "1", Blk(b.Assign(s, "0"))));
  std::vector<Datum> frame = Run(b.ir());
  EXPECT_EQ(frame[s].i, 10741);  // 10, 7, 4, 1
  EXPECT_TRUE(frame[f1].as_bool());
  EXPECT_EQ(frame[found].kind, Datum::Kind::kBool);
  EXPECT_FALSE(frame[found].as_bool());  // the second loop never ran
}

TEST_F(ProcCodegen, NestedLoopsWithLabelsExitAndContinue) {
  IrBuilder b;
  int log = b.Var("log", SqlType::Of(TypeId::kText), planner::VariableKind::kLocal, false, "''");
  int i = b.Var("i", kInt, planner::VariableKind::kLoopVar);
  int j = b.Var("j", kInt, planner::VariableKind::kLocal);
  b.ir().body = Blk(b.For(
      i, "1", "5",
      Blk(b.Exit("i = 2", "", true), b.Assign(j, "0"),
          b.While("j < 10", Blk(b.Assign(j, "j + 1"), b.Exit("j = 2", "", true), b.Exit("i = 4 and j = 3", "outer"),
                                 b.Exit("j = 3"), b.Assign(log, "log || i || ':' || j || ' '"))),
          b.Assign(log, "log || '| '")),
      false, "", "outer"));
  std::vector<Datum> frame = Run(b.ir());
  EXPECT_EQ(frame[log].s, "1:1 | 3:1 | 4:1 ");
}

TEST_F(ProcCodegen, PlainLoopAndUnlabelledExit) {
  IrBuilder b;
  int x = b.Var("x", kInt, planner::VariableKind::kLocal, false, "1");
  b.ir().body = Blk(b.While("", Blk(b.Assign(x, "x * 3"), b.Exit("x > 100"))));
  EXPECT_EQ(Run(b.ir())[x].i, 243);
}

TEST_F(ProcCodegen, RaiseNoticeAndException) {
  IrBuilder b;
  [[maybe_unused]] int x = b.Var("x", kInt, planner::VariableKind::kLocal, false, "5");
  b.ir().body = Blk(b.Raise(planner::RaiseLevel::kNotice, "x=% y=% 100%%", {"x", "null::text"}),
                    b.Raise(planner::RaiseLevel::kWarning, "w", {}),
                    b.Raise(planner::RaiseLevel::kDebug, "hidden", {}),
                    b.Raise(planner::RaiseLevel::kException, "bad x: %", {"x * 2"}, "P0099"));
  EXPECT_EQ(Error(b.ir()), "P0099: bad x: 10");
  EXPECT_EQ(hooks_.notices, (std::vector<std::string>{"x=5 y=<NULL> 100%", "WARNING:w"}));
}

TEST_F(ProcCodegen, RaiseParameterCountErrors) {
  IrBuilder b;
  b.ir().body = Blk(b.Raise(planner::RaiseLevel::kNotice, "% %", {"1"}));
  EXPECT_EQ(Error(b.ir()), "42601: too few parameters specified for RAISE");
}

TEST_F(ProcCodegen, AssignmentCastsAndNotNull) {
  IrBuilder b;
  int n = b.Var("n", SqlType::Numeric(5, 2));
  int v = b.Var("v", SqlType{TypeId::kVarchar, 3, -1});
  int k = b.Var("k", kInt, planner::VariableKind::kLocal, true, "1");
  b.ir().body = Blk(b.Assign(n, "1.005"), b.Assign(v, "'ab'"), b.Assign(k, "k + 1"));
  std::vector<Datum> frame = Run(b.ir());
  EXPECT_EQ(frame[n].n.ToString(), "1.01");
  EXPECT_EQ(frame[v].s, "ab");
  EXPECT_EQ(frame[k].i, 2);

  IrBuilder b2;
  int v2 = b2.Var("v", SqlType{TypeId::kVarchar, 3, -1});
  b2.ir().body = Blk(b2.Assign(v2, "'abcd'"));
  EXPECT_EQ(Error(b2.ir()), "22001: value too long for type character varying(3)");

  IrBuilder b3;
  int k3 = b3.Var("k", kInt, planner::VariableKind::kLocal, true, "1");
  b3.ir().body = Blk(b3.Assign(k3, "null::int"));
  EXPECT_EQ(Error(b3.ir()), "22004: null value cannot be assigned to variable \"k\" declared NOT NULL");

  IrBuilder b4;
  b4.Var("k", kInt, planner::VariableKind::kLocal, true, "null::int");
  EXPECT_EQ(Error(b4.ir()), "22004: null value cannot be assigned to variable \"k\" declared NOT NULL");
}

TEST_F(ProcCodegen, ForLoopBoundErrors) {
  IrBuilder b;
  int i = b.Var("i", kInt, planner::VariableKind::kLoopVar);
  b.ir().body = Blk(b.For(i, "1", "null::int", Blk()));
  EXPECT_EQ(Error(b.ir()), "22004: upper bound of FOR loop cannot be null");
  IrBuilder b2;
  int i2 = b2.Var("i", kInt, planner::VariableKind::kLoopVar);
  b2.ir().body = Blk(b2.For(i2, "1", "3", Blk(), false, "0"));
  EXPECT_EQ(Error(b2.ir()), "22023: BY value of FOR loop must be greater than zero");
}

TEST_F(ProcCodegen, OverflowInsideALoopAborts) {
  IrBuilder b;
  int x = b.Var("x", kInt, planner::VariableKind::kLocal, false, "1");
  int i = b.Var("i", kInt, planner::VariableKind::kLoopVar);
  b.ir().body = Blk(b.For(i, "1", "40", Blk(b.Assign(x, "x * 2"))));
  EXPECT_EQ(Error(b.ir()), "22003: integer out of range");
}

TEST_F(ProcCodegen, IfElsifElse) {
  IrBuilder b;
  [[maybe_unused]] int p = b.Var("p", kInt, planner::VariableKind::kParameter);
  int r = b.Var("r", SqlType::Of(TypeId::kText));
  auto s = b.New(StmtKind::kIf);
  s->conds.push_back(b.X("p < 0"));
  s->blocks.push_back(Blk(b.Assign(r, "'neg'")));
  s->conds.push_back(b.X("p = 0"));
  s->blocks.push_back(Blk(b.Assign(r, "'zero'")));
  s->else_block = Blk(b.Assign(r, "'pos'"));
  b.ir().body = Blk(std::move(s));
  EXPECT_EQ(Run(b.ir(), {Datum::Int(-4)})[r].s, "neg");
  EXPECT_EQ(Run(b.ir(), {Datum::Int(0)})[r].s, "zero");
  EXPECT_EQ(Run(b.ir(), {Datum::Int(9)})[r].s, "pos");
  EXPECT_EQ(Run(b.ir(), {Datum::Null()})[r].s, "pos");  // NULL condition is not true
}

TEST_F(ProcCodegen, DelegatedLeavesPublishAndDoNotEndTheBody) {
  IrBuilder b;
  int x = b.Var("x", kInt, planner::VariableKind::kLocal, false, "0");
  auto insert = b.New(StmtKind::kInsert);
  int insert_id = insert->id;
  auto publish = b.New(StmtKind::kPublish);
  auto select = b.New(StmtKind::kSelectInto);
  int select_id = select->id;
  b.ir().body = Blk(std::move(insert), std::move(publish), std::move(select), b.Assign(x, "1"));
  // A leaf statement never ends the body (StatementHooks::RunStatement), so compiled
  // code does not ask: the body goes on even when hooks claim a return.
  hooks_.return_on = select_id;
  std::vector<Datum> frame = Run(b.ir());
  EXPECT_EQ(hooks_.delegated, (std::vector<int>{insert_id, select_id}));
  EXPECT_EQ(hooks_.published, 1);
  EXPECT_EQ(end_, BlockEnd::kEnd);
  EXPECT_EQ(frame[x].i, 1);
}

TEST_F(ProcCodegen, InitProgramRunsSeparately) {
  IrBuilder b;
  int x = b.Var("x", kInt, planner::VariableKind::kLocal, false, "7");
  int y = b.Var("y", kInt);
  b.ir().body = Blk(b.Assign(y, "1"));
  b.ir().init = Blk(b.Assign(y, "x * 2"), b.New(StmtKind::kDeclare));
  auto code = ProcedureCode::Compile(jit_, b.ir());
  std::vector<Datum> frame(b.ir().variables.size());
  EXPECT_EQ(code->RunInit(frame, hooks_), BlockEnd::kEnd);
  EXPECT_EQ(frame[y].i, 14);
  EXPECT_EQ(hooks_.delegated.size(), 1u);
  EXPECT_EQ(frame[x].i, 7);
}

// The key compiled code hands the runtime must be the key the runner encodes: the same
// bytes as Key::AppendInt, column by column, for every width and the range's edges.
TEST(PointKeyTest, KeyFromPartsEncodesAsAppendInt) {
  const engine::ColumnType widths[] = {engine::ColumnType::kSmallInt, engine::ColumnType::kInteger, engine::ColumnType::kBigInt};
  const int64_t values[] = {INT16_MIN, -1, 0, 1, INT16_MAX, INT32_MIN, INT32_MAX, INT64_MIN, INT64_MAX};
  for (int n = 1; n <= kMaxPointKeyParts; ++n) {  // past 5 parts the key spills to the heap
    int64_t parts[kMaxPointKeyParts];
    int32_t packed = 0;
    engine::Key expected;
    for (int i = 0; i < n; ++i) {
      const engine::ColumnType width = widths[(i * 7 + n) % 3];
      int64_t v = values[(i * 5 + n) % 9];
      if (width == engine::ColumnType::kSmallInt) v = std::clamp<int64_t>(v, INT16_MIN, INT16_MAX);
      if (width == engine::ColumnType::kInteger) v = std::clamp<int64_t>(v, INT32_MIN, INT32_MAX);
      parts[i] = v;
      packed |= (width == engine::ColumnType::kSmallInt ? 0 : width == engine::ColumnType::kInteger ? 1 : 2) << (2 * i);
      expected.AppendInt(v, width);
    }
    EXPECT_EQ(KeyFromParts(parts, n, packed), expected) << n << " parts";
  }
  // All integers: KeyFromParts takes its own path for these.
  for (int n = 1; n <= kMaxPointKeyParts; ++n) {
    int64_t parts[kMaxPointKeyParts];
    int32_t packed = 0;
    engine::Key expected;
    for (int i = 0; i < n; ++i) {
      const int64_t all[] = {INT32_MIN, -1, 0, 1, 255, 256, INT32_MAX};
      parts[i] = all[(i * 3 + n) % 7];
      packed |= 1 << (2 * i);
      expected.AppendInt(parts[i], engine::ColumnType::kInteger);
    }
    EXPECT_EQ(KeyFromParts(parts, n, packed), expected) << n << " integer parts";
  }
}

// Compiled point keys are built in place (Key::Layout) only where the startup check says
// that gives the engine's key; on this platform it must, or every point statement pays
// for the runtime's KeyFromParts instead.
TEST(PointKeyTest, KeysAreBuiltInPlaceHere) {
  EXPECT_TRUE(Layout::KeyInPlaceKnown());
  const engine::Key::InlineLayout layout = engine::Key::Layout();
  EXPECT_EQ(layout.object_size, sizeof(engine::Key));
  EXPECT_LE(layout.bytes + engine::Key::kInlineCapacity, layout.object_size);
}

}  // namespace
}  // namespace caracal::codegen::testing
