// durability_crash_driver: one life of a durable database between two kill -9s.
//
//   durability_crash_driver DATADIR --files DIR [--acked N] [--items N] [--seed S] [--verify]
//
// It opens DATADIR through a Session (recovering it), works out which prefix of its
// deterministic statement stream the recovered state holds, and checks it:
//   - every item up to --acked (the last one a previous life printed as acknowledged)
//     is in the prefix;
//   - nothing after the prefix left a trace, and nothing in it is half there: every
//     transfer that moved money has its ledger row and every ledger row its balance
//     moves (balances = 1000 + money in - money out), every COPY batch has all its rows,
//     ledger numbers drawn by nextval grow with the item id;
//   - with --verify: the state hash equals that of an uncrashed in-memory run of the
//     same prefix.
// Then it prints "resume R" and runs the stream on from item R, pipelined in small
// batches, printing "ack I" (unbuffered) as each item's outcome arrives, until --items.
// Exit status: 0 done, 1 a check failed (the message says which), 2 bad usage.
//
// The stream (item i): 0-5 set up accounts, ledger, ledger_seq, bulk, transfer() and
// 20 accounts; then mostly transfer calls (i % 97 == 0 raises: an abort that must leave
// nothing), ad-hoc INSERTs into the ledger, COPY batches into bulk (some larger than one
// log record), CREATE TABLE, CREATE OR REPLACE FUNCTION (a new multiplier), CHECKPOINT.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/storage/store.h"
#include "frontend/session/session.h"

namespace {

using caracal::engine::Database;
using caracal::engine::RowValue;
using caracal::engine::StateHash;
using caracal::engine::Value;
using caracal::frontend::PendingResult;
using caracal::frontend::Session;
using caracal::frontend::SessionOptions;
using caracal::frontend::StatementResult;

constexpr int kAccounts = 20;
constexpr int kSetupItems = 6;
constexpr int64_t kInitialBalance = 1000;

enum class Kind { kSetup, kTransfer, kInsert, kCopy, kCreateTable, kReplaceFunction, kCheckpoint };

struct Item {
  Kind kind;
  std::string sql;
  int64_t rows = 0;  // kCopy: rows in the batch
};

int64_t CopyRows(int64_t i) { return i % 1000 == 53 ? 12000 : 40; }

std::string TransferFunction(int64_t version) {
  const int64_t m = 1 + version % 3;
  return fmt::format(R"(create or replace function transfer(p_id bigint, p_src int, p_dst int, p_amt bigint)
returns bigint language plpgsql as $$
-- version {0}
declare k bigint;
begin
  k := nextval('ledger_seq');
  if p_id % 97 = 0 then
    raise exception 'unlucky transfer %', p_id;
  end if;
  update accounts set balance = balance - p_amt * {1} where id = p_src;
  update accounts set balance = balance + p_amt * {1} where id = p_dst;
  insert into ledger values (p_id, p_src, p_dst, p_amt * {1}, k);
  return k;
end $$)",
                     version, m);
}

class Stream {
 public:
  Stream(uint64_t seed, std::filesystem::path files) : seed_(seed), files_(std::move(files)) {}

  Item At(int64_t i) const {
    switch (i) {
      case 0: return {Kind::kSetup, "create table accounts (id int primary key, balance bigint not null)"};
      case 1:
        return {Kind::kSetup,
                "create table ledger (id bigint primary key, src int not null, dst int not null, amount bigint not "
                "null, n bigint not null)"};
      case 2: return {Kind::kSetup, "create sequence ledger_seq"};
      case 3:
        return {Kind::kSetup, "create table bulk (batch bigint, seq int, payload text, primary key (batch, seq))"};
      case 4: return {Kind::kSetup, TransferFunction(0)};
      case 5: {
        std::string sql = "insert into accounts values ";
        for (int a = 0; a < kAccounts; ++a) sql += fmt::format("{}({}, {})", a ? ", " : "", a, kInitialBalance);
        return {Kind::kSetup, sql};
      }
      default: break;
    }
    std::mt19937_64 rng(seed_ * 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(i));
    const int64_t r = i % 100;
    if (r == 7) return {Kind::kReplaceFunction, TransferFunction(i)};
    if (r == 37) return {Kind::kCreateTable, fmt::format("create table extra_{} (a int primary key)", i)};
    if (r == 53) {
      const std::filesystem::path file = CopyFile(i);
      return {Kind::kCopy, fmt::format("copy bulk from '{}' (format csv)", file.string()), CopyRows(i)};
    }
    if (r == 71) return {Kind::kCheckpoint, "checkpoint"};
    if (r % 10 == 3)
      return {Kind::kInsert, fmt::format("insert into ledger values ({}, 0, 0, 0, nextval('ledger_seq'))", i)};
    const int src = static_cast<int>(rng() % kAccounts);
    const int dst = static_cast<int>((src + 1 + rng() % (kAccounts - 1)) % kAccounts);
    return {Kind::kTransfer, fmt::format("select transfer({}, {}, {}, {})", i, src, dst, 1 + rng() % 50)};
  }

 private:
  // The CSV of COPY item i, written once (same content every time).
  std::filesystem::path CopyFile(int64_t i) const {
    const std::filesystem::path path = files_ / fmt::format("bulk_{}.csv", i);
    if (std::filesystem::exists(path)) return path;
    const std::filesystem::path tmp = files_ / fmt::format("bulk_{}.csv.{}", i, ::getpid());
    {
      std::ofstream out(tmp);
      for (int64_t s = 0; s < CopyRows(i); ++s)
        out << i << ',' << s << ',' << std::string(20 + (i + s) % 150, static_cast<char>('a' + s % 26)) << '\n';
    }
    std::filesystem::rename(tmp, path);
    return path;
  }

  uint64_t seed_;
  std::filesystem::path files_;
};

[[noreturn]] void Fail(const std::string& why) {
  std::fprintf(stderr, "CHECK FAILED: %s\n", why.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

void Say(const std::string& line) {
  std::string l = line + "\n";
  if (::write(STDOUT_FILENO, l.data(), l.size()) < 0) std::_Exit(3);
}

// Column `name` of every committed row of `table`, in key order (empty if no table).
std::vector<std::vector<caracal::engine::Value>> Rows(Session& s, const std::string& table) {
  std::vector<std::vector<caracal::engine::Value>> out;
  caracal::engine::Database& db = s.database();
  std::optional<caracal::engine::TableId> id = db.FindTable(table);
  if (!id) return out;
  const caracal::engine::Schema& schema = db.schema(*id);
  db.ForEachCommittedRow(*id, [&](const caracal::engine::Key&, const caracal::engine::RowValue& row) { out.push_back(row.GetAll(schema)); });
  return out;
}

// The last value ledger_seq handed out, or nullopt before it exists or draws anything.
std::optional<int64_t> LedgerSequence(Session& s) {
  const caracal::planner::SequenceInfo* seq = s.catalog().FindSequence("ledger_seq");
  if (seq == nullptr) return std::nullopt;
  return s.database().sequences().CurrVal(seq->engine_name);
}

int64_t TransferVersion(Session& s) {
  auto found = s.catalog().FindProcedures("transfer");
  if (found.empty()) return -1;
  const std::string& src = found.front()->source;
  const size_t at = src.find("-- version ");
  return at == std::string::npos ? -1 : std::stoll(src.substr(at + 11));
}

// Works out the recovered prefix [0, resume) and checks it; see the file comment.
int64_t CheckRecovered(Session& s, const Stream& stream, int64_t acked) {
  std::map<int64_t, std::vector<caracal::engine::Value>> ledger;
  for (auto& row : Rows(s, "ledger")) ledger[row[0].as_int()] = row;
  std::map<int64_t, int64_t> bulk;  // batch -> rows
  for (auto& row : Rows(s, "bulk")) ++bulk[row[0].as_int()];
  const int64_t draws = LedgerSequence(s).value_or(0);  // sequences start at 1
  const int64_t version = TransferVersion(s);

  int64_t drawn = 0, resume = 0, expect_version = -1;
  for (int64_t i = 0;; ++i) {
    const Item item = stream.At(i);
    bool present = false;
    switch (item.kind) {
      case Kind::kSetup:
        if (i == 0) present = s.database().FindTable("accounts").has_value();
        if (i == 1) present = s.database().FindTable("ledger").has_value();
        if (i == 2) present = s.catalog().FindSequence("ledger_seq") != nullptr;
        if (i == 3) present = s.database().FindTable("bulk").has_value();
        if (i == 4) present = version >= 0;
        if (i == 5) present = !Rows(s, "accounts").empty();
        if (i == 4 && present) expect_version = 0;
        break;
      case Kind::kTransfer:
      case Kind::kInsert:
        present = drawn < draws;
        if (present) {
          ++drawn;
          const bool aborts = item.kind == Kind::kTransfer && i % 97 == 0;
          if (aborts == ledger.contains(i))
            Fail(fmt::format("item {} ({}) is half there: its nextval was drawn, its ledger row is {}", i, item.sql,
                             aborts ? "present though it aborted" : "missing"));
        }
        break;
      case Kind::kCopy: {
        auto it = bulk.find(i);
        present = it != bulk.end();
        if (present && it->second != item.rows)
          Fail(fmt::format("COPY batch {} holds {} of its {} rows", i, it->second, item.rows));
        break;
      }
      case Kind::kCreateTable: present = s.database().FindTable(fmt::format("extra_{}", i)).has_value(); break;
      case Kind::kReplaceFunction:
        present = version >= i;
        if (present) expect_version = i;
        break;
      case Kind::kCheckpoint: present = true; break;
    }
    if (!present) {
      resume = i;
      break;
    }
  }
  if (resume <= acked) Fail(fmt::format("item {} was acknowledged, but the recovered state ends before item {}", acked, resume));
  if (drawn != draws) Fail(fmt::format("ledger_seq drew {} values, the recovered items only {}", draws, drawn));
  if (version != expect_version) Fail(fmt::format("transfer() is version {}, the prefix ends with version {}", version, expect_version));
  // Nothing after the prefix left a trace.
  if (!ledger.empty() && ledger.rbegin()->first >= resume)
    Fail(fmt::format("ledger row {} is there, but the prefix ends before item {}", ledger.rbegin()->first, resume));
  if (!bulk.empty() && bulk.rbegin()->first >= resume)
    Fail(fmt::format("COPY batch {} is there, but the prefix ends before item {}", bulk.rbegin()->first, resume));
  for (int64_t j = resume; j < resume + 200; ++j)
    if (stream.At(j).kind == Kind::kCreateTable && s.database().FindTable(fmt::format("extra_{}", j)))
      Fail(fmt::format("table extra_{} exists, but the prefix ends before item {}", j, resume));
  // Money moved only by whole transfers, numbered in serial order.
  std::map<int64_t, int64_t> expected;
  for (int a = 0; a < kAccounts; ++a) expected[a] = kInitialBalance;
  int64_t last_n = 0;
  for (const auto& [id, row] : ledger) {
    expected[row[1].as_int()] -= row[3].as_int();
    expected[row[2].as_int()] += row[3].as_int();
    if (row[4].as_int() <= last_n) Fail(fmt::format("ledger row {} has n = {}, not above the previous {}", id, row[4].as_int(), last_n));
    last_n = row[4].as_int();
  }
  auto accounts = Rows(s, "accounts");
  if (resume > 5) {
    if (accounts.size() != static_cast<size_t>(kAccounts)) Fail(fmt::format("{} accounts", accounts.size()));
    for (const auto& row : accounts)
      if (row[1].as_int() != expected[row[0].as_int()])
        Fail(fmt::format("account {} holds {}, its ledger says {}", row[0].as_int(), row[1].as_int(),
                         expected[row[0].as_int()]));
  }
  return resume;
}

// Runs items [from, to) on `s`, `batch` at a time through the pipeline; `ack` sees each
// item's index once its outcome is in.
void RunItems(Session& s, const Stream& stream, int64_t from, int64_t to, int batch,
              const std::function<void(int64_t, const StatementResult&)>& ack) {
  for (int64_t i = from; i < to;) {
    std::string sql;
    std::vector<int64_t> ids;
    for (; i < to && static_cast<int>(ids.size()) < batch; ++i) {
      sql += stream.At(i).sql + ";\n";
      ids.push_back(i);
    }
    std::vector<PendingResult> results = s.Submit(sql);
    if (results.size() != ids.size()) Fail(fmt::format("{} statements gave {} results", ids.size(), results.size()));
    for (size_t k = 0; k < results.size(); ++k) ack(ids[k], results[k].Get());
  }
}

void CheckOutcome(const Stream& stream, int64_t i, const StatementResult& r) {
  const Item item = stream.At(i);
  const bool should_fail = item.kind == Kind::kTransfer && i % 97 == 0;
  if (r.error.has_value() != should_fail)
    Fail(fmt::format("item {} ({}) {}", i, item.sql, r.error ? "failed: " + r.error->message : "did not fail"));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"durability_crash_driver: one life of a durable database between two kill -9s"};
  std::string data_dir, files;
  int64_t acked = -1, items = 100000;
  uint64_t seed = 1;
  bool verify = false;
  double checkpoint_interval_s = 0.15;
  int workers = 2, batch = 32;
  app.add_option("datadir", data_dir)->required();
  app.add_option("--files", files, "where COPY's CSV files go")->required();
  app.add_option("--acked", acked, "the last item a previous life acknowledged");
  app.add_option("--items", items, "stop after this item");
  app.add_option("--seed", seed);
  app.add_option("--checkpoint-interval", checkpoint_interval_s);
  app.add_option("--workers", workers);
  app.add_option("--batch", batch, "items per pipeline batch");
  app.add_flag("--verify", verify, "compare the state hash with an uncrashed in-memory run of the prefix");
  CLI11_PARSE(app, argc, argv);
  std::filesystem::create_directories(files);
  const Stream stream(seed, files);

  SessionOptions options;
  options.engine.workers = workers;
  options.engine.epoch_interval_ms = 2;
  options.durability.emplace();
  options.durability->data_dir = data_dir;
  options.durability->checkpoint_interval_s = checkpoint_interval_s;
  options.durability->checkpoint_log_bytes = 512 << 10;
  options.durability->segment_bytes = 256 << 10;  // many segments: rotation and deletion get exercised
  std::optional<Session> session;
  try {
    session.emplace(options);
  } catch (const std::exception& e) {
    Fail(fmt::format("could not open {}: {}", data_dir, e.what()));
  }
  const int64_t resume = CheckRecovered(*session, stream, acked);
  if (verify) {
    SessionOptions memory;
    memory.engine.workers = workers;
    memory.engine.epoch_interval_ms = 1;
    Session uncrashed(memory);
    RunItems(uncrashed, stream, 0, resume, 256, [&](int64_t i, const StatementResult& r) { CheckOutcome(stream, i, r); });
    const uint64_t want = StateHash(uncrashed.database()), got = StateHash(session->database());
    if (want != got)
      Fail(fmt::format("recovered state hash {:016x}, an uncrashed run of items [0, {}) gives {:016x}", got, resume, want));
    Say(fmt::format("verified {} items: state hash {:016x}", resume, got));
  }
  Say(fmt::format("resume {} ({})", resume, session->durable()->recovery().Describe()));
  RunItems(*session, stream, resume, items, batch, [&](int64_t i, const StatementResult& r) {
    CheckOutcome(stream, i, r);
    Say(fmt::format("ack {}", i));
  });
  return 0;
}
