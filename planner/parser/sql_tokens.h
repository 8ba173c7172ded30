// The tokens of a SQL or PL/pgSQL text by PostgreSQL's own scanner (libpg_query's
// pg_query_scan), with their byte ranges. A string constant, a quoted identifier and a
// dollar-quoted body are one token each and comments are left out, so a search over tokens never
// matches inside them.
#pragma once

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <string>
#include <string_view>
#include <vector>

namespace caracal::planner {

struct SqlToken {
  int start = 0, end = 0;  // byte range in the scanned text
  PgQuery__Token kind = PG_QUERY__TOKEN__NUL;
};

// The tokens of `text`; empty if it does not scan (an unterminated string, say).
std::vector<SqlToken> ScanSql(const std::string& text);

// The token's text in `text` when it is a word (a keyword or an identifier), folded as
// PostgreSQL folds names: unquoted to lower case, "quoted" as written; "" for any other
// token (a constant, an operator, punctuation).
std::string TokenWord(std::string_view text, const SqlToken& token);

}  // namespace caracal::planner
