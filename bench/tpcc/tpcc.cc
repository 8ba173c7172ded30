#include "bench/tpcc/tpcc.h"

#include <algorithm>
#include <array>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/tpcc/consistency.h"
#include "bench/tpcc/loader.h"
#include "bench/tpcc/procedures.h"
#include "bench/tpcc/random.h"
#include "bench/tpcc/schema.h"

namespace caracal::bench {

namespace {

using namespace tpcc;  // NOLINT: this file is the TPC-C workload

// Transactions are stamped from a logical clock, never the wall clock: the run "starts"
// a day after the load and every generated transaction advances the clock by 1 ms.
constexpr int64_t kRunStartTimestamp = kLoadTimestamp + kMicrosPerDay;
constexpr int64_t kClockTick = 1000;

// An order the generator knows to exist and to be undelivered.
struct UndeliveredOrder {
  int64_t o_id;
  int64_t c_id;
};

struct Counts {
  uint64_t new_order = 0;
  uint64_t new_order_rollback = 0;
  uint64_t payment = 0;
  uint64_t payment_remote = 0;
  uint64_t order_status = 0;
  uint64_t delivery = 0;
  uint64_t delivery_empty_districts = 0;
  uint64_t stock_level = 0;
};

class TpccWorkload final : public Workload {
 public:
  TpccWorkload(const WorkloadOptions& options, bool single_warehouse)
      : single_warehouse_(single_warehouse),
        warehouses_(single_warehouse ? 1 : options.warehouses),
        seed_(options.seed) {
    if (warehouses_ < 1) throw std::invalid_argument("tpcc needs at least one warehouse");
    const std::vector<int>& mix = options.tpcc_mix;
    if (mix.size() != 5 || std::any_of(mix.begin(), mix.end(), [](int p) { return p < 0; }) ||
        mix[0] + mix[1] + mix[2] + mix[3] + mix[4] != 100)
      throw std::invalid_argument("tpcc mix: five percentages (new_order, payment, order_status, "
                                  "delivery, stock_level) that sum to 100");
    int sum = 0;
    for (size_t i = 0; i < 4; ++i) mix_upto_[i] = sum += mix[i];
  }

  std::string name() const override { return single_warehouse_ ? "tpcc-1wh" : "tpcc"; }

  void Setup(engine::Store& store, const ProgressFn& progress) override {
    tables_ = CreateTables(store);
    for (int w = 1; w <= warehouses_; ++w)
      for (int d = 1; d <= kDistrictsPerWarehouse; ++d)
        CreateOrAttachSequence(store, OrderIdSequence(w, d), kOrdersPerDistrict + 1, 1);
    const LoadResult load = LoadDatabase(store, tables_, warehouses_, seed_, progress);
    CreateOrAttachSequence(store, kHistoryIdSequence, load.history_rows + 1, 1);
    ResetGenerator(load);
  }

  std::vector<const engine::Procedure*> procedures() const override {
    return {&new_order_, &payment_, &order_status_, &delivery_, &stock_level_};
  }

  // Called by a single submitter, in submission order: the generator's mirror of the
  // order-id sequences is only right if requests are submitted in the order made here.
  engine::TxnRequest Next(std::mt19937_64& rng) override {
    if (next_o_id_.empty()) throw std::logic_error("tpcc: Next() called before Setup()");
    clock_ += kClockTick;
    const int64_t w = Uniform(rng, 1, warehouses_);
    const int64_t pick = Uniform(rng, 1, 100);
    if (pick <= mix_upto_[0]) return NextNewOrder(rng, w);
    if (pick <= mix_upto_[1]) return NextPayment(rng, w);
    if (pick <= mix_upto_[2]) return NextOrderStatus(rng, w);
    if (pick <= mix_upto_[3]) return NextDelivery(rng, w);
    return NextStockLevel(rng, w);
  }

  nlohmann::json Report(const engine::Store& store) override {
    const ConsistencyResult check = CheckConsistency(store, tables_, warehouses_);
    nlohmann::json out = {{"consistency", check.ok() ? "ok" : "failed"}};
    if (!check.ok()) {
      out["consistency_errors"] = check.errors;
      out["consistency_violations"] = check.violations;
    }
    out["tpcc_warehouses"] = warehouses_;
    out["tpcc_generated"] = {{"new_order", counts_.new_order},
                             {"new_order_rollback", counts_.new_order_rollback},
                             {"payment", counts_.payment},
                             {"payment_remote", counts_.payment_remote},
                             {"order_status", counts_.order_status},
                             {"delivery", counts_.delivery},
                             {"delivery_empty_districts", counts_.delivery_empty_districts},
                             {"stock_level", counts_.stock_level}};
    return out;
  }

 private:
  void ResetGenerator(const LoadResult& load) {
    Rng constants_rng(DeriveSeed(seed_, ~1ULL));
    nurand_ = NURandConstants::Draw(constants_rng);
    clock_ = kRunStartTimestamp;
    counts_ = {};
    const size_t districts = static_cast<size_t>(warehouses_) * kDistrictsPerWarehouse;
    next_o_id_.assign(districts, kOrdersPerDistrict + 1);
    undelivered_.assign(districts, {});
    for (size_t slot = 0; slot < districts; ++slot) {
      int64_t o_id = kFirstUndeliveredOrder;
      for (int32_t c_id : load.undelivered_customers[slot]) undelivered_[slot].push_back({o_id++, c_id});
    }
  }

  int64_t RandomCustomer(Rng& rng) const { return NURand(rng, 1023, 1, kCustomersPerDistrict, nurand_.c_id); }

  // A warehouse other than `w`, uniformly (only called when there are several).
  int64_t OtherWarehouse(Rng& rng, int64_t w) const {
    const int64_t other = Uniform(rng, 1, warehouses_ - 1);
    return other >= w ? other + 1 : other;
  }

  // Clause 2.4.1: 5-15 distinct items, 1% supplied remotely, 1% rolled back through an
  // invalid last item. The generator mirrors the district's order-id sequence: this
  // order gets the next id whether or not it commits.
  engine::TxnRequest NextNewOrder(Rng& rng, int64_t w) {
    const int64_t d = Uniform(rng, 1, kDistrictsPerWarehouse);
    const int64_t c = RandomCustomer(rng);
    const auto count = static_cast<size_t>(Uniform(rng, kMinOrderLines, kMaxOrderLines));
    const bool rollback = Uniform(rng, 1, 100) == 1;
    std::vector<NewOrderLine> lines;
    lines.reserve(count);
    while (lines.size() < count) {
      NewOrderLine line;
      line.item = NURand(rng, 8191, 1, kItems, nurand_.ol_i_id);
      // Distinct items keep one stock update per row and transaction.
      if (std::any_of(lines.begin(), lines.end(), [&](const NewOrderLine& l) { return l.item == line.item; }))
        continue;
      line.supply_w = warehouses_ > 1 && Uniform(rng, 1, 100) == 1 ? OtherWarehouse(rng, w) : w;
      line.quantity = Uniform(rng, 1, 10);
      lines.push_back(line);
    }
    if (rollback) lines.back().item = kInvalidItemId;

    const int slot = DistrictSlot(w, d);
    const int64_t o_id = next_o_id_[slot]++;
    if (rollback)
      ++counts_.new_order_rollback;  // its id is a gap: never to be delivered
    else
      undelivered_[slot].push_back({o_id, c});
    ++counts_.new_order;
    return {&new_order_, MakeNewOrderInput(w, d, c, lines, clock_), {}};
  }

  // Clause 2.5.1, by customer id only: 85% home district, 15% a remote warehouse.
  engine::TxnRequest NextPayment(Rng& rng, int64_t w) {
    const int64_t d = Uniform(rng, 1, kDistrictsPerWarehouse);
    int64_t c_w = w, c_d = d;
    if (warehouses_ > 1 && Uniform(rng, 1, 100) > 85) {
      c_w = OtherWarehouse(rng, w);
      c_d = Uniform(rng, 1, kDistrictsPerWarehouse);
      ++counts_.payment_remote;
    }
    const int64_t c = RandomCustomer(rng);
    const int64_t amount_cents = Uniform(rng, 100, 500000);  // 1.00 .. 5000.00
    ++counts_.payment;
    return {&payment_, MakePaymentInput(w, d, c_w, c_d, c, amount_cents, clock_), {}};
  }

  engine::TxnRequest NextOrderStatus(Rng& rng, int64_t w) {
    const int64_t d = Uniform(rng, 1, kDistrictsPerWarehouse);
    const int64_t c = RandomCustomer(rng);
    ++counts_.order_status;
    return {&order_status_, MakeOrderStatusInput(w, d, c), {}};
  }

  // The oldest undelivered order of each district, known to the generator (see
  // README.md): a deterministic engine needs Delivery's write set before it runs.
  engine::TxnRequest NextDelivery(Rng& rng, int64_t w) {
    const int64_t carrier = Uniform(rng, 1, 10);
    std::vector<int64_t> order_ids(kDistrictsPerWarehouse, 0), customer_ids(kDistrictsPerWarehouse, 0);
    for (int d = 1; d <= kDistrictsPerWarehouse; ++d) {
      std::deque<UndeliveredOrder>& queue = undelivered_[DistrictSlot(w, d)];
      if (queue.empty()) {
        ++counts_.delivery_empty_districts;
        continue;
      }
      order_ids[d - 1] = queue.front().o_id;
      customer_ids[d - 1] = queue.front().c_id;
      queue.pop_front();
    }
    ++counts_.delivery;
    return {&delivery_, MakeDeliveryInput(w, carrier, clock_, order_ids, customer_ids), {}};
  }

  engine::TxnRequest NextStockLevel(Rng& rng, int64_t w) {
    const int64_t d = Uniform(rng, 1, kDistrictsPerWarehouse);
    const int64_t threshold = Uniform(rng, 10, 20);
    ++counts_.stock_level;
    return {&stock_level_, MakeStockLevelInput(w, d, threshold), {}};
  }

  const bool single_warehouse_;
  const int warehouses_;
  const uint64_t seed_;
  // Cumulative percentages: NewOrder up to mix_upto_[0], Payment up to mix_upto_[1], ...
  std::array<int, 4> mix_upto_{};
  Tables tables_;  // filled by Setup; the procedures refer to it
  const NewOrderProcedure new_order_{tables_};
  const PaymentProcedure payment_{tables_};
  const OrderStatusProcedure order_status_{tables_};
  const DeliveryProcedure delivery_{tables_};
  const StockLevelProcedure stock_level_{tables_};

  // Generator state.
  NURandConstants nurand_;
  int64_t clock_ = kRunStartTimestamp;
  std::vector<int64_t> next_o_id_;                      // per district: the id its next NewOrder gets
  std::vector<std::deque<UndeliveredOrder>> undelivered_;  // per district, in o_id order
  Counts counts_;
};

}  // namespace

std::unique_ptr<Workload> MakeTpcc(const WorkloadOptions& options, bool single_warehouse) {
  return std::make_unique<TpccWorkload>(options, single_warehouse);
}

}  // namespace caracal::bench
