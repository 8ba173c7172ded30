#include "bench/tpcc/schema.h"

#include <initializer_list>
#include <string>

#include "bench/workload.h"

namespace caracal::bench::tpcc {

namespace {

// Column constructors named after the SQL types they stand for.
Column Int(std::string name) { return {std::move(name), ColumnType::kInteger, 0, 0, false}; }
Column BigInt(std::string name) { return {std::move(name), ColumnType::kBigInt, 0, 0, false}; }
Column Num(std::string name, int precision, int scale = 0) {
  return {std::move(name), ColumnType::kNumeric, precision, scale, false};
}
Column Varchar(std::string name, int n) { return {std::move(name), ColumnType::kVarchar, n, 0, false}; }
Column Char(std::string name, int n) { return {std::move(name), ColumnType::kChar, n, 0, false}; }
Column Timestamp(std::string name) { return {std::move(name), ColumnType::kTimestamp, 0, 0, false}; }

// The address columns shared by warehouse, district and customer (clause 1.3.1).
void AppendAddress(std::vector<Column>& cols, const std::string& prefix) {
  cols.push_back(Varchar(prefix + "street_1", 20));
  cols.push_back(Varchar(prefix + "street_2", 20));
  cols.push_back(Varchar(prefix + "city", 20));
  cols.push_back(Char(prefix + "state", 2));
  cols.push_back(Char(prefix + "zip", 9));
}

Schema WarehouseSchema() {
  std::vector<Column> c = {Int("w_id"), Varchar("w_name", 10)};
  AppendAddress(c, "w_");
  c.push_back(Num("w_tax", 4, 4));
  c.push_back(Num("w_ytd", 12, 2));
  return Schema("warehouse", std::move(c), {W_ID});
}

Schema DistrictSchema() {
  std::vector<Column> c = {Int("d_id"), Int("d_w_id"), Varchar("d_name", 10)};
  AppendAddress(c, "d_");
  c.push_back(Num("d_tax", 4, 4));
  c.push_back(Num("d_ytd", 12, 2));
  c.push_back(Int("d_next_o_id"));
  return Schema("district", std::move(c), {D_W_ID, D_ID});
}

Schema CustomerSchema() {
  std::vector<Column> c = {Int("c_id"), Int("c_d_id"), Int("c_w_id"), Varchar("c_first", 16),
                           Char("c_middle", 2), Varchar("c_last", 16)};
  AppendAddress(c, "c_");
  for (Column col : {Char("c_phone", 16), Timestamp("c_since"), Char("c_credit", 2), Num("c_credit_lim", 12, 2),
                     Num("c_discount", 4, 4), Num("c_balance", 12, 2), Num("c_ytd_payment", 12, 2),
                     Num("c_payment_cnt", 4), Num("c_delivery_cnt", 4), Varchar("c_data", 500)})
    c.push_back(std::move(col));
  return Schema("customer", std::move(c), {C_W_ID, C_D_ID, C_ID});
}

Schema HistorySchema() {
  // The spec gives history no primary key; h_id (from sequence tpcc_history_id) is ours.
  return Schema("history",
                {BigInt("h_id"), Int("h_c_id"), Int("h_c_d_id"), Int("h_c_w_id"), Int("h_d_id"), Int("h_w_id"),
                 Timestamp("h_date"), Num("h_amount", 6, 2), Varchar("h_data", 24)},
                {H_ID});
}

Schema NewOrderSchema() {
  return Schema("new_order", {Int("no_o_id"), Int("no_d_id"), Int("no_w_id")}, {NO_W_ID, NO_D_ID, NO_O_ID});
}

Schema OrdersSchema() {
  return Schema("orders",
                {Int("o_id"), Int("o_d_id"), Int("o_w_id"), Int("o_c_id"), Timestamp("o_entry_d"),
                 Int("o_carrier_id"), Num("o_ol_cnt", 2), Num("o_all_local", 1)},
                {O_W_ID, O_D_ID, O_ID});
}

Schema OrderLineSchema() {
  return Schema("order_line",
                {Int("ol_o_id"), Int("ol_d_id"), Int("ol_w_id"), Int("ol_number"), Int("ol_i_id"),
                 Int("ol_supply_w_id"), Timestamp("ol_delivery_d"), Num("ol_quantity", 2), Num("ol_amount", 6, 2),
                 Char("ol_dist_info", 24)},
                {OL_W_ID, OL_D_ID, OL_O_ID, OL_NUMBER});
}

Schema ItemSchema() {
  return Schema("item",
                {Int("i_id"), Int("i_im_id"), Varchar("i_name", 24), Num("i_price", 5, 2), Varchar("i_data", 50)},
                {I_ID});
}

Schema StockSchema() {
  std::vector<Column> c = {Int("s_i_id"), Int("s_w_id"), Num("s_quantity", 4)};
  for (int d = 1; d <= kDistrictsPerWarehouse; ++d)
    c.push_back(Char(d < 10 ? "s_dist_0" + std::to_string(d) : "s_dist_" + std::to_string(d), 24));
  for (Column col : {Num("s_ytd", 8), Num("s_order_cnt", 4), Num("s_remote_cnt", 4), Varchar("s_data", 50)})
    c.push_back(std::move(col));
  return Schema("stock", std::move(c), {S_W_ID, S_I_ID});
}

// Every id column is `integer`: keys are 4-byte order-preserving big-endian ints.
void Ints(Key& key, std::initializer_list<int64_t> values) {
  for (int64_t v : values) key.AppendInt(v, ColumnType::kInteger);
}

Key IntKey(std::initializer_list<int64_t> values) {
  Key key;
  Ints(key, values);
  return key;
}

}  // namespace

std::vector<Schema> TpccSchemas() {
  return {WarehouseSchema(), DistrictSchema(), CustomerSchema(), HistorySchema(), NewOrderSchema(),
          OrdersSchema(),    OrderLineSchema(), ItemSchema(),    StockSchema()};
}

IndexSchema OrdersCustomerIndex() { return {"orders_customer", {O_W_ID, O_D_ID, O_C_ID, O_ID}}; }

Tables CreateTables(Store& store) {
  Tables t;
  std::vector<Schema> schemas = TpccSchemas();
  std::array<TableId*, kNumTables> ids = {&t.warehouse, &t.district,   &t.customer, &t.history, &t.new_order,
                                          &t.orders,    &t.order_line, &t.item,     &t.stock};
  for (int i = 0; i < kNumTables; ++i) {
    t.schemas[i] = schemas[i];
    std::vector<IndexSchema> indexes;
    if (ids[i] == &t.orders) indexes.push_back(OrdersCustomerIndex());
    *ids[i] = CreateOrAttachTable(store, std::move(schemas[i]), std::move(indexes));
  }
  return t;
}

Key WarehouseKey(int64_t w) { return IntKey({w}); }
Key DistrictKey(int64_t w, int64_t d) { return IntKey({w, d}); }
Key CustomerKey(int64_t w, int64_t d, int64_t c) { return IntKey({w, d, c}); }
Key HistoryKey(int64_t h_id) {
  Key key;
  key.AppendInt(h_id, ColumnType::kBigInt);
  return key;
}
Key NewOrderKey(int64_t w, int64_t d, int64_t o) { return IntKey({w, d, o}); }
Key OrderKey(int64_t w, int64_t d, int64_t o) { return IntKey({w, d, o}); }
Key OrderLineKey(int64_t w, int64_t d, int64_t o, int64_t number) { return IntKey({w, d, o, number}); }
Key OrderLinePrefix(int64_t w, int64_t d, int64_t o) { return IntKey({w, d, o}); }
Key ItemKey(int64_t i) { return IntKey({i}); }
Key StockKey(int64_t w, int64_t i) { return IntKey({w, i}); }
Key OrdersCustomerKey(int64_t w, int64_t d, int64_t c, int64_t o) { return IntKey({w, d, c, o}); }
Key OrdersCustomerPrefix(int64_t w, int64_t d, int64_t c) { return IntKey({w, d, c}); }

}  // namespace caracal::bench::tpcc
