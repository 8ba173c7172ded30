#include "planner/exec/ddl.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "engine/storage/database.h"
#include "planner/binder/coerce.h"
#include "planner/catalog/constraint_errors.h"
#include "planner/binder/expr_binder.h"
#include "planner/binder/generated_columns.h"
#include "planner/binder/query_binder.h"
#include "planner/binder/table_scope.h"
#include "planner/expr/expr_eval.h"
#include "planner/parser/pg_nodes.h"
#include "planner/parser/qualified_name.h"
#include "planner/parser/sql_tokens.h"
#include "planner/exec/foreign_key_ddl.h"
#include "planner/exec/privileges.h"
#include "planner/exec/procedure_ddl.h"
#include "planner/exec/sequence_ddl.h"
#include "planner/exec/table_rewrite.h"
#include "planner/exec/trigger_ddl.h"
#include "planner/exec/type_ddl.h"
#include "planner/plan/procedure_ir.h"
#include "planner/types/sql_error.h"
#include "planner/binder/type_name.h"

namespace caracal::planner {

namespace {

// Whether column `c`'s default is nextval() of sequence `name`.
bool DefaultDrawsFrom(const CatalogColumn& c, const std::string& name) {
  const std::string* sequence = DefaultSequence(c);
  return c.owned_sequence == name || (sequence && *sequence == RegclassText(name));
}

// A DEFAULT that says now(): evaluated by each INSERT, never folded.
bool ReadsClock(const Expr& e) {
  if (e.kind == ExprKind::kFunc && e.func == Func::kNow) return true;
  for (const auto& a : e.args)
    if (ReadsClock(*a)) return true;
  return false;
}

// Relation names: an optional "public" schema, nothing else.
std::string RelationName(const PgQuery__RangeVar* rv) {
  return RangeVarRelationName(rv);
}

// DEFAULT expressions see no columns.
class NoColumns : public NameScope {
 public:
  std::optional<NameBinding> Lookup(std::span<const std::string>, int location) const override {
    throw SqlError(sqlstate::kFeatureNotSupported, "cannot use column reference in DEFAULT expression", location);
  }
};

std::vector<std::string> KeyNames(PgQuery__Node* const* keys, size_t n) { return NameList(keys, n); }

// Keys order by their bytes, and an array's stored text does not order as PostgreSQL
// orders arrays (element by element), so no key or index holds one.
void RefuseArrayKeyColumn(const CatalogColumn& c, int location) {
  if (c.type.is_array())
    throw NotSupported(fmt::format("an array column (\"{}\") in a key or an index", c.name), location);
}

// The positions of a PRIMARY KEY's or UNIQUE constraint's columns (`kind`: "primary
// key" or "unique"), with PostgreSQL's errors for an unknown or repeated one.
std::vector<int> KeyColumns(const TableInfo& t, const std::vector<std::string>& names, std::string_view kind, int location) {
  std::vector<int> columns;
  for (const std::string& n : names) {
    int c = t.ColumnIndex(n);
    if (c < 0)
      throw SqlError(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" named in key does not exist", n), location);
    if (std::ranges::find(columns, c) != columns.end())
      throw SqlError(sqlstate::kDuplicateColumn, fmt::format("column \"{}\" appears twice in {} constraint", n, kind),
                     location);
    RefuseArrayKeyColumn(t.columns[static_cast<size_t>(c)], location);
    columns.push_back(c);
  }
  return columns;
}

void SetPrimaryKey(TableInfo& t, const std::vector<std::string>& names, int location, const char* constraint = nullptr) {
  if (!t.primary_key.empty())
    throw SqlError(sqlstate::kInvalidTableDefinition,
                   fmt::format("multiple primary keys for table \"{}\" are not allowed", t.name), location);
  t.primary_key = KeyColumns(t, names, "primary key", location);
  t.primary_key_name = constraint && *constraint ? std::string(constraint) : t.name + "_pkey";
  for (int c : t.primary_key) t.columns[static_cast<size_t>(c)].not_null = true;
}

// The primary key's index is a relation: a name given must be free (42P07); the default
// one is numbered when taken (t_pkey1, ...), as PostgreSQL numbers it.
void NamePrimaryKey(TableInfo& t, const Catalog& catalog, const char* given) {
  if (t.HasRowIdentity()) return;
  if (given && *given) {
    if (catalog.RelationExists(given)) throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", given));
    return;
  }
  t.primary_key_name = catalog.ChooseIndexName(t.name, {}, "pkey");
}


// The names of `t`'s constraints: its primary key, UNIQUE constraints, CHECKs and
// foreign keys.
std::vector<std::string> ConstraintNames(const TableInfo& t) {
  std::vector<std::string> names;
  if (!t.HasRowIdentity()) names.push_back(t.PrimaryKeyName());
  for (const TableInfo::UniqueIndex& u : t.unique_indexes) names.push_back(u.name);
  for (const CheckConstraint& k : t.checks) names.push_back(k.name);
  for (const ForeignKey& k : t.foreign_keys) names.push_back(k.name);
  return names;
}

// DEFERRABLE, NOT DEFERRABLE, INITIALLY DEFERRED / IMMEDIATE after a column's constraint.
bool IsTimingAttribute(const PgQuery__Constraint* c) {
  return c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE ||
         c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED ||
         c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_IMMEDIATE ||
         c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE;
}

// `owner`: in a column's constraint list, the last constraint before `c` that is not a
// DEFERRABLE / INITIALLY attribute (what such an attribute applies to).
void CheckConstraintSupported(const PgQuery__Constraint* c, const PgQuery__Constraint* owner = nullptr) {
  // A DEFERRABLE foreign key (Django declares every one INITIALLY DEFERRED) is checked at
  // the end of each statement, as an immediate one: a transaction that violates it until
  // its COMMIT fails with 23503 where PostgreSQL's succeeds, and nothing else differs.
  if (c->deferrable && c->contype != PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN)
    throw NotSupported("DEFERRABLE constraints other than foreign keys", c->location);
  switch (c->contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
      if (c->nulls_not_distinct) throw NotSupported("UNIQUE NULLS NOT DISTINCT", c->location);
      if (c->n_including > 0) throw NotSupported("INCLUDE columns", c->location);
      break;
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE:
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED:
      if (owner == nullptr || owner->contype != PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN)
        throw NotSupported("DEFERRABLE constraints other than foreign keys", c->location);
      break;  // of a column's REFERENCES, as above
    case PG_QUERY__CONSTR_TYPE__CONSTR_EXCLUSION: throw NotSupported("EXCLUDE constraints", c->location);
    default: break;  // GENERATED ... STORED: CREATE TABLE binds it (BindGeneratedColumns)
  }
}

// A generated column's expression, as CREATE TABLE gives it.
struct PendingGenerated {
  int column;
  const PgQuery__Constraint* constraint;
};

// Whether `e` may compute a stored generated column: PostgreSQL requires an immutable
// expression; here the clock, random draws, sequences and user functions are refused.
bool ImmutableGeneration(const Expr& e) {
  if (e.kind == ExprKind::kNextval || e.kind == ExprKind::kRoutineCall) return false;
  if (e.kind == ExprKind::kFunc &&
      (e.func == Func::kNow || e.func == Func::kRandom || e.func == Func::kUuidFromDraws))
    return false;
  return std::ranges::all_of(e.args, [](const ExprPtr& a) { return ImmutableGeneration(*a); });
}

// The generated column a kColumn slot of `e` reads, if any (PostgreSQL: 42P17).
const Expr* GeneratedReference(const Expr& e, const TableInfo& t, const std::vector<PendingGenerated>& pending) {
  if (e.kind == ExprKind::kSlot && e.slot.space == SlotSpace::kColumn &&
      (t.columns[static_cast<size_t>(e.slot.index)].generated ||
       std::ranges::any_of(pending, [&](const PendingGenerated& g) { return g.column == e.slot.index; })))
    return &e;
  for (const ExprPtr& a : e.args)
    if (const Expr* r = GeneratedReference(*a, t, pending)) return r;
  return nullptr;
}

void BindGeneratedColumns(TableInfo& t, const std::vector<PendingGenerated>& pending, const Catalog& catalog) {
  for (const PendingGenerated& g : pending) {
    CatalogColumn& col = t.columns[static_cast<size_t>(g.column)];
    TableScope scope(t, t.name, nullptr);
    ExprBinder binder(&scope);
    binder.ResolveTypesIn(&catalog);
    binder.AllowAggregates(false, "column generation expressions");
    binder.ForbidSubqueries("column generation expression");
    binder.DeferNow(true);  // now() stays a call, which is refused below
    ExprPtr e = binder.Bind(g.constraint->raw_expr);
    if (const Expr* r = GeneratedReference(*e, t, pending))
      throw SqlError("42P17", fmt::format("cannot use generated column \"{}\" in column generation expression",
                                          t.columns[static_cast<size_t>(r->slot.index)].name),
                     r->location)
          .WithDetail("A generated column cannot reference another generated column.");
    if (!ImmutableGeneration(*e)) throw SqlError("42P17", "generation expression is not immutable");
    col.generated = std::shared_ptr<const Expr>(Coerce(std::move(e), col.type, CastContext::kAssignment, col.name));
  }
}

// smallserial / serial / bigserial: the integer type they stand for.
std::optional<TypeId> SerialType(const PgQuery__ColumnDef* def) {
  const PgQuery__TypeName* tn = def->type_name;
  if (tn->n_names != 1 || tn->n_array_bounds > 0) return std::nullopt;
  std::string name = StringValue(tn->names[0]);
  if (name == "serial" || name == "serial4") return TypeId::kInt4;
  if (name == "bigserial" || name == "serial8") return TypeId::kInt8;
  if (name == "smallserial" || name == "serial2") return TypeId::kInt2;
  return std::nullopt;
}

// A name for a column's sequence as PostgreSQL chooses it: table_column_seq, numbered
// when that name is taken.
std::string OwnedSequenceName(const Catalog& catalog, const std::string& table, const std::string& column,
                              const std::vector<std::string>& taken) {
  std::string base = fmt::format("{}_{}_seq", table, column);
  std::string name = base;
  for (int n = 1; catalog.RelationExists(name) || std::ranges::find(taken, name) != taken.end(); ++n)
    name = fmt::format("{}{}", base, n);
  return name;
}

// nextval('seq') as a column default.
ExprPtr NextvalDefault(const std::string& sequence, const SqlType& type) {
  auto e = MakeExpr(ExprKind::kNextval, SqlType::Of(TypeId::kInt8), -1);
  e->args.push_back(MakeConst(Datum::String(RegclassText(sequence)), SqlType::Of(TypeId::kText)));
  if (type.id == TypeId::kInt8) return e;
  return Coerce(std::move(e), type, CastContext::kAssignment);
}

SqlType ColumnType(const PgQuery__ColumnDef* def, const Catalog& catalog) {
  if (std::optional<TypeId> serial = SerialType(def)) return SqlType::Of(*serial);
  SqlType t = ResolveTypeName(def->type_name, &catalog);
  int loc = def->type_name->location;
  // A numeric is computed in 128 bits (types/numeric.h): a column may declare any
  // precision (values beyond 38 digits fail as they are stored), but not a scale the
  // computation cannot carry.
  if (t.id == TypeId::kNumeric && t.scale > Numeric::kMaxScale)
    throw SqlError(sqlstate::kFeatureNotSupported,
                   fmt::format("numeric scale {} is not supported for columns", t.scale), loc)
        .WithHint(fmt::format("Columns hold numeric values with up to {} digits after the point.", Numeric::kMaxScale));
  return t;
}

// A column's DEFAULT expression: no columns, aggregates or subqueries; now() kept for
// each INSERT to replace; a constant one folded now, so a bad one fails the statement
// that declares it (as in PostgreSQL).
std::shared_ptr<const Expr> BindColumnDefault(const PgQuery__Node* raw, const CatalogColumn& col, const Catalog& catalog) {
  NoColumns no_columns;
  ExprBinder binder(&no_columns);
  binder.ResolveTypesIn(&catalog);
  binder.AllowAggregates(false, "DEFAULT expressions");
  binder.ForbidSubqueries("DEFAULT expression");
  binder.DeferNow(true);
  ExprPtr e = binder.BindAssignment(raw, col.type, col.name);
  if (e->kind != ExprKind::kConst && !e->References(SlotSpace::kVariable) && !ReadsClock(*e) && !e->DrawsRandom() &&
      !e->Contains(ExprKind::kNextval)) {
    Datum v = Eval(*e, EvalContext{});
    e = MakeConst(std::move(v), col.type, e->location);
  }
  return std::shared_ptr<const Expr>(std::move(e));
}

// The one column `e` reads, for a CHECK's default name; null when it reads none or several.
const std::string* OnlyColumn(const Expr& e, const TableInfo& t) {
  std::set<int> columns;
  ForEachSlot(const_cast<Expr&>(e), [&](const Slot& s) {
    if (s.space == SlotSpace::kColumn) columns.insert(s.index);
  });
  return columns.size() == 1 ? &t.columns[static_cast<size_t>(*columns.begin())].name : nullptr;
}

// CHECK constraints, column and table ones: bound over the table's columns, named as
// PostgreSQL names them (table_column_check, table_check, numbered when taken), kept in
// name order (the order PostgreSQL checks them in).
template <typename Pending>
void BindChecks(TableInfo& t, const std::vector<Pending>& pending, const Catalog& catalog) {
  std::set<std::string> names;
  for (const CheckConstraint& c : t.checks) names.insert(c.name);
  for (const Pending& p : pending) {
    const PgQuery__Constraint* c = p.constraint;
    TableScope scope(t, t.name, nullptr);
    ExprBinder binder(&scope);
    binder.ResolveTypesIn(&catalog);
    binder.AllowAggregates(false, "check constraints");
    binder.ForbidSubqueries("check constraint");
    ExprPtr e = binder.BindCondition(c->raw_expr, "CHECK");
    std::string name = c->conname && *c->conname ? std::string(c->conname) : std::string();
    if (name.empty()) {
      const std::string* column = !p.column.empty() ? &p.column : OnlyColumn(*e, t);
      std::string base = column ? fmt::format("{}_{}_check", t.name, *column) : fmt::format("{}_check", t.name);
      name = base;
      for (int n = 1; names.count(name); ++n) name = fmt::format("{}{}", base, n);
    } else if (names.count(name)) {
      throw SqlError(sqlstate::kDuplicateObject, fmt::format("check constraint \"{}\" already exists", name));
    }
    names.insert(name);
    t.checks.push_back({name, std::shared_ptr<const Expr>(std::move(e))});
  }
  std::ranges::sort(t.checks, [](const CheckConstraint& a, const CheckConstraint& b) { return a.name < b.name; });
}

DdlOutcome CreateTable(const PgQuery__CreateStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  TableInfo t;
  t.name = RelationName(stmt->relation);
  if (catalog.RelationExists(t.name)) {
    if (stmt->if_not_exists) return {"CREATE TABLE", {fmt::format("relation \"{}\" already exists, skipping", t.name)}, nullptr};
    throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", t.name));
  }
  if (stmt->n_inh_relations > 0) throw NotSupported("table inheritance");
  if (stmt->partspec) throw NotSupported("partitioned tables");
  if (stmt->relation->relpersistence && std::string_view(stmt->relation->relpersistence) == "t")
    throw NotSupported("temporary tables");
  struct PendingKey {
    std::vector<std::string> columns;
    int location;
    const char* name;
  };
  std::vector<PendingKey> table_pks;
  std::vector<SequenceInfo> owned;  // created with the table
  // A serial or identity column: NOT NULL, drawing from a sequence of its own, of the
  // column's type.
  auto own_sequence = [&](CatalogColumn& col, SequenceOptions options) {
    std::vector<std::string> taken;
    for (const SequenceInfo& s : owned) taken.push_back(s.name);
    col.owned_sequence = options.sequence_name.value_or(OwnedSequenceName(catalog, t.name, col.name, taken));
    if (options.sequence_name && (catalog.RelationExists(col.owned_sequence) ||
                                  std::ranges::find(taken, col.owned_sequence) != taken.end()))
      throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", col.owned_sequence));
    options.definition.name = col.owned_sequence;
    owned.push_back(std::move(options.definition));
    col.default_expr = NextvalDefault(col.owned_sequence, col.type);
    col.not_null = true;
  };
  struct PendingCheck {
    const PgQuery__Constraint* constraint;
    std::string column;  // a column constraint's column ("" for a table constraint)
  };
  std::vector<PendingCheck> checks;  // bound once every column is known
  std::vector<PendingGenerated> generated;  // bound once every column is known
  struct PendingUnique {
    std::string name;  // "" until named
    std::vector<std::string> columns;
    int location;
  };
  std::vector<PendingUnique> uniques;
  struct PendingForeignKey {
    const PgQuery__Constraint* constraint;
    std::vector<std::string> columns;
  };
  std::vector<PendingForeignKey> foreign_keys;  // bound once the keys are known (a table may reference itself)
  for (size_t i = 0; i < stmt->n_table_elts; ++i) {
    const PgQuery__Node* elt = stmt->table_elts[i];
    if (elt->node_case == PG_QUERY__NODE__NODE_CONSTRAINT) {
      const PgQuery__Constraint* c = elt->constraint;
      CheckConstraintSupported(c);
      if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY) table_pks.push_back({KeyNames(c->keys, c->n_keys), c->location, c->conname});
      if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_CHECK) checks.push_back({c, ""});
      if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE)
        uniques.push_back({c->conname ? c->conname : "", KeyNames(c->keys, c->n_keys), c->location});
      if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN) foreign_keys.push_back({c, KeyNames(c->fk_attrs, c->n_fk_attrs)});
      continue;
    }
    if (elt->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF) throw NotSupported("this table element");
    const PgQuery__ColumnDef* def = elt->column_def;
    if (t.ColumnIndex(def->colname) >= 0)
      throw SqlError(sqlstate::kDuplicateColumn, fmt::format("column \"{}\" specified more than once", def->colname));
    CatalogColumn col{def->colname, ColumnType(def, catalog), def->is_not_null != 0, nullptr};
    if (def->coll_clause) CheckCollation(def->coll_clause, col.type);
    bool saw_null = false, saw_not_null = false, saw_default = false;
    int pk_location = -1;
    const char* pk_name = nullptr;
    const PgQuery__Constraint* owner = nullptr;
    for (size_t k = 0; k < def->n_constraints; ++k) {
      const PgQuery__Constraint* c = def->constraints[k]->constraint;
      CheckConstraintSupported(c, owner);
      if (!IsTimingAttribute(c)) owner = c;
      switch (c->contype) {
        case PG_QUERY__CONSTR_TYPE__CONSTR_NULL: saw_null = true; break;
        case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL: saw_not_null = true; col.not_null = true; break;
        case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
          pk_location = c->location;
          pk_name = c->conname;
          break;
        case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK: checks.push_back({c, col.name}); break;
        case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
          uniques.push_back({c->conname ? c->conname : "", {def->colname}, c->location});
          break;
        case PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN: foreign_keys.push_back({c, {def->colname}}); break;
        case PG_QUERY__CONSTR_TYPE__CONSTR_IDENTITY: {
          if (!col.type.is_integer())
            throw SqlError(sqlstate::kDatatypeMismatch,
                           "identity column type must be smallint, integer, or bigint");
          if (saw_default || col.identity != CatalogColumn::Identity::kNone)
            throw SqlError(sqlstate::kSyntaxError,
                           fmt::format("multiple identity specifications for column \"{}\" of table \"{}\"", col.name, t.name),
                           c->location);
          col.identity = c->generated_when && std::string_view(c->generated_when) == "a" ? CatalogColumn::Identity::kAlways
                                                                                          : CatalogColumn::Identity::kByDefault;
          own_sequence(col, ParseSequenceOptions(c->options, c->n_options, nullptr, col.type.id));
          saw_default = true;
          break;
        }
        case PG_QUERY__CONSTR_TYPE__CONSTR_GENERATED: {
          const bool generating = !generated.empty() && generated.back().column == static_cast<int>(t.columns.size());
          if (col.identity != CatalogColumn::Identity::kNone)
            throw SqlError(sqlstate::kSyntaxError,
                           fmt::format("both identity and generation expression specified for column \"{}\" of table \"{}\"",
                                       col.name, t.name),
                           c->location);
          if (generating)
            throw SqlError(sqlstate::kSyntaxError,
                           fmt::format("multiple generation clauses specified for column \"{}\" of table \"{}\"", col.name, t.name),
                           c->location);
          if (saw_default)
            throw SqlError(sqlstate::kSyntaxError,
                           fmt::format("both default and generation expression specified for column \"{}\" of table \"{}\"",
                                       col.name, t.name),
                           c->location);
          generated.push_back({static_cast<int>(t.columns.size()), c});
          saw_default = true;
          break;
        }
        case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT: {
          if (!generated.empty() && generated.back().column == static_cast<int>(t.columns.size()))
            throw SqlError(sqlstate::kSyntaxError,
                           fmt::format("both default and generation expression specified for column \"{}\" of table \"{}\"",
                                       col.name, t.name),
                           c->location);
          if (col.identity != CatalogColumn::Identity::kNone)
            throw SqlError(sqlstate::kSyntaxError,
                           fmt::format("both default and identity specified for column \"{}\" of table \"{}\"", col.name, t.name),
                           c->location);
          if (saw_default)
            throw SqlError(sqlstate::kSyntaxError,
                           fmt::format("multiple default values specified for column \"{}\" of table \"{}\"", col.name, t.name),
                           c->location);
          saw_default = true;
          col.default_expr = BindColumnDefault(c->raw_expr, col, catalog);
          break;
        }
        default: break;
      }
      if (saw_null && saw_not_null)
        throw SqlError(sqlstate::kSyntaxError,
                       fmt::format("conflicting NULL/NOT NULL declarations for column \"{}\" of table \"{}\"", col.name, t.name),
                       c->location);
    }
    if (SerialType(def)) {
      if (saw_default || col.identity != CatalogColumn::Identity::kNone)
        throw SqlError(sqlstate::kSyntaxError,
                       fmt::format("multiple default values specified for column \"{}\" of table \"{}\"", col.name, t.name));
      own_sequence(col, ParseSequenceOptions(nullptr, 0, nullptr, col.type.id));
    }
    t.columns.push_back(std::move(col));
    if (pk_location >= 0) table_pks.push_back({{def->colname}, pk_location, pk_name});
  }
  if (t.columns.empty())
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("table \"{}\" has no columns", t.name))
        .WithHint("Caracal tables need at least one column.");
  for (const PendingKey& k : table_pks) SetPrimaryKey(t, k.columns, k.location, k.name);
  NamePrimaryKey(t, catalog, table_pks.empty() ? nullptr : table_pks[0].name);
  BindGeneratedColumns(t, generated, catalog);
  BindChecks(t, checks, catalog);
  // UNIQUE constraints: an index each. As PostgreSQL merges them: one on the primary key's
  // columns (in its order) or repeating an earlier one's is dropped, its name going to an
  // unnamed earlier one; then the unnamed ones are named table_columns_key (numbered when
  // taken).
  struct UniqueIndexDef {
    std::string name;
    std::vector<std::string> column_names;
    std::vector<int> columns;
  };
  std::vector<UniqueIndexDef> unique_defs;
  for (const PendingUnique& u : uniques) {
    std::vector<int> columns = KeyColumns(t, u.columns, "unique", u.location);
    if (columns == t.primary_key) continue;
    auto prior = std::ranges::find_if(unique_defs, [&](const UniqueIndexDef& d) { return d.columns == columns; });
    if (prior != unique_defs.end()) {
      if (prior->name.empty()) prior->name = u.name;
      continue;
    }
    unique_defs.push_back({u.name, u.columns, std::move(columns)});
  }
  std::vector<std::string> taken;
  for (const SequenceInfo& o : owned) taken.push_back(o.name);
  for (UniqueIndexDef& d : unique_defs) {
    if (d.name.empty()) d.name = catalog.ChooseIndexName(t.name, d.column_names, "key", taken);
    if (catalog.RelationExists(d.name) || std::ranges::find(taken, d.name) != taken.end() || d.name == t.PrimaryKeyName())
      throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", d.name));
    taken.push_back(d.name);
  }
  const std::string name_of_table = t.name;
  std::vector<std::vector<int>> own_unique_columns;
  for (const UniqueIndexDef& d : unique_defs) own_unique_columns.push_back(d.columns);
  std::vector<std::string> constraint_names = ConstraintNames(t);
  for (const UniqueIndexDef& d : unique_defs) constraint_names.push_back(d.name);
  for (const PendingForeignKey& f : foreign_keys) {
    t.foreign_keys.push_back(BindForeignKey(t, f.constraint, f.columns, catalog, true, own_unique_columns, constraint_names));
    constraint_names.push_back(t.foreign_keys.back().name);
  }
  engine.RunExclusive([&] {
    for (const SequenceInfo& s : owned) catalog.CreateSequence(s);
    const std::string name = t.name;
    catalog.CreateTable(std::move(t));
    for (UniqueIndexDef& d : unique_defs) catalog.CreateIndex(d.name, name, std::move(d.columns), true, true);
  });
  // Writes of the tables it references now check it (and may have become serial).
  std::set<const TableInfo*> referenced;
  for (const ForeignKey& k : catalog.FindTable(name_of_table)->foreign_keys)
    if (k.referenced != nullptr && k.referenced->name != name_of_table) referenced.insert(k.referenced);
  for (const TableInfo* parent : referenced) ReanalyzeProceduresUsing(*parent, catalog, engine);
  return {"CREATE TABLE", {}, nullptr};
}

// DROP INDEX: the procedures using the tables are analysed again without the indexes
// (their writes must stop declaring entries, their reads stop scanning them) before the
// engine drops any; one that no longer compiles makes the DROP fail and change nothing.
// Nothing runs meanwhile: the session drained the engine before DDL, and all of it
// happens between epochs.
void DropIndexes(const std::vector<std::string>& names, Catalog& catalog, engine::Engine& engine) {
  engine.RunExclusive([&] {
    std::vector<Catalog::DetachedIndex> detached;
    std::vector<const TableInfo*> tables;
    std::vector<std::shared_ptr<const ProcedureIr>> again;
    auto put_back = [&] {
      for (auto it = detached.rbegin(); it != detached.rend(); ++it) catalog.ReattachIndex(std::move(*it));
    };
    try {
      for (const std::string& name : names) {
        detached.push_back(catalog.DetachIndex(name));
        const TableInfo* table = catalog.FindTable(detached.back().info.table);
        if (std::ranges::find(tables, table) == tables.end()) tables.push_back(table);
      }
    } catch (const SqlError&) {
      put_back();
      throw;
    }
    try {
      again = ReanalyzedProceduresUsing(tables, catalog);
    } catch (const SqlError& e) {
      put_back();
      throw SqlError(sqlstate::kDependentObjectsStillExist,
                     fmt::format("cannot drop index {} because other objects depend on it", fmt::join(names, ", ")))
          .WithDetail(e.what())
          .WithHint("Drop or replace that function first.");
    }
    for (const Catalog::DetachedIndex& d : detached) catalog.DropDetachedIndex(d);
    StoreRoutines(std::move(again), catalog);
  });
}

// CREATE UNIQUE INDEX over rows that already break it fails, and the index it made goes:
// the first two rows (in index order) holding the same non-NULL values are named.
void RefuseDuplicates(Catalog& catalog, const TableInfo& table, const IndexInfo& index) {
  std::optional<std::string> duplicated;
  {
    engine::Snapshot snapshot(catalog.database());
    const engine::Table& t = catalog.database().table(table.id);
    std::optional<engine::Key> previous;
    snapshot.ScanIndex(table.id, index.engine_index, engine::Key(), engine::Key(),
                       [&](const engine::Key&, const engine::RowValue& row) {
                         std::optional<engine::Key> values = t.IndexKey(index.engine_index, row);
                         if (values && previous && *values == *previous) {
                           std::vector<Datum> datums(table.columns.size());
                           for (int c : index.columns)
                             DatumFromRowInto(row, c, t.schema().column(c), datums[static_cast<size_t>(c)]);
                           duplicated = fmt::format("Key {} is duplicated.", KeyValuesText(table, index.columns, datums));
                           return false;
                         }
                         previous = std::move(values);
                         return true;
                       });
  }
  if (!duplicated) return;
  const std::string name = index.name;
  catalog.DropDetachedIndex(catalog.DetachIndex(name));
  throw SqlError(sqlstate::kUniqueViolation, fmt::format("could not create unique index \"{}\"", name))
      .WithDetail(*duplicated);
}

// The text of a CREATE INDEX statement's WHERE predicate: from the token after the WHERE
// outside parentheses to the end (a trailing semicolon left out).
std::string IndexPredicateText(std::string_view text) {
  const std::string owned(text);
  const std::vector<SqlToken> tokens = ScanSql(owned);
  int depth = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const PgQuery__Token kind = tokens[i].kind;
    if (kind == PG_QUERY__TOKEN__ASCII_40) ++depth;
    if (kind == PG_QUERY__TOKEN__ASCII_41) --depth;
    if (kind != PG_QUERY__TOKEN__WHERE || depth != 0 || i + 1 >= tokens.size()) continue;
    size_t last = tokens.size() - 1;
    if (tokens[last].kind == PG_QUERY__TOKEN__ASCII_59 && last > i + 1) --last;
    return owned.substr(static_cast<size_t>(tokens[i + 1].start),
                        static_cast<size_t>(tokens[last].end - tokens[i + 1].start));
  }
  return {};
}

DdlOutcome CreateIndex(const PgQuery__IndexStmt* stmt, std::string_view statement_text, Catalog& catalog,
                       engine::Engine& engine) {
  if (stmt->nulls_not_distinct) throw NotSupported("UNIQUE NULLS NOT DISTINCT");
  // A unique partial index constrains only its rows, which an index of every row here
  // cannot; a non-unique one answers the same queries with every row in it.
  if (stmt->where_clause && stmt->unique) throw NotSupported("partial unique indexes");
  if (stmt->n_index_including_params > 0) throw NotSupported("INCLUDE columns");
  if (stmt->access_method && *stmt->access_method && std::string_view(stmt->access_method) != "btree")
    throw NotSupported(fmt::format("index access method \"{}\"", stmt->access_method));
  std::string table_name = RelationName(stmt->relation);
  const TableInfo* table = catalog.FindTable(table_name);
  if (!table)
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", table_name));
  std::vector<int> columns;
  std::vector<std::string> names;
  for (size_t i = 0; i < stmt->n_index_params; ++i) {
    const PgQuery__IndexElem* e = stmt->index_params[i]->index_elem;
    if (!e->name || !*e->name) throw NotSupported("indexes on expressions");
    if (e->ordering == PG_QUERY__SORT_BY_DIR__SORTBY_DESC) throw NotSupported("descending index columns");
    int c = table->ColumnIndex(e->name);
    if (c < 0) throw SqlError(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" does not exist", e->name));
    RefuseArrayKeyColumn(table->columns[static_cast<size_t>(c)], -1);
    columns.push_back(c);
    names.push_back(e->name);
  }
  std::string predicate;
  if (stmt->where_clause) {
    // Checked as PostgreSQL checks an index predicate (its columns exist, a boolean, no
    // aggregate or subquery), then kept as written for \d.
    TableScope scope(*table, table->name, nullptr);
    ExprBinder binder(&scope);
    binder.ResolveTypesIn(&catalog);
    binder.AllowAggregates(false, "index predicates");
    binder.ForbidSubqueries("index predicate");
    binder.BindCondition(stmt->where_clause, "WHERE");
    predicate = IndexPredicateText(statement_text);
  }
  std::string name = stmt->idxname && *stmt->idxname ? stmt->idxname : catalog.ChooseIndexName(table_name, names);
  if (catalog.RelationExists(name)) {
    if (stmt->if_not_exists) return {"CREATE INDEX", {fmt::format("relation \"{}\" already exists, skipping", name)}, nullptr};
    throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", name));
  }
  engine.RunExclusive([&] {
    const IndexInfo& index = catalog.CreateIndex(name, table_name, columns, stmt->unique, false, std::move(predicate));
    if (stmt->unique) RefuseDuplicates(catalog, *table, index);
  });
  // Procedures analysed before the index would not declare its entries (nor, for a
  // UNIQUE one, check it).
  ReanalyzeProceduresUsing(*table, catalog, engine);
  return {"CREATE INDEX", {}, nullptr};
}

// COMMENT ON: the object must exist; the comment is accepted and not kept (nothing here
// shows comments yet), so that schema scripts that document their tables run.
DdlOutcome Comment(const PgQuery__CommentStmt* stmt, const Catalog& catalog) {
  auto names = [&]() {
    const PgQuery__Node* obj = stmt->object;
    if (obj->node_case == PG_QUERY__NODE__NODE_LIST) return NameList(obj->list->items, obj->list->n_items);
    if (obj->node_case == PG_QUERY__NODE__NODE_OBJECT_WITH_ARGS)
      return NameList(obj->object_with_args->objname, obj->object_with_args->n_objname);
    if (obj->node_case == PG_QUERY__NODE__NODE_STRING) return std::vector<std::string>{obj->string->sval};
    throw NotSupported("COMMENT on this kind of object");
  };
  std::vector<std::string> n = names();
  if (n.size() > 1 && n[0] == "public") n.erase(n.begin());
  auto missing = [](std::string_view kind, const std::string& name) {
    return SqlError(sqlstate::kUndefinedTable, fmt::format("{} \"{}\" does not exist", kind, name));
  };
  switch (stmt->objtype) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
      if (!catalog.FindTable(n.back())) throw missing("relation", n.back());
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE:
      if (!catalog.FindSequence(n.back())) throw missing("relation", n.back());
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_INDEX:
      if (!catalog.FindIndex(n.back())) throw missing("relation", n.back());
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN: {
      if (n.size() < 2) throw SqlError(sqlstate::kSyntaxError, "column name must be qualified");
      const TableInfo* t = catalog.FindTable(n[n.size() - 2]);
      if (!t) throw missing("relation", n[n.size() - 2]);
      if (t->ColumnIndex(n.back()) < 0)
        throw SqlError(sqlstate::kUndefinedColumn,
                       fmt::format("column \"{}\" of relation \"{}\" does not exist", n.back(), t->name));
      break;
    }
    case PG_QUERY__OBJECT_TYPE__OBJECT_FUNCTION:
    case PG_QUERY__OBJECT_TYPE__OBJECT_PROCEDURE:
    case PG_QUERY__OBJECT_TYPE__OBJECT_ROUTINE:
      if (catalog.FindProcedures(n.back()).empty() && !catalog.FindPendingRoutine(n.back()) &&
          !catalog.FindTriggerFunction(n.back()))
        throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function {} does not exist", n.back()));
      break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_TRIGGER: {
      if (n.size() < 2) throw SqlError(sqlstate::kSyntaxError, "COMMENT ON TRIGGER needs ON table");
      const TableInfo* t = catalog.FindTable(n[n.size() - 2]);
      if (!t) throw missing("relation", n[n.size() - 2]);
      if (std::ranges::none_of(t->triggers, [&](const TriggerInfo& x) { return x.name == n.back(); }))
        throw SqlError(sqlstate::kUndefinedObject, fmt::format("trigger \"{}\" for table \"{}\" does not exist", n.back(), t->name));
      break;
    }
    case PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA:
    case PG_QUERY__OBJECT_TYPE__OBJECT_DATABASE:
      break;
    default: throw NotSupported("COMMENT on this kind of object");
  }
  return {"COMMENT", {}, nullptr};
}

// Every committed row of `table`, as Datums (one per column), for the checks ALTER TABLE
// makes of the rows a table holds.
void ForEachRowDatums(Catalog& catalog, const TableInfo& table,
                      const std::function<void(const engine::RowValue&, std::span<const Datum>)>& visit) {
  engine::Snapshot snapshot(catalog.database());
  const engine::Schema& schema = catalog.database().schema(table.id);
  std::vector<Datum> datums(table.columns.size());
  snapshot.Scan(table.id, engine::Key(), engine::Key(), [&](const engine::Key&, const engine::RowValue& row) {
    for (size_t c = 0; c < datums.size(); ++c) DatumFromRowInto(row, static_cast<int>(c), schema.column(static_cast<int>(c)), datums[c]);
    visit(row, datums);
    return true;
  });
}

// A UNIQUE index ALTER TABLE adds: its name and columns (positions in the new layout).
struct NewUnique {
  std::string name;
  std::vector<int> columns;
};

// ADD COLUMN: the column, its constraints (NOT NULL, DEFAULT, CHECK, UNIQUE, PRIMARY KEY)
// and, for the rows there, its default - one value, so that a replay computes the same.
void AddColumn(TableInfo& t, const PgQuery__ColumnDef* def, std::vector<ColumnOrigin>& origins,
               std::vector<NewUnique>& new_uniques, const Catalog& catalog) {
  if (SerialType(def))
    throw NotSupported("ALTER TABLE ... ADD COLUMN of a serial column")
        .WithHint("Add an integer column, fill it with UPDATE, then SET DEFAULT nextval(...).");
  CatalogColumn col{def->colname, ColumnType(def, catalog), def->is_not_null != 0, nullptr};
  if (def->coll_clause) CheckCollation(def->coll_clause, col.type);
  struct PendingCheck {
    const PgQuery__Constraint* constraint;
    std::string column;
  };
  std::vector<PendingCheck> checks;
  std::vector<std::string> unique_names;
  bool primary = false;
  const PgQuery__Constraint* owner = nullptr;
  const PgQuery__Constraint* generation = nullptr;  // GENERATED ALWAYS AS (...) STORED
  for (size_t k = 0; k < def->n_constraints; ++k) {
    const PgQuery__Constraint* c = def->constraints[k]->constraint;
    CheckConstraintSupported(c, owner);
    if (!IsTimingAttribute(c)) owner = c;
    switch (c->contype) {
      case PG_QUERY__CONSTR_TYPE__CONSTR_NULL: break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL: col.not_null = true; break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY: primary = true; break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK: checks.push_back({c, col.name}); break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE: unique_names.push_back(c->conname ? c->conname : ""); break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
        if (generation)
          throw SqlError(sqlstate::kSyntaxError,
                         fmt::format("both default and generation expression specified for column \"{}\" of table \"{}\"",
                                     col.name, t.name),
                         c->location);
        col.default_expr = BindColumnDefault(c->raw_expr, col, catalog);
        break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_GENERATED:
        if (col.default_expr || generation)
          throw SqlError(sqlstate::kSyntaxError,
                         fmt::format("both default and generation expression specified for column \"{}\" of table \"{}\"",
                                     col.name, t.name),
                         c->location);
        generation = c;
        break;
      default: throw NotSupported("this column constraint in ALTER TABLE ... ADD COLUMN", c->location);
    }
  }
  ColumnOrigin origin;
  if (col.default_expr) {
    if (col.default_expr->kind != ExprKind::kConst)
      throw NotSupported("ALTER TABLE ... ADD COLUMN with a default that draws from a sequence or reads the clock")
          .WithHint("Add the column with a constant default (or none), UPDATE the rows, then ALTER COLUMN ... SET DEFAULT.");
    origin.fill = col.default_expr->value;
  }
  t.columns.push_back(std::move(col));
  origins.push_back(std::move(origin));
  const int at = static_cast<int>(t.columns.size()) - 1;
  const std::string& column_name = t.columns.back().name;
  if (generation) {
    // The rows there get the expression's value over their old columns.
    try {
      BindGeneratedColumns(t, {{at, generation}}, catalog);
    } catch (SqlError& e) {
      if (e.sqlstate() == "42P17") e.ShiftLocation(-1);  // as PostgreSQL reports it here
      throw;
    }
    ExprPtr over_old = t.columns.back().generated->Clone();
    bool from_old_row = true;
    ForEachSlot(*over_old, [&](Slot& s) {
      if (s.space != SlotSpace::kColumn) return;
      const ColumnOrigin& o = origins[static_cast<size_t>(s.index)];
      from_old_row = from_old_row && o.old_column >= 0 && !o.convert;
      s.index = o.old_column;
    });
    if (!from_old_row)
      throw NotSupported("generated columns over a column the same ALTER TABLE adds or changes");
    origins.back().convert = std::shared_ptr<const Expr>(std::move(over_old));
  }
  if (primary) {
    SetPrimaryKey(t, {column_name}, def->location);
    NamePrimaryKey(t, catalog, nullptr);
  }
  if (!checks.empty()) BindChecks(t, checks, catalog);
  std::vector<std::string> taken;
  for (const NewUnique& u : new_uniques) taken.push_back(u.name);
  for (std::string& unique : unique_names) {
    std::string index = !unique.empty() ? unique : catalog.ChooseIndexName(t.name, {column_name}, "key", taken);
    if (catalog.RelationExists(index) || std::ranges::find(taken, index) != taken.end())
      throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", index));
    taken.push_back(index);
    new_uniques.push_back({std::move(index), {at}});
  }
}

// DROP COLUMN: as PostgreSQL, the CHECK constraints and indexes that involve the column
// go with it (the indexes when the table is rebuilt).
void DropColumn(TableInfo& t, int c, std::vector<ColumnOrigin>& origins, std::vector<NewUnique>& new_uniques) {
  const CatalogColumn& col = t.columns[static_cast<size_t>(c)];
  if (std::ranges::find(t.primary_key, c) != t.primary_key.end())
    throw NotSupported("dropping a primary-key column").WithHint("Every table keeps the primary key it was given.");
  if (!col.owned_sequence.empty()) throw NotSupported("dropping a serial or identity column");
  auto reads = [&](const Expr& e) { return ReadsColumn(e, c); };
  // The expressions that stay read the columns after `c` one place down.
  auto shifted = [&](const Expr& e) {
    ExprPtr copy = e.Clone();
    ForEachSlot(*copy, [&](Slot& s) {
      if (s.space == SlotSpace::kColumn && s.index > c) --s.index;
    });
    return std::shared_ptr<const Expr>(std::move(copy));
  };
  for (CatalogColumn& g : t.columns) {
    if (!g.generated) continue;
    if (reads(*g.generated))
      throw SqlError(sqlstate::kDependentObjectsStillExist,
                     fmt::format("cannot drop column {} of table {} because other objects depend on it", col.name, t.name))
          .WithDetail(fmt::format("column {} of table {} depends on column {} of table {}", g.name, t.name, col.name, t.name))
          .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
    g.generated = shifted(*g.generated);
  }
  std::erase_if(t.checks, [&](const CheckConstraint& k) { return reads(*k.expr); });
  for (CheckConstraint& k : t.checks) k.expr = shifted(*k.expr);
  std::erase_if(new_uniques, [&](const NewUnique& u) { return std::ranges::find(u.columns, c) != u.columns.end(); });
  for (NewUnique& u : new_uniques)
    for (int& k : u.columns)
      if (k > c) --k;
  for (int& k : t.primary_key)
    if (k > c) --k;
  t.columns.erase(t.columns.begin() + c);
  origins.erase(origins.begin() + c);
}

// ALTER COLUMN c [SET DATA] TYPE type [USING expr]: each row's new value is USING's
// expression over the old row, else the old value cast as an assignment casts it.
void AlterColumnType(TableInfo& t, int c, const PgQuery__ColumnDef* def, std::vector<ColumnOrigin>& origins,
                     const TableInfo& old, const Catalog& catalog) {
  CatalogColumn& col = t.columns[static_cast<size_t>(c)];
  ColumnOrigin& origin = origins[static_cast<size_t>(c)];
  if (def->coll_clause) throw NotSupported("COLLATE", def->location);
  if (origin.old_column < 0 || origin.convert)
    throw NotSupported("changing the type of a column the same ALTER TABLE adds or changes");
  if (col.generated) throw NotSupported("changing the type of a generated column");
  for (const CatalogColumn& g : t.columns) {
    if (g.generated && ReadsColumn(*g.generated, c))
      throw SqlError(sqlstate::kFeatureNotSupported, "cannot alter type of a column used by a generated column")
          .WithDetail(fmt::format("Column \"{}\" is used by generated column \"{}\".", col.name, g.name));
  }
  for (const CheckConstraint& k : t.checks) {
    if (ReadsColumn(*k.expr, c))
      throw NotSupported(fmt::format("changing the type of a column that check constraint \"{}\" reads", k.name))
          .WithHint("Drop the constraint, change the type, and add the constraint again.");
  }
  const SqlType to = ColumnType(def, catalog);  // with CREATE TABLE's limits (numeric precision)
  ExprPtr value;
  if (def->raw_default) {
    TableScope scope(old, old.name, nullptr);
    ExprBinder binder(&scope);
    binder.ResolveTypesIn(&catalog);
    binder.AllowAggregates(false, "transform expressions");
    binder.ForbidSubqueries("transform expression");
    value = binder.BindAssignment(def->raw_default, to, col.name);
  } else {
    const CatalogColumn& was = old.columns[static_cast<size_t>(origin.old_column)];
    try {
      value = Coerce(MakeSlot(Slot{SlotSpace::kColumn, origin.old_column}, was.type), to, CastContext::kAssignment, col.name);
    } catch (const SqlError&) {
      throw SqlError(sqlstate::kDatatypeMismatch,
                     fmt::format("column \"{}\" cannot be cast automatically to type {}", col.name, to.Name()))
          .WithHint(fmt::format("You might need to specify \"USING {}::{}\".", col.name, to.Name()));
    }
  }
  origin.convert = std::shared_ptr<const Expr>(std::move(value));
  if (col.default_expr) {
    try {
      col.default_expr = std::shared_ptr<const Expr>(Coerce(col.default_expr->Clone(), to, CastContext::kAssignment, col.name));
    } catch (const SqlError&) {
      throw SqlError(sqlstate::kDatatypeMismatch,
                     fmt::format("default for column \"{}\" cannot be cast automatically to type {}", col.name, to.Name()));
    }
  }
  col.type = to;
}

// The layout-changing half of ALTER TABLE: `table` (the description after the commands)
// and its rebuilt rows replace `current` and its rows; the indexes whose columns all
// remain follow them to their new positions, UNIQUE indexes the statement adds are made
// on the new rows, and the procedures using the table are bound and analysed again. A
// failure in any of it (a row that breaks the new description, a duplicate, a procedure
// that no longer compiles: 2BP01) puts everything back as it was.
void RewriteTable(Catalog& catalog, engine::Engine& engine, const TableInfo& current, TableInfo table,
                  const std::vector<ColumnOrigin>& origins, const std::vector<std::string>& dropped_indexes,
                  std::vector<NewUnique>& new_uniques) {
  std::vector<int> moved_to(current.columns.size(), -1);
  for (size_t c = 0; c < origins.size(); ++c)
    if (origins[c].old_column >= 0) moved_to[static_cast<size_t>(origins[c].old_column)] = static_cast<int>(c);
  std::map<std::string, std::vector<int>> index_columns;
  for (const std::string& index_name : current.indexes) {
    if (std::ranges::find(dropped_indexes, index_name) != dropped_indexes.end()) continue;
    const IndexInfo* index = catalog.FindIndex(index_name);
    if (index == nullptr) continue;
    std::vector<int> columns;
    for (int c : index->columns) {
      if (moved_to[static_cast<size_t>(c)] < 0) {
        columns.clear();
        break;
      }
      columns.push_back(moved_to[static_cast<size_t>(c)]);
    }
    if (!columns.empty()) index_columns.emplace(index_name, std::move(columns));
  }
  const std::string name = table.name;
  engine.RunExclusive([&] {
    std::vector<engine::RowValuePtr> rows = RewriteRows(catalog, current, table, origins);
    Catalog::RewrittenTable old = catalog.RewriteTable(std::move(table), index_columns, std::move(rows));
    std::vector<std::shared_ptr<const ProcedureIr>> again;
    try {
      for (NewUnique& u : new_uniques) {
        const IndexInfo& index = catalog.CreateIndex(u.name, name, u.columns, true, true);
        RefuseDuplicates(catalog, *catalog.FindTable(name), index);
      }
      const TableInfo* tables[] = {catalog.FindTable(name)};
      again = ReanalyzedProceduresUsing(tables, catalog);
    } catch (...) {
      catalog.UndoRewrite(std::move(old));
      throw;
    }
    StoreRoutines(std::move(again), catalog);
    catalog.FinishRewrite(std::move(old));
  });
}

// ALTER TABLE: the changes that keep the table's rows as they are - column defaults, NOT
// NULL, CHECK and UNIQUE constraints added (the rows checked first) or dropped. The
// commands apply to a copy of the table's description, which replaces it only when all
// of them succeeded; then the procedures using the table are bound again, so that their
// writes see the new defaults and constraints.
// A layout change moves columns: `t`'s foreign keys follow them (one whose column is
// dropped goes with it, as in PostgreSQL). The keys of other tables that reference this
// one name its columns by position, so those may not move, be dropped or change type.
void RemapForeignKeys(const TableInfo& old, TableInfo& t, std::span<const ColumnOrigin> origins) {
  std::vector<int> moved_to(old.columns.size(), -1);
  std::vector<bool> converted(old.columns.size(), false);
  for (size_t c = 0; c < origins.size(); ++c)
    if (origins[c].old_column >= 0) {
      moved_to[static_cast<size_t>(origins[c].old_column)] = static_cast<int>(c);
      converted[static_cast<size_t>(origins[c].old_column)] = origins[c].convert != nullptr;
    }
  for (const ReferencingKey& r : old.referenced_by)
    for (int c : r.key->referenced_columns) {
      const std::string& column = old.columns[static_cast<size_t>(c)].name;
      if (moved_to[static_cast<size_t>(c)] < 0)
        throw SqlError(sqlstate::kDependentObjectsStillExist,
                       fmt::format("cannot drop column {} of table {} because other objects depend on it", column, old.name))
            .WithDetail(fmt::format("constraint {} on table {} depends on column {} of table {}", r.key->name,
                                    r.table->name, column, old.name))
            .WithHint("Drop the foreign key first.");
      if (moved_to[static_cast<size_t>(c)] != c || converted[static_cast<size_t>(c)])
        throw NotSupported(fmt::format("changing the layout of table {}, which foreign key {} of table {} references",
                                       old.name, r.key->name, r.table->name))
            .WithHint("Drop the foreign key, alter the table, and add the foreign key again.");
    }
  std::erase_if(t.foreign_keys, [&](ForeignKey& k) {
    for (int& c : k.columns) {
      if (converted[static_cast<size_t>(c)])
        throw NotSupported(fmt::format("changing the type of column {}, which foreign key {} uses",
                                       old.columns[static_cast<size_t>(c)].name, k.name))
            .WithHint("Drop the foreign key, alter the table, and add the foreign key again.");
      c = moved_to[static_cast<size_t>(c)];
    }
    if (k.referenced_table == old.name)
      for (int& c : k.referenced_columns) c = moved_to[static_cast<size_t>(c)];
    return std::ranges::find(k.columns, -1) != k.columns.end();
  });
}

// Whether every action of an ALTER TABLE / SEQUENCE / VIEW is OWNER TO (exec/privileges.h:
// accepted without effect).
bool OnlyOwnerChanges(const PgQuery__AlterTableStmt* stmt) {
  for (size_t i = 0; i < stmt->n_cmds; ++i)
    if (stmt->cmds[i]->alter_table_cmd->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_ChangeOwner) return false;
  return stmt->n_cmds > 0;
}

DdlOutcome AlterTable(const PgQuery__AlterTableStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  if (OnlyOwnerChanges(stmt)) {
    const std::string relation = RelationName(stmt->relation);
    if (!catalog.RelationExists(relation)) {
      if (stmt->missing_ok) return {"ALTER TABLE", {fmt::format("relation \"{}\" does not exist, skipping", relation)}, nullptr};
      throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", relation));
    }
    const char* tag = stmt->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE ? "ALTER SEQUENCE"
                      : stmt->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW   ? "ALTER VIEW"
                                                                               : "ALTER TABLE";
    return {tag, {}, nullptr};
  }
  if (stmt->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE) throw NotSupported("ALTER of this kind of relation");
  const std::string name = RelationName(stmt->relation);
  const TableInfo* current = catalog.FindTable(name);
  if (!current) {
    if (stmt->missing_ok) return {"ALTER TABLE", {fmt::format("relation \"{}\" does not exist, skipping", name)}, nullptr};
    if (catalog.FindView(name)) throw NotSupported("ALTER TABLE of a view");
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", name));
  }
  TableInfo t = *current;
  DdlOutcome out{"ALTER TABLE", {}, nullptr};
  std::vector<NewUnique> new_uniques;
  std::vector<std::string> dropped_indexes;
  std::vector<SequenceInfo> new_sequences;  // identity columns added
  // Layout and key changes (exec/table_rewrite.h): where each column of `t` comes from.
  std::vector<ColumnOrigin> origins(t.columns.size());
  for (size_t c = 0; c < origins.size(); ++c) origins[c].old_column = static_cast<int>(c);
  bool rewrite = false;
  // A view binds its text again wherever it is read, so a new key does not touch it; a
  // change of columns could change what its text means (`SELECT *`), and is refused.
  bool columns_change = false;
  auto start_rewrite = [&](const char* what, bool keeps_columns = false) {
    if (keeps_columns) {
      rewrite = true;
      return;
    }
    const std::vector<std::string> views = columns_change ? std::vector<std::string>{} : catalog.ViewsReading(name);
    columns_change = true;
    if (!views.empty())
      throw NotSupported(fmt::format("{} of a table that a view reads", what))
          .WithDetail(fmt::format("View {} reads table {}.", views[0], name))
          .WithHint("Drop the view, alter the table, and create the view again.");
    rewrite = true;
  };
  auto column = [&](const char* column_name) -> CatalogColumn& {
    int c = t.ColumnIndex(column_name);
    if (c < 0)
      throw SqlError(sqlstate::kUndefinedColumn,
                     fmt::format("column \"{}\" of relation \"{}\" does not exist", column_name, t.name));
    return t.columns[static_cast<size_t>(c)];
  };
  for (size_t i = 0; i < stmt->n_cmds; ++i) {
    const PgQuery__AlterTableCmd* cmd = stmt->cmds[i]->alter_table_cmd;
    switch (cmd->subtype) {
      case PG_QUERY__ALTER_TABLE_TYPE__AT_ColumnDefault: {
        CatalogColumn& col = column(cmd->name);
        if (col.identity != CatalogColumn::Identity::kNone)
          throw SqlError(sqlstate::kSyntaxError,
                         fmt::format("column \"{}\" of relation \"{}\" is an identity column", col.name, t.name))
              .WithHint("Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.");
        if (col.generated)
          throw SqlError("42809", fmt::format("column \"{}\" of relation \"{}\" is a generated column", col.name, t.name));
        col.default_expr = cmd->def ? BindColumnDefault(cmd->def, col, catalog) : nullptr;
        break;
      }
      case PG_QUERY__ALTER_TABLE_TYPE__AT_AddIdentity: {
        // pg_dump's form of an identity column: ALTER COLUMN c ADD GENERATED ... AS
        // IDENTITY (SEQUENCE NAME s START WITH ...), after CREATE TABLE.
        CatalogColumn& col = column(cmd->name);
        const PgQuery__Constraint* c = cmd->def->constraint;
        if (!col.type.is_integer())
          throw SqlError(sqlstate::kDatatypeMismatch, "identity column type must be smallint, integer, or bigint");
        if (!col.not_null)
          throw SqlError("55000", fmt::format("column \"{}\" of relation \"{}\" must be declared NOT NULL before "
                                              "identity can be added", col.name, t.name));
        if (col.identity != CatalogColumn::Identity::kNone)
          throw SqlError("55000", fmt::format("column \"{}\" of relation \"{}\" is already an identity column", col.name, t.name));
        if (col.default_expr)
          throw SqlError("55000", fmt::format("column \"{}\" of relation \"{}\" already has a default value", col.name, t.name));
        SequenceOptions options = ParseSequenceOptions(c->options, c->n_options, nullptr, col.type.id);
        std::vector<std::string> taken;
        for (const SequenceInfo& q : new_sequences) taken.push_back(q.name);
        const std::string sequence = options.sequence_name.value_or(OwnedSequenceName(catalog, t.name, col.name, taken));
        if (catalog.RelationExists(sequence) || std::ranges::find(taken, sequence) != taken.end())
          throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", sequence));
        options.definition.name = sequence;
        new_sequences.push_back(std::move(options.definition));
        col.identity = c->generated_when && std::string_view(c->generated_when) == "a" ? CatalogColumn::Identity::kAlways
                                                                                        : CatalogColumn::Identity::kByDefault;
        col.owned_sequence = sequence;
        col.default_expr = NextvalDefault(sequence, col.type);
        break;
      }
      case PG_QUERY__ALTER_TABLE_TYPE__AT_SetNotNull: {
        CatalogColumn& col = column(cmd->name);
        const int c = t.ColumnIndex(col.name);
        // After a layout change the rebuild checks every row against `t` instead.
        if (!rewrite)
          ForEachRowDatums(catalog, *current, [&](const engine::RowValue&, std::span<const Datum> row) {
            if (row[static_cast<size_t>(c)].is_null())
              throw SqlError(sqlstate::kNotNullViolation,
                             fmt::format("column \"{}\" of relation \"{}\" contains null values", col.name, t.name));
          });
        col.not_null = true;
        break;
      }
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DropNotNull: {
        CatalogColumn& col = column(cmd->name);
        const int c = t.ColumnIndex(col.name);
        if (std::ranges::find(t.primary_key, c) != t.primary_key.end())
          throw SqlError(sqlstate::kInvalidTableDefinition, fmt::format("column \"{}\" is in a primary key", col.name));
        if (col.identity != CatalogColumn::Identity::kNone)
          throw SqlError(sqlstate::kSyntaxError,
                         fmt::format("column \"{}\" of relation \"{}\" is an identity column", col.name, t.name));
        col.not_null = false;
        break;
      }
      case PG_QUERY__ALTER_TABLE_TYPE__AT_AddConstraint: {
        const PgQuery__Constraint* c = cmd->def->constraint;
        CheckConstraintSupported(c);
        if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY) {
          // A table without one is keyed by its row identity until now: re-keyed.
          SetPrimaryKey(t, KeyNames(c->keys, c->n_keys), -1, c->conname);  // PostgreSQL points at no position here
          NamePrimaryKey(t, catalog, c->conname);
          start_rewrite("ALTER TABLE ... ADD PRIMARY KEY", true);
          break;
        }
        if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_CHECK) {
          struct Pending {
            const PgQuery__Constraint* constraint;
            std::string column;
          };
          const size_t before = t.checks.size();
          std::vector<std::string> names;
          for (const CheckConstraint& k : t.checks) names.push_back(k.name);
          BindChecks(t, std::vector<Pending>{{c, ""}}, catalog);
          if (t.checks.size() != before + 1) throw SqlError(sqlstate::kInternalError, "internal error: CHECK not added");
          const CheckConstraint* added = nullptr;
          for (const CheckConstraint& k : t.checks)
            if (std::ranges::find(names, k.name) == names.end()) added = &k;
          const engine::Schema& schema = catalog.database().schema(t.id);
          if (!rewrite)
          ForEachRowDatums(catalog, *current, [&](const engine::RowValue& row, std::span<const Datum>) {
            EvalContext ctx;
            ctx.row = &row;
            ctx.schema = &schema;
            Datum ok = Eval(*added->expr, ctx);
            if (!ok.is_null() && !ok.as_bool())
              throw SqlError("23514", fmt::format("check constraint \"{}\" of relation \"{}\" is violated by some row",
                                                  added->name, t.name));
          });
          break;
        }
        if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE) {
          std::vector<std::string> keys = KeyNames(c->keys, c->n_keys);
          std::vector<int> columns = KeyColumns(t, keys, "unique", c->location);
          std::vector<std::string> taken;
          for (const NewUnique& u : new_uniques) taken.push_back(u.name);
          std::string index = c->conname && *c->conname ? c->conname : catalog.ChooseIndexName(t.name, keys, "key", taken);
          if (catalog.RelationExists(index) || std::ranges::find(taken, index) != taken.end())
            throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", index));
          new_uniques.push_back({std::move(index), std::move(columns)});
          break;
        }
        if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN) {
          std::vector<std::string> names = ConstraintNames(t);
          for (const NewUnique& u : new_uniques) names.push_back(u.name);
          ForeignKey key = BindForeignKey(t, c, KeyNames(c->fk_attrs, c->n_fk_attrs), catalog, false, {}, names);
          if (rewrite) throw NotSupported("ADD FOREIGN KEY together with a change of the table's layout", c->location);
          if (!c->skip_validation) ValidateForeignKey(t, key, catalog);
          t.foreign_keys.push_back(std::move(key));
          break;
        }
        throw NotSupported("this kind of constraint in ALTER TABLE ... ADD CONSTRAINT", c->location);
      }
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DropConstraint: {
        const std::string constraint = cmd->name;
        if (std::erase_if(t.checks, [&](const CheckConstraint& k) { return k.name == constraint; }) > 0) break;
        if (std::erase_if(t.foreign_keys, [&](const ForeignKey& k) { return k.name == constraint; }) > 0) break;
        const IndexInfo* index = catalog.FindIndex(constraint);
        if (index && index->constraint && index->table == t.name) {
          dropped_indexes.push_back(constraint);
          break;
        }
        if (constraint == t.PrimaryKeyName()) throw NotSupported("dropping a primary key");
        if (cmd->missing_ok) {
          out.notices.push_back(
              fmt::format("constraint \"{}\" of relation \"{}\" does not exist, skipping", constraint, t.name));
          break;
        }
        throw SqlError(sqlstate::kUndefinedObject,
                       fmt::format("constraint \"{}\" of relation \"{}\" does not exist", constraint, t.name));
      }
      case PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumn: {
        const PgQuery__ColumnDef* def = cmd->def->column_def;
        if (t.ColumnIndex(def->colname) >= 0) {
          if (cmd->missing_ok) {
            out.notices.push_back(
                fmt::format("column \"{}\" of relation \"{}\" already exists, skipping", def->colname, t.name));
            break;
          }
          throw SqlError(sqlstate::kDuplicateColumn,
                         fmt::format("column \"{}\" of relation \"{}\" already exists", def->colname, t.name));
        }
        AddColumn(t, def, origins, new_uniques, catalog);
        start_rewrite("ALTER TABLE ... ADD COLUMN");
        break;
      }
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumn: {
        const int c = t.ColumnIndex(cmd->name);
        if (c < 0) {
          if (cmd->missing_ok) {
            out.notices.push_back(
                fmt::format("column \"{}\" of relation \"{}\" does not exist, skipping", cmd->name, t.name));
            break;
          }
          throw SqlError(sqlstate::kUndefinedColumn,
                         fmt::format("column \"{}\" of relation \"{}\" does not exist", cmd->name, t.name));
        }
        for (const TriggerInfo& trigger : t.triggers)
          if (std::ranges::find(trigger.update_columns, cmd->name) != trigger.update_columns.end())
            throw SqlError(sqlstate::kDependentObjectsStillExist,
                           fmt::format("cannot drop column {} of table {} because other objects depend on it", cmd->name, t.name))
                .WithDetail(fmt::format("trigger {} on table {} depends on column {} of table {}", trigger.name, t.name, cmd->name,
                                        t.name))
                .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
        start_rewrite("ALTER TABLE ... DROP COLUMN");
        DropColumn(t, c, origins, new_uniques);
        break;
      }
      case PG_QUERY__ALTER_TABLE_TYPE__AT_AlterColumnType: {
        const int c = t.ColumnIndex(cmd->name);
        if (c < 0)
          throw SqlError(sqlstate::kUndefinedColumn,
                         fmt::format("column \"{}\" of relation \"{}\" does not exist", cmd->name, t.name));
        start_rewrite("ALTER TABLE ... ALTER COLUMN ... TYPE");
        AlterColumnType(t, c, cmd->def->column_def, origins, *current, catalog);
        break;
      }
      case PG_QUERY__ALTER_TABLE_TYPE__AT_ChangeOwner: break;  // exec/privileges.h
      case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableTrig:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableAlwaysTrig:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DisableTrig: {
        // Its writes are bound again below, with or without the trigger.
        auto it = std::ranges::find_if(t.triggers, [&](const TriggerInfo& x) { return x.name == cmd->name; });
        if (it == t.triggers.end())
          throw SqlError(sqlstate::kUndefinedObject, fmt::format("trigger \"{}\" for table \"{}\" does not exist", cmd->name, t.name));
        it->enabled = cmd->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_DisableTrig;
        break;
      }
      case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableTrigAll:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableTrigUser:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DisableTrigAll:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DisableTrigUser:
        // ALL would take the foreign keys' internal triggers too in PostgreSQL; here they
        // are no triggers, and foreign keys stay checked.
        for (TriggerInfo& x : t.triggers)
          x.enabled = cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_EnableTrigAll ||
                      cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_EnableTrigUser;
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_EnableReplicaTrig: throw NotSupported("ENABLE REPLICA TRIGGER");
      default: throw NotSupported("this ALTER TABLE action");
    }
  }
  if (rewrite) {
    RemapForeignKeys(*current, t, origins);
    // The procedures bound again after the rebuild may draw from the new sequences.
    engine.RunExclusive([&] {
      for (const SequenceInfo& q : new_sequences) catalog.CreateSequence(q);
    });
    try {
      RewriteTable(catalog, engine, *current, std::move(t), origins, dropped_indexes, new_uniques);
    } catch (...) {
      engine.RunExclusive([&] {
        for (const SequenceInfo& q : new_sequences) catalog.DropSequence(q.name);
      });
      throw;
    }
    return out;
  }
  engine.RunExclusive([&] {
    for (const SequenceInfo& q : new_sequences) catalog.CreateSequence(q);
    catalog.ReplaceTableDescription(std::move(t));
    for (NewUnique& u : new_uniques) {
      const IndexInfo& index = catalog.CreateIndex(u.name, name, std::move(u.columns), true, true);
      RefuseDuplicates(catalog, *catalog.FindTable(name), index);
    }
  });
  if (!dropped_indexes.empty()) DropIndexes(dropped_indexes, catalog, engine);
  const TableInfo& altered = *catalog.FindTable(name);
  ReanalyzeProceduresUsing(altered, catalog, engine);
  // A foreign key changes what the referenced table's writes check, and may make them serial.
  std::set<const TableInfo*> referenced;
  for (const ForeignKey& k : altered.foreign_keys)
    if (k.referenced != nullptr && k.referenced != &altered) referenced.insert(k.referenced);
  for (const TableInfo* parent : referenced) ReanalyzeProceduresUsing(*parent, catalog, engine);
  return out;
}

// ALTER TABLE ... RENAME [COLUMN] a TO b / RENAME TO n / RENAME CONSTRAINT a TO b, ALTER
// INDEX ... RENAME TO n: names only (no row changes). The procedures using the table are
// bound again from their source, which names things as they were: one that no longer
// binds makes the rename fail (2BP01) and changes nothing - PostgreSQL would let it
// through and fail the function at its next call.
DdlOutcome Rename(const PgQuery__RenameStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  const std::string new_name = stmt->newname;
  DdlOutcome out{stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX ? "ALTER INDEX" : "ALTER TABLE", {}, nullptr};
  const bool of_index = stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX;
  if (stmt->rename_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE && stmt->rename_type != PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN &&
      stmt->rename_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABCONSTRAINT && !of_index)
    throw NotSupported("renaming this kind of object");
  if (stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN && stmt->relation_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
    throw NotSupported("renaming a view's columns");
  const std::string name = RelationName(stmt->relation);
  const IndexInfo* index = of_index ? catalog.FindIndex(name) : nullptr;
  const TableInfo* table = of_index ? (index ? catalog.FindTable(index->table) : nullptr) : catalog.FindTable(name);
  if (table == nullptr) {
    if (stmt->missing_ok) return {out.tag, {fmt::format("relation \"{}\" does not exist, skipping", name)}, nullptr};
    if (!of_index && catalog.FindView(name)) throw NotSupported("renaming a view");
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", name));
  }
  if (const std::vector<std::string> views = of_index ? std::vector<std::string>{} : catalog.ViewsReading(table->name);
      !views.empty())
    throw NotSupported("renaming a table, or its columns, that a view reads")
        .WithDetail(fmt::format("View {} reads table {}.", views[0], table->name))
        .WithHint("Drop the view, rename, and create the view again.");
  std::function<void()> apply, undo;
  switch (stmt->rename_type) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
    case PG_QUERY__OBJECT_TYPE__OBJECT_INDEX: {
      if (catalog.RelationExists(new_name))
        throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", new_name));
      if (of_index) {
        apply = [&catalog, from = name, new_name] { catalog.RenameIndex(from, new_name); };
        undo = [&catalog, from = name, new_name] { catalog.RenameIndex(new_name, from); };
      } else {
        apply = [&catalog, from = name, new_name] { catalog.RenameTable(from, new_name); };
        undo = [&catalog, from = name, new_name] { catalog.RenameTable(new_name, from); };
      }
      break;
    }
    case PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN: {
      const std::string column = stmt->subname;
      const int c = table->ColumnIndex(column);
      if (c < 0) throw SqlError(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" does not exist", column));
      if (table->ColumnIndex(new_name) >= 0)
        throw SqlError(sqlstate::kDuplicateColumn,
                       fmt::format("column \"{}\" of relation \"{}\" already exists", new_name, table->name));
      TableInfo renamed = *table, before = *table;
      renamed.columns[static_cast<size_t>(c)].name = new_name;
      // A trigger's UPDATE OF list and WHEN name the column as it now is (PostgreSQL keeps
      // its number).
      for (TriggerInfo& trigger : renamed.triggers) {
        for (std::string& name : trigger.update_columns)
          if (name == column) name = new_name;
        trigger.when = RenameColumnInWhen(trigger.when, column, new_name);
      }
      apply = [&catalog, renamed] { catalog.ReplaceTableDescription(renamed); };
      undo = [&catalog, before] { catalog.ReplaceTableDescription(before); };
      break;
    }
    default: {  // a constraint: a CHECK, or a UNIQUE constraint's index
      const std::string constraint = stmt->subname;
      const auto& checks = table->checks;
      if (std::ranges::any_of(checks, [&](const CheckConstraint& k) { return k.name == constraint; })) {
        if (std::ranges::any_of(checks, [&](const CheckConstraint& k) { return k.name == new_name; }))
          throw SqlError(sqlstate::kDuplicateObject,
                         fmt::format("constraint \"{}\" for relation \"{}\" already exists", new_name, table->name));
        TableInfo renamed = *table, before = *table;
        for (CheckConstraint& k : renamed.checks)
          if (k.name == constraint) k.name = new_name;
        std::ranges::sort(renamed.checks, [](const CheckConstraint& a, const CheckConstraint& b) { return a.name < b.name; });
        apply = [&catalog, renamed] { catalog.ReplaceTableDescription(renamed); };
        undo = [&catalog, before] { catalog.ReplaceTableDescription(before); };
        break;
      }
      const IndexInfo* unique = catalog.FindIndex(constraint);
      if (unique == nullptr || !unique->constraint || unique->table != table->name) {
        if (constraint == table->PrimaryKeyName()) throw NotSupported("renaming a primary key");
        throw SqlError(sqlstate::kUndefinedObject,
                       fmt::format("constraint \"{}\" for table \"{}\" does not exist", constraint, table->name));
      }
      if (catalog.RelationExists(new_name))
        throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", new_name));
      apply = [&catalog, constraint, new_name] { catalog.RenameIndex(constraint, new_name); };
      undo = [&catalog, constraint, new_name] { catalog.RenameIndex(new_name, constraint); };
      break;
    }
  }
  engine.RunExclusive([&] {
    apply();
    std::vector<std::shared_ptr<const ProcedureIr>> again;
    try {
      const TableInfo* tables[] = {table};  // renames keep the description where it is
      again = ReanalyzedProceduresUsing(tables, catalog);
    } catch (...) {
      undo();
      throw;
    }
    StoreRoutines(std::move(again), catalog);
  });
  return out;
}

// CREATE [OR REPLACE] VIEW name [(columns)] AS query: the query is bound now (to check
// it and learn its columns) and again wherever the view is read.
DdlOutcome CreateView(const PgQuery__ViewStmt* stmt, std::string_view text, int location, Catalog& catalog,
                      engine::Engine& engine) {
  ViewInfo view;
  view.name = RelationName(stmt->view);
  if (stmt->view->relpersistence && std::string_view(stmt->view->relpersistence) == "t")
    throw NotSupported("temporary views");
  if (stmt->with_check_option != PG_QUERY__VIEW_CHECK_OPTION__NO_CHECK_OPTION) throw NotSupported("WITH CHECK OPTION");
  if (stmt->n_options > 0) throw NotSupported("view options");
  for (size_t i = 0; i < stmt->n_aliases; ++i) view.column_names.push_back(StringValue(stmt->aliases[i]));
  view.definition = std::string(text);
  view.parse = std::make_shared<const PgParse>(PgParse::Parse(text));
  const PgQuery__SelectStmt* query = view.parse->statement(0)->view_stmt->query->select_stmt;
  QueryPlan plan = [&] {
    try {
      return PlanQuery(query, catalog);
    } catch (SqlError& e) {
      e.ShiftLocation(location);
      throw;
    }
  }();
  if (view.column_names.size() > plan.columns.size())
    throw SqlError(sqlstate::kSyntaxError, "CREATE VIEW specifies more column names than columns");
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    std::string name = i < view.column_names.size() ? view.column_names[i] : plan.columns[i].name;
    for (const auto& [other, type] : view.columns)
      if (other == name) throw SqlError(sqlstate::kDuplicateColumn, fmt::format("column \"{}\" specified more than once", name));
    SqlType type = plan.columns[i].type.is_unknown() ? SqlType::Of(TypeId::kText) : plan.columns[i].type;
    view.columns.emplace_back(std::move(name), type);
  }
  // The relations it reads, which it keeps from being dropped.
  ContainsNode(&query->base, [&](const PgQuery__Node* n) {
    if (n->node_case == PG_QUERY__NODE__NODE_RANGE_VAR) {
      const std::string relation = n->range_var->relname;
      if ((catalog.FindTable(relation) || catalog.FindView(relation)) && std::ranges::find(view.relations, relation) == view.relations.end())
        view.relations.push_back(relation);
    }
    return false;
  });
  if (const ViewInfo* old = stmt->replace ? catalog.FindView(view.name) : nullptr) {
    // As PostgreSQL: the columns it had stay, by name and type; more may follow.
    if (view.columns.size() < old->columns.size()) throw SqlError(sqlstate::kInvalidTableDefinition, "cannot drop columns from view");
    for (size_t i = 0; i < old->columns.size(); ++i) {
      if (old->columns[i].first != view.columns[i].first)
        throw SqlError(sqlstate::kInvalidTableDefinition,
                       fmt::format("cannot change name of view column \"{}\" to \"{}\"", old->columns[i].first,
                                   view.columns[i].first))
            .WithHint("Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.");
      if (!(old->columns[i].second == view.columns[i].second))
        throw SqlError(sqlstate::kInvalidTableDefinition,
                       fmt::format("cannot change data type of view column \"{}\" from {} to {}", old->columns[i].first,
                                   old->columns[i].second.Name(), view.columns[i].second.Name()));
    }
  }
  // A view reading itself, directly or through others (OR REPLACE can close the circle),
  // could never be bound.
  const bool replaced = stmt->replace && catalog.FindView(view.name);
  const std::string name = view.name;
  engine.RunExclusive([&] { catalog.StoreView(std::move(view), stmt->replace); });
  if (replaced) {
    // Procedures bound the old query where they read the view: bind them again (those
    // using any table the view reads, directly or through other views; one that no longer
    // binds for another reason keeps what it had).
    std::vector<const TableInfo*> tables;
    std::vector<std::string> pending{name}, seen;
    while (!pending.empty()) {
      const ViewInfo* v = catalog.FindView(pending.back());
      pending.pop_back();
      if (!v || std::ranges::find(seen, v->name) != seen.end()) continue;
      seen.push_back(v->name);
      for (const std::string& r : v->relations) {
        if (const TableInfo* t = catalog.FindTable(r)) {
          if (std::ranges::find(tables, t) == tables.end()) tables.push_back(t);
        } else {
          pending.push_back(r);
        }
      }
    }
    std::vector<std::shared_ptr<const ProcedureIr>> again = ReanalyzedProceduresUsing(tables, catalog, true);
    engine.RunExclusive([&] {
      StoreRoutines(std::move(again), catalog);
    });
  }
  return {"CREATE VIEW", {}, nullptr};
}

DdlOutcome Drop(const PgQuery__DropStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  const char* kind;
  const char* tag;
  switch (stmt->remove_type) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE: kind = "table"; tag = "DROP TABLE"; break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_INDEX: kind = "index"; tag = "DROP INDEX"; break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE: kind = "sequence"; tag = "DROP SEQUENCE"; break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_VIEW: kind = "view"; tag = "DROP VIEW"; break;
    default: throw NotSupported("DROP of this kind of object");
  }
  const bool cascade = stmt->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE;
  DdlOutcome out{tag, {}, nullptr};
  std::vector<std::string> names;
  // Check every name first, so a failing DROP drops nothing.
  for (size_t i = 0; i < stmt->n_objects; ++i) {
    const PgQuery__Node* obj = stmt->objects[i];
    std::vector<std::string> parts = NameList(obj->list->items, obj->list->n_items);
    if (parts.size() > 1 && parts[0] != "public")
      throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", parts[0]));
    const std::string& name = parts.back();
    bool exists = stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE      ? catalog.FindTable(name) != nullptr
                  : stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX    ? catalog.FindIndex(name) != nullptr
                  : stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW     ? catalog.FindView(name) != nullptr
                                                                                : catalog.FindSequence(name) != nullptr;
    if (!exists) {
      if (catalog.RelationExists(name)) {
        std::string what = catalog.FindTable(name) ? "table" : catalog.FindIndex(name) ? "index" : catalog.FindView(name) ? "view" : "sequence";
        std::string upper = what;
        std::ranges::transform(upper, upper.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
        throw SqlError("42809", fmt::format("\"{}\" is not a{} {}", name, kind[0] == 'i' ? "n" : "", kind))
            .WithHint(fmt::format("Use DROP {} to remove a{} {}.", upper, what[0] == 'i' ? "n" : "", what));
      }
      if (stmt->missing_ok) {
        out.notices.push_back(fmt::format("{} \"{}\" does not exist, skipping", kind, name));
        continue;
      }
      throw SqlError(stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX ? sqlstate::kUndefinedObject
                                                                              : sqlstate::kUndefinedTable,
                     fmt::format("{} \"{}\" does not exist", kind, name));
    }
    if (stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX && catalog.FindIndex(name)->constraint) {
      const std::string& table = catalog.FindIndex(name)->table;
      throw SqlError(sqlstate::kDependentObjectsStillExist,
                     fmt::format("cannot drop index {} because constraint {} on table {} requires it", name, name, table))
          .WithHint(fmt::format("You can drop constraint {} on table {} instead.", name, table));
    }
    // A name given twice is dropped once, as PostgreSQL does.
    if (std::ranges::find(names, name) == names.end()) names.push_back(name);
  }
  // Views reading what is dropped: refused, or with CASCADE dropped first (and the views
  // reading those, in turn).
  std::vector<std::string> dependent_views;
  if (stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE || stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW) {
    std::vector<std::string> dependencies;  // "view v depends on table t"
    std::string first;                      // the dropped relation the first dependency is on
    // The names dropped, then each dependent view in turn.
    for (size_t next = 0; next <= dependent_views.size(); ++next) {
      const std::vector<std::string>& from = next == 0 ? names : std::vector<std::string>{dependent_views[next - 1]};
      for (const std::string& name : from)
        for (const std::string& v : catalog.ViewsReading(name)) {
          if (std::ranges::find(names, v) != names.end() || std::ranges::find(dependent_views, v) != dependent_views.end())
            continue;
          if (first.empty()) first = name;
          dependencies.push_back(fmt::format("view {} depends on {} {}", v, catalog.FindView(name) ? "view" : "table", name));
          dependent_views.push_back(v);
        }
    }
    if (!dependent_views.empty() && !cascade)
      throw SqlError(sqlstate::kDependentObjectsStillExist,
                     fmt::format("cannot drop {} {} because other objects depend on it", catalog.FindView(first) ? "view" : "table", first))
          .WithDetail(fmt::format("{}", fmt::join(dependencies, "\n")))
          .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
    if (dependent_views.size() == 1) out.notices.push_back(fmt::format("drop cascades to view {}", dependent_views[0]));
    if (dependent_views.size() > 1) out.notices.push_back(fmt::format("drop cascades to {} other objects", dependent_views.size()));
  }
  if (stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW) {
    engine.RunExclusive([&] {
      for (const std::string& v : dependent_views) catalog.DropView(v);
      for (const std::string& v : names) catalog.DropView(v);
    });
    return out;
  }
  if (stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX) {
    DropIndexes(names, catalog, engine);
    return out;
  }
  if (stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE) {
    // A sequence a column's default draws from stays while the column does.
    for (const std::string& name : names)
      for (const TableInfo* table : catalog.Tables())
        for (const CatalogColumn& c : table->columns)
          if (DefaultDrawsFrom(c, name) && std::ranges::find(names, table->name) == names.end())
            throw SqlError(sqlstate::kDependentObjectsStillExist,
                           fmt::format("cannot drop sequence {} because other objects depend on it", name))
                .WithDetail(fmt::format("default value for column {} of table {} depends on sequence {}", c.name,
                                        table->name, name))
                .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
  }
  // Foreign keys of other tables referencing a dropped one: refused, or with CASCADE
  // dropped (the constraints, not their tables).
  std::vector<ReferencingKey> dependent_keys;
  if (stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE) {
    std::vector<std::string> dependencies;
    std::string first;
    for (const std::string& name : names)
      for (const ReferencingKey& r : ReferencesFromOutside(*catalog.FindTable(name), names)) {
        if (first.empty()) first = name;
        dependencies.push_back(fmt::format("constraint {} on table {} depends on table {}", r.key->name, r.table->name, name));
        dependent_keys.push_back(r);
      }
    if (!dependent_keys.empty() && !cascade)
      throw SqlError(sqlstate::kDependentObjectsStillExist,
                     fmt::format("cannot drop table {} because other objects depend on it", first))
          .WithDetail(fmt::format("{}", fmt::join(dependencies, "\n")))
          .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
    for (const ReferencingKey& r : dependent_keys)
      out.notices.push_back(fmt::format("drop cascades to constraint {} on table {}", r.key->name, r.table->name));
  }
  std::vector<std::pair<std::string, std::string>> keys_to_drop;  // (table, constraint): pointers move as they go
  for (const ReferencingKey& r : dependent_keys) keys_to_drop.emplace_back(r.table->name, r.key->name);
  engine.RunExclusive([&] {
    for (const std::pair<std::string, std::string>& dropped : keys_to_drop) {
      TableInfo child = *catalog.FindTable(dropped.first);
      std::erase_if(child.foreign_keys, [&](const ForeignKey& k) { return k.name == dropped.second; });
      catalog.ReplaceTableDescription(std::move(child));
    }
    for (const std::string& v : dependent_views) catalog.DropView(v);
    for (const std::string& name : names) {
      if (stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE) {
        std::vector<std::string> owned;
        for (const CatalogColumn& c : catalog.FindTable(name)->columns)
          if (!c.owned_sequence.empty()) owned.push_back(c.owned_sequence);
        catalog.DropTable(name);
        for (const std::string& s : owned) catalog.DropSequence(s);
      } else {
        catalog.DropSequence(name);
      }
    }
  });
  return out;
}

}  // namespace

bool IsDdl(const PgQuery__Node* stmt) {
  switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_CREATE_STMT:
    case PG_QUERY__NODE__NODE_INDEX_STMT:
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT:
    case PG_QUERY__NODE__NODE_COMMENT_STMT:
    case PG_QUERY__NODE__NODE_VIEW_STMT:
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
    case PG_QUERY__NODE__NODE_RENAME_STMT:
    case PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT:
    case PG_QUERY__NODE__NODE_GRANT_STMT:
    case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT:
    case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT:
    case PG_QUERY__NODE__NODE_ALTER_ENUM_STMT:
    case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT:
    case PG_QUERY__NODE__NODE_COMPOSITE_TYPE_STMT:
    case PG_QUERY__NODE__NODE_CREATE_TRIG_STMT:
    case PG_QUERY__NODE__NODE_DROP_STMT: return true;
    default: return false;
  }
}

namespace {

DdlOutcome Dispatch(const PgQuery__Node* stmt, Catalog& catalog, engine::Engine& engine, std::string_view statement_text,
                    int statement_location, const DdlOptions& options) {
  switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT:
      if (ReturnsTrigger(stmt->create_function_stmt))
        return CreateTriggerFunction(stmt->create_function_stmt, statement_text, catalog, engine);
      return CreateProcedure(stmt->create_function_stmt, statement_text, statement_location, catalog, engine,
                             options.check_function_bodies);
    case PG_QUERY__NODE__NODE_CREATE_STMT: return CreateTable(stmt->create_stmt, catalog, engine);
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT: return AlterTable(stmt->alter_table_stmt, catalog, engine);
    case PG_QUERY__NODE__NODE_RENAME_STMT:
      if (stmt->rename_stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_TYPE)
        return RenameType(stmt->rename_stmt, catalog, engine);
      return Rename(stmt->rename_stmt, catalog, engine);
    case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT: return CreateEnum(stmt->create_enum_stmt, catalog, engine);
    case PG_QUERY__NODE__NODE_ALTER_ENUM_STMT: return AlterEnum(stmt->alter_enum_stmt, catalog, engine);
    case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT: return CreateDomain(stmt->create_domain_stmt, catalog, engine);
    case PG_QUERY__NODE__NODE_COMPOSITE_TYPE_STMT: return CreateComposite(stmt->composite_type_stmt, catalog, engine);
    case PG_QUERY__NODE__NODE_CREATE_TRIG_STMT: return CreateTrigger(stmt->create_trig_stmt, statement_text, statement_location, catalog, engine);
    case PG_QUERY__NODE__NODE_VIEW_STMT: return CreateView(stmt->view_stmt, statement_text, statement_location, catalog, engine);
    case PG_QUERY__NODE__NODE_INDEX_STMT: return CreateIndex(stmt->index_stmt, statement_text, catalog, engine);
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT: return CreateSequence(stmt->create_seq_stmt, catalog, engine);
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT: return AlterSequence(stmt->alter_seq_stmt, catalog, engine);
    case PG_QUERY__NODE__NODE_COMMENT_STMT: return Comment(stmt->comment_stmt, catalog);
    case PG_QUERY__NODE__NODE_GRANT_STMT: return AcceptGrant(stmt->grant_stmt, catalog);
    case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT: return AcceptOwnerChange(stmt->alter_owner_stmt, catalog);
    case PG_QUERY__NODE__NODE_DROP_STMT:
      switch (stmt->drop_stmt->remove_type) {
        case PG_QUERY__OBJECT_TYPE__OBJECT_FUNCTION:
        case PG_QUERY__OBJECT_TYPE__OBJECT_PROCEDURE:
        case PG_QUERY__OBJECT_TYPE__OBJECT_ROUTINE: return DropProcedures(stmt->drop_stmt, catalog, engine);
        case PG_QUERY__OBJECT_TYPE__OBJECT_TYPE: return DropTypes(stmt->drop_stmt, catalog, engine);
        case PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN: return DropDomains(stmt->drop_stmt, catalog, engine);
        case PG_QUERY__OBJECT_TYPE__OBJECT_TRIGGER: return DropTriggers(stmt->drop_stmt, catalog, engine);
        default: return Drop(stmt->drop_stmt, catalog, engine);
      }
    default: throw SqlError(sqlstate::kInternalError, "not a DDL statement");
  }
}

}  // namespace

DdlOutcome ExecuteDdl(const PgQuery__Node* stmt, Catalog& catalog, engine::Engine& engine, std::string_view statement_text,
                      int statement_location, const DdlOptions& options) {
  DdlOutcome out = Dispatch(stmt, catalog, engine, statement_text, statement_location, options);
  // What the statement created may be what a routine created earlier was waiting for.
  if (!catalog.PendingRoutines().empty()) BindPendingRoutines(catalog, engine);
  return out;
}

}  // namespace caracal::planner
