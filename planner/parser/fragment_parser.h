// PgParse: one libpg_query protobuf parse owned by the planner, for SQL the planner
// finds inside other text: the statements and expressions of a PL/pgSQL body, which
// pg_query_parse_plpgsql hands over as text to be parsed again.
#pragma once

#include <memory>
#include <string>
#include <string_view>

struct PgQuery__ParseResult;
struct PgQuery__Node;

namespace caracal::planner {

class PgParse {
 public:
  // Parses `sql`; throws SqlError (42601, PostgreSQL's message) with the location of the
  // error as a byte offset into `sql`, plus `offset` (where `sql` sits in a larger text).
  static PgParse Parse(std::string_view sql, int offset = 0);

  size_t size() const;
  const PgQuery__Node* statement(size_t i) const;
  // The text of statement i (from its start to its end, without the ';').
  std::string_view statement_text(size_t i) const;
  const std::string& text() const { return text_; }

 private:
  struct Deleter {
    void operator()(PgQuery__ParseResult* p) const;
  };
  std::string text_;
  std::unique_ptr<PgQuery__ParseResult, Deleter> result_;
};

}  // namespace caracal::planner
