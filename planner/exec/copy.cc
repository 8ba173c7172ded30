#include "planner/exec/copy.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "planner/catalog/constraint_errors.h"
#include "planner/catalog/row_identity.h"
#include "planner/exec/snapshot_source.h"
#include "planner/exec/unique_load_check.h"
#include "planner/expr/expr_eval.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

struct CsvOptions {
  bool header = false;
  char delimiter = ',';
  char quote = '"';
  char escape = '"';
  std::string null_string;  // unquoted field equal to this is NULL
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

CsvOptions ParseOptions(const PgQuery__CopyStmt* stmt) {
  CsvOptions o;
  bool csv = false, escape_set = false;
  for (size_t i = 0; i < stmt->n_options; ++i) {
    const PgQuery__DefElem* d = stmt->options[i]->def_elem;
    std::string_view name = d->defname;
    if (name == "format") {
      std::string f = OptionString(d);
      if (f == "csv") csv = true;
      else if (f == "text" || f == "binary") throw NotSupported(fmt::format("COPY format \"{}\"", f));
      else throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("COPY format \"{}\" not recognized", f), d->location);
    } else if (name == "header") {
      std::string h = d->arg ? OptionString(d) : "true";
      if (h == "match") throw NotSupported("HEADER MATCH");
      o.header = h == "true" || h == "on" || h == "1";
    } else if (name == "delimiter") {
      o.delimiter = OptionChar(d, "delimiter");
    } else if (name == "null") {
      o.null_string = OptionString(d);
    } else if (name == "quote") {
      o.quote = OptionChar(d, "quote");
    } else if (name == "escape") {
      o.escape = OptionChar(d, "escape");
      escape_set = true;
    } else {
      throw NotSupported(fmt::format("COPY option \"{}\"", name));
    }
  }
  if (!csv)
    throw SqlError(sqlstate::kFeatureNotSupported, "COPY in text format is not supported yet")
        .WithHint("Use COPY ... FROM 'file' WITH (FORMAT csv).");
  if (!escape_set) o.escape = o.quote;
  return o;
}

struct Field {
  std::string text;
  bool quoted = false;
};

// Reads one CSV record starting at `pos`; quoted fields may span lines. Returns false at
// end of input. `lines` counts the physical lines consumed.
bool ReadRecord(const std::string& data, size_t& pos, const CsvOptions& o, std::vector<Field>& fields,
                std::string& raw, int& lines) {
  if (pos >= data.size()) return false;
  fields.assign(1, Field{});
  size_t start = pos;
  bool in_quotes = false;
  ++lines;
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
      return true;
    }
    if (c == o.delimiter) {
      fields.push_back(Field{});
    } else if (c == o.quote) {
      in_quotes = true;
      fields.back().quoted = true;
    } else {
      fields.back().text += c;
    }
    ++pos;
  }
  raw = data.substr(start, pos - start);
  if (in_quotes) throw SqlError(sqlstate::kBadCopyFileFormat, "unterminated CSV quoted field");
  return true;
}

std::string Truncated(std::string_view s) {
  // PostgreSQL's CONTEXT lines show long values abbreviated.
  if (s.size() <= 100) return std::string(s);
  return std::string(s.substr(0, 100)) + "...";
}

}  // namespace

int64_t CopyFrom(const PgQuery__CopyStmt* stmt, Catalog& catalog, engine::Engine& engine, const CopyProgress& progress) {
  if (!stmt->relation) throw NotSupported("COPY (query)");
  if (!stmt->is_from) throw NotSupported("COPY TO");
  if (stmt->is_program) throw NotSupported("COPY FROM PROGRAM");
  if (!stmt->filename || !*stmt->filename) throw NotSupported("COPY FROM STDIN");
  if (stmt->where_clause) throw NotSupported("COPY FROM ... WHERE");
  std::string table_name = stmt->relation->relname;
  const TableInfo* table = &TableToWrite(catalog, table_name, stmt->relation->location);
  CsvOptions options = ParseOptions(stmt);

  // Target columns: the list given, else all, in table order.
  std::vector<int> targets;
  for (size_t i = 0; i < stmt->n_attlist; ++i) {
    std::string name = StringValue(stmt->attlist[i]);
    int c = table->ColumnIndex(name);
    if (c < 0)
      throw SqlError(sqlstate::kUndefinedColumn,
                     fmt::format("column \"{}\" of relation \"{}\" does not exist", name, table_name));
    if (std::find(targets.begin(), targets.end(), c) != targets.end())
      throw SqlError(sqlstate::kDuplicateColumn, fmt::format("column \"{}\" specified more than once", name));
    targets.push_back(c);
  }
  if (targets.empty())
    for (size_t c = 0; c < table->columns.size(); ++c) targets.push_back(static_cast<int>(c));
  {
    std::vector<bool> given_columns(table->columns.size(), false);
    for (int c : targets) given_columns[static_cast<size_t>(c)] = true;
    RefuseSequenceDefaults(*table, given_columns, "COPY");
  }

  std::ifstream in(stmt->filename, std::ios::binary);
  if (!in)
    throw SqlError(sqlstate::kUndefinedFile, fmt::format("could not open file \"{}\" for reading: {}", stmt->filename,
                                                         std::strerror(errno)))
        .WithHint("COPY FROM reads a file on the database host; paths are relative to its working directory.");
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string data = buffer.str();

  const engine::Schema& schema = catalog.database().schema(table->id);
  std::vector<engine::RowValuePtr> rows;
  std::vector<engine::Key> keys;
  std::vector<std::string> key_texts;  // "Key (a)=(1) already exists.", for duplicate-key errors
  std::vector<int> key_lines;
  std::set<engine::Key, engine::KeyLess> seen;
  UniqueLoadCheck unique(*table, catalog.database().table(table->id));
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
      if (!f.quoted && f.text == options.null_string) continue;  // NULL
      try {
        datums[targets[i]] = DatumFromText(f.text, col.type);
      } catch (SqlError& e) {
        e.WithContext(fmt::format("COPY {}, line {}, column {}: \"{}\"", table_name, record_line, col.name, Truncated(f.text)));
        throw;
      }
    }
    std::vector<engine::Value> values;
    for (size_t c = 0; c < table->columns.size(); ++c) {
      const CatalogColumn& col = table->columns[c];
      if (!given[c] && col.default_expr) datums[c] = Eval(*col.default_expr, EvalContext{});
      if (datums[c].is_null() && col.not_null)
        throw NotNullViolation(*table, static_cast<int>(c), datums).WithContext(context(record_line));
      try {
        values.push_back(DatumToValue(datums[c], col.type));
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
                     fmt::format("duplicate key value violates unique constraint \"{}_pkey\"", table_name))
          .WithDetail(key_text)
          .WithContext(fmt::format("COPY {}, line {}", table_name, record_line));
    if (!table->unique_indexes.empty()) unique.Add(*built, datums, fmt::format("COPY {}, line {}", table_name, record_line));
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
                         fmt::format("duplicate key value violates unique constraint \"{}_pkey\"", table_name))
              .WithDetail(key_texts[i])
              .WithContext(fmt::format("COPY {}, line {}", table_name, key_lines[i]));
      unique.CheckAgainst(snapshot);
    }
    for (size_t i = 0; i < rows.size(); ++i) catalog.database().LoadRow(table->id, std::move(rows[i]));
  });
  return static_cast<int64_t>(keys.size());
}

}  // namespace caracal::planner
