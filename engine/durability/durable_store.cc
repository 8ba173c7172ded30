#include "engine/durability/durable_store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <system_error>

#include "engine/log/log_segment.h"

namespace caracal::engine {

namespace {

constexpr std::string_view kMarkerName = "CARACAL_DATADIR";
constexpr std::string_view kMarkerText = "caracal data directory, format 1\n";
constexpr size_t kLoadRecordBytes = 1 << 20;

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

}  // namespace

// Passes replay through to the session, keeping the DDL it runs: the catalog history a
// later checkpoint stores.
class DurableStore::RecordingHost final : public ReplayHost {
 public:
  RecordingHost(ReplayHost& host, std::vector<std::string>& ddl) : host_(host), ddl_(ddl) {}
  std::shared_ptr<const Procedure> Resolve(std::string_view identity) override { return host_.Resolve(identity); }
  void ReplayDdl(const std::string& sql) override {
    host_.ReplayDdl(sql);
    ddl_.push_back(sql);
  }

 private:
  ReplayHost& host_;
  std::vector<std::string>& ddl_;
};

std::string RecoveryReport::Describe() const {
  std::string text = created ? "created a new data directory" : "recovered";
  if (checkpoint)
    text += fmt::format(" from the checkpoint of epoch {} (log LSN {}, {} rows, {:.0f} ms)", checkpoint->epoch,
                        checkpoint->lsn, checkpoint_rows, checkpoint_ms);
  if (!created || replay.records > 0)
    text += fmt::format(", replayed {} epochs ({} transactions), {} DDL statements and {} loads ({} rows) from the "
                        "log in {:.0f} ms",
                        replay.epochs, replay.txns, replay.ddl, replay.loads, replay.rows_loaded, replay.ms);
  if (cut) text += "; cut the log's torn tail: " + cut->Describe();
  return text;
}

DurableStore::DurableStore(DurabilityOptions options, Engine& engine, ReplayHost& host)
    : options_(std::move(options)),
      engine_(&engine),
      db_(engine.database()),
      synchronous_commit_(options_.synchronous_commit),
      interval_s_(options_.checkpoint_interval_s),
      log_bytes_trigger_(options_.checkpoint_log_bytes) {
  const auto start = Clock::now();
  try {
    OpenDirectory();
    Recover(host);
  } catch (...) {
    if (lock_fd_ >= 0) ::close(lock_fd_);
    throw;
  }
  recovery_.total_ms = MsSince(start);
  engine_->set_synchronous_commit(synchronous_commit_);
  engine_->AttachLog(log_.get());
  db_.set_load_observer([this](TableId table, const RowValue& row) { OnLoad(table, row); });
  last_checkpoint_time_ = Clock::now();
  checkpointer_ = std::thread([this] { CheckpointLoop(); });
}

DurableStore::~DurableStore() {
  {
    std::lock_guard lock(state_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  checkpointer_.join();
  if (engine_ != nullptr) {
    engine_->Drain();  // every release runs on the log's thread: let them finish first
    engine_->AttachLog(nullptr);
  }
  db_.set_load_observer({});
  log_.reset();  // writes and syncs what is left
  ::close(lock_fd_);
}

void DurableStore::OpenDirectory() {
  const std::filesystem::path& dir = options_.data_dir;
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    std::filesystem::create_directories(dir);
    std::filesystem::path full = std::filesystem::absolute(dir).lexically_normal();
    if (!full.has_filename()) full = full.parent_path();  // "DATADIR/"
    SyncDirectory(full.parent_path());  // the new directory's own entry
  } else if (!std::filesystem::is_directory(dir, ec)) {
    throw std::runtime_error(fmt::format("\"{}\" is not a directory", dir.string()));
  }
  // Nothing is created in a directory that is not ours: check before taking the lock.
  const std::filesystem::path marker = dir / kMarkerName;
  const bool ours = std::filesystem::exists(marker);
  if (!ours) {
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      // LOCK and the marker's temporary file: a creation that died before its marker.
      if (entry.path().filename() != "LOCK" && entry.path().filename() != std::string(kMarkerName) + ".tmp")
        throw std::runtime_error(fmt::format(
            "\"{}\" is not a caracal data directory (it is not empty and has no {} file)", dir.string(), kMarkerName));
  }
  lock_fd_ = OpenFile(dir / "LOCK", O_RDWR | O_CREAT);
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK)
      throw std::runtime_error(fmt::format("data directory \"{}\" is in use by another caracal process", dir.string()));
    throw std::system_error(errno, std::generic_category(), "could not lock " + (dir / "LOCK").string());
  }
  if (ours) {
    if (ReadWholeFile(marker) != kMarkerText)
      throw std::runtime_error(
          fmt::format("\"{}\" is a data directory of another caracal format version", dir.string()));
  } else {
    const std::filesystem::path tmp = dir / (std::string(kMarkerName) + ".tmp");
    {
      FileHandle fd(OpenFile(tmp, O_WRONLY | O_CREAT | O_TRUNC));
      WriteAll(fd.get(), kMarkerText, tmp);
      SyncFile(fd.get(), tmp, false);
    }
    std::filesystem::rename(tmp, marker);
    recovery_.created = true;
  }
  std::filesystem::create_directories(dir / "log");
  std::filesystem::create_directories(dir / "checkpoint");
  SyncDirectory(dir);
}

void DurableStore::Recover(ReplayHost& host) {
  RecordingHost recording(host, ddl_);
  uint64_t after_lsn = 0;
  if (std::optional<std::filesystem::path> path = LatestCheckpoint(options_.data_dir / "checkpoint")) {
    const auto start = Clock::now();
    CheckpointReader reader(*path);
    for (const std::string& sql : reader.meta().ddl) recording.ReplayDdl(sql);
    engine_->RunExclusive([&] {
      for (const SequenceState& s : reader.meta().sequences) db_.sequences().Restore(s);
      db_.set_committed_epoch(reader.meta().epoch);
    });
    recovery_.checkpoint_rows = reader.LoadRows(db_, engine_->options().workers);
    db_.set_committed_epoch(reader.meta().epoch + 1);
    after_lsn = reader.meta().lsn;
    recovery_.checkpoint = reader.meta();
    recovery_.checkpoint->ddl.clear();
    recovery_.checkpoint_ms = MsSince(start);
    checkpoint_lsn_ = after_lsn;
  }
  const std::filesystem::path log_dir = options_.data_dir / "log";
  LogScan scan = LogScan::Scan(log_dir);
  if (!scan.segments().empty() && scan.first_lsn() > after_lsn + 1)
    throw LogFormatError(fmt::format("the log starts at LSN {}, but the checkpoint holds the records up to LSN {} "
                                     "only: log segments are missing",
                                     scan.first_lsn(), after_lsn));
  recovery_.replay = ReplayLog(scan, after_lsn, *engine_, db_, recording);
  recovery_.cut = scan.cut();
  std::vector<SegmentFile> kept = scan.Repair();
  uint64_t next_lsn = scan.next_lsn();
  if (next_lsn <= after_lsn) {
    // The checkpoint holds everything the log does (and more): start the log after it.
    for (const SegmentFile& s : kept) std::filesystem::remove(s.path);
    kept.clear();
    SyncDirectory(log_dir);
    next_lsn = after_lsn + 1;
  }
  log_ = std::make_unique<LogWriter>(LogWriterOptions{log_dir, options_.segment_bytes}, next_lsn, std::move(kept));
}

void DurableStore::WaitIfSynchronous(uint64_t lsn) {
  if (synchronous_commit_) log_->WaitDurable(lsn);
}

void DurableStore::LogDdl(std::string_view sql) {
  ddl_.emplace_back(sql);
  WaitIfSynchronous(log_->Append(RecordType::kDdl, EncodeDdl(sql)));
}

void DurableStore::BeginLoad() {
  std::lock_guard lock(load_mutex_);
  loading_ = true;
  load_.reset();
  load_rows_ = 0;
}

void DurableStore::OnLoad(TableId table, const RowValue& row) {
  std::lock_guard lock(load_mutex_);
  const std::string& name = db_.table(table).name();
  if (!loading_) {
    // A load outside BeginLoad/EndLoad: logged as a unit of its own.
    LoadRowsBuilder one(name);
    one.Add(row.bytes());
    log_->Append(RecordType::kLoadRows, one.Take(), false);
    log_->Append(RecordType::kLoadEnd, EncodeLoadEnd(name, 1), true);
    return;
  }
  if (load_ && load_table_ != name) FlushLoadLocked(true);
  if (!load_) {
    load_.emplace(name);
    load_table_ = name;
  }
  load_->Add(row.bytes());
  ++load_rows_;
  if (load_->bytes() >= kLoadRecordBytes) FlushLoadLocked(false);
}

void DurableStore::FlushLoadLocked(bool reset) {
  if (load_ && load_->rows() > 0) log_->Append(RecordType::kLoadRows, load_->Take(), false);
  if (reset) load_.reset();
}

void DurableStore::EndLoad() {
  uint64_t lsn = 0;
  {
    std::lock_guard lock(load_mutex_);
    FlushLoadLocked(true);  // load_table_ still names the last table loaded
    if (load_rows_ > 0) lsn = log_->Append(RecordType::kLoadEnd, EncodeLoadEnd(load_table_, load_rows_), true);
    loading_ = false;
    load_rows_ = 0;
  }
  if (lsn != 0) WaitIfSynchronous(lsn);
}

CheckpointInfo DurableStore::Checkpoint() {
  std::lock_guard one_at_a_time(checkpoint_mutex_);
  if (engine_ == nullptr) throw std::logic_error("CHECKPOINT while the session has no engine");
  std::optional<RunningCheckpoint> running;
  {
    std::unique_lock changes = LockChanges();
    running.emplace(*engine_, [&](CheckpointMeta& meta) {
      meta.lsn = log_->last_lsn();
      meta.ddl = ddl_;
    });
  }
  log_->WaitDurable(running->meta().lsn);  // never install a checkpoint ahead of the log
  CheckpointInfo info = running->Write(options_.data_dir / "checkpoint");
  running.reset();
  log_->DiscardThrough(info.lsn);
  std::lock_guard lock(state_mutex_);
  last_checkpoint_ = info;
  last_checkpoint_time_ = Clock::now();
  checkpoint_lsn_ = info.lsn;
  ++checkpoints_;
  last_checkpoint_error_.clear();
  return info;
}

void DurableStore::CheckpointLoop() {
  for (;;) {
    bool due = false;
    {
      std::unique_lock lock(state_mutex_);
      wake_.wait_for(lock, std::chrono::milliseconds(200), [&] { return stopping_; });
      if (stopping_) return;
      if (log_->last_lsn() > checkpoint_lsn_) {
        const double age_s = MsSince(last_checkpoint_time_) / 1000;
        if (interval_s_ > 0 && age_s >= interval_s_) due = true;
        if (log_bytes_trigger_ > 0 && log_->BytesAfter(checkpoint_lsn_) >= log_bytes_trigger_) due = true;
      }
    }
    if (!due) continue;
    try {
      Checkpoint();
    } catch (const std::exception& e) {
      // The log keeps everything a checkpoint would have saved: retry at the next interval.
      std::fprintf(stderr, "WARNING:  checkpoint failed: %s\n", e.what());
      std::lock_guard lock(state_mutex_);
      last_checkpoint_error_ = e.what();
      last_checkpoint_time_ = Clock::now();
    }
  }
}

void DurableStore::DetachEngine() {
  std::lock_guard lock(checkpoint_mutex_);
  if (engine_ == nullptr) return;
  engine_->Drain();
  engine_->AttachLog(nullptr);
  engine_ = nullptr;
}

void DurableStore::AttachEngine(Engine& engine) {
  std::lock_guard lock(checkpoint_mutex_);
  engine.set_synchronous_commit(synchronous_commit_);
  engine.AttachLog(log_.get());
  engine_ = &engine;
}

void DurableStore::set_synchronous_commit(bool on) {
  // engine_ only changes on the session's thread, which is this one.
  synchronous_commit_ = on;
  if (engine_ != nullptr) engine_->set_synchronous_commit(on);
}

void DurableStore::set_checkpoint_interval_s(double s) {
  std::lock_guard lock(state_mutex_);
  interval_s_ = s;
}

void DurableStore::set_checkpoint_log_bytes(uint64_t bytes) {
  std::lock_guard lock(state_mutex_);
  log_bytes_trigger_ = bytes;
}

std::vector<std::pair<std::string, std::string>> DurableStore::Stats() const {
  const LogStats log = log_->stats();
  std::vector<std::pair<std::string, std::string>> rows;
  auto add = [&](std::string name, std::string value) { rows.emplace_back(std::move(name), std::move(value)); };
  add("data_directory", options_.data_dir.string());
  add("synchronous_commit", synchronous_commit_ ? "on" : "off");
  add("log_last_lsn", std::to_string(log.last_lsn));
  add("log_durable_lsn", std::to_string(log.durable_lsn));
  add("log_segments", std::to_string(log.segments));
  add("log_segment_bytes", std::to_string(log.segment_bytes));
  add("log_records_written", std::to_string(log.records));
  add("log_epochs_written", std::to_string(log.epochs));
  add("log_txns_written", std::to_string(log.txns));
  add("log_bytes_written", std::to_string(log.bytes));
  add("log_bytes_per_txn", log.txns ? fmt::format("{:.1f}", static_cast<double>(log.bytes) / log.txns) : "0");
  add("log_syncs", std::to_string(log.syncs));
  add("log_epochs_per_sync", log.syncs ? fmt::format("{:.2f}", static_cast<double>(log.epochs) / log.syncs) : "0");
  add("log_sync_ms_mean", log.syncs ? fmt::format("{:.3f}", log.sync_ms / log.syncs) : "0");
  add("log_sync_ms_max", fmt::format("{:.3f}", log.max_sync_ms));
  std::lock_guard lock(state_mutex_);
  add("log_bytes_since_checkpoint", std::to_string(log_->BytesAfter(checkpoint_lsn_)));
  add("checkpoint_interval_s", fmt::format("{}", interval_s_));
  add("checkpoint_log_bytes", std::to_string(log_bytes_trigger_));
  add("checkpoints", std::to_string(checkpoints_));
  if (last_checkpoint_) {
    add("last_checkpoint_epoch", std::to_string(last_checkpoint_->epoch));
    add("last_checkpoint_lsn", std::to_string(last_checkpoint_->lsn));
    add("last_checkpoint_bytes", std::to_string(last_checkpoint_->bytes));
    add("last_checkpoint_rows", std::to_string(last_checkpoint_->rows));
    add("last_checkpoint_ms", fmt::format("{:.1f}", last_checkpoint_->ms));
    add("last_checkpoint_age_s", fmt::format("{:.1f}", MsSince(last_checkpoint_time_) / 1000));
  }
  if (!last_checkpoint_error_.empty()) add("last_checkpoint_error", last_checkpoint_error_);
  add("recovery", recovery_.Describe());
  add("recovery_ms", fmt::format("{:.1f}", recovery_.total_ms));
  return rows;
}

}  // namespace caracal::engine
