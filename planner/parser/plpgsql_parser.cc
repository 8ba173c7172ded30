#include "planner/parser/plpgsql_parser.h"

extern "C" {
#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>
}

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <vector>

#include "planner/parser/sql_tokens.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

// Where the body string sits in the statement: the string constant after AS.
struct BodyToken {
  int start = -1, end = -1;  // the whole token, quotes included
  int content = -1;          // first byte of the body itself
  std::string body;
};

BodyToken FindBody(const std::string& text) {
  BodyToken found;
  std::vector<SqlToken> tokens = ScanSql(text);
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i].kind != PG_QUERY__TOKEN__AS || tokens[i + 1].kind != PG_QUERY__TOKEN__SCONST) continue;
    const SqlToken& t = tokens[i + 1];
    std::string_view raw = std::string_view(text).substr(t.start, t.end - t.start);
    found.start = t.start;
    found.end = t.end;
    if (!raw.empty() && raw[0] == '$') {
      size_t tag_end = raw.find('$', 1);
      if (tag_end == std::string_view::npos) return found;
      size_t tag_len = tag_end + 1;
      found.content = t.start + static_cast<int>(tag_len);
      found.body = std::string(raw.substr(tag_len, raw.size() - 2 * tag_len));
    } else if (!raw.empty() && raw[0] == '\'') {
      found.content = t.start + 1;
      for (size_t j = 1; j + 1 < raw.size(); ++j) {
        found.body.push_back(raw[j]);
        if (raw[j] == '\'' && raw[j + 1] == '\'') ++j;
      }
    }
    return found;
  }
  return found;
}

// `body` (scanned into `tokens`) with kReturnNextOutRow after each bare RETURN NEXT;
// unchanged if there is none.
std::string MarkReturnNext(const std::string& body, const std::vector<SqlToken>& tokens) {
  std::string out;
  size_t copied = 0;
  for (size_t i = 0; i + 2 < tokens.size(); ++i) {
    if (tokens[i].kind != PG_QUERY__TOKEN__RETURN || tokens[i + 1].kind != PG_QUERY__TOKEN__NEXT ||
        tokens[i + 2].kind != PG_QUERY__TOKEN__ASCII_59)
      continue;
    size_t at = static_cast<size_t>(tokens[i + 1].end);
    out.append(body, copied, at - copied);
    out.append(" ");
    out.append(kReturnNextOutRow);
    copied = at;
  }
  out.append(body, copied, std::string::npos);
  return out;
}

// The expression after each RETURN NEXT of `body` (scanned into `tokens`), up to its ';',
// with its line.
std::vector<std::pair<int, std::string>> ReturnNextExpressions(const std::string& body, const std::vector<SqlToken>& tokens) {
  std::vector<std::pair<int, std::string>> out;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i].kind != PG_QUERY__TOKEN__RETURN || tokens[i + 1].kind != PG_QUERY__TOKEN__NEXT) continue;
    int line = 1 + static_cast<int>(std::count(body.begin(), body.begin() + tokens[i].start, '\n'));
    int depth = 0;
    size_t j = i + 2;
    for (; j < tokens.size(); ++j) {
      PgQuery__Token k = tokens[j].kind;
      if (k == PG_QUERY__TOKEN__ASCII_40 || k == PG_QUERY__TOKEN__ASCII_91) ++depth;
      if (k == PG_QUERY__TOKEN__ASCII_41 || k == PG_QUERY__TOKEN__ASCII_93) --depth;
      if (k == PG_QUERY__TOKEN__ASCII_59 && depth <= 0) break;
    }
    int from = tokens[i + 1].end;
    int to = j < tokens.size() ? tokens[j].start : static_cast<int>(body.size());
    std::string text = body.substr(from, std::max(0, to - from));
    size_t b = text.find_first_not_of(" \t\r\n"), e = text.find_last_not_of(" \t\r\n");
    out.emplace_back(line, b == std::string::npos ? std::string() : text.substr(b, e - b + 1));
  }
  return out;
}

// Takes the `name ALIAS FOR target;` declarations out of `body` (scanned into `tokens`):
// each becomes a placeholder declaration (newlines kept, so lines and offsets stay) and
// is listed. An alias after the first BEGIN belongs to a nested block.
std::vector<PlpgsqlBody::Alias> TakeAliases(std::string& body, const std::vector<SqlToken>& tokens) {
  std::vector<PlpgsqlBody::Alias> aliases;
  int first_begin = -1;
  for (const SqlToken& t : tokens)
    if (t.kind == PG_QUERY__TOKEN__BEGIN_P) {
      first_begin = t.start;
      break;
    }
    for (size_t i = 0; i + 4 < tokens.size(); ++i) {
    if (TokenWord(body, tokens[i + 1]) != "alias" || tokens[i + 2].kind != PG_QUERY__TOKEN__FOR ||
        tokens[i + 4].kind != PG_QUERY__TOKEN__ASCII_59)
      continue;
    const int line = 1 + static_cast<int>(std::count(body.begin(), body.begin() + tokens[i].start, '\n'));
    const SqlToken& target = tokens[i + 3];
    aliases.push_back({TokenWord(body, tokens[i]),
                       target.kind == PG_QUERY__TOKEN__PARAM ? body.substr(target.start, target.end - target.start)
                                                             : TokenWord(body, target),
                       line, tokens[i + 3].start, first_begin >= 0 && tokens[i].start > first_begin});
    // In its place a variable of a placeholder type, so PL/pgSQL's parser knows the name
    // as an INTO target (the binder gives that datum the aliased slot). `name "$alias";`
    // is never longer than `name ALIAS FOR x;`.
    const std::string placeholder = body.substr(tokens[i].start, tokens[i].end - tokens[i].start) + " " +
                                    std::string(kAliasPlaceholderType) + ";";
    size_t next = 0;
    for (int at = tokens[i].start; at < tokens[i + 4].end; ++at) {
      char& c = body[static_cast<size_t>(at)];
      if (c == '\n') continue;
      c = next < placeholder.size() ? placeholder[next++] : ' ';
    }
    i += 4;
  }
  return aliases;
}

// Row-type declarations in DECLARE sections, rewritten to `name RECORD;` (newlines
// kept, so every line stays where it was); see PlpgsqlBody::row_types.
std::vector<PlpgsqlBody::RowTypeDeclaration> TakeRowTypeDeclarations(std::string& body, const std::vector<SqlToken>& tokens,
                                                                     const std::function<bool(const std::string&)>& is_row_type) {
  std::vector<PlpgsqlBody::RowTypeDeclaration> found;
  std::vector<std::pair<std::pair<int, int>, std::string>> replacements;  // byte range, new text
  bool in_declare = false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind == PG_QUERY__TOKEN__DECLARE) in_declare = true;
    if (tokens[i].kind == PG_QUERY__TOKEN__BEGIN_P) in_declare = false;
    if (!in_declare || i == 0 || (tokens[i - 1].kind != PG_QUERY__TOKEN__DECLARE && tokens[i - 1].kind != PG_QUERY__TOKEN__ASCII_59))
      continue;
    // name [schema .] type [% ROWTYPE] ;
    size_t j = i + 1;
    if (j >= tokens.size()) break;
    std::string type = TokenWord(body, tokens[j]);
    if (type.empty()) continue;
    if (j + 2 < tokens.size() && tokens[j + 1].kind == PG_QUERY__TOKEN__ASCII_46 && type == "public") {
      j += 2;
      type = TokenWord(body, tokens[j]);
    }
    bool rowtype = false;
    if (j + 2 < tokens.size() && tokens[j + 1].kind == PG_QUERY__TOKEN__ASCII_37 && TokenWord(body, tokens[j + 2]) == "rowtype") {
      rowtype = true;
      j += 2;
    }
    if (j + 1 >= tokens.size() || tokens[j + 1].kind != PG_QUERY__TOKEN__ASCII_59) continue;
    if (!rowtype && !(is_row_type && is_row_type(type))) continue;
    const std::string name = TokenWord(body, tokens[i]);
    if (name.empty()) continue;
    const int line = 1 + static_cast<int>(std::count(body.begin(), body.begin() + tokens[i].start, '\n'));
    found.push_back({name, rowtype ? type + "%rowtype" : type, line});
    std::string replacement = body.substr(static_cast<size_t>(tokens[i].start), static_cast<size_t>(tokens[i].end - tokens[i].start)) +
                              " RECORD;";
    for (int at = tokens[i].end; at < tokens[j + 1].end; ++at)
      if (body[static_cast<size_t>(at)] == '\n') replacement += '\n';
    replacements.push_back({{tokens[i].start, tokens[j + 1].end}, std::move(replacement)});
    i = j + 1;
  }
  for (auto it = replacements.rbegin(); it != replacements.rend(); ++it)
    body.replace(static_cast<size_t>(it->first.first), static_cast<size_t>(it->first.second - it->first.first), it->second);
  return found;
}

}  // namespace

PlpgsqlBody ParsePlpgsql(std::string_view statement_text, bool returns_out_row, const std::optional<std::string>& body_text,
                         const std::function<bool(const std::string&)>& is_row_type) {
  PlpgsqlBody result;
  std::string text(statement_text);
  if (body_text) {
    BodyToken given = FindBody(text);
    if (given.start < 0) throw SqlError(sqlstate::kInternalError, "internal error: no function body to replace");
    const std::string tag = DollarTagFor(*body_text);
    text = text.substr(0, given.start) + tag + *body_text + tag + text.substr(given.end);
    // libpg_query parses the body only of a function in LANGUAGE plpgsql.
    const std::vector<SqlToken> tokens = ScanSql(text);
    for (size_t i = 0; i + 1 < tokens.size(); ++i)
      if (tokens[i].kind == PG_QUERY__TOKEN__LANGUAGE) {
        text = text.substr(0, tokens[i + 1].start) + "plpgsql" + text.substr(tokens[i + 1].end);
        break;
      }
  }
  BodyToken body = FindBody(text);
  result.body = body.body;
  result.body_offset = body_text ? -1 : body.content;  // a replaced body is not in the statement
  const std::vector<SqlToken> body_tokens = ScanSql(body.body);
  result.return_next = ReturnNextExpressions(body.body, body_tokens);
  std::string parsed_body = body.body;
  result.aliases = TakeAliases(parsed_body, body_tokens);
  if (returns_out_row && body.start >= 0) parsed_body = MarkReturnNext(parsed_body, body_tokens);
  result.cursors = TakeCursorStatements(parsed_body);
  result.row_types = TakeRowTypeDeclarations(parsed_body, ScanSql(parsed_body), is_row_type);
  if (parsed_body != body.body && body.start >= 0) {
    std::string tag = DollarTagFor(parsed_body);
    text = text.substr(0, body.start) + tag + parsed_body + tag + text.substr(body.end);
  }
  PgQueryPlpgsqlParseResult parsed = pg_query_parse_plpgsql(text.c_str());
  if (parsed.error != nullptr) {
    SqlError error(sqlstate::kSyntaxError, parsed.error->message);
    if (parsed.error->context && *parsed.error->context) error.WithContext(parsed.error->context);
    pg_query_free_plpgsql_parse_result(parsed);
    throw error;
  }
  nlohmann::json functions = nlohmann::json::parse(parsed.plpgsql_funcs, nullptr, false);
  pg_query_free_plpgsql_parse_result(parsed);
  if (!functions.is_array() || functions.empty() || !functions[0].contains("PLpgSQL_function"))
    throw SqlError(sqlstate::kInternalError, "internal error: pg_query_parse_plpgsql returned no function");
  result.function = std::move(functions[0]["PLpgSQL_function"]);
  return result;
}

std::string DollarTagFor(std::string_view body) {
  std::string tag = "$caracal$";
  while (body.find(tag) != std::string_view::npos) tag.insert(tag.size() - 1, "_");
  return tag;
}

}  // namespace caracal::planner
