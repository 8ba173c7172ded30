#include "planner/parser/fragment_parser.h"

extern "C" {
#include <pg_query.h>
}

#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

void PgParse::Deleter::operator()(PgQuery__ParseResult* p) const { pg_query__parse_result__free_unpacked(p, nullptr); }

PgParse PgParse::Parse(std::string_view sql, int offset) {
  PgParse parse;
  parse.text_ = std::string(sql);
  PgQueryProtobufParseResult raw = pg_query_parse_protobuf(parse.text_.c_str());
  if (raw.error != nullptr) {
    // cursorpos is 1-based in characters of `sql`; close enough to bytes for ASCII SQL.
    int location = raw.error->cursorpos > 0 ? raw.error->cursorpos - 1 + offset : -1;
    SqlError error(sqlstate::kSyntaxError, raw.error->message, location);
    pg_query_free_protobuf_parse_result(raw);
    throw error;
  }
  parse.result_.reset(pg_query__parse_result__unpack(nullptr, raw.parse_tree.len,
                                                     reinterpret_cast<const uint8_t*>(raw.parse_tree.data)));
  pg_query_free_protobuf_parse_result(raw);
  if (!parse.result_) throw SqlError(sqlstate::kInternalError, "could not decode the parse tree");
  return parse;
}

size_t PgParse::size() const { return result_->n_stmts; }

const PgQuery__Node* PgParse::statement(size_t i) const { return result_->stmts[i]->stmt; }

std::string_view PgParse::statement_text(size_t i) const {
  const PgQuery__RawStmt* raw = result_->stmts[i];
  size_t from = static_cast<size_t>(raw->stmt_location);
  size_t length = raw->stmt_len == 0 ? text_.size() - from : static_cast<size_t>(raw->stmt_len);
  return std::string_view(text_).substr(from, length);
}

}  // namespace caracal::planner
