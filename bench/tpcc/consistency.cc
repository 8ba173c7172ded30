#include "bench/tpcc/consistency.h"

#include <fmt/format.h>

#include <limits>
#include <optional>

namespace caracal::bench::tpcc {

namespace {

constexpr size_t kMaxReportedErrors = 10;

struct DistrictStats {
  bool seen = false;
  int64_t ytd = 0;
  int64_t next_o_id = 0;
  int64_t max_o_id = 0;
  int64_t ol_cnt_sum = 0;
  int64_t order_lines = 0;
  int64_t new_orders = 0;
  int64_t min_no_o_id = std::numeric_limits<int64_t>::max();
  int64_t max_no_o_id = 0;
  int64_t orders_in_new_order_range = 0;
};

class Checker {
 public:
  Checker(const engine::Store& store, const Tables& tables, int warehouses)
      : store_(store), t_(tables), warehouses_(warehouses),
        warehouse_ytd_(static_cast<size_t>(warehouses)),
        districts_(static_cast<size_t>(warehouses) * kDistrictsPerWarehouse) {}

  ConsistencyResult Run() {
    ScanWarehouses();
    ScanDistricts();
    ScanNewOrders();  // before orders: condition 3 needs the new_order range
    ScanOrders();
    ScanOrderLines();
    CheckWarehouses();
    CheckDistricts();
    return std::move(result_);
  }

 private:
  template <typename... Args>
  void Fail(fmt::format_string<Args...> format, Args&&... args) {
    ++result_.violations;
    if (result_.errors.size() < kMaxReportedErrors)
      result_.errors.push_back(fmt::format(format, std::forward<Args>(args)...));
  }

  // The stats of district (w, d), or nullptr (and a violation) if it is out of range.
  DistrictStats* District(int64_t w, int64_t d, std::string_view table) {
    if (w < 1 || w > warehouses_ || d < 1 || d > kDistrictsPerWarehouse) {
      Fail("{} row for unknown district ({}, {})", table, w, d);
      return nullptr;
    }
    return &districts_[DistrictSlot(w, d)];
  }

  void ScanWarehouses() {
    store_.ForEachCommittedRow(t_.warehouse, [&](const engine::Key&, const engine::RowValue& row) {
      const int64_t w = row.GetInt(W_ID);
      if (w < 1 || w > warehouses_)
        Fail("unknown warehouse {}", w);
      else
        warehouse_ytd_[w - 1] = row.GetInt(W_YTD);
    });
  }

  void ScanDistricts() {
    store_.ForEachCommittedRow(t_.district, [&](const engine::Key&, const engine::RowValue& row) {
      if (DistrictStats* s = District(row.GetInt(D_W_ID), row.GetInt(D_ID), "district")) {
        s->seen = true;
        s->ytd = row.GetInt(D_YTD);
        s->next_o_id = row.GetInt(D_NEXT_O_ID);
      }
    });
  }

  void ScanNewOrders() {
    store_.ForEachCommittedRow(t_.new_order, [&](const engine::Key&, const engine::RowValue& row) {
      if (DistrictStats* s = District(row.GetInt(NO_W_ID), row.GetInt(NO_D_ID), "new_order")) {
        const int64_t o = row.GetInt(NO_O_ID);
        ++s->new_orders;
        s->min_no_o_id = std::min(s->min_no_o_id, o);
        s->max_no_o_id = std::max(s->max_no_o_id, o);
      }
    });
  }

  void ScanOrders() {
    store_.ForEachCommittedRow(t_.orders, [&](const engine::Key&, const engine::RowValue& row) {
      if (DistrictStats* s = District(row.GetInt(O_W_ID), row.GetInt(O_D_ID), "orders")) {
        const int64_t o = row.GetInt(O_ID);
        s->max_o_id = std::max(s->max_o_id, o);
        s->ol_cnt_sum += row.GetInt(O_OL_CNT);
        if (o >= s->min_no_o_id && o <= s->max_no_o_id) ++s->orders_in_new_order_range;
      }
    });
  }

  void ScanOrderLines() {
    store_.ForEachCommittedRow(t_.order_line, [&](const engine::Key&, const engine::RowValue& row) {
      if (DistrictStats* s = District(row.GetInt(OL_W_ID), row.GetInt(OL_D_ID), "order_line")) ++s->order_lines;
    });
  }

  // Condition 1: W_YTD = sum(D_YTD).
  void CheckWarehouses() {
    for (int w = 1; w <= warehouses_; ++w) {
      if (!warehouse_ytd_[w - 1]) {
        Fail("warehouse {} is missing", w);
        continue;
      }
      const int64_t w_ytd = *warehouse_ytd_[w - 1];
      int64_t sum = 0;
      for (int d = 1; d <= kDistrictsPerWarehouse; ++d) sum += districts_[DistrictSlot(w, d)].ytd;
      if (sum != w_ytd) Fail("condition 1: warehouse {}: w_ytd {} != sum(d_ytd) {}", w, Money(w_ytd), Money(sum));
    }
  }

  void CheckDistricts() {
    for (int w = 1; w <= warehouses_; ++w) {
      for (int d = 1; d <= kDistrictsPerWarehouse; ++d) {
        const DistrictStats& s = districts_[DistrictSlot(w, d)];
        if (!s.seen) {
          Fail("district ({}, {}) is missing", w, d);
          continue;
        }
        // Condition 2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID).
        if (s.next_o_id - 1 != s.max_o_id)
          Fail("condition 2: district ({}, {}): d_next_o_id - 1 = {} != max(o_id) = {}", w, d, s.next_o_id - 1,
               s.max_o_id);
        if (s.new_orders > 0 && s.max_no_o_id != s.max_o_id)
          Fail("condition 2: district ({}, {}): max(no_o_id) = {} != max(o_id) = {}", w, d, s.max_no_o_id,
               s.max_o_id);
        // Condition 3 (adapted to order-id gaps, see the header).
        if (s.new_orders > 0 && s.new_orders != s.orders_in_new_order_range)
          Fail("condition 3: district ({}, {}): {} new_order rows, but {} orders in [{}, {}]", w, d, s.new_orders,
               s.orders_in_new_order_range, s.min_no_o_id, s.max_no_o_id);
        // Condition 4: sum(O_OL_CNT) = count(order_line).
        if (s.ol_cnt_sum != s.order_lines)
          Fail("condition 4: district ({}, {}): sum(o_ol_cnt) = {} != {} order lines", w, d, s.ol_cnt_sum,
               s.order_lines);
      }
    }
  }

  static std::string Money(int64_t cents) { return engine::Value::Numeric(cents, kMoneyScale).ToText(); }

  const engine::Store& store_;
  const Tables& t_;
  const int warehouses_;
  std::vector<std::optional<int64_t>> warehouse_ytd_;  // empty: not seen
  std::vector<DistrictStats> districts_;
  ConsistencyResult result_;
};

}  // namespace

ConsistencyResult CheckConsistency(const engine::Store& store, const Tables& tables, int warehouses) {
  return Checker(store, tables, warehouses).Run();
}

}  // namespace caracal::bench::tpcc
