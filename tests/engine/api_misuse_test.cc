// Misuse of the procedure API is reported as an error naming the procedure and key; the
// epoch completes and the other transactions commit.
#include <gtest/gtest.h>

#include "engine/storage/database.h"
#include "engine/execution/engine.h"
#include "engine/types/errors.h"
#include "engine/execution/reference_executor.h"
#include "tests/engine/test_util.h"

namespace caracal::engine::testing {
namespace {

struct Outcome {
  TxnResult bad, good;
  std::optional<int64_t> good_value;
};

Outcome RunBadThenGood(Executor& ex, Store& store, TableId t, const Procedure& bad) {
  LambdaProcedure good(
      "good", [t](DeclareContext& c) { c.DeclareWrite(t, K(2), WriteKind::kUpsert); },
      [t](ExecContext& c) { c.Upsert(t, K(2), RowBuilder(c.table(t).schema()).SetInt(0, 2).SetInt(1, 42).Build()); });
  Outcome o;
  SubmitTo(ex, bad, {}, &o.bad);
  SubmitTo(ex, good, {}, &o.good);
  ex.Drain();
  o.good_value = CommittedV(store, t, 2);
  return o;
}

void ExpectReported(const std::function<LambdaProcedure(TableId)>& make, const std::string& needle) {
  {
    Database db;
    TableId t = CreateKv(db);
    db.LoadRow(t, KvRow(db, t, 1, 1));
    EngineOptions opts;
    opts.workers = 2;
    opts.epoch_interval_ms = 60000;
    Engine engine(db, opts);
    LambdaProcedure bad = make(t);
    Outcome o = RunBadThenGood(engine, db, t, bad);
    EXPECT_EQ(o.bad.status, TxnResult::Status::kAborted);
    EXPECT_NE(o.bad.message.find(needle), std::string::npos) << o.bad.message;
    EXPECT_NE(o.bad.message.find("procedure bad"), std::string::npos) << o.bad.message;
    EXPECT_EQ(o.good.status, TxnResult::Status::kCommitted);
    EXPECT_EQ(o.good_value, 42);
    EXPECT_EQ(CommittedV(db, t, 1), 1);
  }
  {
    ReferenceExecutor ref;
    TableId t = CreateKv(ref);
    ref.LoadRow(t, KvRow(ref, t, 1, 1));
    LambdaProcedure bad = make(t);
    Outcome o = RunBadThenGood(ref, ref, t, bad);
    EXPECT_EQ(o.bad.status, TxnResult::Status::kAborted);
    EXPECT_NE(o.bad.message.find("procedure bad"), std::string::npos) << o.bad.message;
    EXPECT_EQ(o.good_value, 42);
  }
}

TEST(ApiMisuseTest, UndeclaredWriteIsNamed) {
  ExpectReported(
      [](TableId t) {
        return LambdaProcedure("bad", [](DeclareContext&) {},
                               [t](ExecContext& c) {
                                 c.Update(t, K(1), RowBuilder(c.table(t).schema()).SetInt(0, 1).SetInt(1, 9).Build());
                               });
      },
      "not declared");
}

TEST(ApiMisuseTest, DuplicateInsertDeclarationIsNamed) {
  ExpectReported(
      [](TableId t) {
        return LambdaProcedure("bad",
                               [t](DeclareContext& c) {
                                 c.DeclareWrite(t, K(5), WriteKind::kInsert);
                                 c.DeclareWrite(t, K(5), WriteKind::kInsert);
                               },
                               [](ExecContext&) {});
      },
      "inserted twice");
}

TEST(ApiMisuseTest, WrongKeyArityIsReported) {
  ExpectReported(
      [](TableId t) {
        return LambdaProcedure("bad",
                               [t](DeclareContext& c) {
                                 std::vector<Value> two = {Value::Int(1), Value::Int(2)};
                                 try {
                                   c.DeclareWrite(t, EncodePrimaryKey(c.table(t).schema(), two), WriteKind::kUpdate);
                                 } catch (const KeyError& e) {
                                   throw ApiMisuse("procedure bad: " + std::string(e.what()));
                                 }
                               },
                               [](ExecContext&) {});
      },
      "has 1 columns, got 2 values");
}

TEST(ApiMisuseTest, AbortAfterPublishIsRefused) {
  ExpectReported(
      [](TableId t) {
        return LambdaProcedure("bad", [](DeclareContext&) {},
                               [](ExecContext& c) {
                                 c.Publish();
                                 c.Abort("P0001", "too late");
                               });
      },
      "after Publish");
}

TEST(ApiMisuseTest, InvalidEngineOptionsAreRejected) {
  Database db;
  EngineOptions o;
  o.workers = 0;
  EXPECT_THROW(Engine(db, o), std::invalid_argument);
  o.workers = 1;
  o.epoch_max_txns = 0;
  EXPECT_THROW(Engine(db, o), std::invalid_argument);
}

}  // namespace
}  // namespace caracal::engine::testing
