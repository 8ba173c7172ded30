#include "planner/exec/sequence_ddl.h"

#include <fmt/format.h>

#include <limits>
#include <set>
#include <string_view>

#include "planner/binder/type_name.h"
#include "planner/parser/pg_nodes.h"
#include "planner/parser/qualified_name.h"
#include "planner/types/datum.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

struct TypeRange {
  int64_t min, max;
};

TypeRange RangeOf(TypeId type) {
  switch (type) {
    case TypeId::kInt2: return {std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max()};
    case TypeId::kInt4: return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    default: return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

const char* TypeText(TypeId type) {
  return type == TypeId::kInt2 ? "smallint" : type == TypeId::kInt4 ? "integer" : "bigint";
}

int64_t IntOption(const PgQuery__DefElem* d) {
  const PgQuery__Node* arg = d->arg;
  if (arg && arg->node_case == PG_QUERY__NODE__NODE_INTEGER) return arg->integer->ival;
  if (arg && arg->node_case == PG_QUERY__NODE__NODE_FLOAT) {
    // Beyond int32 the parser keeps the digits as text.
    Datum v = DatumFromText(arg->float_->fval, SqlType::Of(TypeId::kInt8));
    return v.i;
  }
  throw SqlError(sqlstate::kSyntaxError, fmt::format("{} requires a numeric value", d->defname), d->location);
}

SqlError InvalidValue(std::string message) { return SqlError(sqlstate::kInvalidParameterValue, std::move(message)); }

std::vector<std::string> OwnedByNames(const PgQuery__DefElem* d) {
  const PgQuery__Node* arg = d->arg;
  if (arg == nullptr || arg->node_case != PG_QUERY__NODE__NODE_LIST)
    throw SqlError(sqlstate::kSyntaxError, "invalid OWNED BY option", d->location);
  return NameList(arg->list->items, arg->list->n_items);
}

}  // namespace

SequenceOptions ParseSequenceOptions(PgQuery__Node* const* options, size_t n, const SequenceInfo* altering,
                                     TypeId type) {
  SequenceOptions out;
  if (altering) out.definition = *altering;
  SequenceInfo& seq = out.definition;
  const TypeId old_type = altering ? altering->type : type;
  std::optional<TypeId> as;
  std::optional<int64_t> increment, start, cache;
  std::optional<std::optional<int64_t>> min, max;  // set: mentioned; inner nullopt: NO MINVALUE / NO MAXVALUE
  std::optional<bool> cycle;
  bool restart_given = false;
  std::optional<int64_t> restart_value;
  std::set<std::string, std::less<>> seen;
  for (size_t i = 0; i < n; ++i) {
    const PgQuery__DefElem* d = options[i]->def_elem;
    const std::string_view opt = d->defname;
    if (!seen.insert(std::string(opt)).second)
      throw SqlError(sqlstate::kSyntaxError, "conflicting or redundant options", d->location);
    if (opt == "as") {
      const SqlType t = ResolveTypeName(d->arg->type_name, nullptr);
      if (!t.is_integer()) throw InvalidValue("sequence type must be smallint, integer, or bigint");
      as = t.id;
    } else if (opt == "increment") {
      increment = IntOption(d);
    } else if (opt == "start") {
      start = IntOption(d);
    } else if (opt == "restart") {
      restart_given = true;
      if (d->arg) restart_value = IntOption(d);
    } else if (opt == "minvalue") {
      min = d->arg ? std::optional<int64_t>(IntOption(d)) : std::nullopt;
    } else if (opt == "maxvalue") {
      max = d->arg ? std::optional<int64_t>(IntOption(d)) : std::nullopt;
    } else if (opt == "cache") {
      cache = IntOption(d);
    } else if (opt == "cycle") {
      cycle = d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN ? d->arg->boolean->boolval
              : d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER ? d->arg->integer->ival != 0
                                                                              : true;
    } else if (opt == "owned_by") {
      std::vector<std::string> names = OwnedByNames(d);
      if (names.size() == 1 && names[0] == "none") {
        out.owned_by.emplace();
      } else {
        if (names.size() < 2)
          throw SqlError(sqlstate::kSyntaxError, fmt::format("invalid OWNED BY option"))
              .WithHint("Specify OWNED BY table.column or OWNED BY NONE.");
        if (names.size() > 3 || (names.size() == 3 && names[0] != "public"))
          throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", names[0]));
        out.owned_by.emplace(names[names.size() - 2], names.back());
      }
    } else if (opt == "sequence_name") {
      std::vector<std::string> names = OwnedByNames(d);
      if (names.size() > 1 && names[0] != "public")
        throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", names[0]));
      out.sequence_name = names.back();
    } else {
      throw SqlError(sqlstate::kSyntaxError, fmt::format("option \"{}\" not recognized", opt), d->location);
    }
  }
  seq.type = as.value_or(old_type);
  if (increment) {
    if (*increment == 0) throw InvalidValue("INCREMENT must not be zero");
    seq.increment = *increment;
  } else if (!altering) {
    seq.increment = 1;
  }
  const TypeRange range = RangeOf(seq.type), old_range = RangeOf(old_type);
  const bool up = seq.increment > 0;
  // A bound left to its default follows the type (and, going down, the sign), as in
  // PostgreSQL: also when ALTER changes AS and the old bound was the old type's.
  if (max.has_value() ? !max->has_value() : (!altering || (as && seq.max == old_range.max)))
    seq.max = up ? range.max : -1;
  else if (max && max->has_value())
    seq.max = **max;
  if (min.has_value() ? !min->has_value() : (!altering || (as && seq.min == old_range.min)))
    seq.min = up ? 1 : range.min;
  else if (min && min->has_value())
    seq.min = **min;
  if (seq.max < range.min || seq.max > range.max)
    throw InvalidValue(fmt::format("MAXVALUE ({}) is out of range for sequence data type {}", seq.max, TypeText(seq.type)));
  if (seq.min < range.min || seq.min > range.max)
    throw InvalidValue(fmt::format("MINVALUE ({}) is out of range for sequence data type {}", seq.min, TypeText(seq.type)));
  if (seq.min >= seq.max)
    throw InvalidValue(fmt::format("MINVALUE ({}) must be less than MAXVALUE ({})", seq.min, seq.max));
  if (start)
    seq.start = *start;
  else if (!altering)
    seq.start = up ? seq.min : seq.max;
  if (seq.start < seq.min)
    throw InvalidValue(fmt::format("START value ({}) cannot be less than MINVALUE ({})", seq.start, seq.min));
  if (seq.start > seq.max)
    throw InvalidValue(fmt::format("START value ({}) cannot be greater than MAXVALUE ({})", seq.start, seq.max));
  if (restart_given) {
    // CREATE takes it too: where the new sequence starts drawing (START stays what
    // a later RESTART returns to).
    out.restart = restart_value.value_or(seq.start);
    if (*out.restart < seq.min)
      throw InvalidValue(fmt::format("RESTART value ({}) cannot be less than MINVALUE ({})", *out.restart, seq.min));
    if (*out.restart > seq.max)
      throw InvalidValue(fmt::format("RESTART value ({}) cannot be greater than MAXVALUE ({})", *out.restart, seq.max));
  }
  if (cache) {
    if (*cache <= 0) throw InvalidValue(fmt::format("CACHE ({}) must be greater than zero", *cache));
    seq.cache = *cache;
  }
  if (cycle) seq.cycle = *cycle;
  return out;
}

void SetSequenceOwner(Catalog& catalog, const std::string& sequence, const std::string& table, const std::string& column) {
  // Whichever column owned it before no longer does.
  for (const TableInfo* t : catalog.Tables()) {
    for (const CatalogColumn& c : t->columns) {
      if (c.owned_sequence != sequence || (t->name == table && c.name == column)) continue;
      TableInfo changed = *t;
      changed.columns[static_cast<size_t>(changed.ColumnIndex(c.name))].owned_sequence.clear();
      catalog.ReplaceTableDescription(std::move(changed));
      break;
    }
  }
  if (table.empty()) return;
  TableInfo changed = *catalog.FindTable(table);
  changed.columns[static_cast<size_t>(changed.ColumnIndex(column))].owned_sequence = sequence;
  catalog.ReplaceTableDescription(std::move(changed));
}

namespace {

// OWNED BY's table and column must exist (and the column not own another sequence).
void CheckOwner(const Catalog& catalog, const std::string& sequence, const std::pair<std::string, std::string>& owner) {
  if (owner.first.empty()) return;
  const TableInfo* table = catalog.FindTable(owner.first);
  if (table == nullptr) {
    if (catalog.RelationExists(owner.first))
      throw SqlError("42809",
                     fmt::format("sequence cannot be owned by relation \"{}\"", owner.first))
          .WithDetail("This operation is not supported for this kind of relation.");
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", owner.first));
  }
  const int c = table->ColumnIndex(owner.second);
  if (c < 0)
    throw SqlError(sqlstate::kUndefinedColumn,
                   fmt::format("column \"{}\" of relation \"{}\" does not exist", owner.second, owner.first));
  const CatalogColumn& col = table->columns[static_cast<size_t>(c)];
  if (!col.owned_sequence.empty() && col.owned_sequence != sequence)
    throw SqlError(sqlstate::kFeatureNotSupported,
                   fmt::format("column \"{}\" of relation \"{}\" already owns sequence \"{}\"", owner.second, owner.first,
                               col.owned_sequence))
        .WithHint("A column owns at most one sequence here.");
}

}  // namespace

DdlOutcome CreateSequence(const PgQuery__CreateSeqStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  std::string name = RangeVarRelationName(stmt->sequence);
  SequenceOptions options = ParseSequenceOptions(stmt->options, stmt->n_options, nullptr);
  if (catalog.RelationExists(name)) {
    if (stmt->if_not_exists) return {"CREATE SEQUENCE", {fmt::format("relation \"{}\" already exists, skipping", name)}, nullptr};
    throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", name));
  }
  if (options.owned_by) CheckOwner(catalog, name, *options.owned_by);
  options.definition.name = name;
  engine.RunExclusive([&] {
    const SequenceInfo& created = catalog.CreateSequence(options.definition);
    if (options.restart) catalog.AlterSequence(created, options.restart);
    if (options.owned_by) SetSequenceOwner(catalog, name, options.owned_by->first, options.owned_by->second);
  });
  return {"CREATE SEQUENCE", {}, nullptr};
}

DdlOutcome AlterSequence(const PgQuery__AlterSeqStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  const std::string name = RangeVarRelationName(stmt->sequence);
  const SequenceInfo* current = catalog.FindSequence(name);
  if (current == nullptr) {
    if (stmt->missing_ok) return {"ALTER SEQUENCE", {fmt::format("relation \"{}\" does not exist, skipping", name)}, nullptr};
    if (catalog.RelationExists(name))
      throw SqlError("42809", fmt::format("\"{}\" is not a sequence", name));
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", name));
  }
  SequenceOptions options = ParseSequenceOptions(stmt->options, stmt->n_options, current);
  if (options.sequence_name) throw SqlError(sqlstate::kSyntaxError, "option \"sequence_name\" not recognized");
  if (!options.restart) {
    // New bounds must hold the sequence's current value, as PostgreSQL checks it.
    const int64_t last = engine.database().sequences().CurrVal(current->engine_name);
    const SequenceInfo& d = options.definition;
    if (last < d.min)
      throw SqlError(sqlstate::kInvalidParameterValue,
                     fmt::format("RESTART value ({}) cannot be less than MINVALUE ({})", last, d.min));
    if (last > d.max)
      throw SqlError(sqlstate::kInvalidParameterValue,
                     fmt::format("RESTART value ({}) cannot be greater than MAXVALUE ({})", last, d.max));
  }
  if (options.owned_by) CheckOwner(catalog, name, *options.owned_by);
  engine.RunExclusive([&] {
    catalog.AlterSequence(options.definition, options.restart);
    if (options.owned_by) SetSequenceOwner(catalog, name, options.owned_by->first, options.owned_by->second);
  });
  return {"ALTER SEQUENCE", {}, nullptr};
}

}  // namespace caracal::planner
