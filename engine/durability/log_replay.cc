#include "engine/durability/log_replay.h"

#include <fmt/format.h>

#include <chrono>
#include <future>
#include <vector>

#include "engine/log/log_record.h"

namespace caracal::engine {

namespace {

void RunEpochRecord(EpochRecord epoch, uint64_t lsn, Engine& engine, ReplayHost& host, ReplayStats& stats) {
  std::vector<std::shared_ptr<const Procedure>> procedures;
  procedures.reserve(epoch.identities.size());
  std::vector<bool> used(epoch.identities.size(), false);
  for (const LoggedTxn& t : epoch.txns)
    if (!t.failed) used[t.identity] = true;
  for (size_t i = 0; i < epoch.identities.size(); ++i) {
    std::shared_ptr<const Procedure> p = used[i] ? host.Resolve(epoch.identities[i]) : nullptr;
    if (used[i] && p == nullptr)
      throw LogFormatError(fmt::format("log record {} (epoch {}) runs \"{}\", which does not exist at that point",
                                       lsn, epoch.epoch, epoch.identities[i]));
    procedures.push_back(std::move(p));
  }
  std::vector<ReplayTxn> txns;
  txns.reserve(epoch.txns.size());
  for (LoggedTxn& t : epoch.txns)
    txns.push_back({t.failed ? nullptr : procedures[t.identity].get(), std::move(t.input), t.attempts, t.failed});
  stats.txns += txns.size();
  engine.ReplayEpoch(epoch.epoch, epoch.sequences, std::move(txns));
  ++stats.epochs;
}

}  // namespace

ReplayStats ReplayLog(const LogScan& scan, uint64_t after_lsn, Engine& engine, Database& db, ReplayHost& host) {
  const auto start = std::chrono::steady_clock::now();
  ReplayStats stats;
  uint64_t load_rows = 0;  // rows of the load in progress
  // The next epoch is decoded on another thread while the engine runs the one before it
  // (decoding is a few percent of replay). Procedures are resolved only when an epoch
  // runs, after every DDL record before it.
  std::future<EpochRecord> decoding;
  uint64_t decoding_lsn = 0;
  auto run_decoded = [&] {
    if (!decoding.valid()) return;
    RunEpochRecord(decoding.get(), decoding_lsn, engine, host, stats);
  };
  scan.ForEach(after_lsn + 1, [&](const RecordView& rec) {
    ++stats.records;
    stats.last_lsn = rec.lsn;
    if (rec.type == RecordType::kEpoch) {
      // Small epochs are not worth a thread: decoded when they run.
      const auto policy = rec.payload.size() >= (64 << 10) ? std::launch::async : std::launch::deferred;
      std::future<EpochRecord> next = std::async(policy, [payload = std::string(rec.payload), lsn = rec.lsn] {
        return DecodeEpoch(payload, lsn);
      });
      run_decoded();
      decoding = std::move(next);
      decoding_lsn = rec.lsn;
      return;
    }
    run_decoded();
    switch (rec.type) {
      case RecordType::kEpoch: break;
      case RecordType::kDdl:
        host.ReplayDdl(DecodeDdl(rec.payload, rec.lsn));
        ++stats.ddl;
        break;
      case RecordType::kLoadRows: {
        LoadRows rows = DecodeLoadRows(rec.payload, rec.lsn);
        std::optional<TableId> table = db.FindTable(rows.table);
        if (!table)
          throw LogFormatError(fmt::format("log record {} loads rows into table \"{}\", which does not exist",
                                           rec.lsn, rows.table));
        engine.RunExclusive([&] {
          const Schema& schema = db.schema(*table);
          for (std::string_view bytes : rows.rows) db.LoadRow(*table, RowFromBytes(schema, bytes));
        });
        load_rows += rows.rows.size();
        break;
      }
      case RecordType::kLoadEnd: {
        auto [table, total] = DecodeLoadEnd(rec.payload, rec.lsn);
        if (total != load_rows)
          throw LogFormatError(fmt::format("log record {}: the load of \"{}\" had {} rows, its end record says {}",
                                           rec.lsn, table, load_rows, total));
        ++stats.loads;
        stats.rows_loaded += load_rows;
        load_rows = 0;
        break;
      }
    }
  });
  run_decoded();
  stats.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace caracal::engine
