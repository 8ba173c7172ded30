#include "planner/parser/statement_splitter.h"

#include <pg_query.h>

#include <algorithm>

namespace caracal::planner {

namespace {

int LineAt(std::string_view text, size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + std::min(offset, text.size()), '\n'));
}

// Skips whitespace and "--" comments, as psql does before a statement starts.
size_t SkipLeading(std::string_view s, size_t p, size_t end) {
  while (p < end) {
    if (std::isspace(static_cast<unsigned char>(s[p]))) {
      ++p;
    } else if (s.substr(p, 2) == "--") {
      while (p < end && s[p] != '\n') ++p;
    } else {
      break;
    }
  }
  return p;
}

}  // namespace

std::vector<ScriptStatement> SplitScript(std::string_view script) {
  std::vector<ScriptStatement> out;
  std::string input(script);
  PgQuerySplitResult split = pg_query_split_with_scanner(input.c_str());
  auto add = [&](size_t begin, size_t end) {
    begin = SkipLeading(input, begin, end);
    if (begin >= end) return;
    // Keep the ';' that ends the statement: psql sends it.
    size_t stop = end;
    if (stop < input.size() && input[stop] == ';') ++stop;
    out.push_back(ScriptStatement{input.substr(begin, stop - begin), LineAt(input, stop == 0 ? 0 : stop - 1)});
  };
  if (split.error != nullptr) {
    // The scanner gave up (e.g. an unterminated string): send the rest as one statement,
    // whose parse then reports the error.
    add(0, input.size());
  } else {
    for (int i = 0; i < split.n_stmts; ++i)
      add(static_cast<size_t>(split.stmts[i]->stmt_location),
          static_cast<size_t>(split.stmts[i]->stmt_location + split.stmts[i]->stmt_len));
  }
  pg_query_free_split_result(split);
  return out;
}

}  // namespace caracal::planner
