#include "planner/catalog/system_views.h"

namespace caracal::planner {

namespace {

// Above any engine table id.
constexpr engine::TableId kWriteSetsViewId = 0xFFFF0001u;
constexpr engine::TableId kDurabilityViewId = 0xFFFF0002u;

TableInfo MakeWriteSetsView() {
  TableInfo t;
  t.name = "caracal_write_sets";
  t.id = kWriteSetsViewId;
  const SqlType text = SqlType::Of(TypeId::kText), integer = SqlType::Of(TypeId::kInt4);
  auto column = [&](const char* name, SqlType type, bool not_null) {
    CatalogColumn c;
    c.name = name;
    c.type = type;
    c.not_null = not_null;
    t.columns.push_back(std::move(c));
  };
  column("procedure", text, true);
  // The parameter types, as in the signature: overloads share a name, not a row.
  column("arguments", text, true);
  column("statement", integer, true);
  column("line", integer, false);
  column("table_name", text, false);
  column("access", text, true);
  column("key_class", text, false);
  column("key_expr", text, false);
  column("apply_row_update", SqlType::Of(TypeId::kBool), true);
  column("weight", integer, true);
  column("note", text, false);
  t.primary_key = {0, 1, 2};
  return t;
}

}  // namespace

const TableInfo& WriteSetsView() {
  static const TableInfo view = MakeWriteSetsView();
  return view;
}

namespace {

TableInfo MakeDurabilityView() {
  TableInfo t;
  t.name = "caracal_stat_durability";
  t.id = kDurabilityViewId;
  for (const char* name : {"name", "value"}) {
    CatalogColumn c;
    c.name = name;
    c.type = SqlType::Of(TypeId::kText);
    c.not_null = true;
    t.columns.push_back(std::move(c));
  }
  t.primary_key = {0};
  return t;
}

}  // namespace

const TableInfo& DurabilityView() {
  static const TableInfo view = MakeDurabilityView();
  return view;
}

const TableInfo* FindSystemView(std::string_view name) {
  if (name == WriteSetsView().name) return &WriteSetsView();
  if (name == DurabilityView().name) return &DurabilityView();
  return nullptr;
}

bool IsSystemView(const TableInfo& table) { return &table == &WriteSetsView() || &table == &DurabilityView(); }

}  // namespace caracal::planner
