// LogReader: reads the input log back for recovery.
//
// Scan() reads every segment, checks each record's frame, checksum and LSN, and finds
// the end of the log: the end of the last whole unit (log_record.h). What follows it in
// the newest segment (a torn or damaged record, or a load without its end record) is the
// *cut*: it never was durable as a whole, so no client saw it acknowledged. Damage
// anywhere else (in a segment with a newer one after it, or a missing segment) cannot
// come from a crash and is an error: LogFormatError, and the database is not opened.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/log/log_record.h"
#include "engine/log/log_segment.h"

namespace caracal::engine {

struct LogCut {
  std::filesystem::path segment;
  uint64_t offset = 0;         // where the log now ends in that segment
  uint64_t bytes = 0;          // bytes dropped (this segment's tail)
  uint64_t records = 0;        // whole records dropped (an incomplete unit's)
  uint64_t first_lsn = 0;      // the first LSN dropped
  std::string reason;          // why the tail is not part of the log
  std::string Describe() const;
};

class LogScan {
 public:
  struct Segment {
    std::filesystem::path path;
    uint64_t first_lsn = 0;
    uint64_t end_offset = 0;  // bytes that belong to the log (header included)
    uint64_t file_bytes = 0;
    uint64_t last_lsn = 0;    // 0: no records kept
  };

  // Reads every segment of `log_dir` (a missing directory is an empty log). Throws
  // LogFormatError for damage that a crash cannot explain.
  static LogScan Scan(const std::filesystem::path& log_dir);

  // The LSN the next record gets: one after the last kept record (1 for an empty log).
  uint64_t next_lsn() const { return next_lsn_; }
  // The first LSN on disk (next_lsn() if there is none).
  uint64_t first_lsn() const { return first_lsn_; }
  const std::optional<LogCut>& cut() const { return cut_; }
  const std::vector<Segment>& segments() const { return segments_; }
  uint64_t bytes() const;  // kept bytes, headers included

  // Visits the kept records with LSN >= from_lsn, in order. Re-reads the files and
  // re-checks each record (throws LogFormatError if they changed since Scan).
  void ForEach(uint64_t from_lsn, const std::function<void(const RecordView&)>& visit) const;

  // Makes the cut permanent so new records can follow the kept ones: truncates the
  // newest kept segment at its end, deletes segments left with no record, syncs the
  // directory. Returns the segments that remain, for LogWriter.
  std::vector<SegmentFile> Repair() const;

 private:
  std::vector<Segment> segments_;
  uint64_t first_lsn_ = 1;
  uint64_t next_lsn_ = 1;
  std::optional<LogCut> cut_;
  std::filesystem::path dir_;
  std::vector<std::filesystem::path> discard_;  // whole segments past the end (torn headers)
};

}  // namespace caracal::engine
