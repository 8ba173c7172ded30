#include "bench/tpcc/procedures.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <utility>

#include "engine/types/row_value.h"

namespace caracal::bench::tpcc {

namespace {

int64_t IntArg(const engine::TxnInput& in, int i) { return in.args[i].as_int(); }
const std::vector<engine::Value>& ArrayArg(const engine::TxnInput& in, int i) { return in.args[i].as_array(); }

engine::Value IntArray(const std::vector<int64_t>& values) {
  std::vector<engine::Value> out;
  out.reserve(values.size());
  for (int64_t v : values) out.push_back(engine::Value::Int(v));
  return engine::Value::Array(std::move(out));
}

// A row the TPC-C invariants guarantee is missing: the transaction aborts with a clear
// message instead of dereferencing null (PL/pgSQL's SELECT INTO STRICT gives P0002 too).
void AbortMissing(engine::ExecContext& ctx, std::string_view what) {
  ctx.Abort("P0002", fmt::format("tpcc: {} not found", what));
}

// After Publish() a transaction can no longer abort; a broken invariant is reported as a
// notice (the consistency checks of the run's report will fail as well).
void NoticeMissing(engine::ExecContext& ctx, std::string_view what) {
  ctx.Notice(fmt::format("tpcc: {} not found", what));
}

// v / 10^digits rounded half away from zero, as PostgreSQL rounds numeric.
int64_t RoundScaleDown(int64_t v, int digits) {
  const int64_t div = engine::PowerOfTen(digits);
  const int64_t q = v / div, r = v % div;
  if ((r < 0 ? -r : r) * 2 >= div) return q + (v < 0 ? -1 : 1);
  return q;
}

}  // namespace

namespace {

// The name of district (w, d)'s order-id sequence, formatted into `buf` without allocating:
// NewOrder's Sequence() runs serially on the engine's driver thread.
using SequenceNameBuffer = char[64];
std::string_view FormatOrderIdSequence(SequenceNameBuffer& buf, int64_t w, int64_t d) {
  const auto formatted = fmt::format_to_n(buf, sizeof buf, "tpcc_o_id_{}_{}", w, d);
  return {buf, std::min(formatted.size, sizeof buf)};
}

}  // namespace

std::string OrderIdSequence(int64_t w, int64_t d) {
  SequenceNameBuffer buf;
  return std::string(FormatOrderIdSequence(buf, w, d));
}

// ---------------------------------------------------------------------------------------
// Inputs

engine::TxnInput MakeNewOrderInput(int64_t w, int64_t d, int64_t c, const std::vector<NewOrderLine>& lines,
                           int64_t entry_d) {
  std::vector<int64_t> items, supply, quantities;
  for (const NewOrderLine& l : lines) {
    items.push_back(l.item);
    supply.push_back(l.supply_w);
    quantities.push_back(l.quantity);
  }
  engine::TxnInput in;
  in.args = {engine::Value::Int(w),         engine::Value::Int(d),         engine::Value::Int(c),
             IntArray(items),       IntArray(supply),      IntArray(quantities),
             engine::Value::Timestamp(entry_d)};
  return in;
}

engine::TxnInput MakePaymentInput(int64_t w, int64_t d, int64_t c_w, int64_t c_d, int64_t c, int64_t amount_cents,
                          int64_t date) {
  engine::TxnInput in;
  in.args = {engine::Value::Int(w), engine::Value::Int(d), engine::Value::Int(c_w), engine::Value::Int(c_d), engine::Value::Int(c),
             engine::Value::Numeric(amount_cents, kMoneyScale), engine::Value::Timestamp(date)};
  return in;
}

engine::TxnInput MakeOrderStatusInput(int64_t w, int64_t d, int64_t c) {
  engine::TxnInput in;
  in.args = {engine::Value::Int(w), engine::Value::Int(d), engine::Value::Int(c)};
  return in;
}

engine::TxnInput MakeDeliveryInput(int64_t w, int64_t carrier, int64_t date, const std::vector<int64_t>& order_ids,
                           const std::vector<int64_t>& customer_ids) {
  engine::TxnInput in;
  in.args = {engine::Value::Int(w), engine::Value::Int(carrier), engine::Value::Timestamp(date), IntArray(order_ids),
             IntArray(customer_ids)};
  return in;
}

engine::TxnInput MakeStockLevelInput(int64_t w, int64_t d, int64_t threshold) {
  engine::TxnInput in;
  in.args = {engine::Value::Int(w), engine::Value::Int(d), engine::Value::Int(threshold)};
  return in;
}

// ---------------------------------------------------------------------------------------
// NewOrder (clause 2.4.2)

void NewOrderProcedure::Sequence(engine::SequenceContext& ctx, engine::TxnInput& input) const {
  SequenceNameBuffer buf;
  input.sequence_values.push_back(ctx.NextVal(FormatOrderIdSequence(buf, IntArg(input, kNoW), IntArg(input, kNoD))));
}

void NewOrderProcedure::Declare(engine::DeclareContext& ctx) const {
  const engine::TxnInput& in = ctx.input();
  const int64_t w = IntArg(in, kNoW), d = IntArg(in, kNoD), c = IntArg(in, kNoC);
  const int64_t o = in.sequence_values.at(0);
  const engine::Key order_key = OrderKey(w, d, o);
  ctx.DeclareWrite(t_.orders, order_key, engine::WriteKind::kInsert);
  ctx.DeclareIndexEntry(t_.orders, kOrdersCustomerIndex, OrdersCustomerKey(w, d, c, o), order_key);
  ctx.DeclareWrite(t_.new_order, NewOrderKey(w, d, o), engine::WriteKind::kInsert);
  ctx.DeclareRowUpdate(t_.district, DistrictKey(w, d), 1);
  const auto& items = ArrayArg(in, kNoItems);
  const auto& supply = ArrayArg(in, kNoSupplyW);
  for (size_t i = 0; i < items.size(); ++i) {
    ctx.DeclareWrite(t_.order_line, OrderLineKey(w, d, o, static_cast<int64_t>(i) + 1), engine::WriteKind::kInsert);
    ctx.DeclareRowUpdate(t_.stock, StockKey(supply[i].as_int(), items[i].as_int()), 1);
    // item is read-only: looking it up during initialization takes it off the critical path.
    ctx.Prefetch(t_.item, ItemKey(items[i].as_int()));
  }
}

void NewOrderProcedure::Execute(engine::ExecContext& ctx) const {
  const engine::TxnInput& in = ctx.input();
  const int64_t w = IntArg(in, kNoW), d = IntArg(in, kNoD), c = IntArg(in, kNoC);
  const int64_t o = in.sequence_values.at(0);
  const int64_t entry_d = in.args[kNoEntryD].as_timestamp();
  const auto& items = ArrayArg(in, kNoItems);
  const auto& supply = ArrayArg(in, kNoSupplyW);
  const auto& quantities = ArrayArg(in, kNoQuantities);
  const size_t n = items.size();

  // Reads first: everything that can make the transaction abort happens before Publish().
  const engine::RowValue* warehouse = ctx.Read(t_.warehouse, WarehouseKey(w));
  if (warehouse == nullptr) return AbortMissing(ctx, fmt::format("warehouse {}", w));
  const engine::RowValue* district = ctx.Read(t_.district, DistrictKey(w, d));
  if (district == nullptr) return AbortMissing(ctx, fmt::format("district ({}, {})", w, d));
  const engine::RowValue* customer = ctx.Read(t_.customer, CustomerKey(w, d, c));
  if (customer == nullptr) return AbortMissing(ctx, fmt::format("customer ({}, {}, {})", w, d, c));
  const int64_t w_tax = warehouse->GetInt(W_TAX), d_tax = district->GetInt(D_TAX);
  const int64_t c_discount = customer->GetInt(C_DISCOUNT);

  std::vector<int64_t> prices(n);
  bool all_local = true;
  for (size_t i = 0; i < n; ++i) {
    const engine::RowValue* item = ctx.Read(t_.item, ItemKey(items[i].as_int()));
    if (item == nullptr) return ctx.Abort("P0001", "Item number is not valid");
    prices[i] = item->GetInt(I_PRICE);
    all_local = all_local && supply[i].as_int() == w;
  }
  ctx.Publish();

  // FastIds: the order id came from the sequence; d_next_o_id only mirrors it (serial
  // order equals sequence order, so the last writer leaves the largest id + 1).
  const engine::Schema& district_schema = schema(TableKind::kDistrict);
  ctx.ApplyRowUpdate(
      t_.district, DistrictKey(w, d),
      [&district_schema, o](const engine::RowValue& old) {
        return engine::RowBuilder(district_schema, old).SetInt(D_NEXT_O_ID, o + 1).Build();
      },
      1);

  // Stock updates. ol_dist_info is s_dist_<d> of the same row, captured by the callback;
  // every future is waited for below, before `dist_info` goes out of scope.
  const engine::Schema& stock_schema = schema(TableKind::kStock);
  std::vector<std::string> dist_info(n);
  std::vector<engine::RowUpdateFuture> stock_updates;
  stock_updates.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t qty = quantities[i].as_int();
    const bool remote = supply[i].as_int() != w;
    std::string* dist_out = &dist_info[i];
    stock_updates.push_back(ctx.ApplyRowUpdate(
        t_.stock, StockKey(supply[i].as_int(), items[i].as_int()),
        [&stock_schema, qty, remote, d, dist_out](const engine::RowValue& old) {
          *dist_out = old.GetString(static_cast<int>(S_DIST_01 + d - 1));
          const int64_t s_quantity = old.GetInt(S_QUANTITY);
          return engine::RowBuilder(stock_schema, old)
              .SetInt(S_QUANTITY, s_quantity >= qty + 10 ? s_quantity - qty : s_quantity - qty + 91)
              .SetInt(S_YTD, old.GetInt(S_YTD) + qty)
              .SetInt(S_ORDER_CNT, old.GetInt(S_ORDER_CNT) + 1)
              .SetInt(S_REMOTE_CNT, old.GetInt(S_REMOTE_CNT) + (remote ? 1 : 0))
              .Build();
        },
        1));
  }

  const engine::Schema& line_schema = schema(TableKind::kOrderLine);
  int64_t total_amount = 0;  // numeric scale 2
  for (size_t i = 0; i < n; ++i) {
    if (!stock_updates[i].Wait())
      NoticeMissing(ctx, fmt::format("stock ({}, {})", supply[i].as_int(), items[i].as_int()));
    // ol_quantity numeric(2) * i_price numeric(5,2) is exact at scale 2.
    const int64_t amount = quantities[i].as_int() * prices[i];
    total_amount += amount;
    const auto number = static_cast<int64_t>(i) + 1;
    engine::RowBuilder line(line_schema);
    line.SetInt(OL_O_ID, o)
        .SetInt(OL_D_ID, d)
        .SetInt(OL_W_ID, w)
        .SetInt(OL_NUMBER, number)
        .SetInt(OL_I_ID, items[i].as_int())
        .SetInt(OL_SUPPLY_W_ID, supply[i].as_int())
        .SetNull(OL_DELIVERY_D)
        .SetInt(OL_QUANTITY, quantities[i].as_int())
        .SetInt(OL_AMOUNT, amount)
        .SetStringRef(OL_DIST_INFO, dist_info[i]);
    if (!ctx.Insert(t_.order_line, OrderLineKey(w, d, o, number), line.Build()))
      ctx.Notice(fmt::format("tpcc: duplicate order line ({}, {}, {}, {})", w, d, o, number));
  }

  engine::RowBuilder order(schema(TableKind::kOrders));
  order.SetInt(O_ID, o)
      .SetInt(O_D_ID, d)
      .SetInt(O_W_ID, w)
      .SetInt(O_C_ID, c)
      .SetInt(O_ENTRY_D, entry_d)
      .SetNull(O_CARRIER_ID)
      .SetInt(O_OL_CNT, static_cast<int64_t>(n))
      .SetInt(O_ALL_LOCAL, all_local ? 1 : 0);
  if (!ctx.Insert(t_.orders, OrderKey(w, d, o), order.Build()))
    ctx.Notice(fmt::format("tpcc: duplicate order ({}, {}, {})", w, d, o));

  engine::RowBuilder new_order(schema(TableKind::kNewOrder));
  new_order.SetInt(NO_O_ID, o).SetInt(NO_D_ID, d).SetInt(NO_W_ID, w);
  if (!ctx.Insert(t_.new_order, NewOrderKey(w, d, o), new_order.Build()))
    ctx.Notice(fmt::format("tpcc: duplicate new_order ({}, {}, {})", w, d, o));

  // total = sum(ol_amount) * (1 - c_discount) * (1 + w_tax + d_tax): scale 2 + 4 + 4,
  // reported rounded to cents.
  const int64_t one = engine::PowerOfTen(kTaxScale);
  const int64_t total = total_amount * (one - c_discount) * (one + w_tax + d_tax);
  ctx.Emit({engine::Value::Int(o), engine::Value::Numeric(RoundScaleDown(total, 2 * kTaxScale), kMoneyScale)});
}

// ---------------------------------------------------------------------------------------
// Payment (clause 2.5.2), by customer id only

void PaymentProcedure::Sequence(engine::SequenceContext& ctx, engine::TxnInput& input) const {
  input.sequence_values.push_back(ctx.NextVal(kHistoryIdSequence));
}

void PaymentProcedure::Declare(engine::DeclareContext& ctx) const {
  const engine::TxnInput& in = ctx.input();
  const int64_t w = IntArg(in, kPayW), d = IntArg(in, kPayD);
  ctx.DeclareRowUpdate(t_.warehouse, WarehouseKey(w), 1);
  ctx.DeclareRowUpdate(t_.district, DistrictKey(w, d), 1);
  ctx.DeclareRowUpdate(t_.customer, CustomerKey(IntArg(in, kPayCW), IntArg(in, kPayCD), IntArg(in, kPayC)), 1);
  ctx.DeclareWrite(t_.history, HistoryKey(in.sequence_values.at(0)), engine::WriteKind::kInsert);
}

void PaymentProcedure::Execute(engine::ExecContext& ctx) const {
  const engine::TxnInput& in = ctx.input();
  const int64_t w = IntArg(in, kPayW), d = IntArg(in, kPayD);
  const int64_t c_w = IntArg(in, kPayCW), c_d = IntArg(in, kPayCD), c = IntArg(in, kPayC);
  const int64_t amount = in.args[kPayAmount].NumericAtScale(kMoneyScale);
  const int64_t date = in.args[kPayDate].as_timestamp();
  const int64_t h_id = in.sequence_values.at(0);
  // Payment cannot fail: publishing first makes each write visible as soon as it is made.
  ctx.Publish();

  // w_name and d_name (for h_data) come out of the update callbacks, like an
  // UPDATE ... RETURNING; both futures are waited for before the strings are used.
  std::string w_name, d_name;
  const engine::Schema& warehouse_schema = schema(TableKind::kWarehouse);
  engine::RowUpdateFuture warehouse_update = ctx.ApplyRowUpdate(
      t_.warehouse, WarehouseKey(w),
      [&warehouse_schema, amount, &w_name](const engine::RowValue& old) {
        w_name = old.GetString(W_NAME);
        return engine::RowBuilder(warehouse_schema, old).SetInt(W_YTD, old.GetInt(W_YTD) + amount).Build();
      },
      1);
  const engine::Schema& district_schema = schema(TableKind::kDistrict);
  engine::RowUpdateFuture district_update = ctx.ApplyRowUpdate(
      t_.district, DistrictKey(w, d),
      [&district_schema, amount, &d_name](const engine::RowValue& old) {
        d_name = old.GetString(D_NAME);
        return engine::RowBuilder(district_schema, old).SetInt(D_YTD, old.GetInt(D_YTD) + amount).Build();
      },
      1);

  // Bad-credit customers get the payment prepended to c_data (clause 2.5.2.2), in the
  // format documented in README.md so that the SQL version produces the same bytes.
  std::string history_note =
      fmt::format("{} {} {} {} {} {}|", c, c_d, c_w, d, w, engine::Value::Numeric(amount, kMoneyScale).ToText());
  const engine::Schema& customer_schema = schema(TableKind::kCustomer);
  ctx.ApplyRowUpdate(
      t_.customer, CustomerKey(c_w, c_d, c),
      [&customer_schema, amount, note = std::move(history_note)](const engine::RowValue& old) {
        engine::RowBuilder row(customer_schema, old);
        row.SetInt(C_BALANCE, old.GetInt(C_BALANCE) - amount)
            .SetInt(C_YTD_PAYMENT, old.GetInt(C_YTD_PAYMENT) + amount)
            .SetInt(C_PAYMENT_CNT, old.GetInt(C_PAYMENT_CNT) + 1);
        if (old.GetString(C_CREDIT) == "BC") {
          constexpr size_t kMaxData = 500;
          std::string data = note;
          data.append(old.GetString(C_DATA).substr(0, kMaxData - std::min(kMaxData, note.size())));
          row.SetString(C_DATA, data);
        }
        return row.Build();
      },
      1);

  if (!warehouse_update.Wait()) NoticeMissing(ctx, fmt::format("warehouse {}", w));
  if (!district_update.Wait()) NoticeMissing(ctx, fmt::format("district ({}, {})", w, d));
  const std::string h_data = w_name + "    " + d_name;
  engine::RowBuilder history(schema(TableKind::kHistory));
  history.SetInt(H_ID, h_id)
      .SetInt(H_C_ID, c)
      .SetInt(H_C_D_ID, c_d)
      .SetInt(H_C_W_ID, c_w)
      .SetInt(H_D_ID, d)
      .SetInt(H_W_ID, w)
      .SetInt(H_DATE, date)
      .SetInt(H_AMOUNT, amount)
      .SetStringRef(H_DATA, h_data);
  if (!ctx.Insert(t_.history, HistoryKey(h_id), history.Build()))
    ctx.Notice(fmt::format("tpcc: duplicate history row {}", h_id));
}

// ---------------------------------------------------------------------------------------
// Order-Status (clause 2.6.2), read-only, by customer id

void OrderStatusProcedure::Declare(engine::DeclareContext& ctx) const {
  const engine::TxnInput& in = ctx.input();
  ctx.Prefetch(t_.customer, CustomerKey(IntArg(in, kOsW), IntArg(in, kOsD), IntArg(in, kOsC)));
}

void OrderStatusProcedure::Execute(engine::ExecContext& ctx) const {
  const engine::TxnInput& in = ctx.input();
  const int64_t w = IntArg(in, kOsW), d = IntArg(in, kOsD), c = IntArg(in, kOsC);
  const engine::RowValue* customer = ctx.Read(t_.customer, CustomerKey(w, d, c));
  if (customer == nullptr) return AbortMissing(ctx, fmt::format("customer ({}, {}, {})", w, d, c));
  const engine::Value balance = engine::Value::Numeric(customer->GetInt(C_BALANCE), kMoneyScale);

  // The customer's most recent order: the last entry of its (w, d, c) index prefix.
  const engine::Schema& orders_schema = schema(TableKind::kOrders);
  const engine::Key prefix = OrdersCustomerPrefix(w, d, c);
  int64_t o_id = 0;
  engine::Value carrier;
  ctx.ScanIndex(t_.orders, kOrdersCustomerIndex, prefix, prefix.PrefixSuccessor(),
                [&](const engine::Key&, const engine::RowValue& order) {
                  o_id = order.GetInt(O_ID);
                  carrier = order.Get(orders_schema, O_CARRIER_ID);
                  return true;
                });
  if (o_id == 0) return AbortMissing(ctx, fmt::format("an order of customer ({}, {}, {})", w, d, c));

  // One result row per order line: balance, order, carrier, then the line's columns.
  const engine::Schema& line_schema = schema(TableKind::kOrderLine);
  const engine::Key lines = OrderLinePrefix(w, d, o_id);
  ctx.Scan(t_.order_line, lines, lines.PrefixSuccessor(), [&](const engine::Key&, const engine::RowValue& line) {
    ctx.Emit({balance, engine::Value::Int(o_id), carrier, engine::Value::Int(line.GetInt(OL_I_ID)),
              engine::Value::Int(line.GetInt(OL_SUPPLY_W_ID)), line.Get(line_schema, OL_QUANTITY),
              line.Get(line_schema, OL_AMOUNT), line.Get(line_schema, OL_DELIVERY_D)});
    return true;
  });
}

// ---------------------------------------------------------------------------------------
// Delivery (clause 2.7.4), with the order of each district given by the submitter

void DeliveryProcedure::Declare(engine::DeclareContext& ctx) const {
  const engine::TxnInput& in = ctx.input();
  const int64_t w = IntArg(in, kDelW);
  const auto& orders = ArrayArg(in, kDelOrderIds);
  const auto& customers = ArrayArg(in, kDelCustomerIds);
  // Range ids are handed out in declaration order (0, 1, ...): Execute recomputes them by
  // counting the districts that have an order, in the same order.
  for (int64_t d = 1; d <= kDistrictsPerWarehouse; ++d) {
    const int64_t o = orders[d - 1].as_int();
    if (o == 0) continue;
    ctx.DeclareWrite(t_.new_order, NewOrderKey(w, d, o), engine::WriteKind::kDelete);
    ctx.DeclareWrite(t_.orders, OrderKey(w, d, o), engine::WriteKind::kUpdate);
    const engine::Key lines = OrderLinePrefix(w, d, o);
    ctx.DeclareRange(t_.order_line, lines, lines.PrefixSuccessor(), engine::RangeKind::kUpdate);
    ctx.DeclareRowUpdate(t_.customer, CustomerKey(w, d, customers[d - 1].as_int()), 1);
  }
}

namespace {

// What Delivery found for one district before publishing.
struct DeliveryPlan {
  int64_t d = 0;
  int64_t o = 0;
  int64_t c = 0;
  const engine::RowValue* order = nullptr;
  std::vector<std::pair<const engine::Key*, const engine::RowValue*>> lines;
  int64_t amount = 0;  // sum(ol_amount), scale 2
};

}  // namespace

void DeliveryProcedure::Execute(engine::ExecContext& ctx) const {
  const engine::TxnInput& in = ctx.input();
  const int64_t w = IntArg(in, kDelW), carrier = IntArg(in, kDelCarrier);
  const int64_t date = in.args[kDelDate].as_timestamp();
  const auto& orders = ArrayArg(in, kDelOrderIds);
  const auto& customers = ArrayArg(in, kDelCustomerIds);

  // Read everything first, so that a broken invariant can still abort cleanly.
  std::vector<DeliveryPlan> plans;
  int range_id = 0;
  for (int64_t d = 1; d <= kDistrictsPerWarehouse; ++d) {
    DeliveryPlan plan;
    plan.d = d;
    plan.o = orders[d - 1].as_int();
    plan.c = customers[d - 1].as_int();
    if (plan.o == 0) continue;
    const int range = range_id++;
    // Already delivered (or never created) at this serial position: skip the district.
    if (ctx.Read(t_.new_order, NewOrderKey(w, d, plan.o)) == nullptr) continue;
    plan.order = ctx.Read(t_.orders, OrderKey(w, d, plan.o));
    if (plan.order == nullptr) return AbortMissing(ctx, fmt::format("order ({}, {}, {})", w, d, plan.o));
    if (plan.order->GetInt(O_C_ID) != plan.c)
      return ctx.Abort("XX000", fmt::format("tpcc: order ({}, {}, {}) belongs to customer {}, not {}", w, d,
                                            plan.o, plan.order->GetInt(O_C_ID), plan.c));
    for (const engine::Key& key : ctx.RangeRows(range)) {
      const engine::RowValue* line = ctx.Read(t_.order_line, key);
      if (line == nullptr) return AbortMissing(ctx, fmt::format("an order line of ({}, {}, {})", w, d, plan.o));
      plan.amount += line->GetInt(OL_AMOUNT);
      plan.lines.emplace_back(&key, line);
    }
    plans.push_back(std::move(plan));
  }
  ctx.Publish();

  const engine::Schema& orders_schema = schema(TableKind::kOrders);
  const engine::Schema& line_schema = schema(TableKind::kOrderLine);
  const engine::Schema& customer_schema = schema(TableKind::kCustomer);
  for (const DeliveryPlan& plan : plans) {
    ctx.Delete(t_.new_order, NewOrderKey(w, plan.d, plan.o));
    ctx.Update(t_.orders, OrderKey(w, plan.d, plan.o),
               engine::RowBuilder(orders_schema, *plan.order).SetInt(O_CARRIER_ID, carrier).Build());
    for (const auto& [key, line] : plan.lines)
      ctx.Update(t_.order_line, *key, engine::RowBuilder(line_schema, *line).SetInt(OL_DELIVERY_D, date).Build());
    ctx.ApplyRowUpdate(
        t_.customer, CustomerKey(w, plan.d, plan.c),
        [&customer_schema, amount = plan.amount](const engine::RowValue& old) {
          return engine::RowBuilder(customer_schema, old)
              .SetInt(C_BALANCE, old.GetInt(C_BALANCE) + amount)
              .SetInt(C_DELIVERY_CNT, old.GetInt(C_DELIVERY_CNT) + 1)
              .Build();
        },
        1);
    ctx.Emit({engine::Value::Int(plan.d), engine::Value::Int(plan.o)});
  }
}

// ---------------------------------------------------------------------------------------
// Stock-Level (clause 2.8.2), read-only

void StockLevelProcedure::Declare(engine::DeclareContext& ctx) const {
  const engine::TxnInput& in = ctx.input();
  ctx.Prefetch(t_.district, DistrictKey(IntArg(in, kSlW), IntArg(in, kSlD)));
}

void StockLevelProcedure::Execute(engine::ExecContext& ctx) const {
  const engine::TxnInput& in = ctx.input();
  const int64_t w = IntArg(in, kSlW), d = IntArg(in, kSlD), threshold = IntArg(in, kSlThreshold);
  const engine::RowValue* district = ctx.Read(t_.district, DistrictKey(w, d));
  if (district == nullptr) return AbortMissing(ctx, fmt::format("district ({}, {})", w, d));
  const int64_t next_o_id = district->GetInt(D_NEXT_O_ID);

  // Items of the district's last 20 orders: order ids in [next - 20, next).
  std::vector<int64_t> items;
  ctx.Scan(t_.order_line, OrderLinePrefix(w, d, next_o_id - 20), OrderLinePrefix(w, d, next_o_id),
           [&](const engine::Key&, const engine::RowValue& line) {
             items.push_back(line.GetInt(OL_I_ID));
             return true;
           });
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());

  int64_t low_stock = 0;
  for (int64_t item : items) {
    const engine::RowValue* stock = ctx.Read(t_.stock, StockKey(w, item));
    if (stock != nullptr && stock->GetInt(S_QUANTITY) < threshold) ++low_stock;
  }
  ctx.Emit({engine::Value::Int(low_stock)});
}

}  // namespace caracal::bench::tpcc
