#include "engine/execution/epoch_worker.h"

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include <algorithm>
#include <unordered_map>

#include "engine/execution/epoch_declare_context.h"
#include "engine/execution/epoch_exec_context.h"
#include "engine/execution/lottery.h"
#include "engine/procedure/procedure.h"
#include "engine/storage/committed_reads.h"
#include "engine/types/errors.h"

namespace caracal::engine {

namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

// Execution touches rows that initialization found long ago and that are likely out of
// cache: start loading the next transaction's rows and their newest versions while the
// current one runs.
void EpochWorker::PrefetchRows(const EpochTxn& txn) {
  for (const CacheEntry& e : txn.cache) {
    if (e.row == nullptr) continue;
    __builtin_prefetch(e.row);
    // The array's shape is frozen during execution; the newest settled version is one
    // of the last two entries (the last may be this or another transaction's pending one).
    uint32_t n = e.row->size();
    for (uint32_t back = 1; back <= 2 && back <= n; ++back) {
      uintptr_t v = e.row->entry(n - back).value.load(std::memory_order_relaxed);
      if (version::IsData(v)) __builtin_prefetch(reinterpret_cast<const void*>(v));
    }
  }
}

bool EpochWorker::Append(Table& table, Row& row, SerialId sid, bool only_if_exists) {
  // The first version only changes under the lock, and during the append step only in
  // ways that keep the answer (minor collection keeps a version older than the epoch).
  if (only_if_exists && !(row.first_sid() < sid)) return false;
  row.last_write_epoch.store(epoch_, std::memory_order_relaxed);
  written_rows_.push_back({&table, &row, epoch_});
  uint32_t index = row.buffer_index.load(std::memory_order_acquire);
  if (index == Row::kNoBuffer) {
    if (row.lock().TryLock()) {
      lock_waits_.Add(0);
      InsertLocked(row, sid);
      row.lock().Unlock();
      return true;
    }
    if (options_.batch_append) index = pool_.BufferOf(row);
    if (index == Row::kNoBuffer) {  // batch append off, or the pool is exhausted: wait
      const int64_t start = NowNs();
      row.lock().Lock();
      lock_waits_.Add(static_cast<uint64_t>(NowNs() - start));
      InsertLocked(row, sid);
      row.lock().Unlock();
      return true;
    }
  }
  while (!pool_.Add(id_, index, sid)) pool_.FlushOne(id_, index, [this](Row& r) { MinorCollect(r); });
  ++batch_appended_;
  return true;
}

bool EpochWorker::AppendDuringSoloExecution(Table& table, Row& row, SerialId sid, bool only_if_exists) {
  if (only_if_exists && !(row.first_sid() < sid)) return false;
  row.last_write_epoch.store(epoch_, std::memory_order_relaxed);
  written_rows_.push_back({&table, &row, epoch_});
  SpinGuard guard(row.lock());
  InsertLocked(row, sid);
  return true;
}

void EpochWorker::InsertLocked(Row& row, SerialId sid) {
  MinorCollect(row);
  row.InsertVersion(sid, version::kPending);
}

// The minor collector (§3.5): initialization holds the row's lock and has the row in
// cache anyway, so it trims what no reader can need any more.
void EpochWorker::MinorCollect(Row& row) {
  if (!options_.gc || !options_.minor_gc) return;
  if (row.size() >= 2 && row.entry(1).sid < init_horizon_) freed_versions_ += row.Collect(init_horizon_);
}

void EpochWorker::InsertStep(EpochTxn& txn) {
  if (txn.state != EpochTxn::State::kRunning) return;  // its Sequence step failed
  EpochDeclareContext ctx(db_, txn, *this, epoch_);
  txn.Guard([&] { txn.request.procedure->Declare(ctx); });
}

void EpochWorker::AppendStep(EpochTxn& txn) {
  if (txn.state != EpochTxn::State::kRunning) return;
  for (CacheEntry& e : txn.cache) {
    if (!e.declared_write) {
      if (e.row == nullptr) e.row = e.table->Find(e.key);  // a prefetch
      continue;
    }
    if (!e.needs_append || e.has_version) continue;
    e.needs_append = false;
    e.row = e.table->Find(e.key);
    if (e.row != nullptr && Append(*e.table, *e.row, txn.sid, true)) e.has_version = true;
  }
  for (RangeDecl& r : txn.ranges) {
    r.table->ForEach(r.lo, r.hi, [&](const Key& k, Row& row) {
      uint64_t hash = k.Hash();
      CacheEntry* e = txn.Find(r.table, k, hash);
      if (e != nullptr && e->has_version) {
        if (row.first_sid() < txn.sid) r.candidates.push_back(&row);
        return true;
      }
      if (!Append(*r.table, row, txn.sid, true)) return true;
      if (e == nullptr) e = &txn.Add(r.table, k, hash);
      e->declared_write = true;
      e->kind = r.kind == RangeKind::kDelete ? WriteKind::kDelete : WriteKind::kUpdate;
      e->row = &row;
      e->has_version = true;
      r.candidates.push_back(&row);
      return true;
    });
  }
}

void EpochWorker::ExecuteStep(EpochTxn& txn) {
  if (txn.state == EpochTxn::State::kRunning) {
    EpochExecContext ctx(db_, txn, *this);
    txn.Guard([&] { txn.request.procedure->Execute(ctx); });
    if (txn.state == EpochTxn::State::kRunning) ctx.Publish();
  }
  Settle(txn);
}

// Every version this transaction owns ends settled: its write, or an ignore marker.
void EpochWorker::Settle(EpochTxn& txn) {
  for (CacheEntry& e : txn.cache) {
    if (e.piece != nullptr) {  // never posted: its core must not wait any longer
      int expected = Piece::kWaiting;
      e.piece->posted.compare_exchange_strong(expected, Piece::kCancelled, std::memory_order_acq_rel);
    }
    if (!e.has_version || e.stored) continue;
    if (e.version_index < 0) e.version_index = e.row->FindExact(txn.sid);
    e.row->entry(static_cast<uint32_t>(e.version_index)).value.store(version::kIgnore, std::memory_order_release);
    e.staged.reset();
  }
}

void EpochWorker::CollectCandidates(EpochJob& job) {
  std::vector<SplitCandidate>& mine = job.candidates[id_];
  const size_t n = job.txns.size();
  for (size_t i = id_; i < n; i += num_workers_) {
    EpochTxn& txn = *job.txns[i];
    if (txn.state != EpochTxn::State::kRunning) continue;
    for (CacheEntry& e : txn.cache) {
      // A row holding fewer versions than the threshold cannot have that many pending:
      // most candidates drop out here, in parallel, before worker 0's serial planning.
      if (e.row_update_weight > 0 && e.has_version && e.row->size() >= options_.split_threshold)
        mine.push_back({&txn, &e});
    }
  }
}

// Listing 1, on worker 0 while the others wait: the contention set is known now (every
// pending version of the epoch is in its array), so the whole schedule is fixed before
// execution starts. Each core's queue is in serial order, so execution cannot deadlock:
// an item waits only for versions of smaller serial ids, or (a piece) for its own
// transaction to post it, and a transaction never waits for a piece placed on its own
// core (those run inline). A transaction's pieces on one core run as a group, each as it
// is posted (RunPieces), because the transaction may wait for one before posting another.
void EpochWorker::PlanPieces(EpochJob& job) {
  const SerialId epoch_start = MakeSerialId(job.epoch, 0);
  std::unordered_map<const Row*, bool> contended;
  std::vector<SplitCandidate> chosen;
  std::vector<LotteryTicket> tickets;
  for (auto& list : job.candidates) {
    for (const SplitCandidate& c : list) {
      const Row* row = c.entry->row;
      auto [it, inserted] = contended.try_emplace(row, false);
      if (inserted) {
        const int64_t before = row->FindBefore(epoch_start);
        it->second = row->size() - static_cast<uint32_t>(before + 1) >= options_.split_threshold;
      }
      if (!it->second) continue;
      chosen.push_back(c);
      tickets.push_back({row, static_cast<uint32_t>(c.entry->row_update_weight), c.txn->sid});
    }
    list.clear();
  }
  if (chosen.empty()) return;
  const std::vector<int> cores = AssignPieces(tickets, num_workers_);
  std::vector<std::vector<QueueItem>> pieces_of(num_workers_);
  std::unordered_map<const Row*, bool> split_rows;
  for (size_t i = 0; i < chosen.size(); ++i) {
    const int owner = static_cast<int>((SequenceOf(chosen[i].txn->sid) - 1) % num_workers_);
    if (cores[i] == owner) continue;  // its own core: inline is the same place, minus a wait
    Piece& p = job.pieces.emplace_back();
    p.txn = chosen[i].txn;
    p.entry = chosen[i].entry;
    chosen[i].entry->piece = &p;
    pieces_of[cores[i]].push_back({p.txn->sid, p.txn, &p});
    split_rows.emplace(chosen[i].entry->row, true);
  }
  job.split_rows = split_rows.size();
  if (job.pieces.empty()) return;
  job.queues.resize(num_workers_);
  const size_t n = job.txns.size();
  for (int c = 0; c < num_workers_; ++c) {
    std::vector<QueueItem>& pieces = pieces_of[c];
    std::sort(pieces.begin(), pieces.end(), [](const QueueItem& a, const QueueItem& b) { return a.sid < b.sid; });
    std::vector<QueueItem>& queue = job.queues[c];
    size_t p = 0;
    for (size_t i = c; i < n; i += num_workers_) {
      EpochTxn* txn = job.txns[i].get();
      // A transaction precedes its own pieces placed on this core (none: those run inline).
      while (p < pieces.size() && pieces[p].sid < txn->sid) queue.push_back(pieces[p++]);
      queue.push_back({txn->sid, txn, nullptr});
    }
    while (p < pieces.size()) queue.push_back(pieces[p++]);
  }
}

void EpochWorker::RunPieces(std::span<const QueueItem> pieces) {
  // Pieces of one transaction share a serial position, so the queue's order among them
  // is arbitrary, and the transaction may wait for one before it posts the next (SQL's
  // UPDATE ... RETURNING INTO). Waiting for them in queue order could deadlock; running
  // each as it is posted cannot, and their rows differ, so the order changes nothing.
  std::vector<bool> settled(pieces.size(), false);
  size_t left = pieces.size();
  for (int spins = 0; left > 0; ++spins) {
    bool progressed = false;
    for (size_t i = 0; i < pieces.size(); ++i) {
      if (settled[i]) continue;
      const int posted = pieces[i].piece->posted.load(std::memory_order_acquire);
      if (posted == Piece::kWaiting) continue;
      // Cancelled: the transaction settles the version itself.
      if (posted == Piece::kPosted) RunPostedPiece(*pieces[i].piece);
      settled[i] = true;
      --left;
      progressed = true;
    }
    if (progressed) {
      spins = 0;
    } else if (spins < 256) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
  }
}

void EpochWorker::RunPostedPiece(Piece& piece) {
  const CacheEntry& e = *piece.entry;
  const SerialId sid = piece.txn->sid;
  uintptr_t value = version::kIgnore;  // unchanged (or absent): readers skip to the previous
  bool applied = false;
  if (const RowValue* old = VisibleBefore(*e.row, sid)) {
    try {
      if (RowValuePtr updated = piece.callback(*old)) {
        if (piece.txn->maintains_indexes && e.table->num_indexes() > 0) e.table->AddMissingIndexEntries(e.key, *updated);
        value = reinterpret_cast<uintptr_t>(updated.release());
        applied = true;
      }
    } catch (const std::exception&) {
      applied = false;  // the transaction has published: the update is lost, not the epoch
    }
  }
  e.row->entry(static_cast<uint32_t>(e.row->FindExact(sid))).value.store(value, std::memory_order_release);
  piece.state.applied = applied;
  piece.state.done.store(true, std::memory_order_release);
}

void EpochWorker::MajorCollect(SerialId horizon) {
  const size_t ring = gc_ring_.size();
  std::vector<WrittenRow>& bucket = gc_ring_[epoch_ % ring];
  bucket.insert(bucket.end(), written_rows_.begin(), written_rows_.end());
  written_rows_.clear();
  if (epoch_ + 1 < ring) return;  // nothing is gc_k epochs old yet
  const uint32_t due_epoch = epoch_ + 1 - static_cast<uint32_t>(ring);
  std::vector<WrittenRow>& due = gc_ring_[due_epoch % ring];
  std::vector<WrittenRow> again;
  for (const WrittenRow& w : due) {
    // Rows written since are the minor collector's; another worker may hold this one.
    if (w.row->last_write_epoch.load(std::memory_order_relaxed) != w.epoch) continue;
    if (w.row->gc_epoch.exchange(epoch_, std::memory_order_relaxed) == epoch_) continue;
    SpinGuard guard(w.row->lock());
    freed_versions_ += w.row->Collect(horizon);
    if (w.row->IsDead(horizon))
      w.table->NoteDeadRow();
    else if (w.row->size() > 1 || (w.row->size() == 1 && w.row->entry(0).sid >= horizon))
      again.push_back(w);  // a pinned snapshot held it back
  }
  due.clear();  // with gc_k = 0 this is also the current epoch's bucket
  std::vector<WrittenRow>& current = gc_ring_[epoch_ % ring];
  current.insert(current.end(), again.begin(), again.end());
}

void EpochWorker::RunEpoch(EpochJob& job) {
  epoch_ = job.epoch;
  init_horizon_ = job.init_horizon;
  freed_versions_ = 0;
  batch_appended_ = 0;
  const size_t n = job.txns.size();
  auto minor = [this](Row& r) { MinorCollect(r); };
  for (size_t i = id_; i < n; i += num_workers_) InsertStep(*job.txns[i]);
  // Every version of the insert step must be in its array before any append-step check.
  pool_.FlushCore(id_, minor);
  job.barrier->arrive_and_wait();
  for (size_t i = id_; i < n; i += num_workers_) AppendStep(*job.txns[i]);
  pool_.FlushCore(id_, minor);
  job.barrier->arrive_and_wait();
  if (options_.split_on_demand) {
    // Version arrays are final now (no core appends any more): count pending versions.
    CollectCandidates(job);
    job.barrier->arrive_and_wait();
    if (id_ == 0) PlanPieces(job);
    job.barrier->arrive_and_wait();
  }
  if (id_ == 0) job.t_init = NowNs();
  if (!job.queues.empty()) {
    const std::vector<QueueItem>& queue = job.queues[id_];
    for (size_t i = 0; i < queue.size(); ++i) {
      if (queue[i].piece != nullptr) {
        size_t end = i + 1;
        while (end < queue.size() && queue[end].piece != nullptr && queue[end].txn == queue[i].txn) ++end;
        RunPieces(std::span<const QueueItem>(queue).subspan(i, end - i));
        i = end - 1;
        continue;
      }
      if (i + 1 < queue.size()) PrefetchRows(*queue[i + 1].txn);
      ExecuteStep(*queue[i].txn);
    }
  } else {
    for (size_t i = id_; i < n; i += num_workers_) {
      if (i + num_workers_ < n) PrefetchRows(*job.txns[i + num_workers_]);
      ExecuteStep(*job.txns[i]);
    }
  }
  job.barrier->arrive_and_wait();
  if (id_ == 0) {
    job.t_exec = NowNs();
    job.gc_horizon = job.on_executed();
    pool_.Reset();  // no core appends until the next epoch
  }
  job.barrier->arrive_and_wait();
  if (options_.gc)
    MajorCollect(job.gc_horizon);
  else
    written_rows_.clear();
}

}  // namespace caracal::engine
