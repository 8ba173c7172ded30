#include "planner/exec/copy.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "planner/binder/generated_columns.h"
#include "planner/binder/query_binder.h"
#include "planner/catalog/constraint_errors.h"
#include "planner/catalog/row_identity.h"
#include "planner/exec/query_exec.h"
#include "planner/exec/foreign_keys.h"
#include "planner/exec/snapshot_source.h"
#include "planner/exec/unique_load_check.h"
#include "planner/expr/domain_check.h"
#include "planner/types/domain_type.h"
#include "planner/expr/expr_eval.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/bytes_text.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

// COPY names no generated column (PostgreSQL: 42P10).
void RefuseGeneratedColumn(const CatalogColumn& c) {
  if (c.generated)
    throw SqlError("42P10", fmt::format("column \"{}\" is a generated column", c.name))
        .WithDetail("Generated columns cannot be used in COPY.");
}

// COPY's options: CSV's, or the text format's (PostgreSQL's default: tab-separated,
// backslash escapes, \N for NULL).
struct CopyOptions {
  bool csv = false;
  bool header = false;
  char delimiter = '\t';
  char quote = '"';
  char escape = '"';
  std::string null_string = "\\N";  // a field equal to this (unquoted, before de-escaping) is NULL
};

std::string OptionString(const PgQuery__DefElem* d) {
  const PgQuery__Node* a = d->arg;
  if (!a) return "";
  if (a->node_case == PG_QUERY__NODE__NODE_STRING) return a->string->sval;
  if (a->node_case == PG_QUERY__NODE__NODE_INTEGER) return std::to_string(a->integer->ival);
  if (a->node_case == PG_QUERY__NODE__NODE_BOOLEAN) return a->boolean->boolval ? "true" : "false";
  throw SqlError(sqlstate::kSyntaxError, fmt::format("{} requires a parameter", d->defname), d->location);
}

char OptionChar(const PgQuery__DefElem* d, const char* what) {
  std::string s = OptionString(d);
  if (s.size() != 1)
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("COPY {} must be a single one-byte character", what));
  return s[0];
}

CopyOptions ParseOptions(const PgQuery__CopyStmt* stmt) {
  CopyOptions o;
  bool escape_set = false;
  std::optional<char> delimiter, quote;
  std::optional<std::string> null_string;
  for (size_t i = 0; i < stmt->n_options; ++i) {
    const PgQuery__DefElem* d = stmt->options[i]->def_elem;
    std::string_view name = d->defname;
    if (name == "format") {
      std::string f = OptionString(d);
      if (f == "csv") o.csv = true;
      else if (f == "text") o.csv = false;
      else if (f == "binary") throw NotSupported("COPY format \"binary\"");
      else throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("COPY format \"{}\" not recognized", f), d->location);
    } else if (name == "header") {
      std::string h = d->arg ? OptionString(d) : "true";
      if (h == "match") throw NotSupported("HEADER MATCH");
      o.header = h == "true" || h == "on" || h == "1";
    } else if (name == "delimiter") {
      delimiter = OptionChar(d, "delimiter");
    } else if (name == "null") {
      null_string = OptionString(d);
    } else if (name == "quote") {
      quote = OptionChar(d, "quote");
    } else if (name == "escape") {
      o.escape = OptionChar(d, "escape");
      escape_set = true;
    } else if (name == "encoding") {
      std::string e = OptionString(d);
      if (e != "UTF8" && e != "utf8" && e != "UTF-8" && e != "SQL_ASCII")
        throw NotSupported(fmt::format("COPY encoding \"{}\"", e));
    } else if (name == "freeze") {
      // Rows are visible to every later snapshot once loaded anyway.
    } else {
      throw NotSupported(fmt::format("COPY option \"{}\"", name));
    }
  }
  if (!o.csv && quote) throw SqlError(sqlstate::kFeatureNotSupported, "COPY quote available only in CSV mode");
  if (!o.csv && escape_set) throw SqlError(sqlstate::kFeatureNotSupported, "COPY escape available only in CSV mode");
  if (o.csv) {
    o.delimiter = ',';
    o.null_string.clear();
  }
  if (delimiter) o.delimiter = *delimiter;
  if (quote) o.quote = *quote;
  if (null_string) o.null_string = *null_string;
  if (!o.csv && (o.delimiter == '\\' || o.delimiter == '\n' || o.delimiter == '\r'))
    throw SqlError(sqlstate::kInvalidParameterValue, "COPY delimiter cannot be newline, carriage return or backslash");
  if (!escape_set) o.escape = o.quote;
  return o;
}

struct Field {
  std::string text;
  bool null = false;
};

// Reads one CSV record starting at `pos`; quoted fields may span lines. Returns false at
// end of input. `lines` counts the physical lines consumed.
bool ReadCsvRecord(const std::string& data, size_t& pos, const CopyOptions& o, std::vector<Field>& fields,
                   std::string& raw, int& lines) {
  if (pos >= data.size()) return false;
  // A line `\.` alone (unquoted) ends the data in CSV too.
  if (data.compare(pos, 2, "\\.") == 0 &&
      (pos + 2 == data.size() || data[pos + 2] == '\n' || (data[pos + 2] == '\r'))) {
    pos = data.size();
    return false;
  }
  fields.assign(1, Field{});
  std::vector<bool> quoted(1, false);
  size_t start = pos;
  bool in_quotes = false;
  ++lines;
  auto finish = [&] {
    for (size_t i = 0; i < fields.size(); ++i) fields[i].null = !quoted[i] && fields[i].text == o.null_string;
  };
  while (pos < data.size()) {
    char c = data[pos];
    if (in_quotes) {
      if (c == o.escape && pos + 1 < data.size() && data[pos + 1] == o.quote) {
        fields.back().text += o.quote;  // "" (or the ESCAPE character) quotes a quote
        pos += 2;
        continue;
      }
      if (c == o.quote) {
        in_quotes = false;
        ++pos;
        continue;
      }
      if (c == '\n') ++lines;
      fields.back().text += c;
      ++pos;
      continue;
    }
    if (c == '\n' || c == '\r') {
      raw = data.substr(start, pos - start);
      pos += (c == '\r' && pos + 1 < data.size() && data[pos + 1] == '\n') ? 2 : 1;
      finish();
      return true;
    }
    if (c == o.delimiter) {
      fields.push_back(Field{});
      quoted.push_back(false);
    } else if (c == o.quote) {
      in_quotes = true;
      quoted.back() = true;
    } else {
      fields.back().text += c;
    }
    ++pos;
  }
  raw = data.substr(start, pos - start);
  if (in_quotes) throw SqlError(sqlstate::kBadCopyFileFormat, "unterminated CSV quoted field");
  finish();
  return true;
}

// The text format's backslash sequences: \b \f \n \r \t \v, \ooo (octal), \xhh (hex);
// a backslash before anything else stands for that character.
std::string DeEscape(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c != '\\' || i + 1 >= raw.size()) {
      out += c;
      continue;
    }
    char n = raw[++i];
    switch (n) {
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'x':
        if (i + 1 < raw.size() && HexDigitValue(raw[i + 1]) >= 0) {
          int v = HexDigitValue(raw[++i]);
          if (i + 1 < raw.size() && HexDigitValue(raw[i + 1]) >= 0) v = v * 16 + HexDigitValue(raw[++i]);
          out += static_cast<char>(v);
        } else {
          out += 'x';
        }
        break;
      default:
        if (n >= '0' && n <= '7') {
          int v = n - '0';
          for (int k = 0; k < 2 && i + 1 < raw.size() && raw[i + 1] >= '0' && raw[i + 1] <= '7'; ++k) v = v * 8 + (raw[++i] - '0');
          out += static_cast<char>(v & 0xff);
        } else {
          out += n;
        }
    }
  }
  return out;
}

// Reads one text-format record (one line; `\.` alone ends the data). Returns false at the
// end of the data.
bool ReadTextRecord(const std::string& data, size_t& pos, const CopyOptions& o, std::vector<Field>& fields,
                    std::string& raw, int& lines) {
  if (pos >= data.size()) return false;
  size_t end = data.find('\n', pos);
  if (end == std::string::npos) end = data.size();
  std::string_view line(data.data() + pos, end - pos);
  pos = end < data.size() ? end + 1 : end;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ++lines;
  if (line == "\\.") {
    pos = data.size();
    return false;
  }
  raw = std::string(line);
  fields.clear();
  size_t start = 0;
  for (size_t i = 0; i <= line.size(); ++i) {
    if (i < line.size() && line[i] == '\\') {
      ++i;  // an escaped character, a delimiter too, never ends the field
      continue;
    }
    if (i < line.size() && line[i] != o.delimiter) continue;
    std::string_view f = line.substr(start, i - start);
    fields.push_back(f == o.null_string ? Field{"", true} : Field{DeEscape(f), false});
    start = i + 1;
  }
  return true;
}

bool ReadRecord(const std::string& data, size_t& pos, const CopyOptions& o, std::vector<Field>& fields,
                std::string& raw, int& lines) {
  return o.csv ? ReadCsvRecord(data, pos, o, fields, raw, lines) : ReadTextRecord(data, pos, o, fields, raw, lines);
}

std::string Truncated(std::string_view s) {
  // PostgreSQL's CONTEXT lines show long values abbreviated.
  if (s.size() <= 100) return std::string(s);
  return std::string(s.substr(0, 100)) + "...";
}

// One field as COPY TO writes it: text format escapes backslash, the delimiter and
// control characters (\N for NULL); CSV quotes a field that holds the delimiter, the
// quote, a line break, or that would read as NULL.
void AppendField(std::string& out, const std::optional<std::string>& v, const CopyOptions& o) {
  if (!v) {
    out += o.null_string;
    return;
  }
  if (o.csv) {
    bool quote = v->empty() ? o.null_string.empty() : *v == o.null_string;
    for (char c : *v) quote = quote || c == o.delimiter || c == o.quote || c == '\n' || c == '\r';
    if (!quote) {
      out += *v;
      return;
    }
    out += o.quote;
    for (char c : *v) {
      if (c == o.quote || c == o.escape) out += o.escape;
      out += c;
    }
    out += o.quote;
    return;
  }
  for (char c : *v) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\v': out += "\\v"; break;
      default:
        if (c == o.delimiter) out += '\\';
        out += c;
    }
  }
}

}  // namespace

CopyOutput CopyTo(const PgQuery__CopyStmt* stmt, const Catalog& catalog, engine::Database& db,
                  const TableRowEstimator& estimate) {
  if (stmt->is_program) throw NotSupported("COPY TO PROGRAM");
  CopyOptions options = ParseOptions(stmt);
  // The rows: the query's, or the table's (its columns, or the list's) as a SELECT would give them.
  std::optional<PgParse> parsed;
  const PgQuery__SelectStmt* select = nullptr;
  if (stmt->relation) {
    const std::string table_name = stmt->relation->relname;
    if (catalog.FindTable(table_name) == nullptr && catalog.FindView(table_name) != nullptr)
      throw SqlError("42809", fmt::format("cannot copy from view \"{}\"", table_name))
          .WithHint("Try the COPY (SELECT ...) TO variant.");
    std::string columns;
    const TableInfo* table = catalog.FindTable(table_name);
    for (size_t i = 0; i < stmt->n_attlist; ++i) {
      const std::string name = StringValue(stmt->attlist[i]);
      if (const int c = table ? table->ColumnIndex(name) : -1; c >= 0) RefuseGeneratedColumn(table->columns[static_cast<size_t>(c)]);
      columns += (i ? ", " : "") + QuotedIdentifier(name);
    }
    // Without a list: every column but the generated ones, as PostgreSQL copies them.
    if (columns.empty() && table && HasGeneratedColumns(*table))
      for (const CatalogColumn& c : table->columns)
        if (!c.generated) columns += (columns.empty() ? "" : ", ") + QuotedIdentifier(c.name);
    parsed.emplace(PgParse::Parse(fmt::format("SELECT {} FROM {}", columns.empty() ? "*" : columns, QuotedIdentifier(table_name))));
    select = parsed->statement(0)->select_stmt;
  } else if (stmt->query && stmt->query->node_case == PG_QUERY__NODE__NODE_SELECT_STMT) {
    select = stmt->query->select_stmt;
  } else {
    throw NotSupported("COPY of a data-modifying statement").WithHint("COPY (SELECT ...) TO works.");
  }
  QueryPlan plan = PlanQuery(select, catalog, estimate);
  ResultSet result = ExecuteQuery(plan, db);
  CopyOutput out;
  auto end_line = [&] { out.data += '\n'; };
  if (options.header) {
    for (size_t c = 0; c < result.columns.size(); ++c) {
      if (c) out.data += options.delimiter;
      AppendField(out.data, result.columns[c].name, options);
    }
    end_line();
  }
  for (const auto& row : result.rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c) out.data += options.delimiter;
      AppendField(out.data, row[c], options);
    }
    end_line();
  }
  out.rows = static_cast<int64_t>(result.rows.size());
  if (stmt->filename && *stmt->filename) {
    std::ofstream file(stmt->filename, std::ios::binary | std::ios::trunc);
    if (!file || !(file << out.data) || !file.flush())
      throw SqlError(sqlstate::kUndefinedFile, fmt::format("could not open file \"{}\" for writing: {}", stmt->filename,
                                                           std::strerror(errno)));
    out.data.clear();
    out.to_client = false;
  }
  return out;
}

namespace {

// What both COPY FROMs start with: the table, the options, the target columns (the list
// given, else all, in table order) and the data.
struct CopySource {
  const TableInfo* table = nullptr;
  std::string table_name;
  CopyOptions options;
  std::vector<int> targets;
  std::string data;
};

CopySource ReadCopySource(const PgQuery__CopyStmt* stmt, const Catalog& catalog, const CopyInput& input) {
  if (!stmt->relation) throw NotSupported("COPY (query)");
  if (stmt->is_program) throw NotSupported("COPY FROM PROGRAM");
  const bool from_stdin = !stmt->filename || !*stmt->filename;
  if (from_stdin && !input) throw NotSupported("COPY FROM STDIN here").WithHint("Use COPY ... FROM 'file'.");
  if (stmt->where_clause) throw NotSupported("COPY FROM ... WHERE");
  CopySource src;
  src.table_name = stmt->relation->relname;
  src.table = &TableToWrite(catalog, src.table_name, stmt->relation->location);
  src.options = ParseOptions(stmt);
  const TableInfo* table = src.table;
  const std::string& table_name = src.table_name;
  (void)table_name;
  src.targets = CopyFromColumns(stmt, catalog);
  if (from_stdin) {
    src.data = input();
  } else {
    std::ifstream in(stmt->filename, std::ios::binary);
    if (!in)
      throw SqlError(sqlstate::kUndefinedFile, fmt::format("could not open file \"{}\" for reading: {}", stmt->filename,
                                                           std::strerror(errno)))
          .WithHint("COPY FROM reads a file on the database host; paths are relative to its working directory.");
    std::stringstream buffer;
    buffer << in.rdbuf();
    src.data = buffer.str();
  }
  return src;
}

// An array literal's element: quoted, with its quotes and backslashes escaped.
void AppendArrayElement(std::string& out, const std::optional<std::string>& v) {
  if (!out.empty() && out.back() != '{') out += ',';
  if (!v) {
    out += "NULL";
    return;
  }
  out += '"';
  for (char c : *v) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
}

}  // namespace

std::vector<int> CopyFromColumns(const PgQuery__CopyStmt* stmt, const Catalog& catalog) {
  const std::string table_name = stmt->relation->relname;
  const TableInfo* table = &TableToWrite(catalog, table_name, stmt->relation->location);
  // A load writes rows between epochs; triggers run in a transaction's epoch.
  if (table->HasTriggers(TriggerInfo::kInsert))
    throw NotSupported(fmt::format("COPY into table \"{}\", which has triggers,", table_name))
        .WithHint("Load the rows before creating the triggers (as pg_dump does), or INSERT them.");
  std::vector<int> targets;
  for (size_t i = 0; i < stmt->n_attlist; ++i) {
    std::string name = StringValue(stmt->attlist[i]);
    int c = table->ColumnIndex(name);
    if (c < 0)
      throw SqlError(sqlstate::kUndefinedColumn,
                     fmt::format("column \"{}\" of relation \"{}\" does not exist", name, table_name));
    if (std::find(targets.begin(), targets.end(), c) != targets.end())
      throw SqlError(sqlstate::kDuplicateColumn, fmt::format("column \"{}\" specified more than once", name));
    RefuseGeneratedColumn(table->columns[static_cast<size_t>(c)]);
    targets.push_back(c);
  }
  if (targets.empty())
    for (size_t c = 0; c < table->columns.size(); ++c)
      if (!table->columns[c].generated) targets.push_back(static_cast<int>(c));
  return targets;
}

CopyAsInsert CopyFromAsInsert(const PgQuery__CopyStmt* stmt, const Catalog& catalog, const CopyInput& input) {
  CopySource src = ReadCopySource(stmt, catalog, input);
  const TableInfo& table = *src.table;
  std::vector<std::string> arrays(src.targets.size(), "{");
  for (int c : src.targets)
    if (table.columns[static_cast<size_t>(c)].type.is_array())
      throw NotSupported("COPY of an array column inside a transaction block");
  size_t pos = 0;
  int line = 0;
  std::vector<Field> fields;
  std::string raw;
  auto context = [&](int at) { return fmt::format("COPY {}, line {}: \"{}\"", src.table_name, at, Truncated(raw)); };
  CopyAsInsert out;
  for (;;) {
    int record_line = line + 1;
    try {
      if (!ReadRecord(src.data, pos, src.options, fields, raw, line)) break;
    } catch (SqlError& e) {
      e.WithContext(context(record_line));
      throw;
    }
    if (src.options.header && record_line == 1) continue;
    if (fields.size() < src.targets.size())
      throw SqlError(sqlstate::kBadCopyFileFormat,
                     fmt::format("missing data for column \"{}\"", table.columns[src.targets[fields.size()]].name))
          .WithContext(context(record_line));
    if (fields.size() > src.targets.size())
      throw SqlError(sqlstate::kBadCopyFileFormat, "extra data after last expected column").WithContext(context(record_line));
    for (size_t i = 0; i < src.targets.size(); ++i) {
      const CatalogColumn& col = table.columns[static_cast<size_t>(src.targets[i])];
      const Field& f = fields[i];
      if (f.null) {
        AppendArrayElement(arrays[i], std::nullopt);
        continue;
      }
      try {
        AppendArrayElement(arrays[i], DatumToText(DatumFromText(f.text, col.type), col.type));
      } catch (SqlError& e) {
        e.WithContext(fmt::format("COPY {}, line {}, column {}: \"{}\"", src.table_name, record_line, col.name,
                                  Truncated(f.text)));
        throw;
      }
    }
    ++out.rows;
  }
  std::string columns, sources;
  for (size_t i = 0; i < src.targets.size(); ++i) {
    const CatalogColumn& col = table.columns[static_cast<size_t>(src.targets[i])];
    arrays[i] += '}';
    std::string quoted;
    for (char c : arrays[i]) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    columns += (i ? ", " : "") + QuotedIdentifier(col.name);
    sources += fmt::format("{}'{}'::{}[]", i ? ", " : "", quoted, col.type.Name());
  }
  out.sql = fmt::format("INSERT INTO {} ({}) SELECT * FROM unnest({})", QuotedIdentifier(table.name), columns, sources);
  return out;
}

int64_t CopyFrom(const PgQuery__CopyStmt* stmt, Catalog& catalog, engine::Engine& engine, const CopyProgress& progress,
                 const CopyInput& input) {
  CopySource src = ReadCopySource(stmt, catalog, input);
  const TableInfo* table = src.table;
  const std::string& table_name = src.table_name;
  const CopyOptions& options = src.options;
  const std::vector<int>& targets = src.targets;
  const std::string& data = src.data;
  {
    std::vector<bool> given_columns(table->columns.size(), false);
    for (int c : targets) given_columns[static_cast<size_t>(c)] = true;
    RefuseSequenceDefaults(*table, given_columns, "COPY");
  }

  const engine::Schema& schema = catalog.database().schema(table->id);
  std::vector<engine::RowValuePtr> rows;
  std::vector<engine::Key> keys;
  std::vector<std::string> key_texts;  // "Key (a)=(1) already exists.", for duplicate-key errors
  std::vector<int> key_lines;
  std::set<engine::Key, engine::KeyLess> seen;
  // A DEFAULT random() draws from an unseeded stream: the load logs its rows, not how to
  // make them.
  SnapshotRoutines default_random;
  EvalContext defaults;
  defaults.routines = &default_random;
  const RowGenerator generated(*table);
  UniqueLoadCheck unique(*table, catalog.database().table(table->id));
  ForeignKeyLoadCheck references(*table);
  std::optional<LoadRowIdentities> identities;
  if (table->HasRowIdentity()) identities.emplace(catalog.database(), *table);
  size_t pos = 0;
  int line = 0;
  std::vector<Field> fields;
  std::string raw;
  auto context = [&](int at) { return fmt::format("COPY {}, line {}: \"{}\"", table_name, at, Truncated(raw)); };
  for (;;) {
    int record_line = line + 1;
    try {
      if (!ReadRecord(data, pos, options, fields, raw, line)) break;
    } catch (SqlError& e) {
      e.WithContext(context(record_line));
      throw;
    }
    if (options.header && record_line == 1) continue;
    if (fields.size() < targets.size())
      throw SqlError(sqlstate::kBadCopyFileFormat,
                     fmt::format("missing data for column \"{}\"", table->columns[targets[fields.size()]].name))
          .WithContext(context(record_line));
    if (fields.size() > targets.size())
      throw SqlError(sqlstate::kBadCopyFileFormat, "extra data after last expected column").WithContext(context(record_line));
    std::vector<Datum> datums(table->columns.size());
    std::vector<bool> given(table->columns.size(), false);
    for (size_t i = 0; i < targets.size(); ++i) {
      const CatalogColumn& col = table->columns[targets[i]];
      given[targets[i]] = true;
      const Field& f = fields[i];
      if (f.null) continue;
      try {
        datums[targets[i]] = DatumFromText(f.text, col.type);
        if (col.type.domain) datums[targets[i]] = CheckDomain(col.type, std::move(datums[targets[i]]));
      } catch (SqlError& e) {
        e.WithContext(fmt::format("COPY {}, line {}, column {}: \"{}\"", table_name, record_line, col.name, Truncated(f.text)));
        throw;
      }
    }
    std::vector<engine::Value> values;
    for (size_t c = 0; c < table->columns.size(); ++c) {
      const CatalogColumn& col = table->columns[c];
      if (!given[c] && col.default_expr) datums[c] = Eval(*col.default_expr, defaults);
      else if (!given[c] && col.type.domain && col.type.domain->default_expr())
        datums[c] = Eval(*col.type.domain->default_expr(), defaults);
      if (col.type.domain && (!given[c] || datums[c].is_null())) {  // a value read was checked as it was read
        try {
          datums[c] = CheckDomain(col.type, std::move(datums[c]));
        } catch (SqlError& e) {
          e.WithContext(context(record_line));
          throw;
        }
      }
    }
    if (!generated.empty()) {
      try {
        generated.Compute(datums);
      } catch (SqlError& e) {
        e.WithContext(context(record_line));
        throw;
      }
    }
    for (size_t c = 0; c < table->columns.size(); ++c) {
      const CatalogColumn& col = table->columns[c];
      if (datums[c].is_null() && col.not_null)
        throw NotNullViolation(*table, static_cast<int>(c), datums).WithContext(context(record_line));
      try {
        values.push_back(DatumToColumnValue(datums[c], col.type));
      } catch (SqlError& e) {
        e.WithContext(context(record_line));
        throw;
      }
    }
    if (identities) {
      const RowIdentity id = identities->Next();
      values.push_back(engine::Value::Int(id.xact));
      values.push_back(engine::Value::Int(id.item));
    }
    engine::RowValuePtr built = MakeRow(schema, values);
    if (!table->checks.empty()) {
      try {
        EnforceConstraints(*table, schema, *built, datums);
      } catch (SqlError& e) {
        e.WithContext(context(record_line));
        throw;
      }
    }
    std::vector<engine::Value> key_values;
    for (int c : schema.primary_key()) key_values.push_back(values[static_cast<size_t>(c)]);
    engine::Key key = EncodePrimaryKey(schema, key_values);
    std::string key_text = DuplicateKeyDetail(*table, table->primary_key, datums);
    if (!seen.insert(key).second)
      throw SqlError(sqlstate::kUniqueViolation,
                     fmt::format("duplicate key value violates unique constraint \"{}\"", table->PrimaryKeyName()))
          .WithDetail(key_text)
          .WithContext(fmt::format("COPY {}, line {}", table_name, record_line));
    if (!table->unique_indexes.empty()) unique.Add(*built, datums, fmt::format("COPY {}, line {}", table_name, record_line));
    if (references.needed()) references.Add(datums);
    keys.push_back(std::move(key));
    if (progress && keys.size() % kCopyProgressRows == 0) progress(static_cast<int64_t>(keys.size()));
    key_texts.push_back(std::move(key_text));
    key_lines.push_back(record_line);
    rows.push_back(std::move(built));
  }

  if (progress) progress(static_cast<int64_t>(keys.size()));
  engine.RunExclusive([&] {
    {
      SnapshotSource snapshot(catalog.database());
      for (size_t i = 0; i < keys.size(); ++i)
        if (snapshot.Read(table->id, keys[i]))
          throw SqlError(sqlstate::kUniqueViolation,
                         fmt::format("duplicate key value violates unique constraint \"{}\"", table->PrimaryKeyName()))
              .WithDetail(key_texts[i])
              .WithContext(fmt::format("COPY {}, line {}", table_name, key_lines[i]));
      unique.CheckAgainst(snapshot);
      references.CheckAgainst(snapshot);
    }
    for (size_t i = 0; i < rows.size(); ++i) catalog.database().LoadRow(table->id, std::move(rows[i]));
  });
  return static_cast<int64_t>(keys.size());
}

}  // namespace caracal::planner
