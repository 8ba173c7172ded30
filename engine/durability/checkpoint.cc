#include "engine/durability/checkpoint.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <mutex>
#include <shared_mutex>
#include <system_error>
#include <thread>

#include "engine/execution/engine.h"
#include "engine/log/log_codec.h"
#include "engine/log/log_segment.h"

namespace caracal::engine {

namespace {

constexpr std::string_view kMagic = "CRCLCKP1";
constexpr uint32_t kVersion = 1;
constexpr size_t kHeaderBytes = 32;
constexpr size_t kBlockHeaderBytes = 5;
constexpr size_t kRowsBlockBytes = 1 << 20;
constexpr size_t kWriteBufferBytes = 4 << 20;
constexpr uint64_t kWritebackBytes = 16 << 20;

// Stored in checkpoints: never renumber.
enum BlockType : uint8_t { kMeta = 1, kTable = 2, kRows = 3, kEnd = 4 };

std::string CheckpointName(uint64_t lsn) { return fmt::format("{:020}.ckpt", lsn); }

// Buffered writing of blocks to one file.
class BlockWriter {
 public:
  explicit BlockWriter(const std::filesystem::path& path)
      : path_(path), fd_(OpenFile(path, O_WRONLY | O_CREAT | O_TRUNC)) {}

  void Header(uint32_t epoch, uint64_t lsn) {
    std::string h;
    ByteWriter w(h);
    w.Raw(kMagic);
    w.U32(kVersion);
    w.U32(epoch);
    w.U64(lsn);
    w.U64(Checksum(h));
    Put(h);
  }
  void Block(BlockType type, std::string_view payload) {
    std::string h;
    ByteWriter w(h);
    w.U8(type);
    w.U32(static_cast<uint32_t>(payload.size()));
    const uint64_t sum = Checksum(h, payload);
    Put(h);
    Put(payload);
    std::string t;
    ByteWriter(t).U64(sum);
    Put(t);
  }
  // Flushes and fsyncs; returns the file's size.
  uint64_t Finish() {
    Flush();
    SyncFile(fd_.get(), path_, false);
    fd_.Close();
    return written_;
  }

 private:
  void Put(std::string_view bytes) {
    buffer_.append(bytes);
    if (buffer_.size() >= kWriteBufferBytes) Flush();
  }
  void Flush() {
    WriteAll(fd_.get(), buffer_, path_);
    written_ += buffer_.size();
    buffer_.clear();
    // Start writing back what is written so far, without waiting: a checkpoint must
    // not pile up a gigabyte of dirty pages that the log's next fdatasync then waits
    // behind (PostgreSQL's checkpoint_flush_after).
    if (written_ - flushed_ >= kWritebackBytes) {
      ::sync_file_range(fd_.get(), static_cast<off_t>(flushed_), static_cast<off_t>(written_ - flushed_),
                        SYNC_FILE_RANGE_WRITE);
      flushed_ = written_;
    }
  }
  std::filesystem::path path_;
  FileHandle fd_;
  std::string buffer_;
  uint64_t written_ = 0;
  uint64_t flushed_ = 0;  // written back (asynchronously) up to here
};

// Sequential reading of blocks from one file, each checked against its checksum.
class BlockReader {
 public:
  explicit BlockReader(const std::filesystem::path& path) : path_(path), fd_(OpenFile(path, O_RDONLY)) {}

  std::string_view Read(size_t n) {
    buf_.resize(n);
    size_t done = 0;
    while (done < n) {
      ssize_t r = ::pread(fd_.get(), buf_.data() + done, n - done, static_cast<off_t>(offset_ + done));
      if (r < 0) {
        if (errno == EINTR) continue;
        throw std::system_error(errno, std::generic_category(), "could not read " + path_.string());
      }
      if (r == 0) Fail(fmt::format("truncated at byte {}", offset_ + done));
      done += static_cast<size_t>(r);
    }
    offset_ += n;
    return buf_;
  }
  // The next block: its type, and its payload in `payload`.
  BlockType Next(std::string& payload) {
    const uint64_t at = offset_;
    std::string header(Read(kBlockHeaderBytes));
    ByteReader r(header, "checkpoint block header");
    const uint8_t type = r.U8();
    const uint32_t length = r.U32();
    if (type < kMeta || type > kEnd || length > (1u << 30)) Fail(fmt::format("bad block header at byte {}", at));
    payload.assign(Read(length));
    ByteReader t(Read(8), "checkpoint block trailer");
    if (t.U64() != Checksum(header, payload)) Fail(fmt::format("block checksum mismatch at byte {}", at));
    return static_cast<BlockType>(type);
  }
  [[noreturn]] void Fail(const std::string& why) const {
    throw LogFormatError(fmt::format("checkpoint {}: {}", path_.string(), why));
  }
  uint64_t offset() const { return offset_; }

 private:
  std::filesystem::path path_;
  FileHandle fd_;
  uint64_t offset_ = 0;
  std::string buf_;
};

void PutSequence(ByteWriter& w, const SequenceState& s) {
  w.Bytes(s.name);
  w.Signed(s.next);
  w.Signed(s.increment);
  w.Signed(s.last);
}

}  // namespace

CheckpointInfo WriteCheckpoint(const std::filesystem::path& dir, Database& db, const CheckpointMeta& meta,
                               size_t num_tables) {
  const auto start = std::chrono::steady_clock::now();
  std::filesystem::create_directories(dir);
  const std::filesystem::path final_path = dir / CheckpointName(meta.lsn);
  const std::filesystem::path tmp_path = dir / (CheckpointName(meta.lsn) + ".tmp");
  CheckpointInfo info;
  info.path = final_path;
  info.epoch = meta.epoch;
  info.lsn = meta.lsn;
  {
    BlockWriter out(tmp_path);
    out.Header(meta.epoch, meta.lsn);
    std::string m;
    ByteWriter w(m);
    w.Varint(meta.ddl.size());
    for (const std::string& s : meta.ddl) w.Bytes(s);
    w.Varint(meta.sequences.size());
    for (const SequenceState& s : meta.sequences) PutSequence(w, s);
    out.Block(kMeta, m);

    const SerialId before = MakeSerialId(meta.epoch + 1, 0);
    for (TableId id = 0; id < num_tables; ++id) {
      if (db.IsDropped(id)) continue;
      Table& table = db.table(id);
      std::string name;
      ByteWriter(name).Bytes(table.name());
      out.Block(kTable, name);
      ++info.tables;
      std::string rows;
      uint64_t in_block = 0;
      auto flush = [&] {
        if (in_block == 0) return;
        std::string block;
        ByteWriter bw(block);
        bw.Varint(in_block);
        bw.Raw(rows);
        out.Block(kRows, block);
        rows.clear();
        in_block = 0;
      };
      table.ForEach(Key(), Key(), [&](const Key&, Row& row) {
        const RowValue* v = Database::ReadSettled(row, before);
        if (v == nullptr) return true;
        ByteWriter(rows).Bytes(v->bytes());
        ++in_block;
        ++info.rows;
        if (rows.size() >= kRowsBlockBytes) flush();
        return true;
      });
      flush();
    }
    std::string end;
    ByteWriter ew(end);
    ew.Varint(info.tables);
    ew.Varint(info.rows);
    out.Block(kEnd, end);
    info.bytes = out.Finish();
  }
  std::filesystem::rename(tmp_path, final_path);
  SyncDirectory(dir);
  // The new checkpoint is in place: older ones are not needed any more.
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path() == final_path || entry.path().extension() != ".ckpt") continue;
    std::error_code ec;
    std::filesystem::remove(entry.path(), ec);
  }
  info.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return info;
}

RunningCheckpoint::RunningCheckpoint(Engine& engine, const std::function<void(CheckpointMeta&)>& capture)
    : db_(engine.database()) {
  engine.RunExclusive([&] {
    meta_.epoch = db_.committed_epoch();
    meta_.sequences = db_.sequences().States();
    num_tables_ = db_.num_tables();
    capture(meta_);
    pinned_ = db_.PinSnapshot();
    db_.set_committed_epoch(meta_.epoch + 1);
    structure_ = std::shared_lock(db_.structure_mutex());
  });
}

RunningCheckpoint::~RunningCheckpoint() {
  structure_ = {};
  db_.UnpinSnapshot(pinned_);
}

CheckpointInfo RunningCheckpoint::Write(const std::filesystem::path& dir) {
  return WriteCheckpoint(dir, db_, meta_, num_tables_);
}

std::optional<std::filesystem::path> LatestCheckpoint(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  std::optional<std::filesystem::path> best;
  std::string best_name;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".tmp")) {
      std::filesystem::remove(entry.path(), ec);
      continue;
    }
    if (name.size() != 25 || !name.ends_with(".ckpt")) continue;
    if (!best || name > best_name) {  // fixed-width names sort by LSN
      best = entry.path();
      best_name = name;
    }
  }
  return best;
}

CheckpointReader::CheckpointReader(const std::filesystem::path& path) : path_(path) {
  BlockReader in(path);
  std::string header(in.Read(kHeaderBytes));
  if (header.substr(0, kMagic.size()) != kMagic) in.Fail("not a caracal checkpoint (bad magic)");
  ByteReader h(std::string_view(header).substr(kMagic.size()), "checkpoint header");
  const uint32_t version = h.U32();
  meta_.epoch = h.U32();
  meta_.lsn = h.U64();
  if (h.U64() != Checksum(std::string_view(header).substr(0, kHeaderBytes - 8))) in.Fail("header checksum mismatch");
  if (version != kVersion) in.Fail(fmt::format("format version {} (this build reads {})", version, kVersion));
  std::string payload;
  if (in.Next(payload) != kMeta) in.Fail("the first block is not the catalog");
  ByteReader m(payload, "checkpoint catalog");
  size_t n = m.Count(1);
  for (size_t i = 0; i < n; ++i) meta_.ddl.emplace_back(m.Bytes());
  n = m.Count(4);
  for (size_t i = 0; i < n; ++i) {
    SequenceState s;
    s.name = std::string(m.Bytes());
    s.next = m.Signed();
    s.increment = m.Signed();
    s.last = m.Signed();
    meta_.sequences.push_back(std::move(s));
  }
  m.ExpectDone();
  rows_offset_ = in.offset();
}

uint64_t CheckpointReader::LoadRows(Database& db, int threads) {
  BlockReader in(path_);
  in.Read(rows_offset_);
  threads = std::max(1, threads);
  uint64_t tables = 0, rows = 0;
  std::optional<TableId> table;
  std::string table_name;
  // Blocks are loaded in batches, the rows of a batch split among the threads
  // (LoadRow is safe for distinct keys).
  std::vector<std::string> batch;
  auto load_batch = [&] {
    if (batch.empty()) return;
    std::vector<std::string_view> all;
    for (const std::string& block : batch) {
      ByteReader r(block, "checkpoint rows of " + table_name);
      size_t count = r.Count(1);
      for (size_t i = 0; i < count; ++i) all.push_back(r.Bytes());
      r.ExpectDone();
    }
    const Schema& schema = db.schema(*table);
    auto work = [&](size_t from, size_t to) {
      for (size_t i = from; i < to; ++i) db.LoadRow(*table, RowFromBytes(schema, all[i]));
    };
    if (threads == 1 || all.size() < 1024) {
      work(0, all.size());
    } else {
      std::vector<std::thread> pool;
      std::exception_ptr error;
      std::mutex error_mutex;
      for (int t = 0; t < threads; ++t) {
        const size_t from = all.size() * t / threads, to = all.size() * (t + 1) / threads;
        pool.emplace_back([&, from, to] {
          try {
            work(from, to);
          } catch (...) {
            std::lock_guard lock(error_mutex);
            if (!error) error = std::current_exception();
          }
        });
      }
      for (auto& th : pool) th.join();
      if (error) std::rethrow_exception(error);
    }
    rows += all.size();
    batch.clear();
  };
  std::string payload;
  for (;;) {
    BlockType type = in.Next(payload);
    if (type == kRows) {
      if (!table) in.Fail("rows before any table");
      batch.push_back(std::move(payload));
      payload.clear();
      if (batch.size() >= 16) load_batch();
      continue;
    }
    load_batch();
    if (type == kTable) {
      ByteReader r(payload, "checkpoint table");
      table_name = std::string(r.Bytes());
      table = db.FindTable(table_name);
      if (!table) in.Fail(fmt::format("table \"{}\" is not in the checkpoint's catalog", table_name));
      ++tables;
      continue;
    }
    if (type == kEnd) {
      ByteReader r(payload, "checkpoint end");
      const uint64_t want_tables = r.Varint(), want_rows = r.Varint();
      if (want_tables != tables || want_rows != rows)
        in.Fail(fmt::format("holds {} tables and {} rows, its end says {} and {}", tables, rows, want_tables,
                            want_rows));
      return rows;
    }
    in.Fail("unexpected catalog block");
  }
}

}  // namespace caracal::engine
