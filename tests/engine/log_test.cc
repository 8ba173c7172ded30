// The input log's format, writer and reader: records come back as written, across
// segment rotations; a torn or damaged tail (every flipped byte and every truncation of
// the last record) is cut at the last whole unit and can be written after; damage a
// crash cannot explain is an error. And the engine's side: with synchronous commit no
// result precedes its record's durability; transactions that retried after a failed
// reconnaissance replay as logged; a procedure without a log identity cannot run on a
// logged engine.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <string>
#include <vector>

#include "engine/log/log_codec.h"
#include "engine/log/log_reader.h"
#include "engine/log/log_record.h"
#include "engine/durability/checkpoint.h"
#include "engine/storage/database.h"
#include "engine/execution/engine.h"
#include "engine/durability/log_replay.h"
#include "engine/log/log_writer.h"
#include "engine/storage/store.h"
#include "tests/engine/temp_dir.h"
#include "tests/engine/test_util.h"

namespace caracal::engine {
namespace {

using testing::TempDir;

std::vector<Value> SampleValues() {
  return {Value::Null(),
          Value::Bool(true),
          Value::Bool(false),
          Value::Int(0),
          Value::Int(-1),
          Value::Int(INT64_MIN),
          Value::Int(INT64_MAX),
          Value::Double(-2.5),
          Value::Numeric(-123456789, 4),
          Value::String(""),
          Value::String(std::string("a\0b", 3)),
          Value::Timestamp(-86400000000LL),
          Value::Array({Value::Int(1), Value::Null(), Value::Array({Value::String("x")})})};
}

TEST(LogCodec, ValuesRoundTrip) {
  std::string bytes;
  ByteWriter w(bytes);
  for (const Value& v : SampleValues()) w.Val(v);
  ByteReader r(bytes, "test");
  for (const Value& v : SampleValues()) EXPECT_TRUE(r.Val() == v) << v.ToText();
  EXPECT_TRUE(r.done());
}

TEST(LogCodec, EveryTruncationThrowsInsteadOfReadingPastTheEnd) {
  std::string bytes;
  ByteWriter w(bytes);
  for (const Value& v : SampleValues()) w.Val(v);
  for (size_t n = 0; n < bytes.size(); ++n) {
    ByteReader r(std::string_view(bytes).substr(0, n), "test");
    EXPECT_THROW(
        {
          for (size_t i = 0; i < SampleValues().size(); ++i) r.Val();
        },
        LogFormatError)
        << "prefix of " << n << " bytes";
  }
}

TEST(LogRecord, EpochRecordRoundTrips) {
  TxnInput a{{Value::Int(7), Value::String("x")}, {41, 42}};
  TxnInput b{{}, {}};
  EpochRecordBuilder builder(9, {{"seq", 43, 1, 42}}, 3);
  builder.Add("call f(integer, text)", 1, false, a);
  builder.Add("native:g", 2, false, b);
  builder.Add("call f(integer, text)", 1, true, a);
  EpochRecord e = DecodeEpoch(builder.Finish(), 1);
  EXPECT_EQ(e.epoch, 9u);
  ASSERT_EQ(e.sequences.size(), 1u);
  EXPECT_EQ(e.sequences[0], (SequenceState{"seq", 43, 1, 42}));
  ASSERT_EQ(e.identities.size(), 2u);  // each procedure named once
  ASSERT_EQ(e.txns.size(), 3u);
  EXPECT_EQ(e.identities[e.txns[0].identity], "call f(integer, text)");
  EXPECT_EQ(e.identities[e.txns[1].identity], "native:g");
  EXPECT_EQ(e.txns[1].attempts, 2u);
  EXPECT_TRUE(e.txns[2].failed);
  EXPECT_TRUE(e.txns[0].input.args[1] == Value::String("x"));
  EXPECT_EQ(e.txns[0].input.sequence_values, (std::vector<int64_t>{41, 42}));
}

// Epoch records whose single argument is their number, for checking what comes back.
std::string TestEpoch(uint32_t epoch) {
  EpochRecordBuilder b(epoch, {}, 1);
  b.Add("native:t", 1, false, TxnInput{{Value::Int(epoch), Value::String(std::string(epoch % 50, 'p'))}, {}});
  return b.Finish();
}

// Writes `n` epoch records (LSN i holds epoch i) and returns the size of the newest
// segment before the last record.
uint64_t WriteEpochs(const std::filesystem::path& dir, uint32_t n, uint64_t segment_bytes = 64 << 20) {
  LogWriter log({dir, segment_bytes}, 1, {});
  for (uint32_t e = 1; e < n; ++e) log.Append(RecordType::kEpoch, TestEpoch(e));
  log.WaitDurable(n - 1);
  const uint64_t before = std::filesystem::file_size(ListSegments(dir).back().path);
  log.Append(RecordType::kEpoch, TestEpoch(n));
  log.WaitDurable(n);
  return before;
}

std::vector<uint32_t> EpochsIn(const LogScan& scan) {
  std::vector<uint32_t> epochs;
  scan.ForEach(1, [&](const RecordView& r) {
    EXPECT_EQ(r.type, RecordType::kEpoch);
    EpochRecord e = DecodeEpoch(r.payload, r.lsn);
    EXPECT_EQ(e.epoch, r.lsn);
    epochs.push_back(e.epoch);
  });
  return epochs;
}

std::vector<uint32_t> Iota(uint32_t n) {
  std::vector<uint32_t> v;
  for (uint32_t i = 1; i <= n; ++i) v.push_back(i);
  return v;
}

TEST(LogWriterReader, RecordsComeBackInOrderAcrossSegments) {
  TempDir dir;
  WriteEpochs(dir.path(), 300, 2048);
  LogScan scan = LogScan::Scan(dir.path());
  EXPECT_FALSE(scan.cut().has_value());
  EXPECT_EQ(scan.next_lsn(), 301u);
  EXPECT_GT(scan.segments().size(), 5u);  // rotated
  EXPECT_EQ(EpochsIn(scan), Iota(300));
  // Replaying from the middle skips what a checkpoint holds.
  std::vector<uint64_t> lsns;
  scan.ForEach(250, [&](const RecordView& r) { lsns.push_back(r.lsn); });
  ASSERT_EQ(lsns.size(), 51u);
  EXPECT_EQ(lsns.front(), 250u);
}

TEST(LogWriterReader, DurableCallbacksRunInLsnOrderAfterTheirRecords) {
  TempDir dir;
  std::vector<uint64_t> order;
  std::mutex m;
  {
    LogWriter log({dir.path()}, 1, {});
    for (int i = 0; i < 200; ++i) {
      uint64_t lsn = log.Append(RecordType::kDdl, EncodeDdl("create table t" + std::to_string(i) + "()"));
      log.WhenDurable(lsn, [&, lsn] {
        EXPECT_GE(log.durable_lsn(), lsn);
        std::lock_guard lock(m);
        order.push_back(lsn);
      });
    }
  }
  ASSERT_EQ(order.size(), 200u);
  for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], i + 1);
}

TEST(LogWriterReader, ConcurrentAppendsShareSyncs) {
  TempDir dir;
  LogStats stats;
  {
    LogWriter log({dir.path()}, 1, {});
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&] {
        for (int i = 0; i < 200; ++i) log.WaitDurable(log.Append(RecordType::kDdl, EncodeDdl("x")));
      });
    for (auto& th : threads) th.join();
    stats = log.stats();
  }
  EXPECT_EQ(stats.records, 800u);
  EXPECT_LT(stats.syncs, stats.records);  // group commit: some syncs covered several records
  LogScan scan = LogScan::Scan(dir.path());
  EXPECT_EQ(scan.next_lsn(), 801u);
}

void FlipByte(const std::filesystem::path& file, uint64_t offset) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(offset));
  char c;
  f.get(c);
  f.seekp(static_cast<std::streamoff>(offset));
  f.put(static_cast<char>(c ^ 0x5a));
}

TEST(LogCorruption, EveryFlippedByteOfTheLastRecordIsCut) {
  TempDir base;
  const std::filesystem::path original = base.path() / "original";
  const uint64_t last_start = WriteEpochs(original, 6);
  const std::filesystem::path segment = ListSegments(original).back().path;
  const uint64_t size = std::filesystem::file_size(segment);
  ASSERT_GT(size, last_start);
  for (uint64_t p = last_start; p < size; ++p) {
    const std::filesystem::path copy = base.path() / "copy";
    std::filesystem::remove_all(copy);
    std::filesystem::copy(original, copy);
    FlipByte(ListSegments(copy).back().path, p);
    LogScan scan = LogScan::Scan(copy);
    ASSERT_TRUE(scan.cut().has_value()) << "byte " << p;
    EXPECT_EQ(scan.cut()->offset, last_start);
    EXPECT_EQ(scan.cut()->bytes, size - last_start);
    EXPECT_EQ(scan.next_lsn(), 6u) << "byte " << p;
    EXPECT_EQ(EpochsIn(scan), Iota(5));
  }
}

TEST(LogCorruption, EveryTruncationOfTheLastRecordIsCut) {
  TempDir base;
  const std::filesystem::path original = base.path() / "original";
  const uint64_t last_start = WriteEpochs(original, 6);
  const uint64_t size = std::filesystem::file_size(ListSegments(original).back().path);
  for (uint64_t p = last_start; p < size; ++p) {
    const std::filesystem::path copy = base.path() / "copy";
    std::filesystem::remove_all(copy);
    std::filesystem::copy(original, copy);
    std::filesystem::resize_file(ListSegments(copy).back().path, p);
    LogScan scan = LogScan::Scan(copy);
    EXPECT_EQ(scan.cut().has_value(), p > last_start) << "length " << p;
    EXPECT_EQ(scan.next_lsn(), 6u);
    EXPECT_EQ(EpochsIn(scan), Iota(5));
  }
}

TEST(LogCorruption, AfterTheCutTheLogContinuesWhereItWasCut) {
  TempDir dir;
  const uint64_t last_start = WriteEpochs(dir.path(), 6);
  std::filesystem::resize_file(ListSegments(dir.path()).back().path, last_start + 10);
  {
    LogScan scan = LogScan::Scan(dir.path());
    ASSERT_TRUE(scan.cut().has_value());
    std::vector<SegmentFile> kept = scan.Repair();
    LogWriter log({dir.path()}, scan.next_lsn(), kept);
    for (uint32_t e = 6; e <= 8; ++e) log.Append(RecordType::kEpoch, TestEpoch(e));
  }
  LogScan scan = LogScan::Scan(dir.path());
  EXPECT_FALSE(scan.cut().has_value());
  EXPECT_EQ(EpochsIn(scan), Iota(8));
}

TEST(LogCorruption, DamageBeforeTheNewestSegmentIsAnError) {
  TempDir dir;
  WriteEpochs(dir.path(), 100, 2048);
  std::vector<SegmentFile> segments = ListSegments(dir.path());
  ASSERT_GE(segments.size(), 3u);
  FlipByte(segments[1].path, kSegmentHeaderBytes + 30);
  EXPECT_THROW(LogScan::Scan(dir.path()), LogFormatError);
}

TEST(LogCorruption, MissingSegmentIsAnError) {
  TempDir dir;
  WriteEpochs(dir.path(), 100, 2048);
  std::vector<SegmentFile> segments = ListSegments(dir.path());
  ASSERT_GE(segments.size(), 3u);
  std::filesystem::remove(segments[1].path);
  EXPECT_THROW(LogScan::Scan(dir.path()), LogFormatError);
}

TEST(LogCorruption, LoadWithoutItsEndRecordIsCutWhole) {
  TempDir dir;
  {
    LogWriter log({dir.path()}, 1, {});
    log.Append(RecordType::kEpoch, TestEpoch(1));
    LoadRowsBuilder rows("t");
    rows.Add("row bytes");
    log.Append(RecordType::kLoadRows, rows.Take(), false);
    rows.Add("more");
    log.WaitDurable(log.Append(RecordType::kLoadRows, rows.Take(), false));
  }
  LogScan scan = LogScan::Scan(dir.path());
  ASSERT_TRUE(scan.cut().has_value());
  EXPECT_EQ(scan.cut()->records, 2u);
  EXPECT_EQ(scan.cut()->first_lsn, 2u);
  EXPECT_EQ(scan.next_lsn(), 2u);
  EXPECT_EQ(EpochsIn(scan), Iota(1));
}

TEST(LogCorruption, TornSegmentHeaderIsCutAndRemoved) {
  TempDir dir;
  WriteEpochs(dir.path(), 3);
  const std::filesystem::path torn = SegmentPath(dir.path(), 4);
  std::string header = EncodeSegmentHeader(4);
  std::ofstream(torn, std::ios::binary).write(header.data(), 10);
  LogScan scan = LogScan::Scan(dir.path());
  ASSERT_TRUE(scan.cut().has_value());
  EXPECT_EQ(scan.next_lsn(), 4u);
  scan.Repair();
  EXPECT_FALSE(std::filesystem::exists(torn));
  EXPECT_FALSE(LogScan::Scan(dir.path()).cut().has_value());
}

TEST(LogCorruption, RandomGarbageAfterTheLastRecordIsCut) {
  TempDir dir;
  WriteEpochs(dir.path(), 4);
  const std::filesystem::path segment = ListSegments(dir.path()).back().path;
  std::mt19937 rng(7);
  std::string garbage;
  for (int i = 0; i < 5000; ++i) garbage.push_back(static_cast<char>(rng()));
  std::ofstream(segment, std::ios::binary | std::ios::app).write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  LogScan scan = LogScan::Scan(dir.path());
  ASSERT_TRUE(scan.cut().has_value());
  EXPECT_EQ(scan.cut()->bytes, garbage.size());
  EXPECT_EQ(EpochsIn(scan), Iota(4));
}

TEST(LogWriterReader, DiscardThroughKeepsWhatRecoveryNeeds) {
  TempDir dir;
  LogWriter log({dir.path(), 2048}, 1, {});
  for (uint32_t e = 1; e <= 100; ++e) log.Append(RecordType::kEpoch, TestEpoch(e));
  log.WaitDurable(100);
  const size_t before = ListSegments(dir.path()).size();
  EXPECT_GT(log.DiscardThrough(60), 0u);
  EXPECT_LT(ListSegments(dir.path()).size(), before);
  LogScan scan = LogScan::Scan(dir.path());
  EXPECT_LE(scan.first_lsn(), 61u);
  std::vector<uint64_t> lsns;
  scan.ForEach(61, [&](const RecordView& r) { lsns.push_back(r.lsn); });
  EXPECT_EQ(lsns.size(), 40u);
}

std::string Hex(uint64_t h) { return fmt::format("{:016x}", h); }

// A procedure of the kv tests with a log identity.
class Named final : public Procedure {
 public:
  Named(std::string name, testing::LambdaProcedure::DeclareFn d, testing::LambdaProcedure::ExecuteFn e)
      : inner_(name, std::move(d), std::move(e)), identity_("test:" + name) {}
  const std::string& name() const override { return inner_.name(); }
  void Declare(DeclareContext& ctx) const override { inner_.Declare(ctx); }
  void Execute(ExecContext& ctx) const override { inner_.Execute(ctx); }
  std::string_view log_identity() const override { return identity_; }

 private:
  testing::LambdaProcedure inner_;
  std::string identity_;
};

class MapHost final : public ReplayHost {
 public:
  explicit MapHost(std::vector<const Procedure*> ps) {
    for (const Procedure* p : ps) m_[std::string(p->log_identity())] = p;
  }
  std::shared_ptr<const Procedure> Resolve(std::string_view id) override {
    auto it = m_.find(std::string(id));
    return it == m_.end() ? nullptr : std::shared_ptr<const Procedure>(std::shared_ptr<const Procedure>(), it->second);
  }
  void ReplayDdl(const std::string&) override {}

 private:
  std::map<std::string, const Procedure*> m_;
};

TEST(ReplayRetries, ReconnaissanceRetriesReplayAsLogged) {
  // "follow": reads row 0's value v by reconnaissance and writes row v + 100; if v changed
  // before it runs, it retries in the next epoch. "bump" changes row 0 in the same epochs.
  TempDir dir;
  auto run = [&](Database& db, Engine& engine, Named& bump, Named& follow, std::vector<TxnResult>& results) {
    for (int i = 0; i < 60; ++i) {
      testing::SubmitTo(engine, (i % 3 == 0) ? bump : follow, {Value::Int(i)}, &results[i]);
    }
    engine.Drain();
  };
  auto make = [](TableId t) {
    Named bump(
        "bump", [t](DeclareContext& c) { c.DeclareWrite(t, testing::K(0), WriteKind::kUpdate); },
        [t](ExecContext& c) {
          const RowValue* r = c.Read(t, testing::K(0));
          c.Update(t, testing::K(0), RowBuilder(c.table(t).schema()).SetInt(0, 0).SetInt(1, r->GetInt(1) + 1).Build());
        });
    Named follow(
        "follow",
        [t](DeclareContext& c) {
          const RowValue* r = c.ReadCommitted(t, testing::K(0));
          const int64_t v = r ? r->GetInt(1) : 0;
          c.scratch().push_back(Value::Int(v));
          c.DeclareWrite(t, testing::K(v + 100), WriteKind::kUpsert);
        },
        [t](ExecContext& c) {
          const int64_t v = c.scratch()[0].as_int();
          const RowValue* r = c.Read(t, testing::K(0));
          if (r->GetInt(1) != v) {
            c.Retry();
            return;
          }
          c.Upsert(t, testing::K(v + 100),
                   RowBuilder(c.table(t).schema()).SetInt(0, v + 100).SetInt(1, c.input().args[0].as_int()).Build());
        });
    return std::make_pair(std::move(bump), std::move(follow));
  };
  uint64_t original_hash;
  uint64_t retries;
  {
    Database db;
    TableId t = testing::CreateKv(db);
    db.LoadRow(t, testing::KvRow(db, t, 0, 0));
    auto [bump, follow] = make(t);
    LogWriter log({dir.path() / "log"}, 1, {});
    EngineOptions o;
    o.workers = 2;
    o.epoch_max_txns = 8;
    o.epoch_interval_ms = 1000;
    std::vector<TxnResult> results(60);
    {
      Engine engine(db, o);
      engine.AttachLog(&log);
      run(db, engine, bump, follow, results);
      retries = engine.stats().retries;
    }
    original_hash = StateHash(db);
    uint32_t max_attempts = 0;
    for (const TxnResult& r : results) max_attempts = std::max(max_attempts, r.attempts);
    ASSERT_GT(max_attempts, 1u) << "the workload should make some transactions retry";
  }
  ASSERT_GT(retries, 0u);
  Database db;
  TableId t = testing::CreateKv(db);
  db.LoadRow(t, testing::KvRow(db, t, 0, 0));
  auto [bump, follow] = make(t);
  MapHost host({&bump, &follow});
  LogScan scan = LogScan::Scan(dir.path() / "log");
  {
    EngineOptions o;
    o.workers = 1;  // the run had 2
    Engine engine(db, o);
    ReplayLog(scan, 0, engine, db, host);
  }
  EXPECT_EQ(Hex(StateHash(db)), Hex(original_hash));
}

TEST(ReplayIdentity, ProcedureWithoutLogIdentityFailsOnALoggedEngine) {
  TempDir dir;
  Database db;
  TableId t = testing::CreateKv(db);
  testing::LambdaProcedure anonymous(
      "anonymous", [t](DeclareContext& c) { c.DeclareWrite(t, testing::K(1), WriteKind::kUpsert); },
      [t](ExecContext& c) { c.Upsert(t, testing::K(1), RowBuilder(c.table(t).schema()).SetInt(0, 1).SetInt(1, 1).Build()); });
  LogWriter log({dir.path()}, 1, {});
  TxnResult result;
  {
    Engine engine(db, EngineOptions{});
    engine.AttachLog(&log);
    testing::SubmitTo(engine, anonymous, {}, &result);
    engine.Drain();
  }
  EXPECT_EQ(result.status, TxnResult::Status::kAborted);
  EXPECT_EQ(result.sqlstate, "0A000");
  EXPECT_FALSE(testing::CommittedV(db, t, 1).has_value());
}

TEST(ReplayCommit, ResultsWaitForTheLogUnlessSynchronousCommitIsOff) {
  TempDir dir;
  Database db;
  TableId t = testing::CreateKv(db);
  Named put(
      "put", [t](DeclareContext& c) { c.DeclareWrite(t, testing::K(c.input().args[0].as_int()), WriteKind::kUpsert); },
      [t](ExecContext& c) {
        const int64_t k = c.input().args[0].as_int();
        c.Upsert(t, testing::K(k), RowBuilder(c.table(t).schema()).SetInt(0, k).SetInt(1, k).Build());
      });
  LogWriter log({dir.path()}, 1, {});
  for (bool sync : {true, false}) {
    std::atomic<uint64_t> durable_at_result{0};
    std::atomic<int> done{0};
    {
      Engine engine(db, EngineOptions{});
      engine.AttachLog(&log);
      engine.set_synchronous_commit(sync);
      for (int i = 0; i < 50; ++i) {
        TxnRequest r;
        r.procedure = &put;
        r.input.args = {Value::Int(i + (sync ? 0 : 100))};
        r.on_done = [&](TxnResult&&) {
          durable_at_result = log.durable_lsn();
          ++done;
        };
        engine.Submit(std::move(r));
      }
      engine.Drain();
    }
    EXPECT_EQ(done.load(), 50);
    if (sync) {
      EXPECT_GE(durable_at_result.load(), log.last_lsn()) << "a result went out before its epoch was durable";
    }
  }
}

TEST(Checkpoint, TakenWhileEpochsRunThenTheLogAfterItGivesTheFinalState) {
  TempDir dir;
  Database db;
  const TableId t = testing::CreateKv(db);
  for (int k = 0; k < 2000; ++k) db.LoadRow(t, testing::KvRow(db, t, k, -k));
  Named put(
      "put", [t](DeclareContext& c) { c.DeclareWrite(t, testing::K(c.input().args[0].as_int()), WriteKind::kUpsert); },
      [t](ExecContext& c) {
        const int64_t k = c.input().args[0].as_int();
        const RowValue* old = c.Read(t, testing::K(k));
        const int64_t v = c.input().args[1].as_int() + (old ? old->GetInt(1) : 0);
        c.Upsert(t, testing::K(k), RowBuilder(c.table(t).schema()).SetInt(0, k).SetInt(1, v).Build());
      });
  EngineOptions o;
  o.workers = 2;
  o.epoch_max_txns = 64;
  o.epoch_interval_ms = 1;
  std::optional<CheckpointInfo> info;
  uint64_t final_hash;
  {
    LogWriter log({dir.path() / "log", 16 << 10}, 1, {});
    Engine engine(db, o);
    engine.AttachLog(&log);
    std::thread submitter([&] {
      for (int i = 0; i < 12000; ++i) {
        testing::SubmitTo(engine, put, {Value::Int((i * 7919) % 3000), Value::Int(i)}, nullptr);
        if (i % 500 == 0) engine.Drain();  // keep epochs coming while the checkpoint runs
      }
      engine.Drain();
    });
    while (db.committed_epoch() < 20) std::this_thread::yield();
    {
      RunningCheckpoint running(engine, [&](CheckpointMeta& meta) { meta.lsn = log.last_lsn(); });
      log.WaitDurable(running.meta().lsn);
      info = running.Write(dir.path() / "checkpoint");
    }
    log.DiscardThrough(info->lsn);
    submitter.join();
    final_hash = StateHash(db);
  }
  ASSERT_GE(info->epoch, 20u);
  EXPECT_GE(info->rows, 2000u);
  // Recovery: the checkpoint, then the log after it.
  Database again;
  testing::CreateKv(again);
  CheckpointReader reader(*LatestCheckpoint(dir.path() / "checkpoint"));
  EXPECT_EQ(reader.meta().lsn, info->lsn);
  again.set_committed_epoch(reader.meta().epoch);
  EXPECT_EQ(reader.LoadRows(again, 2), info->rows);
  again.set_committed_epoch(reader.meta().epoch + 1);
  LogScan scan = LogScan::Scan(dir.path() / "log");
  EXPECT_LE(scan.first_lsn(), info->lsn + 1);
  MapHost host({&put});
  ReplayStats stats;
  {
    Engine engine(again, o);
    stats = ReplayLog(scan, info->lsn, engine, again, host);
  }
  EXPECT_GT(stats.epochs, 0u) << "the run should have gone on after the checkpoint";
  EXPECT_EQ(Hex(StateHash(again)), Hex(final_hash));
}

}  // namespace
}  // namespace caracal::engine
