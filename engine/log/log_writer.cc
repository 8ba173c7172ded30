#include "engine/log/log_writer.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace caracal::engine {

LogWriter::LogWriter(LogWriterOptions options, uint64_t next_lsn, std::vector<SegmentFile> existing)
    : options_(std::move(options)), next_lsn_(next_lsn), durable_lsn_(next_lsn - 1), start_lsn_(next_lsn) {
  std::filesystem::create_directories(options_.dir);
  for (size_t i = 0; i < existing.size(); ++i) {
    Segment s{existing[i].path, existing[i].first_lsn, 0, std::filesystem::file_size(existing[i].path)};
    const uint64_t end = i + 1 < existing.size() ? existing[i + 1].first_lsn : next_lsn;
    if (end > s.first_lsn) s.last_lsn = end - 1;
    segments_.push_back(std::move(s));
  }
  stats_.durable_lsn = durable_lsn_;
  stats_.last_lsn = next_lsn - 1;
  thread_ = std::thread([this] { Loop(); });
}

LogWriter::~LogWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

uint64_t LogWriter::Append(RecordType type, std::string payload, bool ends_unit, uint64_t txns) {
  uint64_t lsn;
  {
    std::lock_guard lock(mutex_);
    lsn = next_lsn_++;
    if (type == RecordType::kEpoch) ++stats_.epochs;
    stats_.txns += txns;
    queue_.push_back({type, lsn, ends_unit, std::move(payload)});
  }
  cv_.notify_one();
  return lsn;
}

void LogWriter::WhenDurable(uint64_t lsn, std::function<void()> fn) {
  {
    std::lock_guard lock(mutex_);
    auto it = waiters_.end();
    while (it != waiters_.begin() && std::prev(it)->lsn > lsn) --it;
    waiters_.insert(it, Waiter{lsn, std::move(fn)});
  }
  cv_.notify_one();
}

void LogWriter::WaitDurable(uint64_t lsn) {
  std::unique_lock lock(mutex_);
  durable_cv_.wait(lock, [&] { return durable_lsn_ >= lsn; });
}

uint64_t LogWriter::last_lsn() const {
  std::lock_guard lock(mutex_);
  return next_lsn_ - 1;
}

uint64_t LogWriter::durable_lsn() const {
  std::lock_guard lock(mutex_);
  return durable_lsn_;
}

void LogWriter::Loop() {
  for (;;) {
    std::vector<Pending> batch;
    std::vector<Waiter> ready;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] {
        return stopping_ || !queue_.empty() || (!waiters_.empty() && waiters_.front().lsn <= durable_lsn_);
      });
      batch.swap(queue_);
      if (batch.empty()) {
        while (!waiters_.empty() && waiters_.front().lsn <= durable_lsn_) {
          ready.push_back(std::move(waiters_.front()));
          waiters_.pop_front();
        }
        if (ready.empty() && stopping_) return;
      }
    }
    if (!batch.empty()) {
      const auto t0 = std::chrono::steady_clock::now();
      try {
        WriteBatch(batch);
      } catch (const std::exception& e) {
        Panic(e);
      }
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      std::lock_guard lock(mutex_);
      durable_lsn_ = batch.back().lsn;
      stats_.syncs++;
      stats_.sync_ms += ms;
      stats_.max_sync_ms = std::max(stats_.max_sync_ms, ms);
      while (!waiters_.empty() && waiters_.front().lsn <= durable_lsn_) {
        ready.push_back(std::move(waiters_.front()));
        waiters_.pop_front();
      }
      durable_cv_.notify_all();
    }
    for (Waiter& w : ready) w.fn();
  }
}

void LogWriter::WriteBatch(std::vector<Pending>& batch) {
  if (!fd_) {
    std::unique_lock lock(mutex_);
    if (!segments_.empty() && segments_.back().bytes < options_.segment_bytes) {
      current_path_ = segments_.back().path;
      lock.unlock();
      fd_ = FileHandle(OpenFile(current_path_, O_WRONLY | O_APPEND));
    } else {
      lock.unlock();
      OpenSegment(batch.front().lsn);
    }
  }
  buffer_.clear();
  uint64_t buffered_last = 0;
  auto flush = [&] {
    if (buffer_.empty()) return;
    WriteAll(fd_.get(), buffer_, current_path_);
    SyncFile(fd_.get(), current_path_, true);
    std::lock_guard lock(mutex_);
    Segment& s = segments_.back();
    s.bytes += buffer_.size();
    s.last_lsn = buffered_last;
    stats_.bytes += buffer_.size();
    buffer_.clear();
  };
  for (Pending& p : batch) {
    const size_t size = kRecordHeaderBytes + p.payload.size() + kRecordTrailerBytes;
    bool full;
    {
      std::lock_guard lock(mutex_);
      const Segment& s = segments_.back();
      full = s.bytes + buffer_.size() + size > options_.segment_bytes && (s.last_lsn != 0 || !buffer_.empty());
    }
    if (full) {
      flush();
      OpenSegment(p.lsn);
    }
    AppendRecord(buffer_, p.type, p.lsn, p.payload, p.ends_unit);
    buffered_last = p.lsn;
    std::string().swap(p.payload);  // large loads: free as we go
  }
  flush();
}

void LogWriter::OpenSegment(uint64_t first_lsn) {
  const std::filesystem::path path = SegmentPath(options_.dir, first_lsn);
  FileHandle fd(OpenFile(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND));
  const std::string header = EncodeSegmentHeader(first_lsn);
  WriteAll(fd.get(), header, path);
  SyncFile(fd.get(), path, false);
  SyncDirectory(options_.dir);
  fd_ = std::move(fd);
  current_path_ = path;
  std::lock_guard lock(mutex_);
  segments_.push_back({path, first_lsn, 0, header.size()});
  stats_.bytes += header.size();
}

void LogWriter::Panic(const std::exception& e) {
  std::fprintf(stderr, "PANIC:  the input log cannot be written: %s\n", e.what());
  std::fflush(stderr);
  std::abort();
}

uint64_t LogWriter::DiscardThrough(uint64_t lsn) {
  uint64_t freed = 0;
  std::lock_guard lock(mutex_);
  while (segments_.size() > 1) {
    const Segment& s = segments_.front();
    // A segment ends where the next begins.
    if (segments_[1].first_lsn > lsn + 1) break;
    std::error_code ec;
    std::filesystem::remove(s.path, ec);
    if (ec) break;
    freed += s.bytes;
    segments_.erase(segments_.begin());
  }
  if (freed > 0) {
    try {
      SyncDirectory(options_.dir);
    } catch (const std::exception&) {
      // The deletions may reappear after a crash; recovery skips records a checkpoint holds.
    }
  }
  return freed;
}

uint64_t LogWriter::BytesAfter(uint64_t lsn) const {
  std::lock_guard lock(mutex_);
  uint64_t bytes = 0;
  for (size_t i = 0; i < segments_.size(); ++i) {
    const bool last = i + 1 == segments_.size();
    if (!last && segments_[i + 1].first_lsn <= lsn + 1) continue;  // wholly at or before lsn
    bytes += segments_[i].bytes;
  }
  return bytes;
}

LogStats LogWriter::stats() const {
  std::lock_guard lock(mutex_);
  LogStats s = stats_;
  s.records = next_lsn_ - start_lsn_;
  s.durable_lsn = durable_lsn_;
  s.last_lsn = next_lsn_ - 1;
  s.segments = segments_.size();
  s.segment_bytes = 0;
  for (const Segment& seg : segments_) s.segment_bytes += seg.bytes;
  return s;
}

}  // namespace caracal::engine
