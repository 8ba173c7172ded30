// The five TPC-C transactions as native procedures, with the paper's modifications
// (§5.4): NewOrder draws its order id from a per-district sequence (FastIds), Payment
// selects the customer by id only, and Delivery is told by its submitter which order of
// each district to deliver (see README.md).
//
// Every input is self-contained (positional Values plus the sequence values drawn at
// sequencing), so a logged transaction replays to the same result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/tpcc/schema.h"
#include "engine/procedure/procedure.h"

namespace caracal::bench::tpcc {

// Argument positions, one enum per procedure; the Make*Input functions build them.
enum NewOrderArg : int { kNoW, kNoD, kNoC, kNoItems, kNoSupplyW, kNoQuantities, kNoEntryD, kNoArgs };
enum PaymentArg : int { kPayW, kPayD, kPayCW, kPayCD, kPayC, kPayAmount, kPayDate, kPayArgs };
enum OrderStatusArg : int { kOsW, kOsD, kOsC, kOsArgs };
enum DeliveryArg : int { kDelW, kDelCarrier, kDelDate, kDelOrderIds, kDelCustomerIds, kDelArgs };
enum StockLevelArg : int { kSlW, kSlD, kSlThreshold, kSlArgs };

struct NewOrderLine {
  int64_t item = 0;
  int64_t supply_w = 0;
  int64_t quantity = 0;
};

engine::TxnInput MakeNewOrderInput(int64_t w, int64_t d, int64_t c, const std::vector<NewOrderLine>& lines,
                           int64_t entry_d);
// `amount_cents`: h_amount as a numeric(6,2) mantissa.
engine::TxnInput MakePaymentInput(int64_t w, int64_t d, int64_t c_w, int64_t c_d, int64_t c, int64_t amount_cents,
                          int64_t date);
engine::TxnInput MakeOrderStatusInput(int64_t w, int64_t d, int64_t c);
// Per district d (index d - 1): the order to deliver and its customer; order id 0: none.
engine::TxnInput MakeDeliveryInput(int64_t w, int64_t carrier, int64_t date, const std::vector<int64_t>& order_ids,
                           const std::vector<int64_t>& customer_ids);
engine::TxnInput MakeStockLevelInput(int64_t w, int64_t d, int64_t threshold);

// Common part: a name and the ids and schemas of the tables, which the workload owns and
// fills in Setup, before any transaction runs.
class TpccProcedure : public engine::Procedure {
 public:
  TpccProcedure(std::string name, const Tables& tables)
      : t_(tables), name_(std::move(name)), log_identity_("native:" + name_) {}
  const std::string& name() const override { return name_; }
  std::string_view log_identity() const override { return log_identity_; }

 protected:
  const engine::Schema& schema(TableKind kind) const { return t_.schema(kind); }
  const Tables& t_;

 private:
  std::string name_;
  std::string log_identity_;
};

// Sequence: o_id = nextval('tpcc_o_id_<w>_<d>'). 1% of inputs name an invalid item last
// and abort with P0001 before any write.
class NewOrderProcedure final : public TpccProcedure {
 public:
  explicit NewOrderProcedure(const Tables& tables) : TpccProcedure("tpcc_new_order", tables) {}
  void Sequence(engine::SequenceContext& ctx, engine::TxnInput& input) const override;
  void Declare(engine::DeclareContext& ctx) const override;
  void Execute(engine::ExecContext& ctx) const override;
};

// Sequence: h_id = nextval('tpcc_history_id').
class PaymentProcedure final : public TpccProcedure {
 public:
  explicit PaymentProcedure(const Tables& tables) : TpccProcedure("tpcc_payment", tables) {}
  void Sequence(engine::SequenceContext& ctx, engine::TxnInput& input) const override;
  void Declare(engine::DeclareContext& ctx) const override;
  void Execute(engine::ExecContext& ctx) const override;
};

class OrderStatusProcedure final : public TpccProcedure {
 public:
  explicit OrderStatusProcedure(const Tables& tables) : TpccProcedure("tpcc_order_status", tables) {}
  void Declare(engine::DeclareContext& ctx) const override;
  void Execute(engine::ExecContext& ctx) const override;
};

class DeliveryProcedure final : public TpccProcedure {
 public:
  explicit DeliveryProcedure(const Tables& tables) : TpccProcedure("tpcc_delivery", tables) {}
  void Declare(engine::DeclareContext& ctx) const override;
  void Execute(engine::ExecContext& ctx) const override;
};

class StockLevelProcedure final : public TpccProcedure {
 public:
  explicit StockLevelProcedure(const Tables& tables) : TpccProcedure("tpcc_stock_level", tables) {}
  void Declare(engine::DeclareContext& ctx) const override;
  void Execute(engine::ExecContext& ctx) const override;
};

// Sequence names, shared with Setup.
std::string OrderIdSequence(int64_t w, int64_t d);
inline constexpr const char* kHistoryIdSequence = "tpcc_history_id";

}  // namespace caracal::bench::tpcc
