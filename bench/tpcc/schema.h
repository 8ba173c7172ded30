// TPC-C schema (clause 1.3) for the native workload: column positions, table schemas with
// the types a PostgreSQL CREATE TABLE of the same schema gives (see README.md), and the
// key encoders the procedures use on their hot paths.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/types/key.h"
#include "engine/storage/store.h"
#include "engine/types/types.h"

namespace caracal::bench::tpcc {

// Scale of the database (clause 4.3.3.1; nothing is reduced).
inline constexpr int kDistrictsPerWarehouse = 10;
inline constexpr int kCustomersPerDistrict = 3000;
inline constexpr int kOrdersPerDistrict = 3000;
inline constexpr int kFirstUndeliveredOrder = 2101;  // new_order holds orders 2101..3000
inline constexpr int kItems = 100'000;
inline constexpr int kStockPerWarehouse = kItems;
inline constexpr int kMinOrderLines = 5;
inline constexpr int kMaxOrderLines = 15;
inline constexpr int kInvalidItemId = kItems + 1;  // an "unused value" (clause 2.4.1.5)

// Column positions, in CREATE TABLE order.
enum WarehouseCol : int { W_ID, W_NAME, W_STREET_1, W_STREET_2, W_CITY, W_STATE, W_ZIP, W_TAX, W_YTD };
enum DistrictCol : int {
  D_ID, D_W_ID, D_NAME, D_STREET_1, D_STREET_2, D_CITY, D_STATE, D_ZIP, D_TAX, D_YTD, D_NEXT_O_ID
};
enum CustomerCol : int {
  C_ID, C_D_ID, C_W_ID, C_FIRST, C_MIDDLE, C_LAST, C_STREET_1, C_STREET_2, C_CITY, C_STATE, C_ZIP,
  C_PHONE, C_SINCE, C_CREDIT, C_CREDIT_LIM, C_DISCOUNT, C_BALANCE, C_YTD_PAYMENT, C_PAYMENT_CNT,
  C_DELIVERY_CNT, C_DATA
};
enum HistoryCol : int { H_ID, H_C_ID, H_C_D_ID, H_C_W_ID, H_D_ID, H_W_ID, H_DATE, H_AMOUNT, H_DATA };
enum NewOrderCol : int { NO_O_ID, NO_D_ID, NO_W_ID };
enum OrdersCol : int { O_ID, O_D_ID, O_W_ID, O_C_ID, O_ENTRY_D, O_CARRIER_ID, O_OL_CNT, O_ALL_LOCAL };
enum OrderLineCol : int {
  OL_O_ID, OL_D_ID, OL_W_ID, OL_NUMBER, OL_I_ID, OL_SUPPLY_W_ID, OL_DELIVERY_D, OL_QUANTITY, OL_AMOUNT,
  OL_DIST_INFO
};
enum ItemCol : int { I_ID, I_IM_ID, I_NAME, I_PRICE, I_DATA };
enum StockCol : int {
  S_I_ID, S_W_ID, S_QUANTITY, S_DIST_01, S_DIST_02, S_DIST_03, S_DIST_04, S_DIST_05, S_DIST_06,
  S_DIST_07, S_DIST_08, S_DIST_09, S_DIST_10, S_YTD, S_ORDER_CNT, S_REMOTE_CNT, S_DATA
};

// Scales of the numeric columns the procedures compute with (mantissas are int64).
inline constexpr int kTaxScale = 4;       // w_tax, d_tax, c_discount: numeric(4,4)
inline constexpr int kMoneyScale = 2;     // ytd, balance, amounts, prices: numeric(p,2)

// The secondary index on orders (o_w_id, o_d_id, o_c_id, o_id), for Order-Status.
inline constexpr int kOrdersCustomerIndex = 0;

// The nine tables, in creation order.
enum class TableKind : int { kWarehouse, kDistrict, kCustomer, kHistory, kNewOrder, kOrders, kOrderLine, kItem, kStock };
inline constexpr int kNumTables = 9;

// Ids and schemas of the created tables. Schemas are copies owned here, so row builders
// can reference them for the whole run whatever the store does with its own.
struct Tables {
  engine::TableId warehouse = 0, district = 0, customer = 0, history = 0, new_order = 0, orders = 0,
          order_line = 0, item = 0, stock = 0;
  std::array<engine::Schema, kNumTables> schemas;

  const engine::Schema& schema(TableKind kind) const { return schemas[static_cast<int>(kind)]; }
};

// Creates the nine tables (and the orders_customer index) in the order of clause 1.3.
Tables CreateTables(engine::Store& store);

// The schema definitions, for documentation and tests.
std::vector<engine::Schema> TpccSchemas();
engine::IndexSchema OrdersCustomerIndex();

// Primary keys, encoded as EncodePrimaryKey would (all id columns are integer).
engine::Key WarehouseKey(int64_t w);
engine::Key DistrictKey(int64_t w, int64_t d);
engine::Key CustomerKey(int64_t w, int64_t d, int64_t c);
engine::Key HistoryKey(int64_t h_id);
engine::Key NewOrderKey(int64_t w, int64_t d, int64_t o);
engine::Key OrderKey(int64_t w, int64_t d, int64_t o);
engine::Key OrderLineKey(int64_t w, int64_t d, int64_t o, int64_t number);
// Prefix of every order_line key of order (w, d, o); bound a scan with PrefixSuccessor().
engine::Key OrderLinePrefix(int64_t w, int64_t d, int64_t o);
engine::Key ItemKey(int64_t i);
engine::Key StockKey(int64_t w, int64_t i);
// orders_customer index keys: the full entry for an order, and the (w, d, c) prefix.
engine::Key OrdersCustomerKey(int64_t w, int64_t d, int64_t c, int64_t o);
engine::Key OrdersCustomerPrefix(int64_t w, int64_t d, int64_t c);

// Flat index of a district, 0-based, for per-district arrays.
inline int DistrictSlot(int64_t w, int64_t d) {
  return static_cast<int>((w - 1) * kDistrictsPerWarehouse + (d - 1));
}

}  // namespace caracal::bench::tpcc
