#include "engine/execution/engine.h"

#include <algorithm>
#include <barrier>
#include <stdexcept>

#include "engine/execution/epoch_txn.h"
#include "engine/execution/epoch_worker.h"
#include "engine/types/errors.h"
#include "engine/log/log_record.h"
#include "engine/log/log_writer.h"

#include <fmt/format.h>

namespace caracal::engine {

namespace {

// A transaction whose reconnaissance keeps failing gives up instead of looping forever.
constexpr uint32_t kMaxAttempts = 64;

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Stands in for the procedure of a logged transaction that failed at sequencing: replay
// only needs it to hold its serial id; it never runs.
class NeverRun final : public Procedure {
 public:
  const std::string& name() const override { return name_; }
  void Declare(DeclareContext&) const override {}
  void Execute(ExecContext&) const override {}

 private:
  std::string name_ = "(failed at sequencing)";
};

const NeverRun kNeverRun;

}  // namespace

// The worker threads and the barrier they meet at; the driver hands them one epoch at a time.
class WorkerPool {
 public:
  WorkerPool(Database& db, const EngineOptions& options, int n)
      : barrier_(n), buffers_(n, options.row_buffers) {
    for (int i = 0; i < n; ++i) workers_.push_back(std::make_unique<EpochWorker>(db, options, buffers_, i, n));
    for (int i = 0; i < n; ++i) threads_.emplace_back([this, i] { Loop(i); });
  }
  ~WorkerPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    start_cv_.notify_all();
    for (auto& t : threads_) t.join();
  }

  // Starts one epoch on all workers; Wait() returns when every phase is done.
  void Start(EpochJob& job) {
    job.barrier = &barrier_;
    {
      std::lock_guard lock(mutex_);
      job_ = &job;
      remaining_ = static_cast<int>(workers_.size());
      ++generation_;
    }
    start_cv_.notify_all();
  }
  void Wait() {
    std::unique_lock lock(mutex_);
    done_cv_.wait(lock, [&] { return remaining_ == 0; });
    job_ = nullptr;
  }

  std::vector<std::unique_ptr<EpochWorker>>& workers() { return workers_; }

 private:
  void Loop(int i) {
    uint64_t seen = 0;
    for (;;) {
      EpochJob* job;
      {
        std::unique_lock lock(mutex_);
        start_cv_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        job = job_;
      }
      workers_[i]->RunEpoch(*job);
      std::lock_guard lock(mutex_);
      if (--remaining_ == 0) done_cv_.notify_one();
    }
  }

  std::barrier<> barrier_;
  RowBufferPool buffers_;
  std::vector<std::unique_ptr<EpochWorker>> workers_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable start_cv_, done_cv_;
  EpochJob* job_ = nullptr;
  uint64_t generation_ = 0;
  int remaining_ = 0;
  bool stopping_ = false;
};

Engine::Engine(Database& db, EngineOptions options) : db_(db), options_(options) {
  if (options_.workers < 1) throw std::invalid_argument("workers must be at least 1");
  if (options_.epoch_max_txns < 1) throw std::invalid_argument("epoch_max_txns must be at least 1");
  if (options_.gc_k > 1024) throw std::invalid_argument("gc_k must be at most 1024");
  if (options_.split_threshold < 1) throw std::invalid_argument("split_threshold must be at least 1");
  if (options_.epoch_max_txns >= kLoadSequence - 1) throw std::invalid_argument("epoch_max_txns is too large");
  pool_ = std::make_unique<WorkerPool>(db_, options_, options_.workers);
  driver_ = std::thread([this] { DriverLoop(); });
}

Engine::~Engine() {
  Drain();
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  intake_cv_.notify_all();
  driver_.join();
  pool_.reset();
}

void Engine::Submit(TxnRequest request) {
  {
    std::lock_guard lock(mutex_);
    if (intake_.empty()) first_arrival_ = Clock::now();
    intake_.push_back(std::move(request));
    ++submitted_;
    const size_t waiting = intake_.size() + retry_.size();
    if (intake_.size() < options_.epoch_max_txns && intake_.size() != 1 &&
        !(options_.adaptive_epoch_start && waiting == start_at_))
      return;
  }
  intake_cv_.notify_all();
}

void Engine::Drain() {
  std::unique_lock lock(mutex_);
  ++drain_waiters_;
  intake_cv_.notify_all();
  drained_cv_.wait(lock, [&] { return completed_ == submitted_; });
  --drain_waiters_;
}

void Engine::RunExclusive(const std::function<void()>& fn) {
  std::lock_guard epoch_lock(epoch_mutex_);
  fn();
}

void Engine::AttachLog(LogWriter* log) {
  std::lock_guard epoch_lock(epoch_mutex_);
  log_ = log;
}

void Engine::ReplayEpoch(uint32_t epoch, const std::vector<SequenceState>& sequences, std::vector<ReplayTxn> txns) {
  if (epoch <= db_.committed_epoch())
    throw std::invalid_argument(
        fmt::format("replayed epoch {} does not follow the committed epoch {}", epoch, db_.committed_epoch()));
  std::vector<std::unique_ptr<EpochTxn>> batch;
  batch.reserve(txns.size());
  for (ReplayTxn& r : txns) {
    auto t = std::make_unique<EpochTxn>();
    t->request.procedure = r.procedure != nullptr ? r.procedure : &kNeverRun;
    t->request.input = std::move(r.input);
    t->attempts = r.attempts > 0 ? r.attempts - 1 : 0;  // RunEpoch counts this attempt
    t->sequenced = true;
    if (r.failed) t->Fail("XX000", "failed at sequencing");
    batch.push_back(std::move(t));
  }
  {
    std::lock_guard epoch_lock(epoch_mutex_);
    for (const SequenceState& s : sequences) db_.sequences().Restore(s);
  }
  RunEpoch(batch, epoch);
}

uint64_t Engine::LogEpoch(uint32_t epoch, std::vector<SequenceState> sequences,
                          const std::vector<std::unique_ptr<EpochTxn>>& txns, const std::vector<bool>& failed) {
  EpochRecordBuilder record(epoch, std::move(sequences), txns.size());
  for (size_t i = 0; i < txns.size(); ++i) {
    const EpochTxn& t = *txns[i];
    record.Add(t.request.procedure->log_identity(), t.attempts, failed[i], t.request.input);
  }
  return log_->Append(RecordType::kEpoch, record.Finish(), true, txns.size());
}

EngineStats Engine::stats() const {
  std::lock_guard epoch_lock(epoch_mutex_);  // the workers' histograms are quiet between epochs
  std::lock_guard lock(stats_mutex_);
  EngineStats s = stats_;
  LockWaitHistogram waits;
  for (auto& w : pool_->workers()) waits.Merge(w->lock_waits());
  s.lock_wait_p999_us = waits.PercentileUs(0.999);
  return s;
}

void Engine::DriverLoop() {
  for (;;) {
    std::vector<std::unique_ptr<EpochTxn>> txns;
    {
      std::unique_lock lock(mutex_);
      intake_cv_.wait(lock, [&] { return stopping_ || !intake_.empty() || !retry_.empty(); });
      if (stopping_ && intake_.empty() && retry_.empty()) return;
      // Close the epoch when it is full, when its interval has passed since its first
      // transaction arrived, or at once if someone waits for everything to finish.
      auto deadline = first_arrival_ + std::chrono::milliseconds(options_.epoch_interval_ms);
      // An epoch a solo transaction heads cannot grow: it need not wait either.
      intake_cv_.wait_until(lock, deadline, [&] {
        const size_t waiting = intake_.size() + retry_.size();
        return stopping_ || drain_waiters_ > 0 || waiting >= options_.epoch_max_txns ||
               (options_.adaptive_epoch_start && waiting >= start_at_) ||
               (retry_.empty() && !intake_.empty() && intake_.front().procedure->needs_solo_epoch());
      });
      while (!retry_.empty() && txns.size() < options_.epoch_max_txns) {
        txns.push_back(std::move(retry_.front()));
        retry_.pop_front();
      }
      while (!intake_.empty() && txns.size() < options_.epoch_max_txns) {
        const Procedure& next = *intake_.front().procedure;
        const bool solo = next.needs_solo_epoch();
        if (!txns.empty() && (solo || next.needs_epoch_head())) break;
        auto txn = std::make_unique<EpochTxn>();
        txn->request = std::move(intake_.front());
        intake_.pop_front();
        txns.push_back(std::move(txn));
        if (solo) break;
      }
      if (!intake_.empty()) first_arrival_ = Clock::now();
      // What the next epoch waits for: as many as this one held, or a little less than
      // the epochs before it (the load fell, or they closed on their interval).
      start_at_ = std::max<uint32_t>({1u, static_cast<uint32_t>(txns.size()), start_at_ - (start_at_ + 7) / 8});
    }
    RunEpoch(txns);
  }
}

namespace {

// The database's sequences, noting each value drawn in the transaction's result.
class RecordedDraws : public SequenceContext {
 public:
  RecordedDraws(Sequences& sequences, TxnResult& result) : sequences_(sequences), result_(result) {}
  int64_t NextVal(std::string_view sequence) override {
    const int64_t v = sequences_.NextVal(sequence);
    result_.drawn.push_back({std::string(sequence), v, sequences_.draws()});
    return v;
  }
  int64_t CurrVal(std::string_view sequence) override { return sequences_.CurrVal(sequence); }
  std::optional<int64_t> TransactionTimestamp() const override { return sequences_.TransactionTimestamp(); }

 private:
  Sequences& sequences_;
  TxnResult& result_;
};

}  // namespace

void Engine::Sequence(EpochTxn& txn) {
  if (txn.sequenced) return;
  txn.sequenced = true;
  RecordedDraws sequences(db_.sequences(), txn.result);
  txn.Guard([&] { txn.request.procedure->Sequence(sequences, txn.request.input); });
}

void Engine::RunEpoch(std::vector<std::unique_ptr<EpochTxn>>& txns, uint32_t replay_epoch) {
  std::lock_guard epoch_lock(epoch_mutex_);
  const bool replay = replay_epoch != 0;
  const uint32_t epoch = replay ? replay_epoch : db_.committed_epoch() + 1;
  LogWriter* const log = replay ? nullptr : log_;
  EpochJob job;
  job.epoch = epoch;
  job.t_start = NowNs();
  // Which transactions failed before running: the log records them as such (read here,
  // before the workers start changing their state).
  std::vector<bool> failed(log != nullptr ? txns.size() : 0);
  for (size_t i = 0; i < txns.size(); ++i) {
    EpochTxn& t = *txns[i];
    t.sid = MakeSerialId(epoch, static_cast<uint32_t>(i + 1));
    ++t.attempts;
    // A replayed epoch has the composition it was logged with, so this holds there too.
    t.solo = txns.size() == 1 && t.request.procedure->needs_solo_epoch();
    if (t.solo) t.maintains_indexes = true;
    Sequence(t);
    if (log == nullptr) continue;
    if (t.request.procedure->log_identity().empty() && t.state == EpochTxn::State::kRunning)
      t.Fail("0A000", fmt::format("procedure {} cannot run on a durable database: it has no log identity",
                                  t.request.procedure->name()));
    failed[i] = t.state != EpochTxn::State::kRunning;
  }
  job.txns = txns;
  job.init_horizon = db_.CollectionHorizon(epoch);
  job.candidates.resize(options_.workers);
  job.on_executed = [this, epoch] {
    db_.set_committed_epoch(epoch);
    // Collection keeps what pinned snapshots and later epochs read.
    return db_.CollectionHorizon(epoch + 1);
  };
  // The sequences' states after sequencing, before a solo transaction draws more as it
  // runs (replay restores these and draws those again).
  std::vector<SequenceState> sequences;
  if (log != nullptr) sequences = db_.sequences().TakeAdvanced();
  pool_->Start(job);
  // The inputs are logged while the workers execute (they only read them).
  const uint64_t lsn = log != nullptr ? LogEpoch(epoch, std::move(sequences), txns, failed) : 0;
  pool_->Wait();

  uint64_t freed = 0, batched = 0;
  for (auto& w : pool_->workers()) {
    freed += w->freed_versions();
    batched += w->batch_appended();
  }
  uint64_t erased = CompactTables(job.gc_horizon, epoch);
  const int64_t t_end = NowNs();

  // Results go out in serial order; transactions whose reconnaissance failed go to the
  // head of the next epoch instead.
  uint64_t done = 0, aborts = 0, retries = 0;
  std::vector<std::unique_ptr<EpochTxn>> again;
  struct Delivery {
    std::function<void(TxnResult&&)> on_done;
    TxnResult result;
  };
  std::vector<Delivery> deliveries;
  deliveries.reserve(txns.size());
  for (auto& t : txns) {
    if (replay) {
      // The log holds a retried transaction's next attempt: this one is only counted.
      if (t->state == EpochTxn::State::kRetry)
        ++retries;
      else if (t->state == EpochTxn::State::kAborted)
        ++aborts;
      ++done;
      continue;
    }
    if (t->state == EpochTxn::State::kRetry && t->attempts >= kMaxAttempts) {
      t->Fail("40001", fmt::format("could not serialize: the reconnaissance reads of procedure {} changed in {} "
                                   "epochs in a row",
                                   t->request.procedure->name(), t->attempts));
    }
    if (t->state == EpochTxn::State::kRetry) {
      ++retries;
      auto fresh = std::make_unique<EpochTxn>();
      fresh->request = std::move(t->request);
      fresh->attempts = t->attempts;
      fresh->sequenced = true;
      fresh->result.drawn = std::move(t->result.drawn);  // drawn once, at its sequencing
      again.push_back(std::move(fresh));
      continue;
    }
    if (t->state == EpochTxn::State::kAborted) ++aborts;
    t->result.serial_id = t->sid;
    t->result.attempts = t->attempts;
    if (t->request.on_done) deliveries.push_back({std::move(t->request.on_done), std::move(t->result)});
    ++done;
  }
  {
    std::lock_guard lock(stats_mutex_);
    stats_.epochs++;
    stats_.txns += done;
    stats_.aborts += aborts;
    stats_.retries += retries;
    stats_.init_ms += static_cast<double>(job.t_init - job.t_start) / 1e6;
    stats_.exec_ms += static_cast<double>(job.t_exec - job.t_init) / 1e6;
    stats_.gc_ms += static_cast<double>(t_end - job.t_exec) / 1e6;
    stats_.gc_freed_versions += freed;
    stats_.rows_erased += erased;
    stats_.batch_appended_versions += batched;
    stats_.split_rows += job.split_rows;
    stats_.split_pieces += job.pieces.size();
  }
  if (replay) return;
  {
    std::lock_guard lock(mutex_);
    for (auto it = again.rbegin(); it != again.rend(); ++it) retry_.push_front(std::move(*it));
  }
  // With synchronous commit, nothing of the epoch reaches a client before its log
  // record is durable.
  auto release = [this, done, deliveries = std::move(deliveries)]() mutable {
    for (Delivery& d : deliveries) d.on_done(std::move(d.result));
    std::lock_guard lock(mutex_);
    completed_ += done;
    if (completed_ == submitted_) drained_cv_.notify_all();
  };
  if (log != nullptr && synchronous_commit())
    log->WhenDurable(lsn, std::move(release));
  else
    release();
}

uint64_t Engine::CompactTables(SerialId horizon, uint32_t epoch) {
  // Rows and tables dropped this long ago are in no worker's collection ring any more.
  const uint32_t safe = epoch > options_.gc_k + 2 ? epoch - options_.gc_k - 2 : 0;
  db_.FreeRetiredTables(safe);
  // Snapshot readers walk the indexes: if one is open, a later epoch does this instead.
  std::unique_lock structure(db_.structure_mutex(), std::try_to_lock);
  if (!structure.owns_lock()) return 0;
  uint64_t erased = 0;
  for (TableId id = 0; id < db_.num_tables(); ++id) {
    Table& t = db_.table(id);
    t.ReleaseRetired();
    t.FreeGraveyard(safe);
    if (t.WantsCompaction()) erased += t.Compact(horizon, epoch);
    if (t.WantsIndexRebuild()) t.RebuildIndexes();
  }
  return erased;
}

}  // namespace caracal::engine
