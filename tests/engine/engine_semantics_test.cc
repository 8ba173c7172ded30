// The engine's transaction semantics, each checked on the epoch engine (with several
// worker counts, all transactions in one epoch) and on the serial reference executor.
#include <gtest/gtest.h>

#include <memory>

#include "engine/storage/database.h"
#include "engine/execution/engine.h"
#include "engine/execution/reference_executor.h"
#include "tests/engine/test_util.h"

namespace caracal::engine::testing {
namespace {

// Runs `body` against a fresh store + executor: the reference, then the engine with
// 1..4 workers and one epoch holding every transaction.
void ForEachExecutor(const std::function<void(Store&, Executor&, const std::string& what)>& body) {
  {
    ReferenceExecutor ref;
    body(ref, ref, "reference");
  }
  for (int workers : {1, 2, 3, 4}) {
    Database db;
    EngineOptions o;
    o.workers = workers;
    o.epoch_max_txns = 1000;
    o.epoch_interval_ms = 60000;  // only Drain closes the epoch: everything shares it
    auto engine = std::make_unique<Engine>(db, o);
    body(db, *engine, "engine/" + std::to_string(workers));
  }
}

// The integers of a result's first row.
std::vector<int64_t> FirstRowInts(const TxnResult& x) {
  std::vector<int64_t> v;
  for (const Value& e : x.rows.at(0)) v.push_back(e.as_int());
  return v;
}

LambdaProcedure SetProc(TableId t, WriteKind kind) {
  return LambdaProcedure(
      "set", [t, kind](DeclareContext& c) { c.DeclareWrite(t, K(c.input().args[0].as_int()), kind); },
      [t, kind](ExecContext& c) {
        int64_t k = c.input().args[0].as_int(), v = c.input().args[1].as_int();
        auto row = RowBuilder(c.table(t).schema()).SetInt(0, k).SetInt(1, v).Build();
        c.Publish();
        if (kind == WriteKind::kInsert)
          c.Insert(t, K(k), std::move(row));
        else
          c.Update(t, K(k), std::move(row));
      });
}

// The paper's Figure 2: T2's range update sees T1's insert of R1 but not T3's and
// T4's inserts of R3 and R5, which follow it in serial order.
TEST(EngineSemanticsTest, PaperFigure2) {
  ForEachExecutor([](Store& store, Executor& ex, const std::string& what) {
    TableId t = CreateKv(store);
    store.LoadRow(t, KvRow(store, t, 0, 100));
    LambdaProcedure update_and_insert(
        "update_and_insert",
        [t](DeclareContext& c) {
          c.DeclareWrite(t, K(0), WriteKind::kUpdate);
          c.DeclareWrite(t, K(c.input().args[0].as_int()), WriteKind::kInsert);
        },
        [t](ExecContext& c) {
          int64_t k = c.input().args[0].as_int(), v = c.input().args[1].as_int();
          const Schema& s = c.table(t).schema();
          c.Publish();
          c.Update(t, K(0), RowBuilder(s).SetInt(0, 0).SetInt(1, v).Build());
          c.Insert(t, K(k), RowBuilder(s).SetInt(0, k).SetInt(1, v).Build());
        });
    LambdaProcedure read_and_range_update(
        "read_and_range_update",
        [t](DeclareContext& c) { c.DeclareRange(t, K(1), K(101), RangeKind::kUpdate); },
        [t](ExecContext& c) {
          const RowValue* r0 = c.Read(t, K(0));
          c.Publish();
          int64_t updated = 0;
          for (const Key& k : c.RangeRows(0)) {
            const RowValue* old = c.Read(t, k);
            if (old == nullptr) continue;
            RowValuePtr nv = RowBuilder(c.table(t).schema(), *old).SetInt(1, old->GetInt(1) + 1000).Build();
            if (c.Update(t, k, std::move(nv))) ++updated;
          }
          c.Emit({Value::Int(r0 ? r0->GetInt(1) : -1), Value::Int(updated)});
        });
    TxnResult r[4];
    SubmitTo(ex, update_and_insert, {Value::Int(1), Value::Int(1)}, &r[0]);
    SubmitTo(ex, read_and_range_update, {}, &r[1]);
    SubmitTo(ex, update_and_insert, {Value::Int(3), Value::Int(3)}, &r[2]);
    SubmitTo(ex, update_and_insert, {Value::Int(5), Value::Int(4)}, &r[3]);
    ex.Drain();
    for (auto& x : r) ASSERT_EQ(x.status, TxnResult::Status::kCommitted) << what << ": " << x.message;
    ASSERT_EQ(r[1].rows.size(), 1u) << what;
    EXPECT_EQ(r[1].rows[0][0].as_int(), 1) << what << ": T2 reads T1's version of R0";
    EXPECT_EQ(r[1].rows[0][1].as_int(), 1) << what << ": T2 updates only R1";
    EXPECT_EQ(CommittedV(store, t, 0), 4) << what;
    EXPECT_EQ(CommittedV(store, t, 1), 1001) << what;
    EXPECT_EQ(CommittedV(store, t, 3), 3) << what;
    EXPECT_EQ(CommittedV(store, t, 5), 4) << what;
  });
}

// Range deletes and updates racing point deletes and inserts in one epoch.
TEST(EngineSemanticsTest, RangeWritesRaceInsertsAndDeletes) {
  ForEachExecutor([](Store& store, Executor& ex, const std::string& what) {
    TableId t = CreateKv(store);
    for (int k = 10; k < 20; ++k) store.LoadRow(t, KvRow(store, t, k, k));
    LambdaProcedure point_delete(
        "point_delete", [t](DeclareContext& c) { c.DeclareWrite(t, K(12), WriteKind::kDelete); },
        [t](ExecContext& c) {
          c.Publish();
          c.Emit({Value::Bool(c.Delete(t, K(12)))});
        });
    auto range_proc = [t](RangeKind kind, int64_t lo, int64_t hi) {
      return LambdaProcedure(
          "range", [=](DeclareContext& c) { c.DeclareRange(t, K(lo), K(hi), kind); },
          [=](ExecContext& c) {
            c.Publish();
            int64_t n = 0;
            for (const Key& k : c.RangeRows(0)) {
              const RowValue* old = c.Read(t, k);
              if (old == nullptr) continue;
              bool ok = kind == RangeKind::kDelete
                            ? c.Delete(t, k)
                            : c.Update(t, k, RowBuilder(c.table(t).schema(), *old).SetInt(1, old->GetInt(1) + 1).Build());
              n += ok;
            }
            c.Emit({Value::Int(n)});
          });
    };
    LambdaProcedure range_delete = range_proc(RangeKind::kDelete, 10, 20);
    LambdaProcedure range_update = range_proc(RangeKind::kUpdate, 10, 30);
    LambdaProcedure insert = SetProc(t, WriteKind::kInsert);
    TxnResult r[5];
    SubmitTo(ex, point_delete, {}, &r[0]);
    SubmitTo(ex, range_delete, {}, &r[1]);
    SubmitTo(ex, insert, {Value::Int(15), Value::Int(150)}, &r[2]);
    SubmitTo(ex, insert, {Value::Int(25), Value::Int(250)}, &r[3]);
    SubmitTo(ex, range_update, {}, &r[4]);
    ex.Drain();
    for (auto& x : r) ASSERT_EQ(x.status, TxnResult::Status::kCommitted) << what << ": " << x.message;
    EXPECT_TRUE(r[0].rows[0][0].as_bool()) << what;
    EXPECT_EQ(r[1].rows[0][0].as_int(), 9) << what << ": 10 rows less the one deleted before";
    EXPECT_EQ(r[4].rows[0][0].as_int(), 2) << what << ": only the two rows inserted after the range delete";
    int rows = 0;
    store.ForEachCommittedRow(t, [&](const Key&, const RowValue&) { ++rows; });
    EXPECT_EQ(rows, 2) << what;
    EXPECT_EQ(CommittedV(store, t, 15), 151) << what;
    EXPECT_EQ(CommittedV(store, t, 25), 251) << what;
  });
}

// A range's rows include those the transaction inserts itself (PostgreSQL's UPDATE sees
// an earlier INSERT of its transaction), in key order with the rows that existed; a key
// declared for insert but not inserted reads as no row.
TEST(EngineSemanticsTest, RangeRowsIncludeOwnInserts) {
  ForEachExecutor([](Store& store, Executor& ex, const std::string& what) {
    TableId t = CreateKv(store);
    for (int k : {10, 12}) store.LoadRow(t, KvRow(store, t, k, k));
    LambdaProcedure insert_then_update(
        "insert_then_update",
        [t](DeclareContext& c) {
          c.DeclareWrite(t, K(11), WriteKind::kInsert);
          c.DeclareWrite(t, K(13), WriteKind::kInsert);  // never inserted
          c.DeclareWrite(t, K(12), WriteKind::kUpsert);  // exists already: listed once
          c.DeclareWrite(t, K(30), WriteKind::kInsert);  // outside the range
          c.DeclareRange(t, K(10), K(20), RangeKind::kUpdate);
        },
        [t](ExecContext& c) {
          const Schema& s = c.table(t).schema();
          c.Insert(t, K(11), RowBuilder(s).SetInt(0, 11).SetInt(1, 110).Build());
          c.Upsert(t, K(12), RowBuilder(s).SetInt(0, 12).SetInt(1, 120).Build());
          c.Insert(t, K(30), RowBuilder(s).SetInt(0, 30).SetInt(1, 300).Build());
          std::vector<Value> keys;
          for (const Key& k : c.RangeRows(0)) {
            const RowValue* old = c.Read(t, k);
            if (old == nullptr) continue;
            keys.push_back(Value::Int(old->GetInt(0)));
            c.Update(t, k, RowBuilder(s, *old).SetInt(1, old->GetInt(1) + 1).Build());
          }
          c.Publish();  // a row written after it could not be written again
          c.Emit(std::move(keys));
        });
    TxnResult r;
    SubmitTo(ex, insert_then_update, {}, &r);
    ex.Drain();
    ASSERT_EQ(r.status, TxnResult::Status::kCommitted) << what << ": " << r.message;
    ASSERT_EQ(r.rows.size(), 1u) << what;
    EXPECT_EQ(FirstRowInts(r), (std::vector<int64_t>{10, 11, 12})) << what;
    EXPECT_EQ(CommittedV(store, t, 10), 11) << what;
    EXPECT_EQ(CommittedV(store, t, 11), 111) << what;
    EXPECT_EQ(CommittedV(store, t, 12), 121) << what;
    EXPECT_EQ(CommittedV(store, t, 30), 300) << what;
  });
}

// A scan of exactly a range the transaction declared (which the engine answers from the
// rows its append step found) sees what a scan of the index sees: an earlier
// transaction's insert and delete in the epoch, its own deletes, updates and inserts,
// and never a later transaction's insert.
TEST(EngineSemanticsTest, ScanOfADeclaredRangeSeesWhatTheIndexHolds) {
  ForEachExecutor([](Store& store, Executor& ex, const std::string& what) {
    TableId t = CreateKv(store);
    for (int k = 10; k < 20; ++k) store.LoadRow(t, KvRow(store, t, k, k));
    // (rows, sum of v) over [10, 30), emitted as one result row per scan.
    auto scan = [t](ExecContext& c, std::vector<Value>& out) {
      int64_t rows = 0, sum = 0, last = -1;
      c.Scan(t, K(10), K(30), [&](const Key&, const RowValue& row) {
        EXPECT_GT(row.GetInt(0), last) << "in key order";
        last = row.GetInt(0);
        ++rows;
        sum += row.GetInt(1);
        return true;
      });
      out.push_back(Value::Int(rows));
      out.push_back(Value::Int(sum));
    };
    LambdaProcedure earlier(
        "earlier",
        [t](DeclareContext& c) {
          c.DeclareWrite(t, K(12), WriteKind::kDelete);
          c.DeclareWrite(t, K(21), WriteKind::kInsert);
        },
        [t](ExecContext& c) {
          c.Publish();
          c.Delete(t, K(12));
          c.Insert(t, K(21), RowBuilder(c.table(t).schema()).SetInt(0, 21).SetInt(1, 21).Build());
        });
    // Without an insert of its own, then with one (the engine's shortcut is off there).
    LambdaProcedure range_writes(
        "range_writes", [t](DeclareContext& c) { c.DeclareRange(t, K(10), K(30), RangeKind::kUpdate); },
        [t, &scan](ExecContext& c) {
          std::vector<Value> out;
          scan(c, out);
          c.Publish();
          c.Delete(t, K(11));
          scan(c, out);
          c.Update(t, K(13), RowBuilder(c.table(t).schema()).SetInt(0, 13).SetInt(1, 1000).Build());
          scan(c, out);
          c.Emit(std::move(out));
        });
    LambdaProcedure range_and_insert(
        "range_and_insert",
        [t](DeclareContext& c) {
          c.DeclareRange(t, K(10), K(30), RangeKind::kUpdate);
          c.DeclareWrite(t, K(22), WriteKind::kInsert);
        },
        [t, &scan](ExecContext& c) {
          std::vector<Value> out;
          scan(c, out);
          c.Publish();
          c.Insert(t, K(22), RowBuilder(c.table(t).schema()).SetInt(0, 22).SetInt(1, 22).Build());
          scan(c, out);
          c.Emit(std::move(out));
        });
    LambdaProcedure later = SetProc(t, WriteKind::kInsert);
    TxnResult r[4];
    SubmitTo(ex, earlier, {}, &r[0]);
    SubmitTo(ex, range_writes, {}, &r[1]);
    SubmitTo(ex, range_and_insert, {}, &r[2]);
    SubmitTo(ex, later, {Value::Int(23), Value::Int(23)}, &r[3]);
    ex.Drain();
    for (auto& x : r) ASSERT_EQ(x.status, TxnResult::Status::kCommitted) << what << ": " << x.message;
    // 10..19 less 12 plus 21 (sum 145 - 12 + 21); less 11; 13 becomes 1000.
    EXPECT_EQ(FirstRowInts(r[1]), (std::vector<int64_t>{10, 154, 9, 143, 9, 1130})) << what;
    EXPECT_EQ(FirstRowInts(r[2]), (std::vector<int64_t>{9, 1130, 10, 1152})) << what;
  });
}

// A write whose index entry was not declared (DeclareIndexUnknown) is found by index
// scans of later transactions of its epoch - also one on a split piece, and a range
// write's - and of later epochs, and not by earlier ones.
TEST(EngineSemanticsTest, UndeclaredIndexEntriesAreFoundFromTheirWrite) {
  ForEachExecutor([](Store& store, Executor& ex, const std::string& what) {
    // kv with an index on v.
    TableId t = store.CreateTable(Schema("kv", {{"k", ColumnType::kBigInt, 0, 0, true}, {"v", ColumnType::kBigInt}}, {0}),
                                  {IndexSchema{"kv_v", {1}}});
    for (int k = 1; k <= 4; ++k) store.LoadRow(t, KvRow(store, t, k, k * 10));
    auto v_key = [](int64_t v) {
      Key key;
      key.AppendInt(v, ColumnType::kBigInt);
      return key;
    };
    // The keys of the rows with v in [lo, hi), in index order.
    auto scan = [t, v_key](int64_t lo, int64_t hi) {
      return LambdaProcedure(
          "scan", [](DeclareContext&) {},
          [=](ExecContext& c) {
            std::vector<Value> keys;
            c.ScanIndex(t, 0, v_key(lo), v_key(hi), [&](const Key&, const RowValue& row) {
              keys.push_back(Value::Int(row.GetInt(0)));
              return true;
            });
            c.Emit(std::move(keys));
          });
    };
    // Sets row k's v to v + delta, with an entry it does not declare.
    auto shift = [t](int64_t k, int64_t delta, bool split) {
      return LambdaProcedure(
          "shift",
          [=](DeclareContext& c) {
            if (split) c.DeclareRowUpdate(t, K(k), 1);
            else c.DeclareWrite(t, K(k), WriteKind::kUpdate);
            c.DeclareIndexUnknown(t, 0, K(k), PointSpanEnd(K(k)));
          },
          [=](ExecContext& c) {
            const Schema& s = c.table(t).schema();
            c.Publish();
            if (split) {
              c.ApplyRowUpdate(t, K(k), [&s, delta](const RowValue& old) {
                return RowBuilder(s, old).SetInt(1, old.GetInt(1) + delta).Build();
              }, 1);
              return;
            }
            const RowValue* old = c.Read(t, K(k));
            c.Update(t, K(k), RowBuilder(s, *old).SetInt(1, old->GetInt(1) + delta).Build());
          });
    };
    // A range write of [1, 2): row 1's v + 700.
    LambdaProcedure move_range(
        "move_range",
        [t](DeclareContext& c) {
          c.DeclareRange(t, K(1), K(2), RangeKind::kUpdate);
          c.DeclareIndexUnknown(t, 0, K(1), K(2));
        },
        [t](ExecContext& c) {
          const Schema& s = c.table(t).schema();
          c.Publish();
          for (const Key& k : c.RangeRows(0))
            if (const RowValue* old = c.Read(t, k)) c.Update(t, k, RowBuilder(s, *old).SetInt(1, old->GetInt(1) + 700).Build());
        });
    LambdaProcedure before = scan(100, 1000), after = scan(100, 1000), all = scan(0, 10000);
    LambdaProcedure move_2 = shift(2, 500, false), move_3 = shift(3, 300, true);
    TxnResult r[6];
    SubmitTo(ex, before, {}, &r[0]);
    SubmitTo(ex, move_2, {}, &r[1]);
    SubmitTo(ex, move_3, {}, &r[2]);
    SubmitTo(ex, move_range, {}, &r[5]);
    SubmitTo(ex, after, {}, &r[3]);
    ex.Drain();
    SubmitTo(ex, all, {}, &r[4]);
    ex.Drain();
    for (auto& x : r) ASSERT_EQ(x.status, TxnResult::Status::kCommitted) << what << ": " << x.message;
    EXPECT_EQ(FirstRowInts(r[0]), (std::vector<int64_t>{})) << what;
    EXPECT_EQ(FirstRowInts(r[3]), (std::vector<int64_t>{3, 2, 1})) << what << ": v 330, 520, then 710";
    EXPECT_EQ(FirstRowInts(r[4]), (std::vector<int64_t>{4, 3, 2, 1})) << what << ": a later epoch uses the entries";
  });
}

// A transaction that aborts after its writes leaves nothing visible; readers after it in
// the same epoch see the earlier version.
TEST(EngineSemanticsTest, AbortAfterWritesLeavesNoTrace) {
  ForEachExecutor([](Store& store, Executor& ex, const std::string& what) {
    TableId t = CreateKv(store);
    store.LoadRow(t, KvRow(store, t, 1, 10));
    LambdaProcedure write_then_abort(
        "write_then_abort",
        [t](DeclareContext& c) {
          c.DeclareWrite(t, K(1), WriteKind::kUpdate);
          c.DeclareWrite(t, K(50), WriteKind::kInsert);
        },
        [t](ExecContext& c) {
          const Schema& s = c.table(t).schema();
          c.Update(t, K(1), RowBuilder(s).SetInt(0, 1).SetInt(1, 666).Build());
          c.Insert(t, K(50), RowBuilder(s).SetInt(0, 50).SetInt(1, 666).Build());
          // Its own writes are visible to itself before it aborts.
          if (c.Read(t, K(1))->GetInt(1) != 666) throw std::logic_error("own write not visible");
          c.Abort("P0001", "changed my mind");
        });
    LambdaProcedure reader(
        "reader", [](DeclareContext&) {},
        [t](ExecContext& c) {
          const RowValue* a = c.Read(t, K(1));
          const RowValue* b = c.Read(t, K(50));
          c.Emit({Value::Int(a ? a->GetInt(1) : -1), Value::Bool(b != nullptr)});
        });
    TxnResult r[3];
    SubmitTo(ex, write_then_abort, {}, &r[0]);
    SubmitTo(ex, reader, {}, &r[1]);
    SubmitTo(ex, write_then_abort, {}, &r[2]);
    ex.Drain();
    EXPECT_EQ(r[0].status, TxnResult::Status::kAborted) << what;
    EXPECT_EQ(r[0].sqlstate, "P0001") << what;
    EXPECT_EQ(r[0].message, "changed my mind") << what;
    ASSERT_EQ(r[1].status, TxnResult::Status::kCommitted) << what << r[1].message;
    EXPECT_EQ(r[1].rows[0][0].as_int(), 10) << what;
    EXPECT_FALSE(r[1].rows[0][1].as_bool()) << what;
    EXPECT_EQ(CommittedV(store, t, 1), 10) << what;
    EXPECT_EQ(CommittedV(store, t, 50), std::nullopt) << what;
  });
}

// INSERT of an existing key reports a duplicate; the procedure aborts with 23505.
TEST(EngineSemanticsTest, DuplicateInsertIsReportedAndAborts) {
  ForEachExecutor([](Store& store, Executor& ex, const std::string& what) {
    TableId t = CreateKv(store);
    store.LoadRow(t, KvRow(store, t, 7, 70));
    LambdaProcedure insert(
        "insert_or_fail", [t](DeclareContext& c) { c.DeclareWrite(t, K(c.input().args[0].as_int()), WriteKind::kInsert); },
        [t](ExecContext& c) {
          int64_t k = c.input().args[0].as_int();
          if (!c.Insert(t, K(k), RowBuilder(c.table(t).schema()).SetInt(0, k).SetInt(1, c.input().args[1].as_int()).Build()))
            c.Abort("23505", "duplicate key value violates unique constraint \"kv_pkey\"");
        });
    LambdaProcedure del = SetProc(t, WriteKind::kUpdate);
    TxnResult r[4];
    SubmitTo(ex, insert, {Value::Int(7), Value::Int(1)}, &r[0]);   // exists: duplicate
    SubmitTo(ex, insert, {Value::Int(8), Value::Int(2)}, &r[1]);   // new
    SubmitTo(ex, insert, {Value::Int(8), Value::Int(3)}, &r[2]);   // inserted just before: duplicate
    SubmitTo(ex, del, {Value::Int(9), Value::Int(4)}, &r[3]);      // update of a missing row: no-op
    ex.Drain();
    EXPECT_EQ(r[0].status, TxnResult::Status::kAborted) << what;
    EXPECT_EQ(r[0].sqlstate, "23505") << what;
    EXPECT_EQ(r[1].status, TxnResult::Status::kCommitted) << what;
    EXPECT_EQ(r[2].status, TxnResult::Status::kAborted) << what;
    EXPECT_EQ(r[3].status, TxnResult::Status::kCommitted) << what;
    EXPECT_EQ(CommittedV(store, t, 7), 70) << what;
    EXPECT_EQ(CommittedV(store, t, 8), 2) << what;
    EXPECT_EQ(CommittedV(store, t, 9), std::nullopt) << what;
  });
}

// ApplyRowUpdate reports whether it updated the row: not for a missing row, and not when
// the callback leaves the row as it is (an UPDATE whose WHERE rejects the row: 0 rows).
TEST(EngineSemanticsTest, ApplyRowUpdateReportsOnlyARowItChanged) {
  ForEachExecutor([](Store& store, Executor& ex, const std::string& what) {
    TableId t = CreateKv(store);
    store.LoadRow(t, KvRow(store, t, 1, 10));
    LambdaProcedure add_if_even(
        "add_if_even", [t](DeclareContext& c) { c.DeclareWrite(t, K(c.input().args[0].as_int()), WriteKind::kUpdate); },
        [t](ExecContext& c) {
          RowUpdateFuture f = c.ApplyRowUpdate(
              t, K(c.input().args[0].as_int()),
              [s = &c.table(t).schema()](const RowValue& old) -> RowValuePtr {
                if (old.GetInt(1) % 2 != 0) return nullptr;
                return RowBuilder(*s, old).SetInt(1, old.GetInt(1) + 5).Build();
              },
              1);
          c.Emit({Value::Bool(f.Wait())});
        });
    TxnResult r[3];
    SubmitTo(ex, add_if_even, {Value::Int(1)}, &r[0]);  // 10: even, becomes 15
    SubmitTo(ex, add_if_even, {Value::Int(1)}, &r[1]);  // 15: left as it is
    SubmitTo(ex, add_if_even, {Value::Int(2)}, &r[2]);  // no such row
    ex.Drain();
    for (const TxnResult& x : r) ASSERT_EQ(x.rows.size(), 1u) << what;
    EXPECT_TRUE(r[0].rows[0][0].as_bool()) << what;
    EXPECT_FALSE(r[1].rows[0][0].as_bool()) << what;
    EXPECT_FALSE(r[2].rows[0][0].as_bool()) << what;
    EXPECT_EQ(CommittedV(store, t, 1), 15) << what;
  });
}

// A chain of read-modify-writes on one row across many transactions and epochs:
// every increment lands exactly once, in serial order.
TEST(EngineSemanticsTest, ReadModifyWriteChainAcrossEpochs) {
  for (int workers : {1, 2, 4}) {
    for (uint32_t epoch : {1u, 7u, 1000u}) {
      Database db;
      TableId t = CreateKv(db);
      db.LoadRow(t, KvRow(db, t, 1, 0));
      EngineOptions o;
      o.workers = workers;
      o.epoch_max_txns = epoch;
      Engine engine(db, o);
      LambdaProcedure incr(
          "incr", [t](DeclareContext& c) { c.DeclareWrite(t, K(1), WriteKind::kUpdate); },
          [t](ExecContext& c) {
            c.Publish();
            c.ApplyRowUpdate(
                t, K(1),
                [s = &c.table(t).schema()](const RowValue& old) {
                  return RowBuilder(*s, old).SetInt(1, old.GetInt(1) * 3 % 1000003 + 1).Build();
                },
                1);
          });
      for (int i = 0; i < 500; ++i) SubmitTo(engine, incr, {}, nullptr);
      engine.Drain();
      int64_t expect = 0;
      for (int i = 0; i < 500; ++i) expect = expect * 3 % 1000003 + 1;
      EXPECT_EQ(CommittedV(db, t, 1), expect) << workers << " workers, epoch " << epoch;
    }
  }
}


// A dependent write by reconnaissance: the key comes from a row read at the committed
// state during initialization and re-checked at execution. When an earlier transaction
// of the same epoch changed it, the transaction retries in the next epoch and ends as
// the serial executor (which always reads current state) ends.
TEST(EngineSemanticsTest, ReconnaissanceRetriesWhenItsReadChanged) {
  auto setup = [](Store& store) {
    TableId t = CreateKv(store);
    store.LoadRow(t, KvRow(store, t, 0, 3));  // row 0 points at row 3
    for (int k = 3; k <= 5; ++k) store.LoadRow(t, KvRow(store, t, k, 0));
    return t;
  };
  auto make_follow = [](TableId t) {
    // Adds 1 to the row that row 0 points at.
    return LambdaProcedure(
        "follow_pointer",
        [t](DeclareContext& c) {
          const RowValue* ptr = c.ReadCommitted(t, K(0));
          c.DeclareWrite(t, K(ptr->GetInt(1)), WriteKind::kUpdate);
          c.DeclareWrite(t, K(100), WriteKind::kUpsert);  // remembers what it expected
          c.scratch().push_back(Value::Int(ptr->GetInt(1)));  // to validate in Execute
        },
        [t](ExecContext& c) {
          int64_t expected = c.scratch().at(0).as_int();
          int64_t now = c.Read(t, K(0))->GetInt(1);
          if (now != expected) {
            c.Retry();
            return;
          }
          c.Publish();
          const RowValue* old = c.Read(t, K(now));
          c.Update(t, K(now), RowBuilder(c.table(t).schema(), *old).SetInt(1, old->GetInt(1) + 1).Build());
          c.Upsert(t, K(100), RowBuilder(c.table(t).schema()).SetInt(0, 100).SetInt(1, now).Build());
        });
  };
  auto make_repoint = [](TableId t) {
    return LambdaProcedure(
        "repoint", [t](DeclareContext& c) { c.DeclareWrite(t, K(0), WriteKind::kUpdate); },
        [t](ExecContext& c) {
          c.Publish();
          c.Update(t, K(0), RowBuilder(c.table(t).schema()).SetInt(0, 0).SetInt(1, 5).Build());
        });
  };
  ReferenceExecutor ref;
  TableId rt = setup(ref);
  LambdaProcedure ref_repoint = make_repoint(rt), ref_follow = make_follow(rt);
  TxnResult ref_results[2];
  SubmitTo(ref, ref_repoint, {}, &ref_results[0]);
  SubmitTo(ref, ref_follow, {}, &ref_results[1]);
  EXPECT_EQ(ref_results[1].status, TxnResult::Status::kCommitted) << ref_results[1].message;

  for (int workers : {1, 2}) {
    Database db;
    TableId t = setup(db);
    EngineOptions o;
    o.workers = workers;
    o.epoch_interval_ms = 60000;
    Engine engine(db, o);
    LambdaProcedure repoint = make_repoint(t), follow = make_follow(t);
    TxnResult r[2];
    SubmitTo(engine, repoint, {}, &r[0]);
    SubmitTo(engine, follow, {}, &r[1]);
    engine.Drain();
    EXPECT_EQ(r[1].status, TxnResult::Status::kCommitted) << r[1].message;
    EXPECT_EQ(r[1].attempts, 2u) << "it read row 0 before the repoint committed, so it must retry once";
    EXPECT_EQ(engine.stats().retries, 1u);
    EXPECT_EQ(CommittedV(db, t, 5), 1);
    EXPECT_EQ(CommittedV(db, t, 3), 0);
    EXPECT_EQ(StateHash(db), StateHash(ref));
  }
}

// A procedure that declares its write set by reconnaissance may ask to start an epoch:
// then the committed state it reads is exactly the state at its serial position, so it
// never retries and the outcome is the serial one in submission order, however many such
// transactions are interleaved with writers of what they read.
TEST(EngineSemanticsTest, EpochHeadReconnaissanceNeverRetries) {
  auto setup = [](Store& store) {
    TableId t = CreateKv(store);
    store.LoadRow(t, KvRow(store, t, 0, 3));
    for (int k = 3; k <= 6; ++k) store.LoadRow(t, KvRow(store, t, k, 0));
    return t;
  };
  auto make_follow = [](TableId t) {
    LambdaProcedure p(
        "follow_pointer",
        [t](DeclareContext& c) {
          const RowValue* ptr = c.ReadCommitted(t, K(0));
          c.DeclareWrite(t, K(ptr->GetInt(1)), WriteKind::kUpdate);
          c.scratch().push_back(Value::Int(ptr->GetInt(1)));
        },
        [t](ExecContext& c) {
          int64_t now = c.Read(t, K(0))->GetInt(1);
          if (now != c.scratch().at(0).as_int()) {
            c.Retry();
            return;
          }
          c.Publish();
          const RowValue* old = c.Read(t, K(now));
          c.Update(t, K(now), RowBuilder(c.table(t).schema(), *old).SetInt(1, old->GetInt(1) + 1).Build());
        });
    p.set_epoch_head(true);
    return p;
  };
  auto make_repoint = [](TableId t) {
    return LambdaProcedure(
        "repoint", [t](DeclareContext& c) { c.DeclareWrite(t, K(0), WriteKind::kUpdate); },
        [t](ExecContext& c) {
          c.Publish();
          int64_t target = c.input().args.at(0).as_int();
          c.Update(t, K(0), RowBuilder(c.table(t).schema()).SetInt(0, 0).SetInt(1, target).Build());
        });
  };
  const std::vector<int64_t> targets = {5, 4, 6, 3, 5, 6, 4, 3};
  auto run = [&](Executor& ex, TableId t) {
    LambdaProcedure repoint = make_repoint(t), follow = make_follow(t);
    std::vector<TxnResult> results(2 * targets.size());
    for (size_t i = 0; i < targets.size(); ++i) {
      SubmitTo(ex, repoint, {Value::Int(targets[i])}, &results[2 * i]);
      SubmitTo(ex, follow, {}, &results[2 * i + 1]);
    }
    ex.Drain();
    return results;
  };
  ReferenceExecutor ref;
  run(ref, setup(ref));
  for (int workers : {1, 2}) {
    Database db;
    TableId t = setup(db);
    EngineOptions o;
    o.workers = workers;
    o.epoch_interval_ms = 60000;
    Engine engine(db, o);
    for (const TxnResult& r : run(engine, t)) {
      EXPECT_EQ(r.status, TxnResult::Status::kCommitted) << r.message;
      EXPECT_EQ(r.attempts, 1u);
    }
    EXPECT_EQ(engine.stats().retries, 0u);
    EXPECT_EQ(StateHash(db), StateHash(ref));
  }
}

// Savepoints (PL/pgSQL's EXCEPTION blocks): a rollback makes each row what the
// transaction had made it at the mark - an earlier own write, or the committed row for
// one first written after it (a row inserted after it is absent again, one deleted
// after it is back) - and later transactions see only what was kept.
TEST(EngineSemanticsTest, SavepointsUndoTheWritesAfterTheirMark) {
  ForEachExecutor([](Store& store, Executor& ex, const std::string& what) {
    TableId t = CreateKv(store);
    store.LoadRow(t, KvRow(store, t, 1, 10));
    store.LoadRow(t, KvRow(store, t, 2, 20));
    auto v = [t](ExecContext& c, int64_t k) -> int64_t {
      const RowValue* r = c.Read(t, K(k));
      return r ? r->GetInt(1) : -1;
    };
    LambdaProcedure writer(
        "writer",
        [t](DeclareContext& c) {
          c.DeclareWrite(t, K(1), WriteKind::kUpdate);
          c.DeclareWrite(t, K(2), WriteKind::kUpdate);
          c.DeclareWrite(t, K(3), WriteKind::kInsert);
          c.DeclareWrite(t, K(4), WriteKind::kInsert);
        },
        [t, v](ExecContext& c) {
          const Schema& s = c.table(t).schema();
          auto row = [&](int64_t k, int64_t x) { return RowBuilder(s).SetInt(0, k).SetInt(1, x).Build(); };
          c.Update(t, K(1), row(1, 11));
          const int64_t outer = c.Savepoint();
          c.Update(t, K(1), row(1, 12));
          c.Insert(t, K(3), row(3, 30));
          c.Delete(t, K(2));
          const int64_t inner = c.Savepoint();
          c.Update(t, K(1), row(1, 13));
          c.ReleaseSavepoint(inner);  // kept for now, but still the outer mark's to undo
          const std::vector<Value> inside = {Value::Int(v(c, 1)), Value::Int(v(c, 2)), Value::Int(v(c, 3))};
          c.RollbackToSavepoint(outer);
          const int64_t kept = c.Savepoint();
          c.Update(t, K(2), row(2, 21));
          c.Insert(t, K(4), row(4, 40));
          c.ReleaseSavepoint(kept);
          const int64_t undone = c.Savepoint();
          c.Delete(t, K(4));
          c.RollbackToSavepoint(undone);
          c.Emit(inside);
          c.Emit({Value::Int(v(c, 1)), Value::Int(v(c, 2)), Value::Int(v(c, 3)), Value::Int(v(c, 4))});
        });
    LambdaProcedure reader(
        "reader",
        [t](DeclareContext& c) {
          for (int64_t k = 1; k <= 4; ++k) c.Prefetch(t, K(k));
        },
        [v](ExecContext& c) { c.Emit({Value::Int(v(c, 1)), Value::Int(v(c, 2)), Value::Int(v(c, 3)), Value::Int(v(c, 4))}); });
    LambdaProcedure late_savepoint(
        "late_savepoint", [t](DeclareContext& c) { c.DeclareWrite(t, K(1), WriteKind::kUpdate); },
        [](ExecContext& c) {
          c.Publish();
          c.Savepoint();  // misuse: a published write cannot be taken back
        });
    TxnResult w, r, late;
    SubmitTo(ex, writer, {}, &w);
    SubmitTo(ex, reader, {}, &r);
    SubmitTo(ex, late_savepoint, {}, &late);
    ex.Drain();
    ASSERT_EQ(w.status, TxnResult::Status::kCommitted) << what << ": " << w.message;
    ASSERT_EQ(w.rows.size(), 2u) << what;
    auto ints = [](const std::vector<Value>& row) {
      std::vector<int64_t> out;
      for (const Value& x : row) out.push_back(x.as_int());
      return out;
    };
    EXPECT_EQ(ints(w.rows[0]), (std::vector<int64_t>{13, -1, 30})) << what << ": own writes before the rollback";
    EXPECT_EQ(ints(w.rows[1]), (std::vector<int64_t>{11, 21, -1, 40})) << what << ": after the rollbacks";
    ASSERT_EQ(r.status, TxnResult::Status::kCommitted) << what;
    EXPECT_EQ(ints(r.rows.at(0)), (std::vector<int64_t>{11, 21, -1, 40})) << what << ": the next transaction";
    EXPECT_EQ(late.status, TxnResult::Status::kAborted) << what;
    EXPECT_NE(late.message.find("Savepoint() after Publish()"), std::string::npos) << what << ": " << late.message;
    EXPECT_EQ(CommittedV(store, t, 1), 11) << what;
    EXPECT_EQ(CommittedV(store, t, 2), 21) << what;
    EXPECT_EQ(CommittedV(store, t, 3), std::nullopt) << what;
    EXPECT_EQ(CommittedV(store, t, 4), 40) << what;
  });
}

}  // namespace
}  // namespace caracal::engine::testing
