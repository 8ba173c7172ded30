// psql 15's describe queries, recognised by fragments of their text that only they
// contain, and answered from the catalog. Every relation is in schema "public" and owned
// by the connected user; OIDs are made up (a hash of the relation's kind and name, so
// they stay the same between the several queries of one \d). Tables have a primary-key
// index "<table>_pkey"; there are no check constraints, triggers, policies, statistics,
// publications or inheritance, so those queries answer with no rows.
#include "server/pg_catalog_describe.h"

#include <algorithm>
#include <cstdint>
#include <regex>

#include <fmt/format.h>

#include "planner/exec/describe.h"
#include "planner/exec/foreign_key_ddl.h"
#include "planner/exec/trigger_ddl.h"
#include "planner/plan/procedure_ir.h"
#include "planner/types/sql_error.h"
#include "server/pg_types.h"

namespace caracal::server {

namespace {

using Row = std::vector<std::optional<std::string>>;

uint32_t MakeOid(char kind, const std::string& name) {
  uint32_t h = 2166136261u;
  h = (h ^ static_cast<unsigned char>(kind)) * 16777619u;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return 16384 + h % 1000000000u;
}

struct Relation {
  std::string name;
  char kind;  // 'r' table, 'i' index, 'S' sequence
  uint32_t oid;
  const planner::TableInfo* table = nullptr;  // 'r'; for 'i' the indexed table
  const planner::SequenceInfo* sequence = nullptr;
  std::vector<int> columns;  // 'i': the indexed columns
  bool primary = false;
  bool unique = false;      // 'i': the primary key's, or a UNIQUE index
  bool constraint = false;  // 'i': made by a PRIMARY KEY or UNIQUE constraint
};

std::vector<Relation> Relations(const planner::Catalog& catalog) {
  std::vector<Relation> out;
  for (const planner::TableInfo* t : catalog.Tables()) {
    out.push_back({t->name, 'r', MakeOid('r', t->name), t, nullptr, {}, false});
    if (!t->primary_key.empty()) {
      std::string pkey = t->PrimaryKeyName();
      out.push_back({pkey, 'i', MakeOid('i', pkey), t, nullptr, t->primary_key, true, true, true});
    }
    for (const std::string& index : t->indexes)
      if (const planner::IndexInfo* info = catalog.FindIndex(index))
        out.push_back({index, 'i', MakeOid('i', index), t, nullptr, info->columns, false, info->unique, info->constraint});
  }
  for (const planner::SequenceInfo* s : catalog.Sequences()) out.push_back({s->name, 'S', MakeOid('S', s->name), nullptr, s, {}, false});
  std::sort(out.begin(), out.end(), [](const Relation& a, const Relation& b) { return a.name < b.name; });
  return out;
}

// The quoted literal that follows `marker` in `text` ('' un-doubled), if any.
std::optional<std::string> LiteralAfter(const std::string& text, const std::string& marker) {
  size_t at = text.find(marker);
  if (at == std::string::npos) return std::nullopt;
  size_t q = text.find('\'', at + marker.size());
  if (q == std::string::npos) return std::nullopt;
  std::string value;
  for (size_t i = q + 1; i < text.size(); ++i) {
    if (text[i] == '\'') {
      if (i + 1 < text.size() && text[i + 1] == '\'') {
        value += '\'';
        ++i;
        continue;
      }
      return value;
    }
    value += text[i];
  }
  return std::nullopt;
}

std::optional<uint32_t> OidAfter(const std::string& text, const std::string& marker) {
  std::optional<std::string> v = LiteralAfter(text, marker);
  if (!v || v->empty() || v->find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return static_cast<uint32_t>(std::stoul(*v));
}

// psql's name pattern as the query carries it (OPERATOR(pg_catalog.~) '^(...)$').
bool MatchesPattern(const std::string& text, const std::string& column, const std::string& value) {
  std::optional<std::string> re = LiteralAfter(text, column + " OPERATOR(pg_catalog.~) ");
  if (!re) return true;
  try {
    return std::regex_search(value, std::regex(*re, std::regex::extended));
  } catch (const std::regex_error&) {
    return false;
  }
}

bool Has(const std::string& text, const char* fragment) { return text.find(fragment) != std::string::npos; }

std::string Bool(bool b) { return b ? "t" : "f"; }

const char* KindName(char kind) { return kind == 'r' ? "table" : kind == 'i' ? "index" : "sequence"; }

WireResult Rows(std::vector<std::string> names, std::vector<Row> rows) { return TextRows(std::move(names), std::move(rows)); }

std::string ColumnList(const planner::TableInfo& t, const std::vector<int>& columns) {
  std::string s;
  for (int c : columns) s += (s.empty() ? "" : ", ") + t.columns[c].name;
  return s;
}

std::string IndexDef(const Relation& r) {
  return fmt::format("CREATE {}INDEX {} ON public.{} USING btree ({})", r.unique ? "UNIQUE " : "", r.name, r.table->name,
                     ColumnList(*r.table, r.columns));
}

const Relation* ByOid(const std::vector<Relation>& rels, std::optional<uint32_t> oid) {
  if (!oid) return nullptr;
  for (const Relation& r : rels)
    if (r.oid == *oid) return &r;
  return nullptr;
}

uint32_t ProcedureOid(const planner::ProcedureIr& ir) {
  return MakeOid('p', ir.name + "(" + planner::FunctionArgumentTypes(ir) + ")");
}

// pg_get_functiondef: PostgreSQL's layout of a CREATE OR REPLACE statement.
std::string FunctionDef(const planner::ProcedureIr& ir) {
  bool procedure = ir.kind == planner::ProcedureIr::Kind::kProcedure;
  std::string body;
  static const std::regex kDollar(R"(\$([A-Za-z_][A-Za-z_0-9]*)?\$)");
  std::smatch open;
  if (std::regex_search(ir.source, open, kDollar)) {
    size_t start = open.position(0) + open.length(0);
    size_t end = ir.source.find(open.str(0), start);
    if (end != std::string::npos) body = ir.source.substr(start, end - start);
  }
  std::string tag = procedure ? "$procedure$" : "$function$";
  std::string def = fmt::format("CREATE OR REPLACE {} public.{}({})\n", procedure ? "PROCEDURE" : "FUNCTION", ir.name,
                                planner::FunctionArgumentTypes(ir));
  if (!procedure) def += " RETURNS " + planner::FunctionResultType(ir) + "\n";
  def += " LANGUAGE plpgsql\nAS " + tag + body + tag + "\n";
  return def;
}

}  // namespace

std::optional<WireResult> AnswerDescribeQuery(const std::string& text, CatalogContext& c) {
  return c.shared.With([&](frontend::Session& session) -> std::optional<WireResult> {
    const planner::Catalog& catalog = session.catalog();
    std::vector<Relation> rels = Relations(catalog);

    // \d NAME, first step: which relations the pattern names.
    if (Has(text, "SELECT c.oid,\n  n.nspname,\n  c.relname\nFROM pg_catalog.pg_class c")) {
      std::vector<Row> rows;
      for (const Relation& r : rels)
        if (MatchesPattern(text, "c.relname", r.name) && MatchesPattern(text, "n.nspname", "public"))
          rows.push_back({std::to_string(r.oid), "public", r.name});
      return Rows({"oid", "nspname", "relname"}, std::move(rows));
    }
    // \d NAME: the relation's flags.
    if (Has(text, "SELECT c.relchecks, c.relkind, c.relhasindex")) {
      std::vector<Row> rows;
      if (const Relation* r = ByOid(rels, OidAfter(text, "WHERE c.oid = "))) {
        std::optional<std::string> am = r->kind == 'r' ? "heap" : r->kind == 'i' ? "btree" : std::optional<std::string>();
        // PostgreSQL's foreign keys are triggers too: psql asks about them only then.
        const bool triggers = r->kind == 'r' && (!r->table->triggers.empty() || !r->table->foreign_keys.empty() ||
                                                 !r->table->referenced_by.empty());
        rows.push_back({"0", std::string(1, r->kind), Bool(r->kind == 'r'), "f", Bool(triggers), "f", "f", "f", "f", "", "0", "",
                        "p", "d", am});
      }
      return Rows({"relchecks", "relkind", "relhasindex", "relhasrules", "relhastriggers", "relrowsecurity",
                   "relforcerowsecurity", "relhasoids", "relispartition", "?column?", "reltablespace", "reloftype",
                   "relpersistence", "relreplident", "amname"},
                  std::move(rows));
    }
    // \d TABLE: columns.
    if (Has(text, "FROM pg_catalog.pg_attribute a") && Has(text, "a.attgenerated")) {
      std::vector<Row> rows;
      const Relation* r = ByOid(rels, OidAfter(text, "a.attrelid = "));
      if (r && r->kind == 'r')
        for (const planner::CatalogColumn& col : r->table->columns) {
          std::string def = col.generated ? planner::GenerationExpressionText(*r->table, col) : planner::ColumnDefaultText(col);
          rows.push_back({col.name, col.type.Name(), def.empty() ? std::nullopt : std::optional<std::string>(def),
                          Bool(col.not_null), std::nullopt, "", col.generated ? "s" : ""});
        }
      return Rows({"attname", "format_type", "pg_get_expr", "attnotnull", "attcollation", "attidentity", "attgenerated"},
                  std::move(rows));
    }
    // \d INDEX: its columns, then its footer.
    if (Has(text, "pg_get_indexdef(a.attrelid, a.attnum, TRUE) AS indexdef")) {
      std::vector<Row> rows;
      const Relation* r = ByOid(rels, OidAfter(text, "a.attrelid = "));
      if (r && r->kind == 'i')
        for (int col : r->columns)
          rows.push_back({r->table->columns[col].name, r->table->columns[col].type.Name(), "yes", r->table->columns[col].name});
      return Rows({"attname", "format_type", "is_key", "indexdef"}, std::move(rows));
    }
    if (Has(text, "SELECT i.indisunique, i.indisprimary")) {
      std::vector<Row> rows;
      const Relation* r = ByOid(rels, OidAfter(text, "c.oid = "));
      if (r && r->kind == 'i')
        rows.push_back({Bool(r->unique), Bool(r->primary), "f", "t", "f", "f", "f", "f", "btree", r->table->name, std::nullopt});
      return Rows({"indisunique", "indisprimary", "indisclustered", "indisvalid", "condeferrable", "condeferred",
                   "indisreplident", "indnullsnotdistinct", "amname", "relname", "pg_get_expr"},
                  std::move(rows));
    }
    // \d TABLE: its indexes.
    if (Has(text, "FROM pg_catalog.pg_class c, pg_catalog.pg_class c2, pg_catalog.pg_index i")) {
      std::vector<Row> rows;
      const Relation* t = ByOid(rels, OidAfter(text, "WHERE c.oid = "));
      std::vector<const Relation*> indexes;
      for (const Relation& r : rels)
        if (t && r.kind == 'i' && r.table == t->table) indexes.push_back(&r);
      std::stable_sort(indexes.begin(), indexes.end(), [](const Relation* a, const Relation* b) {
        return a->primary != b->primary ? a->primary : a->name < b->name;
      });
      for (const Relation* r : indexes) {
        std::optional<std::string> condef, contype;
        if (r->constraint) {
          condef = (r->primary ? "PRIMARY KEY (" : "UNIQUE (") + ColumnList(*r->table, r->columns) + ")";
          contype = r->primary ? "p" : "u";
        }
        rows.push_back({r->name, Bool(r->primary), Bool(r->unique), "f", "t", IndexDef(*r), condef, contype,
                        r->constraint ? std::optional<std::string>("f") : std::nullopt,
                        r->constraint ? std::optional<std::string>("f") : std::nullopt, "f", "0"});
      }
      return Rows({"relname", "indisprimary", "indisunique", "indisclustered", "indisvalid", "pg_get_indexdef",
                   "pg_get_constraintdef", "contype", "condeferrable", "condeferred", "indisreplident", "reltablespace"},
                  std::move(rows));
    }
    // \d SEQUENCE.
    if (Has(text, "FROM pg_catalog.pg_sequence") && Has(text, "seqstart AS \"Start\"")) {
      std::vector<Row> rows;
      const Relation* r = ByOid(rels, OidAfter(text, "seqrelid = "));
      if (r && r->kind == 'S') {
        Row row;
        for (std::string& v : planner::SequenceDescriptionRow(*r->sequence)) row.emplace_back(std::move(v));
        rows.push_back(std::move(row));
      }
      WireResult result = Rows({"Type", "Start", "Minimum", "Maximum", "Increment", "Cycles?", "Cache"}, std::move(rows));
      for (int i : {1, 2, 3, 4, 6}) (*result.columns)[i].type_oid = oid::kInt8;  // right-aligned by psql
      return result;
    }
    // What \d asks that does not exist here: owned-by, policies, statistics,
    // publications, inheritance, partitions.
    if (Has(text, "INNER JOIN pg_catalog.pg_depend d") && Has(text, "d.objid=")) {
      // \d SEQUENCE: the column that owns it.
      std::vector<Row> rows;
      const Relation* r = ByOid(rels, OidAfter(text, "d.objid="));
      if (r && r->kind == 'S')
        if (std::optional<planner::SequenceOwnerColumn> owner = planner::SequenceOwner(catalog, *r->sequence))
          rows.push_back({fmt::format("public.{}.{}", owner->table, owner->column), owner->identity ? "i" : "a"});
      return Rows({"?column?", "deptype"}, std::move(rows));
    }
    if (Has(text, "FROM pg_catalog.pg_depend d") || Has(text, "INNER JOIN pg_catalog.pg_depend d"))
      return Rows({"?column?", "deptype"}, {});
    if (Has(text, "FROM pg_catalog.pg_policy pol"))
      return Rows({"polname", "polpermissive", "array_to_string", "pg_get_expr", "pg_get_expr", "cmd"}, {});
    if (Has(text, "FROM pg_catalog.pg_statistic_ext"))
      return Rows({"oid", "stxrelid", "nsp", "stxname", "columns", "ndist_enabled", "deps_enabled", "mcv_enabled",
                   "stxstattarget"},
                  {});
    if (Has(text, "FROM pg_catalog.pg_publication p")) return Rows({"pubname", "?column?", "?column?"}, {});
    if (Has(text, "pg_catalog.pg_inherits i") && Has(text, "i.inhrelid = '")) return Rows({"oid"}, {});
    if (Has(text, "pg_catalog.pg_inherits i") && Has(text, "i.inhparent = '"))
      return Rows({"oid", "relkind", "inhdetachpending", "pg_get_expr"}, {});
    // \d TABLE: its triggers (psql strips pg_get_triggerdef's text up to "TRIGGER ").
    if (Has(text, "FROM pg_catalog.pg_trigger t") && Has(text, "pg_get_triggerdef")) {
      std::vector<Row> rows;
      const Relation* r = ByOid(rels, OidAfter(text, "t.tgrelid = "));
      if (r && r->kind == 'r')
        for (const planner::TriggerInfo& t : r->table->triggers)
          rows.push_back({t.name, "CREATE TRIGGER " + planner::TriggerDefinition(t, *r->table), t.enabled ? "O" : "D", "f",
                          std::nullopt});
      return Rows({"tgname", "pg_get_triggerdef", "tgenabled", "tgisinternal", "parent"}, std::move(rows));
    }
    // \d TABLE (asked when the table has triggers, as foreign keys are in PostgreSQL):
    // its foreign keys, then the foreign keys referencing it.
    if (Has(text, "FROM pg_catalog.pg_constraint r") && Has(text, "r.contype = 'f'")) {
      std::vector<Row> rows;
      const Relation* r = ByOid(rels, OidAfter(text, "r.conrelid = "));
      if (r && r->kind == 'r')
        for (const planner::ForeignKey& k : r->table->foreign_keys)
          rows.push_back({"t", k.name, planner::ForeignKeyDefinition(*r->table, k), r->table->name});
      std::ranges::sort(rows, {}, [](const Row& row) { return *row[1]; });
      return Rows({"sametable", "conname", "condef", "ontable"}, std::move(rows));
    }
    if (Has(text, "FROM pg_catalog.pg_constraint c") && Has(text, "confrelid IN")) {
      std::vector<Row> rows;
      const Relation* r = ByOid(rels, OidAfter(text, "pg_catalog.pg_partition_ancestors("));
      if (r && r->kind == 'r')
        for (const planner::ReferencingKey& k : r->table->referenced_by)
          rows.push_back({k.key->name, k.table->name, planner::ForeignKeyDefinition(*k.table, *k.key)});
      std::ranges::sort(rows, {}, [](const Row& row) { return *row[0]; });
      return Rows({"conname", "ontable", "condef"}, std::move(rows));
    }
    if (Has(text, "FROM pg_catalog.pg_trigger t") || Has(text, "FROM pg_catalog.pg_constraint r"))
      return Rows({"?column?"}, {});

    // \d, \dt, \di, \ds: the relation listing.
    if (Has(text, "FROM pg_catalog.pg_class c") && Has(text, "c.relkind IN (") && Has(text, "as \"Schema\"")) {
      size_t at = text.find("c.relkind IN (");
      std::string kinds = text.substr(at, text.find(')', at) - at);
      bool with_table = Has(text, "c2.relname as \"Table\"");
      std::vector<Row> rows;
      for (const Relation& r : rels) {
        if (kinds.find(std::string("'") + r.kind + "'") == std::string::npos) continue;
        if (!MatchesPattern(text, "c.relname", r.name) || !MatchesPattern(text, "n.nspname", "public")) continue;
        Row row{"public", r.name, KindName(r.kind), c.user};
        if (with_table) row.push_back(r.kind == 'i' ? std::optional<std::string>(r.table->name) : std::nullopt);
        rows.push_back(std::move(row));
      }
      std::vector<std::string> names{"Schema", "Name", "Type", "Owner"};
      if (with_table) names.push_back("Table");
      return Rows(std::move(names), std::move(rows));
    }
    // \df.
    if (Has(text, "FROM pg_catalog.pg_proc p") && Has(text, "as \"Result data type\"")) {
      std::vector<Row> rows;
      for (const auto& ir : catalog.Procedures()) {
        if (!MatchesPattern(text, "p.proname", ir->name) || !MatchesPattern(text, "n.nspname", "public")) continue;
        bool procedure = ir->kind == planner::ProcedureIr::Kind::kProcedure;
        if (Has(text, "p.prokind = 'p'") && !procedure) continue;
        rows.push_back({"public", ir->name, planner::FunctionResultType(*ir), planner::FunctionArgumentTypes(*ir),
                        procedure ? "proc" : "func"});
      }
      for (const planner::TriggerFunction* f : catalog.TriggerFunctions())
        if (MatchesPattern(text, "p.proname", f->name) && MatchesPattern(text, "n.nspname", "public") &&
            !Has(text, "p.prokind = 'p'"))
          rows.push_back({"public", f->name, "trigger", "", "func"});
      std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return std::tie(*a[1], *a[3]) < std::tie(*b[1], *b[3]);
      });
      return Rows({"Schema", "Name", "Result data type", "Argument data types", "Type"}, std::move(rows));
    }
    // \sf NAME: the function's OID, then its definition.
    if (Has(text, "::pg_catalog.regproc::pg_catalog.oid") || Has(text, "::pg_catalog.regprocedure::pg_catalog.oid")) {
      std::optional<std::string> name = LiteralAfter(text, "SELECT ");
      std::string base = name.value_or("");
      if (size_t paren = base.find('('); paren != std::string::npos) base = base.substr(0, paren);
      if (base.rfind("public.", 0) == 0) base = base.substr(7);
      auto found = catalog.FindProcedures(base);
      if (found.empty())
        throw planner::SqlError("42883", fmt::format("function \"{}\" does not exist", name.value_or("")));
      WireResult r = Rows({"oid"}, {{std::to_string(ProcedureOid(*found.front()))}});
      (*r.columns)[0].type_oid = oid::kOid;
      return r;
    }
    if (Has(text, "pg_catalog.pg_get_functiondef(")) {
      size_t at = text.find("pg_catalog.pg_get_functiondef(") + 30;
      uint32_t want = static_cast<uint32_t>(std::strtoul(text.c_str() + at, nullptr, 10));
      std::vector<Row> rows;
      for (const auto& ir : catalog.Procedures())
        if (ProcedureOid(*ir) == want) rows.push_back({FunctionDef(*ir)});
      return Rows({"pg_get_functiondef"}, std::move(rows));
    }
    // \l.
    if (Has(text, "FROM pg_catalog.pg_database d")) {
      return Rows({"Name", "Owner", "Encoding", "Collate", "Ctype", "ICU Locale", "Locale Provider", "Access privileges"},
                  {{c.database, c.user, "UTF8", "C", "C", std::nullopt, "libc", std::nullopt}});
    }
    return std::nullopt;
  });
}

}  // namespace caracal::server
