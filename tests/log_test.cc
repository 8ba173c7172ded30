// The input log's format, writer and reader: records come back as written, across
// segment rotations; a torn or damaged tail (every flipped byte and every truncation of
// the last record) is cut at the last whole unit and can be written after; damage a
// crash cannot explain is an error.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <thread>
#include <string>
#include <vector>

#include "engine/log_codec.h"
#include "engine/log_reader.h"
#include "engine/log_record.h"
#include "engine/log_writer.h"
#include "tests/temp_dir.h"

namespace caracal {
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

}  // namespace
}  // namespace caracal
