#include "planner/exec/describe.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <regex>

#include "planner/plan/procedure_ir.h"
#include "planner/catalog/system_views.h"

namespace caracal::planner {

namespace {


// One psql pattern part as a regular expression: letters folded outside quotes,
// * -> .*, ? -> ., "..." literal, other regular-expression characters kept (psql does).
std::string PatternRegex(const std::string& part) {
  std::string re;
  bool quoted = false;
  for (size_t i = 0; i < part.size(); ++i) {
    char c = part[i];
    if (c == '"') {
      if (quoted && i + 1 < part.size() && part[i + 1] == '"') {
        re += "\"";
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (quoted) {
      if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) re += '\\';
      re += c;
    } else if (c == '*') {
      re += ".*";
    } else if (c == '?') {
      re += '.';
    } else if (c == '$' || c == '.') {
      re += '\\';
      re += c;
    } else {
      re += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return re;
}

bool RegexMatches(const std::string& re, const std::string& s) {
  try {
    return std::regex_match(s, std::regex(re));
  } catch (const std::regex_error&) {
    return false;
  }
}

std::string TypeText(const SqlType& t) { return t.Name(); }

// A column DEFAULT as \d shows it: constants as PostgreSQL prints them.
}  // namespace

std::string ColumnDefaultText(const CatalogColumn& c) {
  if (!c.default_expr) return "";
  const Expr* e = c.default_expr.get();
  while (e->kind == ExprKind::kCast && e->args.size() == 1 && e->args[0]->kind == ExprKind::kConst)
    e = e->args[0].get();
  if (e->kind == ExprKind::kConst) {
    if (e->value.is_null()) return "NULL::" + c.type.Name();
    std::string text = DatumToText(e->value, e->type.is_unknown() ? c.type : e->type);
    if (e->type.id == TypeId::kBool) return text == "t" ? "true" : "false";
    if (e->type.is_numeric_category()) {
      if (e->type.is_numeric_category() && !text.empty() && text[0] == '-') return "'" + text + "'::" + e->type.Name();
      return text;
    }
    std::string quoted = "'";
    for (char ch : text) quoted += ch == '\'' ? std::string("''") : std::string(1, ch);
    return quoted + "'::" + c.type.BaseName();
  }
  // now() and its casts, as PostgreSQL prints the SQL-standard spellings.
  auto is_now = [](const Expr& x) { return x.kind == ExprKind::kFunc && x.func == Func::kNow; };
  if (is_now(*e)) return "now()";
  if (e->kind == ExprKind::kCast && e->args.size() == 1 && is_now(*e->args[0])) {
    switch (e->type.id) {
      case TypeId::kDate: return "CURRENT_DATE";
      case TypeId::kTimestamp: return "LOCALTIMESTAMP";
      case TypeId::kTime: return "LOCALTIME";
      default: break;
    }
  }
  return e->DebugString();
}

namespace {

std::string ColumnList(const TableInfo& t, const std::vector<int>& cols) {
  std::string s;
  for (size_t i = 0; i < cols.size(); ++i) s += (i ? ", " : "") + t.columns[cols[i]].name;
  return s;
}

TextTable Listing(std::string title, std::vector<std::string> headers) {
  TextTable t;
  t.title = std::move(title);
  t.right_aligned.assign(headers.size(), false);
  t.headers = std::move(headers);
  return t;
}

// The system views (planner/exec/system_views.h), listed by \dv and described by \d NAME.
const char* const kSystemViews[] = {"caracal_stat_durability", "caracal_write_sets"};

struct Relation {
  std::string name;
  char kind;            // 't' table, 'i' index, 's' sequence, 'v' system view
  std::string table;    // indexes: their table
  const TableInfo* info = nullptr;
  const IndexInfo* index = nullptr;  // null for a primary key index
  const SequenceInfo* sequence = nullptr;
};

// Every relation, by name: tables, their primary-key indexes (t_pkey, as PostgreSQL
// names them), secondary indexes and sequences.
std::vector<Relation> AllRelations(const Catalog& catalog) {
  std::vector<Relation> out;
  for (const TableInfo* t : catalog.Tables()) {
    out.push_back({t->name, 't', "", t});
    if (!t->primary_key.empty()) out.push_back({t->name + "_pkey", 'i', t->name, t});
    for (const std::string& index : t->indexes) out.push_back({index, 'i', t->name, t, catalog.FindIndex(index)});
  }
  for (const SequenceInfo* s : catalog.Sequences()) out.push_back({s->name, 's', "", nullptr, nullptr, s});
  for (const char* v : kSystemViews)
    if (const TableInfo* view = FindSystemView(v)) out.push_back({v, 'v', "", view});
  std::sort(out.begin(), out.end(), [](const Relation& a, const Relation& b) { return a.name < b.name; });
  return out;
}

const char* KindName(char kind) {
  return kind == 't' ? "table" : kind == 'i' ? "index" : kind == 'v' ? "view" : "sequence";
}

const char* SchemaOf(char kind) { return kind == 'v' ? "pg_catalog" : "public"; }

TextTable DescribeTable(const Catalog& catalog, const TableInfo& t, bool view = false) {
  TextTable out = Listing(view ? fmt::format("View \"pg_catalog.{}\"", t.name) : fmt::format("Table \"public.{}\"", t.name),
                           {"Column", "Type", "Collation", "Nullable", "Default"});
  for (const CatalogColumn& c : t.columns)
    out.rows.push_back({c.name, TypeText(c.type), "", c.not_null ? "not null" : "", ColumnDefaultText(c)});
  out.default_footer = false;
  if (view) return out;
  std::vector<std::string> indexes;
  if (!t.primary_key.empty())
    indexes.push_back(fmt::format("    \"{}_pkey\" PRIMARY KEY, ordered ({})", t.name, ColumnList(t, t.primary_key)));
  for (const std::string& name : t.indexes)
    if (const IndexInfo* ix = catalog.FindIndex(name))
      indexes.push_back(fmt::format("    \"{}\" ordered ({})", name, ColumnList(t, ix->columns)));
  if (!indexes.empty()) {
    out.footers.push_back("Indexes:");
    out.footers.insert(out.footers.end(), indexes.begin(), indexes.end());
  }
  std::vector<std::string> users = catalog.ProceduresUsing(t);
  if (!users.empty()) {
    out.footers.push_back("Used by procedures:");
    for (const std::string& u : users) out.footers.push_back("    " + u);
  }
  out.default_footer = false;
  return out;
}

TextTable DescribeIndex(const Relation& r) {
  const TableInfo& t = *r.info;
  TextTable out = Listing(fmt::format("Index \"public.{}\"", r.name), {"Column", "Type", "Key?", "Definition"});
  const std::vector<int>& cols = r.index ? r.index->columns : t.primary_key;
  for (int c : cols) out.rows.push_back({t.columns[c].name, TypeText(t.columns[c].type), "yes", t.columns[c].name});
  out.footers.push_back(fmt::format("{}ordered, for table \"public.{}\"", r.index ? "" : "primary key, ", t.name));
  return out;
}

TextTable DescribeSequence(const SequenceInfo& s) {
  TextTable out = Listing(fmt::format("Sequence \"public.{}\"", s.name),
                           {"Type", "Start", "Minimum", "Maximum", "Increment", "Cycles?", "Cache"});
  out.right_aligned = {false, true, true, true, true, false, true};
  bool up = s.increment > 0;
  out.rows.push_back({"bigint", std::to_string(s.start), up ? "1" : std::to_string(LLONG_MIN),
                      up ? std::to_string(LLONG_MAX) : "-1", std::to_string(s.increment), "no", "1"});
  out.default_footer = false;
  return out;
}

}  // namespace

std::string FunctionArgumentTypes(const ProcedureIr& ir) {
  std::string s;
  for (int i = 0; i < static_cast<int>(ir.variables.size()); ++i) {
    const Variable& v = ir.variables[i];
    bool inout = v.kind == VariableKind::kParameter &&
                 std::find(ir.out_variables.begin(), ir.out_variables.end(), i) != ir.out_variables.end();
    std::string mode;
    if (v.kind == VariableKind::kOutParameter) {
      // RETURNS TABLE columns are OUT parameters inside, but psql lists them as the
      // result type only.
      if (ir.returns == ProcedureIr::Returns::kTable) continue;
      mode = "OUT ";
    }
    else if (inout) mode = "INOUT ";
    else if (v.kind == VariableKind::kParameter) mode = ir.kind == ProcedureIr::Kind::kProcedure ? "IN " : "";
    else continue;
    s += (s.empty() ? "" : ", ") + mode + v.name + (v.name.empty() ? "" : " ") + v.type.Base().Name();
  }
  return s;
}

std::string FunctionResultType(const ProcedureIr& ir) {
  if (ir.kind == ProcedureIr::Kind::kProcedure) return "";
  switch (ir.returns) {
    case ProcedureIr::Returns::kVoid: return "void";
    case ProcedureIr::Returns::kTable: {
      std::string cols;
      for (const auto& c : ir.result_columns) cols += (cols.empty() ? "" : ", ") + c.name + " " + c.type.Base().Name();
      return "TABLE(" + cols + ")";
    }
    case ProcedureIr::Returns::kSetOf:
      return "SETOF " + (ir.result_columns.size() == 1 ? ir.result_columns[0].type.Base().Name() : std::string("record"));
    case ProcedureIr::Returns::kScalar:
      if (ir.result_columns.size() == 1 && ir.out_variables.size() <= 1) return ir.result_columns[0].type.Base().Name();
      return "record";
  }
  return "";
}


NamePattern::NamePattern(const std::optional<std::string>& pattern, bool dotted_names) {
  if (!pattern) return;
  text_ = *pattern;
  // An unquoted '.' separates the schema pattern from the name pattern.
  bool quoted = false;
  size_t dot = std::string::npos;
  for (size_t i = 0; i < pattern->size(); ++i) {
    if ((*pattern)[i] == '"') quoted = !quoted;
    else if ((*pattern)[i] == '.' && !quoted && !dotted_names) dot = i;
  }
  if (dot != std::string::npos) {
    schema_ = PatternRegex(pattern->substr(0, dot));
    pattern_ = PatternRegex(pattern->substr(dot + 1));
  } else {
    pattern_ = PatternRegex(*pattern);
  }
  if (pattern_->empty()) pattern_ = ".*";
}

bool NamePattern::Matches(const std::string& name, const std::string& schema) const {
  if (!pattern_) return true;
  if (schema_ && !schema_->empty() && !RegexMatches(*schema_, schema)) return false;
  return RegexMatches(*pattern_, name);
}

DescribeResult ListRelations(const Catalog& catalog, const std::string& kinds, const NamePattern& pattern) {
  DescribeResult result;
  bool with_indexes = kinds.find('i') != std::string::npos;
  std::vector<std::string> headers = {"Schema", "Name", "Type"};
  if (with_indexes) headers.push_back("Table");
  TextTable t = Listing("List of relations", headers);
  for (const Relation& r : AllRelations(catalog)) {
    if (kinds.find(r.kind) == std::string::npos || !pattern.Matches(r.name, SchemaOf(r.kind))) continue;
    std::vector<std::string> row = {SchemaOf(r.kind), r.name, KindName(r.kind)};
    if (with_indexes) row.push_back(r.table);
    t.rows.push_back(std::move(row));
  }
  if (t.rows.empty()) {
    result.error = pattern.empty() ? "Did not find any relations."
                                   : fmt::format("Did not find any relation named \"{}\".", pattern.text());
    return result;
  }
  result.tables.push_back(std::move(t));
  return result;
}

DescribeResult DescribeRelations(const Catalog& catalog, const NamePattern& pattern) {
  DescribeResult result;
  for (const Relation& r : AllRelations(catalog)) {
    if (!pattern.Matches(r.name, SchemaOf(r.kind))) continue;
    if (r.kind == 't' || r.kind == 'v') result.tables.push_back(DescribeTable(catalog, *r.info, r.kind == 'v'));
    else if (r.kind == 'i') result.tables.push_back(DescribeIndex(r));
    else result.tables.push_back(DescribeSequence(*r.sequence));
  }
  if (result.tables.empty()) result.error = fmt::format("Did not find any relation named \"{}\".", pattern.text());
  return result;
}

DescribeResult ListFunctions(const Catalog& catalog, const NamePattern& pattern) {
  DescribeResult result;
  TextTable t = Listing("List of functions", {"Schema", "Name", "Result data type", "Argument data types", "Type"});
  for (const auto& ir : catalog.Procedures()) {
    if (!pattern.Matches(ir->name)) continue;
    t.rows.push_back({"public", ir->name, FunctionResultType(*ir), FunctionArgumentTypes(*ir),
                      ir->kind == ProcedureIr::Kind::kProcedure ? "proc" : "func"});
  }
  result.tables.push_back(std::move(t));
  return result;
}

DescribeResult FunctionSource(const Catalog& catalog, const std::string& name, bool line_numbers, std::string& source) {
  DescribeResult result;
  std::string base = name;
  if (size_t paren = base.find('('); paren != std::string::npos) base = base.substr(0, paren);
  while (!base.empty() && std::isspace(static_cast<unsigned char>(base.back()))) base.pop_back();
  if (base.rfind("public.", 0) == 0) base = base.substr(7);
  auto found = catalog.FindProcedures(base);
  if (found.empty()) {
    result.error = fmt::format("function \"{}\" does not exist", name);
    return result;
  }
  std::string text = found.front()->source;
  if (!text.empty() && text.back() == ';') text.pop_back();
  if (text.empty() || text.back() != '\n') text += '\n';
  if (!line_numbers) {
    source = text;
    return result;
  }
  // Body lines are numbered from the line that opens the body, as PL/pgSQL counts them.
  size_t body = text.find('$');
  int body_line = body == std::string::npos ? 1 : 1 + static_cast<int>(std::count(text.begin(), text.begin() + body, '\n'));
  int line = 1;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string l = text.substr(start, end - start);
    source += line < body_line ? std::string(8, ' ') + l : fmt::format("{:<8}{}", line - body_line + 1, l);
    source += '\n';
    start = end + 1;
    ++line;
  }
  return result;
}

}  // namespace caracal::planner
