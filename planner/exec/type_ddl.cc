#include "planner/exec/type_ddl.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "planner/parser/pg_nodes.h"
#include "planner/plan/procedure_ir.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

// PostgreSQL's NAMEDATALEN - 1: the longest label pg_enum holds.
constexpr size_t kMaxLabelBytes = 63;

// The type's name from a qualified name list: public.x or x.
std::string TypeName(const std::vector<std::string>& parts) {
  if (parts.size() > 2 || (parts.size() == 2 && parts[0] != "public"))
    throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", parts[parts.size() - 2]));
  return parts.back();
}

std::string TypeName(PgQuery__Node* const* items, size_t n) { return TypeName(NameList(items, n)); }

void CheckLabel(const std::string& label) {
  if (label.size() > kMaxLabelBytes)
    throw SqlError("42602", fmt::format("invalid enum label \"{}\"", label))
        .WithDetail(fmt::format("Labels must be {} bytes or less.", kMaxLabelBytes));
}

bool UsesEnum(const SqlType& t, const EnumType& e) { return t.enum_type == &e; }

// What keeps `type` from being dropped, as PostgreSQL's DETAIL lines name them.
std::vector<std::string> Dependents(const Catalog& catalog, const EnumType& type) {
  std::vector<std::string> out = catalog.EnumUsers(type);
  for (const ViewInfo* v : catalog.Views())
    for (const auto& [column, t] : v->columns)
      if (UsesEnum(t, type)) out.push_back(fmt::format("column {} of view {}", column, v->name));
  for (const auto& ir : catalog.Procedures()) {
    bool uses = false;
    for (int i = 0; i < ir->parameter_count; ++i) uses = uses || UsesEnum(ir->variables[static_cast<size_t>(i)].type, type);
    for (const OutputColumn& c : ir->result_columns) uses = uses || UsesEnum(c.type, type);
    if (uses)
      out.push_back(fmt::format("{} {}", ir->kind == ProcedureIr::Kind::kProcedure ? "procedure" : "function", ir->ContextSignature()));
  }
  return out;
}

}  // namespace

DdlOutcome CreateEnum(const PgQuery__CreateEnumStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  const std::string name = TypeName(stmt->type_name, stmt->n_type_name);
  std::vector<std::string> labels;
  for (size_t i = 0; i < stmt->n_vals; ++i) {
    std::string label = StringValue(stmt->vals[i]);
    CheckLabel(label);
    if (std::ranges::find(labels, label) != labels.end())
      throw SqlError(sqlstate::kUniqueViolation,
                     "duplicate key value violates unique constraint \"pg_enum_typid_label_index\"")
          .WithDetail(fmt::format("Key (enumlabel)=({}) already exists.", label));
    labels.push_back(std::move(label));
  }
  engine.RunExclusive([&] { catalog.CreateEnum(name, std::move(labels)); });
  return {"CREATE TYPE", {}, nullptr};
}

DdlOutcome AlterEnum(const PgQuery__AlterEnumStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  const std::string name = TypeName(stmt->type_name, stmt->n_type_name);
  const EnumType* type = catalog.FindEnum(name);
  if (!type) throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", name));
  DdlOutcome out{"ALTER TYPE", {}, nullptr};
  const std::string new_label = stmt->new_val ? stmt->new_val : "";
  const std::string old_label = stmt->old_val ? stmt->old_val : "";
  if (!old_label.empty()) {  // RENAME VALUE old TO new
    const std::optional<int64_t> at = type->Find(old_label);
    if (!at) throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("\"{}\" is not an existing enum label", old_label));
    if (type->Find(new_label))
      throw SqlError(sqlstate::kDuplicateObject, fmt::format("enum label \"{}\" already exists", new_label));
    CheckLabel(new_label);
    engine.RunExclusive([&] { catalog.MutableEnum(name).RenameLabel(*at, new_label); });
    return out;
  }
  // ADD VALUE [IF NOT EXISTS] new [BEFORE | AFTER neighbor]
  if (type->Find(new_label)) {
    if (stmt->skip_if_new_val_exists) {
      out.notices.push_back(fmt::format("enum label \"{}\" already exists, skipping", new_label));
      return out;
    }
    throw SqlError(sqlstate::kDuplicateObject, fmt::format("enum label \"{}\" already exists", new_label));
  }
  const std::string neighbor = stmt->new_val_neighbor ? stmt->new_val_neighbor : "";
  if (!neighbor.empty()) {
    const std::optional<int64_t> at = type->Find(neighbor);
    if (!at) throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("\"{}\" is not an existing enum label", neighbor));
    // AFTER the last label is appending; anywhere else would renumber stored values.
    if (!stmt->new_val_is_after || *at != type->size() - 1)
      throw NotSupported(fmt::format("ALTER TYPE ... ADD VALUE {} a label other than the last",
                                     stmt->new_val_is_after ? "AFTER" : "BEFORE"))
          .WithHint("New labels are added at the end here. To put one elsewhere, create a new type and convert the "
                    "columns with ALTER TABLE ... ALTER COLUMN ... TYPE new_type USING column::text::new_type.");
  }
  CheckLabel(new_label);
  engine.RunExclusive([&] { catalog.MutableEnum(name).AddLabel(new_label); });
  return out;
}

DdlOutcome DropTypes(const PgQuery__DropStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  DdlOutcome out{"DROP TYPE", {}, nullptr};
  std::vector<std::string> names;
  for (size_t i = 0; i < stmt->n_objects; ++i) {
    const PgQuery__Node* obj = stmt->objects[i];
    if (obj->node_case != PG_QUERY__NODE__NODE_TYPE_NAME) throw NotSupported("DROP TYPE of this kind of name");
    const std::string name = TypeName(obj->type_name->names, obj->type_name->n_names);
    const EnumType* type = catalog.FindEnum(name);
    if (!type) {
      if (const TableInfo* t = catalog.FindTable(name))
        throw SqlError(sqlstate::kDependentObjectsStillExist,
                       fmt::format("cannot drop type {} because table {} requires it", name, t->name))
            .WithHint(fmt::format("You can drop table {} instead.", t->name));
      if (stmt->missing_ok) {
        out.notices.push_back(fmt::format("type \"{}\" does not exist, skipping", name));
        continue;
      }
      throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", name));
    }
    const std::vector<std::string> dependents = Dependents(catalog, *type);
    if (!dependents.empty()) {
      if (stmt->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE)
        throw NotSupported("DROP TYPE ... CASCADE of a type in use")
            .WithDetail(fmt::format("{} depends on type {}", dependents[0], name))
            .WithHint("Drop or change what uses the type first.");
      std::string detail;
      for (const std::string& d : dependents) detail += (detail.empty() ? "" : "\n") + d + " depends on type " + name;
      throw SqlError(sqlstate::kDependentObjectsStillExist,
                     stmt->n_objects > 1 ? std::string("cannot drop desired object(s) because other objects depend on them")
                                         : fmt::format("cannot drop type {} because other objects depend on it", name))
          .WithDetail(detail)
          .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
    }
    if (std::ranges::find(names, name) == names.end()) names.push_back(name);
  }
  engine.RunExclusive([&] {
    for (const std::string& name : names) catalog.DropEnum(name);
  });
  return out;
}

DdlOutcome RenameType(const PgQuery__RenameStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  const PgQuery__Node* obj = stmt->object;
  std::vector<std::string> parts;
  if (obj && obj->node_case == PG_QUERY__NODE__NODE_LIST) parts = NameList(obj->list->items, obj->list->n_items);
  else if (obj && obj->node_case == PG_QUERY__NODE__NODE_TYPE_NAME) parts = NameList(obj->type_name->names, obj->type_name->n_names);
  if (parts.empty()) throw NotSupported("this form of ALTER TYPE ... RENAME");
  const std::string name = TypeName(parts);
  if (!catalog.FindEnum(name)) throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", name));
  const std::string new_name = stmt->newname;
  engine.RunExclusive([&] { catalog.RenameEnum(name, new_name); });
  return {"ALTER TYPE", {}, nullptr};
}

}  // namespace caracal::planner
