#include "planner/exec/type_ddl.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "planner/binder/coerce.h"
#include "planner/binder/expr_binder.h"
#include "planner/binder/type_name.h"
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

// VALUE in a domain's CHECK: frame slot 0, of the base type.
class DomainValueScope : public NameScope {
 public:
  explicit DomainValueScope(const SqlType& base) : base_(base) {}
  std::optional<NameBinding> Lookup(std::span<const std::string> names, int) const override {
    if (names.size() == 1 && names[0] == "value") return NameBinding{Slot{SlotSpace::kVariable, 0}, base_};
    return std::nullopt;
  }

 private:
  SqlType base_;
};

// DROP TYPE / DROP DOMAIN of a type something uses: PostgreSQL's 2BP01 with a DETAIL line
// per dependent (CASCADE, which would drop them, is not supported).
[[noreturn]] void RefuseDropInUse(const PgQuery__DropStmt* stmt, std::string_view kind, const std::string& name,
                                  const std::vector<std::string>& dependents) {
  if (stmt->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE)
    throw NotSupported(fmt::format("DROP {} ... CASCADE of a type in use", kind))
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

// The routines whose signature (parameters, results) uses a type `uses` accepts.
void AddRoutineDependents(const Catalog& catalog, const std::function<bool(const SqlType&)>& uses,
                          std::vector<std::string>& out) {
  for (const auto& ir : catalog.Procedures()) {
    bool found = false;
    for (int i = 0; i < ir->parameter_count; ++i) found = found || uses(ir->variables[static_cast<size_t>(i)].type);
    for (const OutputColumn& c : ir->result_columns) found = found || uses(c.type);
    if (found)
      out.push_back(fmt::format("{} {}", ir->kind == ProcedureIr::Kind::kProcedure ? "procedure" : "function",
                                ir->ContextSignature()));
  }
}

// What keeps `type` from being dropped, as PostgreSQL's DETAIL lines name them.
std::vector<std::string> Dependents(const Catalog& catalog, const EnumType& type) {
  std::vector<std::string> out = catalog.EnumUsers(type);
  for (const ViewInfo* v : catalog.Views())
    for (const auto& [column, t] : v->columns)
      if (UsesEnum(t, type)) out.push_back(fmt::format("column {} of view {}", column, v->name));
  AddRoutineDependents(catalog, [&](const SqlType& t) { return UsesEnum(t, type); }, out);
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
  std::vector<std::string> names, composites;
  for (size_t i = 0; i < stmt->n_objects; ++i) {
    const PgQuery__Node* obj = stmt->objects[i];
    if (obj->node_case != PG_QUERY__NODE__NODE_TYPE_NAME) throw NotSupported("DROP TYPE of this kind of name");
    const std::string name = TypeName(obj->type_name->names, obj->type_name->n_names);
    if (catalog.FindComposite(name)) {
      std::vector<std::string> dependents;
      for (const auto& ir : catalog.Procedures())
        if (ir->result_composite == name)
          dependents.push_back(fmt::format("{} {}", ir->kind == ProcedureIr::Kind::kProcedure ? "procedure" : "function",
                                           ir->ContextSignature()));
      if (!dependents.empty()) RefuseDropInUse(stmt, "TYPE", name, dependents);
      if (std::ranges::find(composites, name) == composites.end()) composites.push_back(name);
      continue;
    }
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
    if (!dependents.empty()) RefuseDropInUse(stmt, "TYPE", name, dependents);
    if (std::ranges::find(names, name) == names.end()) names.push_back(name);
  }
  engine.RunExclusive([&] {
    for (const std::string& name : names) catalog.DropEnum(name);
    for (const std::string& name : composites) catalog.DropComposite(name);
  });
  return out;
}

DdlOutcome CreateDomain(const PgQuery__CreateDomainStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  const std::string name = TypeName(stmt->domainname, stmt->n_domainname);
  SqlType base = ResolveTypeName(stmt->type_name, &catalog);
  if (base.domain) throw NotSupported("a domain over another domain", stmt->type_name->location);
  if (base.is_array()) throw NotSupported("a domain over an array type", stmt->type_name->location);
  if (stmt->coll_clause) CheckCollation(stmt->coll_clause, base);
  bool not_null = false, saw_null = false;
  std::shared_ptr<const Expr> default_expr;
  std::vector<DomainType::Check> checks;
  std::vector<const PgQuery__Constraint*> pending_checks;
  // PostgreSQL reports errors in a domain's constraints without a position.
  try {
    for (size_t i = 0; i < stmt->n_constraints; ++i) {
      const PgQuery__Constraint* c = stmt->constraints[i]->constraint;
      switch (c->contype) {
        case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
        case PG_QUERY__CONSTR_TYPE__CONSTR_NULL: {
          const bool is_not_null = c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL;
          if ((is_not_null && saw_null) || (!is_not_null && not_null))
            throw SqlError(sqlstate::kSyntaxError, "conflicting NULL/NOT NULL constraints", c->location);
          (is_not_null ? not_null : saw_null) = true;
          break;
        }
        case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT: {
          if (default_expr) throw SqlError(sqlstate::kSyntaxError, "multiple default expressions", c->location);
          ExprBinder binder(nullptr);
          binder.ResolveTypesIn(&catalog);
          binder.AllowAggregates(false, "DEFAULT expressions");
          binder.ForbidSubqueries("DEFAULT expression");
          binder.DeferNow(true);  // the statement's now() where the default is used
          default_expr = std::shared_ptr<const Expr>(Coerce(binder.Bind(c->raw_expr), base, CastContext::kAssignment));
          break;
        }
        case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK: pending_checks.push_back(c); break;
        default: throw NotSupported("this constraint on a domain", c->location);
      }
    }
    std::set<std::string> names;
    for (const PgQuery__Constraint* c : pending_checks)
      if (c->conname && *c->conname) names.insert(c->conname);
    for (const PgQuery__Constraint* c : pending_checks) {
      DomainValueScope scope(base);
      ExprBinder binder(&scope, &catalog);
      binder.AllowAggregates(false, "check constraints");
      binder.ForbidSubqueries("check constraint");
      ExprPtr e = binder.BindCondition(c->raw_expr, "CHECK");
      std::string check_name = c->conname && *c->conname ? std::string(c->conname) : std::string();
      if (check_name.empty()) {
        const std::string stem = name + "_check";
        check_name = stem;
        for (int n = 1; names.count(check_name); ++n) check_name = fmt::format("{}{}", stem, n);
        names.insert(check_name);
      }
      checks.push_back({check_name, std::shared_ptr<const Expr>(std::move(e))});
    }
  } catch (SqlError& e) {
    e.ShiftLocation(-1);
    throw;
  }
  std::ranges::sort(checks, [](const DomainType::Check& a, const DomainType::Check& b) { return a.name < b.name; });
  DomainType domain(name, base, not_null, std::move(default_expr), std::move(checks));
  engine.RunExclusive([&] { catalog.CreateDomain(std::move(domain)); });
  return {"CREATE DOMAIN", {}, nullptr};
}

DdlOutcome DropDomains(const PgQuery__DropStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  DdlOutcome out{"DROP DOMAIN", {}, nullptr};
  std::vector<std::string> names;
  for (size_t i = 0; i < stmt->n_objects; ++i) {
    const PgQuery__Node* obj = stmt->objects[i];
    if (obj->node_case != PG_QUERY__NODE__NODE_TYPE_NAME) throw NotSupported("DROP DOMAIN of this kind of name");
    const std::string name = TypeName(obj->type_name->names, obj->type_name->n_names);
    const DomainType* domain = catalog.FindDomain(name);
    if (!domain) {
      if (catalog.FindEnum(name) || catalog.FindTable(name))
        throw SqlError("42809", fmt::format("\"{}\" is not a domain", name));
      if (stmt->missing_ok) {
        out.notices.push_back(fmt::format("type \"{}\" does not exist, skipping", name));
        continue;
      }
      throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", name));
    }
    std::vector<std::string> dependents = catalog.DomainUsers(*domain);
    AddRoutineDependents(catalog, [&](const SqlType& t) { return t.domain == domain; }, dependents);
    if (!dependents.empty()) RefuseDropInUse(stmt, "DOMAIN", name, dependents);
    if (std::ranges::find(names, name) == names.end()) names.push_back(name);
  }
  engine.RunExclusive([&] {
    for (const std::string& name : names) catalog.DropDomain(name);
  });
  return out;
}

DdlOutcome CreateComposite(const PgQuery__CompositeTypeStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  const PgQuery__RangeVar* rv = stmt->typevar;
  if (rv->schemaname && *rv->schemaname && std::string_view(rv->schemaname) != "public")
    throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", rv->schemaname));
  CompositeType type{rv->relname, {}};
  for (size_t i = 0; i < stmt->n_coldeflist; ++i) {
    const PgQuery__Node* n = stmt->coldeflist[i];
    if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF) throw NotSupported("this attribute of a composite type");
    const PgQuery__ColumnDef* def = n->column_def;
    const std::string field = def->colname;
    if (std::ranges::any_of(type.fields, [&](const auto& f) { return f.first == field; }))
      throw SqlError(sqlstate::kDuplicateColumn, fmt::format("column \"{}\" specified more than once", field));
    SqlType t = ResolveTypeName(def->type_name, &catalog);
    if (def->coll_clause) CheckCollation(def->coll_clause, t);
    type.fields.emplace_back(field, t);
  }
  engine.RunExclusive([&] { catalog.CreateComposite(std::move(type)); });
  return {"CREATE TYPE", {}, nullptr};
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
