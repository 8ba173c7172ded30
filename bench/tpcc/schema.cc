#include "bench/tpcc/schema.h"

#include <initializer_list>
#include <string>

#include "bench/workload.h"

namespace caracal::bench::tpcc {

namespace {

// Column constructors named after the SQL types they stand for.
engine::Column Int(std::string name) { return {std::move(name), engine::ColumnType::kInteger, 0, 0, false}; }
engine::Column BigInt(std::string name) { return {std::move(name), engine::ColumnType::kBigInt, 0, 0, false}; }
engine::Column Num(std::string name, int precision, int scale = 0) {
  return {std::move(name), engine::ColumnType::kNumeric, precision, scale, false};
}
engine::Column Varchar(std::string name, int n) { return {std::move(name), engine::ColumnType::kVarchar, n, 0, false}; }
engine::Column Char(std::string name, int n) { return {std::move(name), engine::ColumnType::kChar, n, 0, false}; }
engine::Column Timestamp(std::string name) { return {std::move(name), engine::ColumnType::kTimestamp, 0, 0, false}; }

// The address columns shared by warehouse, district and customer (clause 1.3.1).
void AppendAddress(std::vector<engine::Column>& cols, const std::string& prefix) {
  cols.push_back(Varchar(prefix + "street_1", 20));
  cols.push_back(Varchar(prefix + "street_2", 20));
  cols.push_back(Varchar(prefix + "city", 20));
  cols.push_back(Char(prefix + "state", 2));
  cols.push_back(Char(prefix + "zip", 9));
}

engine::Schema WarehouseSchema() {
  std::vector<engine::Column> c = {Int("w_id"), Varchar("w_name", 10)};
  AppendAddress(c, "w_");
  c.push_back(Num("w_tax", 4, 4));
  c.push_back(Num("w_ytd", 12, 2));
  return engine::Schema("warehouse", std::move(c), {W_ID});
}

engine::Schema DistrictSchema() {
  std::vector<engine::Column> c = {Int("d_id"), Int("d_w_id"), Varchar("d_name", 10)};
  AppendAddress(c, "d_");
  c.push_back(Num("d_tax", 4, 4));
  c.push_back(Num("d_ytd", 12, 2));
  c.push_back(Int("d_next_o_id"));
  return engine::Schema("district", std::move(c), {D_W_ID, D_ID});
}

engine::Schema CustomerSchema() {
  std::vector<engine::Column> c = {Int("c_id"), Int("c_d_id"), Int("c_w_id"), Varchar("c_first", 16),
                           Char("c_middle", 2), Varchar("c_last", 16)};
  AppendAddress(c, "c_");
  for (engine::Column col : {Char("c_phone", 16), Timestamp("c_since"), Char("c_credit", 2), Num("c_credit_lim", 12, 2),
                     Num("c_discount", 4, 4), Num("c_balance", 12, 2), Num("c_ytd_payment", 12, 2),
                     Num("c_payment_cnt", 4), Num("c_delivery_cnt", 4), Varchar("c_data", 500)})
    c.push_back(std::move(col));
  return engine::Schema("customer", std::move(c), {C_W_ID, C_D_ID, C_ID});
}

engine::Schema HistorySchema() {
  // The spec gives history no primary key; h_id (from sequence tpcc_history_id) is ours.
  return engine::Schema("history",
                {BigInt("h_id"), Int("h_c_id"), Int("h_c_d_id"), Int("h_c_w_id"), Int("h_d_id"), Int("h_w_id"),
                 Timestamp("h_date"), Num("h_amount", 6, 2), Varchar("h_data", 24)},
                {H_ID});
}

engine::Schema NewOrderSchema() {
  return engine::Schema("new_order", {Int("no_o_id"), Int("no_d_id"), Int("no_w_id")}, {NO_W_ID, NO_D_ID, NO_O_ID});
}

engine::Schema OrdersSchema() {
  return engine::Schema("orders",
                {Int("o_id"), Int("o_d_id"), Int("o_w_id"), Int("o_c_id"), Timestamp("o_entry_d"),
                 Int("o_carrier_id"), Num("o_ol_cnt", 2), Num("o_all_local", 1)},
                {O_W_ID, O_D_ID, O_ID});
}

engine::Schema OrderLineSchema() {
  return engine::Schema("order_line",
                {Int("ol_o_id"), Int("ol_d_id"), Int("ol_w_id"), Int("ol_number"), Int("ol_i_id"),
                 Int("ol_supply_w_id"), Timestamp("ol_delivery_d"), Num("ol_quantity", 2), Num("ol_amount", 6, 2),
                 Char("ol_dist_info", 24)},
                {OL_W_ID, OL_D_ID, OL_O_ID, OL_NUMBER});
}

engine::Schema ItemSchema() {
  return engine::Schema("item",
                {Int("i_id"), Int("i_im_id"), Varchar("i_name", 24), Num("i_price", 5, 2), Varchar("i_data", 50)},
                {I_ID});
}

engine::Schema StockSchema() {
  std::vector<engine::Column> c = {Int("s_i_id"), Int("s_w_id"), Num("s_quantity", 4)};
  for (int d = 1; d <= kDistrictsPerWarehouse; ++d)
    c.push_back(Char(d < 10 ? "s_dist_0" + std::to_string(d) : "s_dist_" + std::to_string(d), 24));
  for (engine::Column col : {Num("s_ytd", 8), Num("s_order_cnt", 4), Num("s_remote_cnt", 4), Varchar("s_data", 50)})
    c.push_back(std::move(col));
  return engine::Schema("stock", std::move(c), {S_W_ID, S_I_ID});
}

// Every id column is `integer`: keys are 4-byte order-preserving big-endian ints.
void Ints(engine::Key& key, std::initializer_list<int64_t> values) {
  for (int64_t v : values) key.AppendInt(v, engine::ColumnType::kInteger);
}

engine::Key IntKey(std::initializer_list<int64_t> values) {
  engine::Key key;
  Ints(key, values);
  return key;
}

}  // namespace

std::vector<engine::Schema> TpccSchemas() {
  return {WarehouseSchema(), DistrictSchema(), CustomerSchema(), HistorySchema(), NewOrderSchema(),
          OrdersSchema(),    OrderLineSchema(), ItemSchema(),    StockSchema()};
}

engine::IndexSchema OrdersCustomerIndex() { return {"orders_customer", {O_W_ID, O_D_ID, O_C_ID, O_ID}}; }

Tables CreateTables(engine::Store& store) {
  Tables t;
  std::vector<engine::Schema> schemas = TpccSchemas();
  std::array<engine::TableId*, kNumTables> ids = {&t.warehouse, &t.district,   &t.customer, &t.history, &t.new_order,
                                          &t.orders,    &t.order_line, &t.item,     &t.stock};
  for (int i = 0; i < kNumTables; ++i) {
    t.schemas[i] = schemas[i];
    std::vector<engine::IndexSchema> indexes;
    if (ids[i] == &t.orders) indexes.push_back(OrdersCustomerIndex());
    *ids[i] = CreateOrAttachTable(store, std::move(schemas[i]), std::move(indexes));
  }
  return t;
}

engine::Key WarehouseKey(int64_t w) { return IntKey({w}); }
engine::Key DistrictKey(int64_t w, int64_t d) { return IntKey({w, d}); }
engine::Key CustomerKey(int64_t w, int64_t d, int64_t c) { return IntKey({w, d, c}); }
engine::Key HistoryKey(int64_t h_id) {
  engine::Key key;
  key.AppendInt(h_id, engine::ColumnType::kBigInt);
  return key;
}
engine::Key NewOrderKey(int64_t w, int64_t d, int64_t o) { return IntKey({w, d, o}); }
engine::Key OrderKey(int64_t w, int64_t d, int64_t o) { return IntKey({w, d, o}); }
engine::Key OrderLineKey(int64_t w, int64_t d, int64_t o, int64_t number) { return IntKey({w, d, o, number}); }
engine::Key OrderLinePrefix(int64_t w, int64_t d, int64_t o) { return IntKey({w, d, o}); }
engine::Key ItemKey(int64_t i) { return IntKey({i}); }
engine::Key StockKey(int64_t w, int64_t i) { return IntKey({w, i}); }
engine::Key OrdersCustomerKey(int64_t w, int64_t d, int64_t c, int64_t o) { return IntKey({w, d, c, o}); }
engine::Key OrdersCustomerPrefix(int64_t w, int64_t d, int64_t c) { return IntKey({w, d, c}); }

}  // namespace caracal::bench::tpcc
