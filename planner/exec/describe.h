// The catalog as psql's informational commands show it: \d (relations, or one relation's
// columns, key and indexes), \dt, \di, \ds, \df and \sf, laid out like psql 15's (titles,
// columns, footers, "Did not find any relation named ..."). Everything lives in schema
// "public" (the system views in "pg_catalog"); there are no owners, so psql's Owner
// column is left out.
//
// Name patterns follow psql: unquoted letters fold to lower case, * and ? are
// wildcards, "..." is literal, and an optional "schema." prefix must match public.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "planner/types/text_table.h"
#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

// A psql name pattern; an absent pattern matches everything.
class NamePattern {
 public:
  // `dotted_names`: '.' is part of the name (configuration parameters), not a schema
  // separator.
  explicit NamePattern(const std::optional<std::string>& pattern, bool dotted_names = false);
  bool Matches(const std::string& name, const std::string& schema = "public") const;
  bool empty() const { return !pattern_; }
  const std::string& text() const { return text_; }

 private:
  std::optional<std::string> pattern_;  // anchored regular expression over the name
  std::optional<std::string> schema_;   // over the schema, when the pattern has one
  std::string text_;
};

// What a describe command prints: tables to stdout, or an error for stderr.
struct DescribeResult {
  std::vector<TextTable> tables;
  std::string error;  // "Did not find any relation named "x"."
};

// \d, \dt, \di, \ds, \dv and combinations: `kinds` holds 't', 'i', 's', 'v' (system views,
// in schema pg_catalog). psql's \d without a name lists tables and sequences.
DescribeResult ListRelations(const Catalog& catalog, const std::string& kinds, const NamePattern& pattern);
// \d NAME: every relation whose name matches, described.
DescribeResult DescribeRelations(const Catalog& catalog, const NamePattern& pattern);
// \df [PATTERN]: "List of functions" (functions and procedures).
DescribeResult ListFunctions(const Catalog& catalog, const NamePattern& pattern);
// \sf[+] NAME: the CREATE statement of a function or procedure (+: with body line
// numbers, as PL/pgSQL error CONTEXT lines count them).
DescribeResult FunctionSource(const Catalog& catalog, const std::string& name, bool line_numbers,
                              std::string& source);

// The pieces psql's describe queries read, as PostgreSQL prints them (also used by the
// wire server's catalog emulation): a column's DEFAULT (pg_get_expr of pg_attrdef),
// a function's arguments (pg_get_function_arguments) and result type
// (pg_get_function_result; empty for a procedure).
std::string ColumnDefaultText(const CatalogColumn& column);
// A generated column's expression as \d shows it inside "generated always as (...)
// stored" (and pg_get_expr gives it): its columns named as in `table`.
std::string GenerationExpressionText(const TableInfo& table, const CatalogColumn& column);
// \d of a sequence: its row (Type, Start, Minimum, Maximum, Increment, Cycles?, Cache)
// and the footer naming the column that owns it ("Owned by: public.t.id", or for an
// identity column "Sequence for identity column: ..."), if one does.
std::vector<std::string> SequenceDescriptionRow(const SequenceInfo& sequence);
struct SequenceOwnerColumn {
  std::string table, column;
  bool identity = false;
};
std::optional<SequenceOwnerColumn> SequenceOwner(const Catalog& catalog, const SequenceInfo& sequence);
std::string FunctionArgumentTypes(const ProcedureIr& ir);
std::string FunctionResultType(const ProcedureIr& ir);

}  // namespace caracal::planner
