#include "engine/log_replay.h"

#include <fmt/format.h>

#include <chrono>
#include <vector>

#include "engine/log_record.h"

namespace caracal {

namespace {

void ReplayEpochRecord(const RecordView& rec, Engine& engine, ReplayHost& host, ReplayStats& stats) {
  EpochRecord epoch = DecodeEpoch(rec.payload, rec.lsn);
  std::vector<std::shared_ptr<const Procedure>> procedures;
  procedures.reserve(epoch.identities.size());
  std::vector<bool> used(epoch.identities.size(), false);
  for (const LoggedTxn& t : epoch.txns)
    if (!t.failed) used[t.identity] = true;
  for (size_t i = 0; i < epoch.identities.size(); ++i) {
    std::shared_ptr<const Procedure> p = used[i] ? host.Resolve(epoch.identities[i]) : nullptr;
    if (used[i] && p == nullptr)
      throw LogFormatError(fmt::format("log record {} (epoch {}) runs \"{}\", which does not exist at that point",
                                       rec.lsn, epoch.epoch, epoch.identities[i]));
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
  scan.ForEach(after_lsn + 1, [&](const RecordView& rec) {
    ++stats.records;
    stats.last_lsn = rec.lsn;
    switch (rec.type) {
      case RecordType::kEpoch: ReplayEpochRecord(rec, engine, host, stats); break;
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
  stats.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace caracal
