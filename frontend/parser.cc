#include "frontend/parser.h"

extern "C" {
#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>
}

namespace caracal::frontend {

void ParseTree::Deleter::operator()(PgQuery__ParseResult* p) const { pg_query__parse_result__free_unpacked(p, nullptr); }

ParseTree ParseTree::Parse(std::string_view sql) {
  ParseTree tree;
  tree.input_ = std::string(sql);
  PgQueryProtobufParseResult raw = pg_query_parse_protobuf(tree.input_.c_str());
  if (raw.error != nullptr) {
    SyntaxError error(raw.error->message, raw.error->cursorpos);
    pg_query_free_protobuf_parse_result(raw);
    throw error;
  }
  tree.result_.reset(pg_query__parse_result__unpack(nullptr, raw.parse_tree.len,
                                                    reinterpret_cast<const uint8_t*>(raw.parse_tree.data)));
  pg_query_free_protobuf_parse_result(raw);
  if (!tree.result_) throw SyntaxError("could not decode the parse tree", 0);
  for (size_t i = 0; i < tree.result_->n_stmts; ++i) {
    const PgQuery__RawStmt* raw_stmt = tree.result_->stmts[i];
    int location = raw_stmt->stmt_location;
    int length = raw_stmt->stmt_len == 0 ? static_cast<int>(tree.input_.size()) - location : raw_stmt->stmt_len;
    tree.statements_.push_back({raw_stmt->stmt, location, tree.input_.substr(location, length)});
  }
  return tree;
}

int LineOf(std::string_view text, int offset) {
  int line = 1;
  for (int i = 0; i < offset && i < static_cast<int>(text.size()); ++i)
    if (text[i] == '\n') ++line;
  return line;
}

}  // namespace caracal::frontend
