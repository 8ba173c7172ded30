#include "planner/parser/sql_tokens.h"

extern "C" {
#include <pg_query.h>
}

#include <cctype>

namespace caracal::planner {

std::vector<SqlToken> ScanSql(const std::string& text) {
  std::vector<SqlToken> tokens;
  PgQueryScanResult scan = pg_query_scan(text.c_str());
  if (scan.error == nullptr) {
    PgQuery__ScanResult* result =
        pg_query__scan_result__unpack(nullptr, scan.pbuf.len, reinterpret_cast<const uint8_t*>(scan.pbuf.data));
    if (result != nullptr) {
      for (size_t i = 0; i < result->n_tokens; ++i) {
        const PgQuery__Token kind = result->tokens[i]->token;
        if (kind == PG_QUERY__TOKEN__SQL_COMMENT || kind == PG_QUERY__TOKEN__C_COMMENT) continue;
        tokens.push_back({result->tokens[i]->start, result->tokens[i]->end, kind});
      }
      pg_query__scan_result__free_unpacked(result, nullptr);
    }
  }
  pg_query_free_scan_result(scan);
  return tokens;
}

std::string TokenWord(std::string_view text, const SqlToken& token) {
  std::string_view raw = text.substr(static_cast<size_t>(token.start), static_cast<size_t>(token.end - token.start));
  if (raw.size() >= 2 && raw.front() == '"' && raw.back() == '"') return std::string(raw.substr(1, raw.size() - 2));
  if (raw.empty() || !(std::isalpha(static_cast<unsigned char>(raw[0])) || raw[0] == '_')) return {};
  std::string out(raw);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace caracal::planner
