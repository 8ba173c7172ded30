#include "bench/tpcc/loader.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>

#include "bench/tpcc/random.h"
#include "engine/types/row_value.h"

namespace caracal::bench::tpcc {

namespace {

// Rows loaded by one district task, for progress: customers, history, orders,
// ~10 lines per order and the new_order rows.
constexpr uint64_t kRowsPerDistrict =
    3ULL * kCustomersPerDistrict + 10ULL * kOrdersPerDistrict + (kOrdersPerDistrict - kFirstUndeliveredOrder + 1);
constexpr uint64_t kProgressBatch = 16384;

// Counts loaded rows across threads and reports them through one mutex, so the caller's
// callback is never entered concurrently and sees non-decreasing counts.
class Progress {
 public:
  Progress(const ProgressFn& fn, uint64_t total) : fn_(fn), total_(total) {}

  void Add(uint64_t rows) {
    const uint64_t done = done_.fetch_add(rows, std::memory_order_relaxed) + rows;
    if (!fn_) return;
    std::lock_guard lock(mutex_);
    if (done > reported_) {
      reported_ = done;
      fn_(std::min(done, total_), total_);
    }
  }
  void Finish() {
    if (fn_) fn_(total_, total_);
  }

 private:
  const ProgressFn& fn_;
  const uint64_t total_;
  std::atomic<uint64_t> done_{0};
  std::mutex mutex_;
  uint64_t reported_ = 0;
};

// Loads rows for one task, batching progress updates.
class RowSink {
 public:
  RowSink(engine::Store& store, Progress& progress) : store_(store), progress_(progress) {}
  ~RowSink() { progress_.Add(pending_); }
  RowSink(const RowSink&) = delete;
  RowSink& operator=(const RowSink&) = delete;

  void Load(engine::TableId table, const engine::RowBuilder& row) {
    store_.LoadRow(table, row.Build());
    if (++pending_ == kProgressBatch) {
      progress_.Add(pending_);
      pending_ = 0;
    }
  }

 private:
  engine::Store& store_;
  Progress& progress_;
  uint64_t pending_ = 0;
};

// Street, city, state and zip columns starting at `first` (clause 4.3.3.1).
void SetAddress(engine::RowBuilder& row, int first, Rng& rng) {
  row.SetString(first, AString(rng, 10, 20));
  row.SetString(first + 1, AString(rng, 10, 20));
  row.SetString(first + 2, AString(rng, 10, 20));
  row.SetString(first + 3, State(rng));
  row.SetString(first + 4, Zip(rng));
}

void LoadItems(const Tables& t, Rng& rng, RowSink& sink) {
  const engine::Schema& schema = t.schema(TableKind::kItem);
  for (int i = 1; i <= kItems; ++i) {
    engine::RowBuilder row(schema);
    row.SetInt(I_ID, i)
        .SetInt(I_IM_ID, Uniform(rng, 1, 10000))
        .SetString(I_NAME, AString(rng, 14, 24))
        .SetInt(I_PRICE, Uniform(rng, 100, 10000))
        .SetString(I_DATA, DataWithOriginal(rng));
    sink.Load(t.item, row);
  }
}

void LoadWarehouseAndDistricts(const Tables& t, int w, Rng& rng, RowSink& sink) {
  engine::RowBuilder wh(t.schema(TableKind::kWarehouse));
  wh.SetInt(W_ID, w).SetString(W_NAME, AString(rng, 6, 10));
  SetAddress(wh, W_STREET_1, rng);
  wh.SetInt(W_TAX, Uniform(rng, 0, 2000)).SetInt(W_YTD, 300'000'00);
  sink.Load(t.warehouse, wh);

  for (int d = 1; d <= kDistrictsPerWarehouse; ++d) {
    engine::RowBuilder row(t.schema(TableKind::kDistrict));
    row.SetInt(D_ID, d).SetInt(D_W_ID, w).SetString(D_NAME, AString(rng, 6, 10));
    SetAddress(row, D_STREET_1, rng);
    row.SetInt(D_TAX, Uniform(rng, 0, 2000))
        .SetInt(D_YTD, 30'000'00)
        .SetInt(D_NEXT_O_ID, kOrdersPerDistrict + 1);
    sink.Load(t.district, row);
  }
}

void LoadStock(const Tables& t, int w, Rng& rng, RowSink& sink) {
  const engine::Schema& schema = t.schema(TableKind::kStock);
  for (int i = 1; i <= kStockPerWarehouse; ++i) {
    engine::RowBuilder row(schema);
    row.SetInt(S_I_ID, i).SetInt(S_W_ID, w).SetInt(S_QUANTITY, Uniform(rng, 10, 100));
    for (int d = 0; d < kDistrictsPerWarehouse; ++d) row.SetString(S_DIST_01 + d, AString(rng, 24, 24));
    row.SetInt(S_YTD, 0).SetInt(S_ORDER_CNT, 0).SetInt(S_REMOTE_CNT, 0).SetString(S_DATA, DataWithOriginal(rng));
    sink.Load(t.stock, row);
  }
}

void LoadCustomersAndHistory(const Tables& t, int w, int d, int c_last_constant, Rng& rng, RowSink& sink) {
  const engine::Schema& customer = t.schema(TableKind::kCustomer);
  const engine::Schema& history = t.schema(TableKind::kHistory);
  for (int c = 1; c <= kCustomersPerDistrict; ++c) {
    // The first 1000 customers get every last name once; the rest NURand ones.
    const int name_number =
        c <= 1000 ? c - 1 : static_cast<int>(NURand(rng, 255, 0, 999, c_last_constant));
    engine::RowBuilder row(customer);
    row.SetInt(C_ID, c)
        .SetInt(C_D_ID, d)
        .SetInt(C_W_ID, w)
        .SetString(C_FIRST, AString(rng, 8, 16))
        .SetString(C_MIDDLE, "OE")
        .SetString(C_LAST, LastName(name_number));
    SetAddress(row, C_STREET_1, rng);
    row.SetString(C_PHONE, NString(rng, 16, 16))
        .SetInt(C_SINCE, kLoadTimestamp)
        .SetString(C_CREDIT, Uniform(rng, 1, 10) == 1 ? "BC" : "GC")
        .SetInt(C_CREDIT_LIM, 50'000'00)
        .SetInt(C_DISCOUNT, Uniform(rng, 0, 5000))
        .SetInt(C_BALANCE, -10'00)
        .SetInt(C_YTD_PAYMENT, 10'00)
        .SetInt(C_PAYMENT_CNT, 1)
        .SetInt(C_DELIVERY_CNT, 0)
        .SetString(C_DATA, AString(rng, 300, 500));
    sink.Load(t.customer, row);

    engine::RowBuilder h(history);
    h.SetInt(H_ID, LoadedHistoryId(w, d, c))
        .SetInt(H_C_ID, c)
        .SetInt(H_C_D_ID, d)
        .SetInt(H_C_W_ID, w)
        .SetInt(H_D_ID, d)
        .SetInt(H_W_ID, w)
        .SetInt(H_DATE, kLoadTimestamp)
        .SetInt(H_AMOUNT, 10'00)
        .SetString(H_DATA, AString(rng, 12, 24));
    sink.Load(t.history, h);
  }
}

// A random permutation of 1..n (Fisher-Yates with our portable Uniform).
std::vector<int32_t> Permutation(Rng& rng, int n) {
  std::vector<int32_t> p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 1);
  for (int i = n - 1; i > 0; --i) std::swap(p[i], p[Uniform(rng, 0, i)]);
  return p;
}

// Orders, their lines and the new_order rows of one district. Returns the customer of
// each undelivered order (2101..3000).
std::vector<int32_t> LoadOrders(const Tables& t, int w, int d, Rng& rng, RowSink& sink) {
  const engine::Schema& orders = t.schema(TableKind::kOrders);
  const engine::Schema& lines = t.schema(TableKind::kOrderLine);
  const engine::Schema& new_order = t.schema(TableKind::kNewOrder);
  const std::vector<int32_t> customer_of = Permutation(rng, kOrdersPerDistrict);
  std::vector<int32_t> undelivered;
  for (int o = 1; o <= kOrdersPerDistrict; ++o) {
    const bool delivered = o < kFirstUndeliveredOrder;
    const int64_t ol_cnt = Uniform(rng, kMinOrderLines, kMaxOrderLines);
    engine::RowBuilder row(orders);
    row.SetInt(O_ID, o)
        .SetInt(O_D_ID, d)
        .SetInt(O_W_ID, w)
        .SetInt(O_C_ID, customer_of[o - 1])
        .SetInt(O_ENTRY_D, kLoadTimestamp)
        .SetInt(O_OL_CNT, ol_cnt)
        .SetInt(O_ALL_LOCAL, 1);
    if (delivered) row.SetInt(O_CARRIER_ID, Uniform(rng, 1, 10));
    sink.Load(t.orders, row);

    for (int n = 1; n <= ol_cnt; ++n) {
      engine::RowBuilder line(lines);
      line.SetInt(OL_O_ID, o)
          .SetInt(OL_D_ID, d)
          .SetInt(OL_W_ID, w)
          .SetInt(OL_NUMBER, n)
          .SetInt(OL_I_ID, Uniform(rng, 1, kItems))
          .SetInt(OL_SUPPLY_W_ID, w)
          .SetInt(OL_QUANTITY, 5)
          .SetInt(OL_AMOUNT, delivered ? 0 : Uniform(rng, 1, 999999))
          .SetString(OL_DIST_INFO, AString(rng, 24, 24));
      if (delivered) line.SetInt(OL_DELIVERY_D, kLoadTimestamp);
      sink.Load(t.order_line, line);
    }

    if (!delivered) {
      engine::RowBuilder no(new_order);
      no.SetInt(NO_O_ID, o).SetInt(NO_D_ID, d).SetInt(NO_W_ID, w);
      sink.Load(t.new_order, no);
      undelivered.push_back(customer_of[o - 1]);
    }
  }
  return undelivered;
}

// One unit of loading work; `d` is 0 for per-warehouse tasks, `w` 0 for the items.
struct Task {
  enum class Kind : uint8_t { kItems, kWarehouse, kStock, kDistrict } kind;
  int w = 0;
  int d = 0;

  uint64_t Stream() const { return static_cast<uint64_t>(kind) << 32 | static_cast<uint64_t>(w) << 8 | d; }
};

std::vector<Task> MakeTasks(int warehouses) {
  // Big tasks first, so the last ones to start are short and threads finish together.
  std::vector<Task> tasks;
  for (int w = 1; w <= warehouses; ++w) tasks.push_back({Task::Kind::kStock, w, 0});
  tasks.push_back({Task::Kind::kItems, 0, 0});
  for (int w = 1; w <= warehouses; ++w) {
    tasks.push_back({Task::Kind::kWarehouse, w, 0});
    for (int d = 1; d <= kDistrictsPerWarehouse; ++d) tasks.push_back({Task::Kind::kDistrict, w, d});
  }
  return tasks;
}

}  // namespace

int64_t LoadedHistoryId(int64_t w, int64_t d, int64_t c) {
  return (static_cast<int64_t>(DistrictSlot(w, d)) * kCustomersPerDistrict) + c;
}

LoadResult LoadDatabase(engine::Store& store, const Tables& tables, int warehouses, uint64_t seed,
                        const ProgressFn& progress_fn) {
  // The load-time NURand constant for last names comes from the seed, not from a task.
  Rng constants_rng(DeriveSeed(seed, ~0ULL));
  const int c_last_constant = NURandConstants::Draw(constants_rng).c_last;

  const uint64_t total = kItems + static_cast<uint64_t>(warehouses) *
                                      (1 + kDistrictsPerWarehouse + kStockPerWarehouse +
                                       kDistrictsPerWarehouse * kRowsPerDistrict);
  Progress progress(progress_fn, total);

  LoadResult result;
  result.undelivered_customers.resize(static_cast<size_t>(warehouses) * kDistrictsPerWarehouse);
  result.history_rows = static_cast<int64_t>(warehouses) * kDistrictsPerWarehouse * kCustomersPerDistrict;

  const std::vector<Task> tasks = MakeTasks(warehouses);
  auto run = [&](const Task& task) {
    Rng rng(DeriveSeed(seed, task.Stream()));
    RowSink sink(store, progress);
    switch (task.kind) {
      case Task::Kind::kItems: LoadItems(tables, rng, sink); break;
      case Task::Kind::kWarehouse: LoadWarehouseAndDistricts(tables, task.w, rng, sink); break;
      case Task::Kind::kStock: LoadStock(tables, task.w, rng, sink); break;
      case Task::Kind::kDistrict:
        LoadCustomersAndHistory(tables, task.w, task.d, c_last_constant, rng, sink);
        // Each district task writes only its own slot: no synchronization needed.
        result.undelivered_customers[DistrictSlot(task.w, task.d)] = LoadOrders(tables, task.w, task.d, rng, sink);
        break;
    }
  };

  std::atomic<size_t> next_task{0};
  std::mutex error_mutex;
  std::exception_ptr error;
  auto worker = [&] {
    for (size_t i; (i = next_task.fetch_add(1)) < tasks.size();) {
      try {
        run(tasks[i]);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        next_task = tasks.size();  // stop handing out work
      }
    }
  };
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const size_t num_threads = std::min<size_t>(hw, tasks.size());
  {
    std::vector<std::jthread> threads;
    for (size_t i = 1; i < num_threads; ++i) threads.emplace_back(worker);
    worker();
  }  // joins
  if (error) std::rethrow_exception(error);
  progress.Finish();
  return result;
}

}  // namespace caracal::bench::tpcc
