// Parser: SQL text -> libpg_query's protobuf parse tree (PostgreSQL 15's own grammar),
// with each statement's source text and position kept for error messages.
#pragma once

#include <functional>

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct PgQuery__ParseResult;
struct PgQuery__Node;
struct PgQuery__RangeVar;

namespace caracal::planner {

// A syntax error: PostgreSQL's message and the 1-based character position in the input.
class SyntaxError : public std::runtime_error {
 public:
  SyntaxError(const std::string& message, int position) : std::runtime_error(message), position_(position) {}
  int position() const { return position_; }
  // The HINT PostgreSQL's grammar gives with this message (libpg_query reports only the
  // message); empty when it gives none.
  std::string hint() const;

 private:
  int position_;
};

// Statements of our own that PostgreSQL's grammar does not have.
enum class Extension : uint8_t {
  kNone,
  kExplainProcedure,  // EXPLAIN PROCEDURE|FUNCTION name: `node` is null, `name` is set
  kExplainCall,       // EXPLAIN CALL p(...): `node` is the CALL statement
};

struct ParsedStatement {
  const PgQuery__Node* node;  // owned by the ParseTree (null for kExplainProcedure)
  int location;               // byte offset of the statement in the input
  std::string text;           // the statement's own text
  Extension extension = Extension::kNone;
  std::string name;           // kExplainProcedure: the procedure name (case-folded unless quoted)
};

// Owns one parse of a string of statements.
class ParseTree {
 public:
  // Throws SyntaxError. Besides PostgreSQL's grammar it accepts the Extension statements;
  // positions stay those of `sql`.
  static ParseTree Parse(std::string_view sql);

  const std::vector<ParsedStatement>& statements() const { return statements_; }
  const std::string& input() const { return input_; }

 private:
  struct Deleter {
    void operator()(PgQuery__ParseResult* p) const;
  };
  std::string input_;
  std::unique_ptr<PgQuery__ParseResult, Deleter> result_;
  std::vector<ParsedStatement> statements_;
};

// 1-based line of byte `offset` in `text`, for "LINE n:" in error reports.
int LineOf(std::string_view text, int offset);

// Whether the parse tree under `node` calls a function whose unqualified name is `name`
// (lower case), e.g. a SELECT that calls nextval().
bool CallsFunction(const PgQuery__Node* node, std::string_view name);
// Whether it calls a function whose unqualified name `wanted` accepts.
bool CallsFunction(const PgQuery__Node* node, const std::function<bool(std::string_view)>& wanted);
// Whether it names a relation (a RangeVar: FROM items, DML targets) that `wanted` accepts.
bool NamesRelation(const PgQuery__Node* node, const std::function<bool(const PgQuery__RangeVar&)>& wanted);

}  // namespace caracal::planner
