#include "engine/log/log_reader.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace caracal::engine {

std::string LogCut::Describe() const {
  std::string what = fmt::format("{} bytes at offset {} of {}", bytes, offset, segment.filename().string());
  if (records > 0) what += fmt::format(" ({} whole records of an incomplete unit from LSN {})", records, first_lsn);
  return what + ": " + reason;
}

LogScan LogScan::Scan(const std::filesystem::path& log_dir) {
  LogScan scan;
  scan.dir_ = log_dir;
  const std::vector<SegmentFile> files = ListSegments(log_dir);
  uint64_t expected = 0;  // the LSN the next record must have (0: not known yet)
  // Where the last whole unit ends: segment index, offset, LSN.
  size_t end_segment = 0;
  uint64_t end_offset = 0, end_lsn = 0;
  bool have_end = false;
  uint64_t records_after_end = 0;
  std::string reason;
  bool damaged = false;

  for (size_t i = 0; i < files.size() && !damaged; ++i) {
    const bool newest = i + 1 == files.size();
    const std::string bytes = ReadWholeFile(files[i].path);
    const std::string name = files[i].path.filename().string();
    uint64_t first = 0;
    std::string why;
    if (!ParseSegmentHeader(bytes, first, why)) {
      if (!newest) throw LogFormatError(fmt::format("log segment {}: {}", name, why));
      // Created, but its header never became durable: nothing in it was written.
      scan.discard_.push_back(files[i].path);
      reason = fmt::format("segment {}: {}", name, why);
      damaged = true;
      if (!have_end) {
        // Nothing kept before it either: the cut is this whole file.
        LogCut cut{files[i].path, 0, bytes.size(), 0, files[i].first_lsn, reason};
        scan.cut_ = cut;
      }
      break;
    }
    if (first != files[i].first_lsn)
      throw LogFormatError(fmt::format("log segment {} says it starts at LSN {}", name, first));
    if (expected != 0 && first != expected)
      throw LogFormatError(fmt::format("log segment missing: LSN {} expected, but the next segment is {}", expected, name));
    if (expected == 0) {
      expected = first;
      scan.first_lsn_ = first;
      end_lsn = first - 1;
    }
    Segment seg{files[i].path, first, kSegmentHeaderBytes, bytes.size(), 0};
    if (!have_end) {  // the log so far ends right after this header
      end_segment = i;
      end_offset = kSegmentHeaderBytes;
      have_end = true;
    }
    uint64_t offset = kSegmentHeaderBytes;
    while (offset < bytes.size()) {
      RecordView rec;
      size_t n = ParseRecord(std::string_view(bytes).substr(offset), rec, why);
      if (n > 0 && rec.lsn != expected) {
        n = 0;
        why = fmt::format("record with LSN {} where {} was expected", rec.lsn, expected);
      }
      if (n == 0) {
        if (!newest)
          throw LogFormatError(fmt::format("log segment {} is damaged at byte {} ({}), and newer segments follow it",
                                           name, offset, why));
        reason = why;
        damaged = true;
        break;
      }
      offset += n;
      ++expected;
      ++records_after_end;
      if (rec.ends_unit) {
        end_segment = i;
        end_offset = offset;
        end_lsn = rec.lsn;
        records_after_end = 0;
      }
    }
    seg.end_offset = offset;
    scan.segments_.push_back(seg);
  }

  if (scan.segments_.empty()) {
    scan.first_lsn_ = scan.next_lsn_ = 1;
    return scan;
  }
  scan.next_lsn_ = end_lsn + 1;
  // Everything after (end_segment, end_offset) is cut.
  uint64_t cut_bytes = 0;
  for (size_t i = end_segment; i < scan.segments_.size(); ++i) {
    Segment& s = scan.segments_[i];
    const uint64_t keep = i == end_segment ? end_offset : 0;
    cut_bytes += s.file_bytes - keep;
    s.end_offset = keep;
  }
  for (const auto& path : scan.discard_) cut_bytes += std::filesystem::file_size(path);
  if (cut_bytes > 0) {
    if (reason.empty()) reason = "the log ends inside a load (its end record is missing)";
    LogCut cut{scan.segments_[end_segment].path, end_offset, cut_bytes, records_after_end, end_lsn + 1, reason};
    scan.cut_ = cut;
  }
  // Segments after the end hold nothing kept: Repair deletes them.
  for (size_t i = end_segment + 1; i < scan.segments_.size(); ++i) scan.discard_.push_back(scan.segments_[i].path);
  scan.segments_.resize(end_segment + 1);
  // Last kept LSN per segment.
  for (size_t i = 0; i < scan.segments_.size(); ++i) {
    const uint64_t next_first = i + 1 < scan.segments_.size() ? scan.segments_[i + 1].first_lsn : scan.next_lsn_;
    scan.segments_[i].last_lsn = next_first > scan.segments_[i].first_lsn ? next_first - 1 : 0;
  }
  return scan;
}

uint64_t LogScan::bytes() const {
  uint64_t total = 0;
  for (const Segment& s : segments_) total += s.end_offset;
  return total;
}

void LogScan::ForEach(uint64_t from_lsn, const std::function<void(const RecordView&)>& visit) const {
  for (const Segment& s : segments_) {
    if (s.last_lsn == 0 || s.last_lsn < from_lsn) continue;
    const std::string bytes = ReadWholeFile(s.path);
    if (bytes.size() < s.end_offset) throw LogFormatError(fmt::format("log segment {} shrank during recovery", s.path.string()));
    std::string_view kept = std::string_view(bytes).substr(0, s.end_offset);
    uint64_t offset = kSegmentHeaderBytes;
    uint64_t expected = s.first_lsn;
    while (offset < kept.size()) {
      RecordView rec;
      std::string why;
      size_t n = ParseRecord(kept.substr(offset), rec, why);
      if (n == 0 || rec.lsn != expected)
        throw LogFormatError(fmt::format("log segment {} changed during recovery at byte {}", s.path.string(), offset));
      offset += n;
      ++expected;
      if (rec.lsn >= from_lsn) visit(rec);
    }
  }
}

std::vector<SegmentFile> LogScan::Repair() const {
  for (auto it = discard_.rbegin(); it != discard_.rend(); ++it) std::filesystem::remove(*it);
  std::vector<SegmentFile> kept;
  for (const Segment& s : segments_) {
    if (s.end_offset < s.file_bytes) {
      if (s.end_offset <= kSegmentHeaderBytes && s.last_lsn == 0) {
        std::filesystem::remove(s.path);
        continue;
      }
      FileHandle fd(OpenFile(s.path, O_WRONLY));
      if (::ftruncate(fd.get(), static_cast<off_t>(s.end_offset)) != 0)
        throw std::system_error(errno, std::generic_category(), "could not truncate " + s.path.string());
      SyncFile(fd.get(), s.path, false);
    }
    kept.push_back({s.path, s.first_lsn});
  }
  if (!discard_.empty() || cut_) SyncDirectory(dir_);
  return kept;
}

}  // namespace caracal::engine
