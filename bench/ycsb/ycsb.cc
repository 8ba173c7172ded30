#include "bench/ycsb/ycsb.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <thread>

#include "bench/ycsb/zipf.h"
#include "engine/types/errors.h"
#include "engine/storage/table.h"

namespace caracal::bench {

namespace {

constexpr int kFields = 10;
constexpr int kFieldBytes = 100;
constexpr int kKeysPerTxn = 10;
constexpr uint64_t kHotRows = 77;

engine::Key YcsbKey(int64_t k) {
  engine::Key key;
  key.AppendInt(k, engine::ColumnType::kBigInt);
  return key;
}

// Deterministic field contents, the contract sql/ycsb/ shares (see its README): 100
// letters, the alphabet rotated by (seed, position); `%` truncates as in SQL.
void FillField(char* out, int64_t seed, int64_t position) {
  const int64_t s = ((seed % 26) + 26 + position % 26) % 26;
  for (int i = 0; i < kFieldBytes; ++i) out[i] = static_cast<char>('a' + (s + i) % 26);
}

// args: [keys: bigint[10], writes: boolean[10], value_seed: bigint]
class YcsbTxn final : public engine::Procedure {
 public:
  explicit YcsbTxn(engine::TableId table) : table_(table) {}
  const std::string& name() const override { return name_; }
  std::string_view log_identity() const override { return "native:ycsb_txn"; }

  void Declare(engine::DeclareContext& ctx) const override {
    const auto& keys = ctx.input().args[0].as_array();
    const auto& writes = ctx.input().args[1].as_array();
    for (int i = 0; i < kKeysPerTxn; ++i) {
      engine::Key key = YcsbKey(keys[i].as_int());
      if (writes[i].as_bool())
        ctx.DeclareRowUpdate(table_, key, 1);  // every YCSB update may be contended (§5.3)
      else
        ctx.Prefetch(table_, key);
    }
  }

  void Execute(engine::ExecContext& ctx) const override {
    const auto& keys = ctx.input().args[0].as_array();
    const auto& writes = ctx.input().args[1].as_array();
    const int64_t seed = ctx.input().args[2].as_int();
    const engine::Schema& schema = ctx.table(table_).schema();
    int64_t checksum = 0;
    ctx.Publish();  // YCSB never aborts: every write is visible at once
    for (int i = 0; i < kKeysPerTxn; ++i) {
      engine::Key key = YcsbKey(keys[i].as_int());
      if (!writes[i].as_bool()) {
        const engine::RowValue* row = ctx.Read(table_, key);
        if (row == nullptr) continue;
        // Read the whole row out, as SELECT * INTO does; the result is the checksum
        // sql/ycsb computes: sum over fields f of (f + 1) * first byte.
        char copy[kFields * kFieldBytes];
        for (int f = 1; f <= kFields; ++f) {
          std::string_view s = row->GetString(f);
          std::memcpy(copy + (f - 1) * kFieldBytes, s.data(), std::min<size_t>(s.size(), kFieldBytes));
          checksum += f * (s.empty() ? 0 : static_cast<unsigned char>(copy[(f - 1) * kFieldBytes]));
        }
        continue;
      }
      char field[kFieldBytes];
      FillField(field, seed, i);
      ctx.ApplyRowUpdate(
          table_, key,
          [&schema, field](const engine::RowValue& old) {
            return engine::RowBuilder(schema, old).SetStringRef(1, std::string_view(field, kFieldBytes)).Build();
          },
          1);
    }
    ctx.Emit({engine::Value::Int(checksum)});
  }

 private:
  engine::TableId table_;
  std::string name_ = "ycsb_txn";
};

class Ycsb final : public Workload {
 public:
  Ycsb(const WorkloadOptions& options, YcsbVariant variant) : options_(options), variant_(variant) {
    if (options_.keys < kHotRows * 2) throw std::invalid_argument("ycsb needs at least 154 keys");
    const bool skew = variant == YcsbVariant::kSkew || variant == YcsbVariant::kContentionSkew;
    if (skew) {
      zipf_all_ = std::make_unique<ZipfGenerator>(options_.keys, 0.9);
      zipf_hot_ = std::make_unique<ZipfGenerator>(kHotRows, 0.9);
    }
  }

  std::string name() const override {
    switch (variant_) {
      case YcsbVariant::kUniform: return "ycsb-uniform";
      case YcsbVariant::kSkew: return "ycsb-skew";
      case YcsbVariant::kContention: return "ycsb-contention";
      case YcsbVariant::kContentionSkew: return "ycsb-contention-skew";
    }
    return "ycsb";
  }

  void Setup(engine::Store& store, const ProgressFn& progress) override {
    std::vector<engine::Column> cols;
    cols.push_back({"ycsb_key", engine::ColumnType::kBigInt, 0, 0, true});
    for (int f = 0; f < kFields; ++f) cols.push_back({fmt::format("field{}", f), engine::ColumnType::kChar, kFieldBytes, 0, false});
    table_ = CreateOrAttachTable(store, engine::Schema("ycsb", std::move(cols), {0}));
    txn_ = std::make_unique<YcsbTxn>(table_);

    const engine::Schema& schema = store.schema(table_);
    std::atomic<uint64_t> done{0};
    auto load = [&](uint64_t from, uint64_t to, bool report) {
      char fields[kFields][kFieldBytes];
      for (uint64_t k = from; k < to; ++k) {
        engine::RowBuilder b(schema);
        b.SetInt(0, static_cast<int64_t>(k));
        for (int f = 0; f < kFields; ++f) {
          FillField(fields[f], static_cast<int64_t>(k), f + 1000);
          b.SetStringRef(f + 1, std::string_view(fields[f], kFieldBytes));
        }
        store.LoadRow(table_, b.Build());
        if ((k & 0xffff) == 0) {
          uint64_t d = done.fetch_add(0x10000) + 0x10000;
          if (report && progress) progress(std::min(d, options_.keys), options_.keys);
        }
      }
    };
    const unsigned threads = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      uint64_t from = options_.keys * t / threads, to = options_.keys * (t + 1) / threads;
      pool.emplace_back(load, from, to, t == 0);
    }
    for (auto& th : pool) th.join();
    if (progress) progress(options_.keys, options_.keys);
  }

  std::vector<const engine::Procedure*> procedures() const override { return {txn_.get()}; }

  engine::TxnRequest Next(std::mt19937_64& rng) override {
    std::vector<int64_t> keys;
    keys.reserve(kKeysPerTxn);
    const bool contention = variant_ == YcsbVariant::kContention || variant_ == YcsbVariant::kContentionSkew;
    const uint64_t spacing = options_.keys / kHotRows;
    auto add_distinct = [&](auto draw) {
      for (;;) {
        int64_t k = static_cast<int64_t>(draw());
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
          keys.push_back(k);
          return;
        }
      }
    };
    auto any_key = [&]() -> uint64_t {
      if (zipf_all_) return (*zipf_all_)(rng);
      return std::uniform_int_distribution<uint64_t>(0, options_.keys - 1)(rng);
    };
    auto hot_key = [&]() -> uint64_t {
      uint64_t h = zipf_hot_ ? (*zipf_hot_)(rng) : std::uniform_int_distribution<uint64_t>(0, kHotRows - 1)(rng);
      return h * spacing;
    };
    std::vector<engine::Value> key_values, write_flags;
    if (contention) {
      for (int i = 0; i < 7; ++i) add_distinct(hot_key);
      for (int i = 0; i < 3; ++i) add_distinct(any_key);
      std::shuffle(keys.begin(), keys.end(), rng);
    } else {
      for (int i = 0; i < kKeysPerTxn; ++i) add_distinct(any_key);
    }
    // 8:2 read/write: exactly two writes at random positions; 0:10 under contention.
    std::array<bool, kKeysPerTxn> writes{};
    if (contention) {
      writes.fill(true);
    } else {
      int first = std::uniform_int_distribution<int>(0, kKeysPerTxn - 1)(rng);
      int second = std::uniform_int_distribution<int>(0, kKeysPerTxn - 2)(rng);
      if (second >= first) ++second;
      writes[first] = writes[second] = true;
    }
    for (int i = 0; i < kKeysPerTxn; ++i) {
      key_values.push_back(engine::Value::Int(keys[i]));
      write_flags.push_back(engine::Value::Bool(writes[i]));
    }
    engine::TxnRequest req;
    req.procedure = txn_.get();
    req.input.args = {engine::Value::Array(std::move(key_values)), engine::Value::Array(std::move(write_flags)),
                      engine::Value::Int(static_cast<int64_t>(rng() >> 1))};
    return req;
  }

 private:
  WorkloadOptions options_;
  YcsbVariant variant_;
  engine::TableId table_ = 0;
  std::unique_ptr<YcsbTxn> txn_;
  std::unique_ptr<ZipfGenerator> zipf_all_, zipf_hot_;
};

}  // namespace

std::unique_ptr<Workload> MakeYcsb(const WorkloadOptions& options, YcsbVariant variant) {
  return std::make_unique<Ycsb>(options, variant);
}

}  // namespace caracal::bench
