// LogWriter: appends records to the input log of a data directory on its own thread,
// with group commit.
//
// Append() hands a record over and returns at once; the writer thread takes everything
// handed over since its last round, writes it with one write() and makes it durable with
// one fdatasync(), then runs the callbacks waiting for those records (WhenDurable), in
// LSN order. Records that arrive while an fdatasync is running share the next one, so
// under load several epochs cost one sync (group commit). Segments are rotated at record
// boundaries once they reach `segment_bytes`.
//
// A failed write or sync is not survivable (the in-memory state would be ahead of what
// can be recovered, and a retried fsync may report success for lost data): the writer
// prints a PANIC line and aborts the process; recovery then replays what is durable.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/log/log_record.h"
#include "engine/log/log_segment.h"

namespace caracal::engine {

struct LogWriterOptions {
  std::filesystem::path dir;                // DATADIR/log
  uint64_t segment_bytes = 64ull << 20;     // rotate after this much
};

struct LogStats {
  uint64_t records = 0;
  uint64_t epochs = 0;         // kEpoch records
  uint64_t txns = 0;           // transactions in them (as reported by Append)
  uint64_t bytes = 0;          // written since start, framing included
  uint64_t syncs = 0;          // fdatasync calls (group commits)
  double sync_ms = 0;          // total time in fdatasync
  double max_sync_ms = 0;
  uint64_t segments = 0;       // segment files on disk
  uint64_t segment_bytes = 0;  // their total size
  uint64_t durable_lsn = 0;
  uint64_t last_lsn = 0;
};

class LogWriter {
 public:
  // The next record gets `next_lsn`. `existing`: the segments already on disk (after
  // recovery cut any torn tail), in LSN order; the newest is appended to while it has
  // room, else a new segment starts.
  LogWriter(LogWriterOptions options, uint64_t next_lsn, std::vector<SegmentFile> existing);
  ~LogWriter();  // makes everything appended durable, runs the callbacks, stops
  LogWriter(const LogWriter&) = delete;
  LogWriter& operator=(const LogWriter&) = delete;

  // Appends one record; thread-safe; records are written in the order of the calls.
  // `txns`: transactions in it (statistics only). Returns the record's LSN.
  uint64_t Append(RecordType type, std::string payload, bool ends_unit = true, uint64_t txns = 0);
  // Runs `fn` on the writer thread once every record up to `lsn` is durable; callbacks
  // run in the order of their LSNs (equal LSNs: in the order registered).
  void WhenDurable(uint64_t lsn, std::function<void()> fn);
  // Blocks until every record up to `lsn` is durable.
  void WaitDurable(uint64_t lsn);
  uint64_t last_lsn() const;
  uint64_t durable_lsn() const;

  // Deletes the segments whose records all have LSN <= `lsn` (a checkpoint holds them),
  // never the one being written. Returns the bytes freed.
  uint64_t DiscardThrough(uint64_t lsn);
  // Bytes of log on disk holding records after `lsn` (what recovery would replay).
  uint64_t BytesAfter(uint64_t lsn) const;

  LogStats stats() const;

 private:
  struct Pending {
    RecordType type;
    uint64_t lsn;
    bool ends_unit;
    std::string payload;
  };
  struct Waiter {
    uint64_t lsn;
    std::function<void()> fn;
  };
  struct Segment {
    std::filesystem::path path;
    uint64_t first_lsn;
    uint64_t last_lsn;  // 0: no records yet
    uint64_t bytes;
  };

  void Loop();
  // Writes `batch` (rotating segments as needed) and syncs. Writer thread only.
  void WriteBatch(std::vector<Pending>& batch);
  void OpenSegment(uint64_t first_lsn);
  [[noreturn]] void Panic(const std::exception& e);

  const LogWriterOptions options_;

  mutable std::mutex mutex_;
  std::condition_variable cv_;          // the writer waits for work
  std::condition_variable durable_cv_;  // WaitDurable waits for the writer
  std::vector<Pending> queue_;
  std::deque<Waiter> waiters_;
  uint64_t next_lsn_;
  uint64_t durable_lsn_;
  bool stopping_ = false;
  std::vector<Segment> segments_;  // on disk, by LSN; the last is the one written
  LogStats stats_;

  const uint64_t start_lsn_;  // the first LSN this writer hands out

  // Writer thread only.
  FileHandle fd_;
  std::filesystem::path current_path_;
  std::string buffer_;

  std::thread thread_;
};

}  // namespace caracal::engine
