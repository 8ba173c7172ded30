#include "planner/parser/parameter_tokens.h"

extern "C" {
#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>
}

#include <charconv>
#include <memory>

#include "planner/parser/parse_tree.h"

namespace caracal::planner {

std::vector<ParameterSlot> FindParameters(const std::string& text) {
  PgQueryScanResult scan = pg_query_scan(text.c_str());
  std::unique_ptr<PgQueryScanResult, void (*)(PgQueryScanResult*)> guard(
      &scan, [](PgQueryScanResult* r) { pg_query_free_scan_result(*r); });
  if (scan.error) throw SyntaxError(scan.error->message, scan.error->cursorpos);
  std::unique_ptr<PgQuery__ScanResult, void (*)(PgQuery__ScanResult*)> tokens(
      pg_query__scan_result__unpack(nullptr, scan.pbuf.len, reinterpret_cast<const uint8_t*>(scan.pbuf.data)),
      [](PgQuery__ScanResult* r) { pg_query__scan_result__free_unpacked(r, nullptr); });
  std::vector<ParameterSlot> slots;
  if (!tokens) return slots;
  for (size_t i = 0; i < tokens->n_tokens; ++i) {
    const PgQuery__ScanToken* t = tokens->tokens[i];
    if (t->token != PG_QUERY__TOKEN__PARAM) continue;
    int n = 0;
    const char* first = text.data() + t->start + 1;
    const char* last = text.data() + t->end;
    auto [p, ec] = std::from_chars(first, last, n);
    if (ec != std::errc() || p != last || n < 1) continue;
    slots.push_back({n, t->start, t->end});
  }
  return slots;
}

}  // namespace caracal::planner
