#include "planner/parser/cursor_statements.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "planner/parser/sql_tokens.h"

namespace caracal::planner {

namespace {

constexpr std::string_view kMarkerName = "\"$caracal_cursor\"";

struct Edit {
  int start, end;
  std::string replacement;
};

class CursorRewriter {
 public:
  explicit CursorRewriter(const std::string& body) : body_(body), tokens_(ScanSql(body)) {}

  std::vector<CursorStatement> Run(std::vector<Edit>& edits) {
    // Bound cursors first: a FOR loop is over a cursor only if its name is declared one.
    for (size_t i = 0; i < tokens_.size(); ++i)
      if (Word(i) == "cursor") Declaration(i, edits);
    for (size_t i = 0; i < tokens_.size(); ++i) {
      if (!AtStatementStart(i)) continue;
      const std::string w = Word(i);
      if (w == "open") Open(i, edits);
      else if (w == "fetch" || w == "move") FetchOrMove(i, w == "fetch", edits);
      else if (w == "close") Close(i, edits);
      else if (w == "for") For(i, edits);
    }
    return std::move(statements_);
  }

 private:
  std::string Word(size_t i) const { return i < tokens_.size() ? TokenWord(body_, tokens_[i]) : std::string(); }
  bool Is(size_t i, PgQuery__Token kind) const { return i < tokens_.size() && tokens_[i].kind == kind; }
  bool IsSemicolon(size_t i) const { return Is(i, PG_QUERY__TOKEN__ASCII_59); }
  std::string_view Raw(size_t i) const {
    return std::string_view(body_).substr(static_cast<size_t>(tokens_[i].start),
                                          static_cast<size_t>(tokens_[i].end - tokens_[i].start));
  }
  // The text from token `from` up to (not including) token `to`.
  std::string Text(size_t from, size_t to) const {
    if (from >= to || from >= tokens_.size()) return {};
    const int end = to < tokens_.size() ? tokens_[to - 1].end : tokens_.back().end;
    return body_.substr(static_cast<size_t>(tokens_[from].start), static_cast<size_t>(end - tokens_[from].start));
  }
  int Line(size_t i) const {
    return 1 + static_cast<int>(std::count(body_.begin(), body_.begin() + tokens_[i].start, '\n'));
  }
  // The newlines of body_[start, end): what a replacement appends to keep later lines.
  std::string Newlines(int start, int end) const {
    return std::string(static_cast<size_t>(std::count(body_.begin() + start, body_.begin() + end, '\n')), '\n');
  }
  bool AtStatementStart(size_t i) const {
    if (i == 0) return true;
    if (IsSemicolon(i - 1)) return true;
    const std::string prev = Word(i - 1);
    if (prev == "begin" || prev == "loop" || prev == "then" || prev == "else" || prev == "declare") return true;
    return Raw(i - 1) == ">>";
  }
  // The first ';' at or after `i` outside parentheses and brackets (tokens_.size() if none).
  size_t StatementEnd(size_t i) const {
    int depth = 0;
    for (; i < tokens_.size(); ++i) {
      PgQuery__Token k = tokens_[i].kind;
      if (k == PG_QUERY__TOKEN__ASCII_40 || k == PG_QUERY__TOKEN__ASCII_91) ++depth;
      if (k == PG_QUERY__TOKEN__ASCII_41 || k == PG_QUERY__TOKEN__ASCII_93) --depth;
      if (k == PG_QUERY__TOKEN__ASCII_59 && depth <= 0) return i;
    }
    return i;
  }
  // The token after the ')' matching the '(' at `open`.
  size_t AfterParenthesis(size_t open) const {
    int depth = 0;
    for (size_t i = open; i < tokens_.size(); ++i) {
      if (Is(i, PG_QUERY__TOKEN__ASCII_40)) ++depth;
      if (Is(i, PG_QUERY__TOKEN__ASCII_41) && --depth == 0) return i + 1;
    }
    return tokens_.size();
  }
  // The comma-separated items between the parentheses at [open, close): token ranges.
  std::vector<std::pair<size_t, size_t>> Items(size_t open, size_t close) const {
    std::vector<std::pair<size_t, size_t>> items;
    int depth = 0;
    size_t from = open + 1;
    for (size_t i = open + 1; i + 1 < close; ++i) {
      PgQuery__Token k = tokens_[i].kind;
      if (k == PG_QUERY__TOKEN__ASCII_40 || k == PG_QUERY__TOKEN__ASCII_91) ++depth;
      if (k == PG_QUERY__TOKEN__ASCII_41 || k == PG_QUERY__TOKEN__ASCII_93) --depth;
      if (k == PG_QUERY__TOKEN__ASCII_44 && depth == 0) {
        items.emplace_back(from, i);
        from = i + 1;
      }
    }
    if (from + 1 < close || (from + 1 == close && !items.empty())) items.emplace_back(from, close - 1);
    return items;
  }
  std::vector<CursorStatement::Argument> Arguments(size_t open, size_t close) const {
    std::vector<CursorStatement::Argument> args;
    for (auto [from, to] : Items(open, close)) {
      CursorStatement::Argument a;
      if (to > from + 1 && (Raw(from + 1) == ":=" || Raw(from + 1) == "=>")) {
        a.name = Word(from);
        from += 2;
      }
      a.value = Text(from, to);
      args.push_back(std::move(a));
    }
    return args;
  }
  // A bound cursor's argument list at `at`, if there is one: into s; the token after it.
  size_t TakeArguments(size_t at, CursorStatement& s) const {
    if (!Is(at, PG_QUERY__TOKEN__ASCII_40)) return at;
    const size_t close = AfterParenthesis(at);
    s.arguments = Arguments(at, close);
    s.has_arguments = true;
    return close;
  }
  size_t Add(CursorStatement s) {
    statements_.push_back(std::move(s));
    return statements_.size() - 1;
  }
  void Replace(std::vector<Edit>& edits, size_t from, size_t last, const std::string& replacement) {
    const int start = tokens_[from].start, end = tokens_[last].end;
    edits.push_back({start, end, replacement + Newlines(start, end)});
  }

  // name [NO] [SCROLL] CURSOR [(params)] {FOR | IS} query ;
  void Declaration(size_t at, std::vector<Edit>& edits) {
    if (at == 0) return;
    size_t name = at - 1;
    CursorStatement s;
    s.kind = CursorStatement::Kind::kDeclare;
    if (Word(name) == "scroll") {
      s.scroll = CursorStatement::Scroll::kScroll;
      if (name == 0) return;
      --name;
      if (Word(name) == "no") {
        s.scroll = CursorStatement::Scroll::kNoScroll;
        if (name == 0) return;
        --name;
      }
    }
    if (name == 0 || !(IsSemicolon(name - 1) || Word(name - 1) == "declare")) return;
    if (Word(name).empty()) return;
    size_t next = at + 1;
    if (Is(next, PG_QUERY__TOKEN__ASCII_40)) {
      const size_t close = AfterParenthesis(next);
      for (auto [from, to] : Items(next, close)) {
        if (to <= from + 1) return;
        s.parameters.emplace_back(Word(from), Text(from + 1, to));
      }
      next = close;
    }
    if (Word(next) != "for" && Word(next) != "is") return;
    const size_t end = StatementEnd(next + 1);
    if (end >= tokens_.size()) return;
    s.cursor = Word(name);
    s.line = Line(name);
    s.query = Text(next + 1, end);
    cursors_.insert(s.cursor);
    const std::string cursor(Raw(name));
    const size_t n = Add(std::move(s));
    Replace(edits, name, end, fmt::format("{} refcursor := {};", cursor, CursorMarker(n)));
  }

  // OPEN c [(args)] ;   OPEN c [[NO] SCROLL] FOR query ;   OPEN c FOR EXECUTE ... ;
  void Open(size_t at, std::vector<Edit>& edits) {
    CursorStatement s;
    s.kind = CursorStatement::Kind::kOpen;
    s.cursor = Word(at + 1);
    if (s.cursor.empty()) return;
    s.line = Line(at);
    size_t next = TakeArguments(at + 2, s);
    if (!s.has_arguments) {
      if (Word(next) == "no" && Word(next + 1) == "scroll") {
        s.scroll = CursorStatement::Scroll::kNoScroll;
        next += 2;
      } else if (Word(next) == "scroll") {
        s.scroll = CursorStatement::Scroll::kScroll;
        next += 1;
      }
      if (Word(next) == "for") {
        if (Word(next + 1) == "execute") s.execute = true;
        const size_t end = StatementEnd(next + 1);
        s.query = Text(next + 1, end);
        next = end;
      }
    }
    if (!IsSemicolon(next)) return;
    const size_t n = Add(std::move(s));
    Replace(edits, at, next, fmt::format("PERFORM {};", CursorMarker(n)));
  }

  // FETCH [direction {FROM | IN}] c INTO target ;   MOVE [direction {FROM | IN}] c ;
  void FetchOrMove(size_t at, bool fetch, std::vector<Edit>& edits) {
    const size_t end = StatementEnd(at + 1);
    if (end >= tokens_.size()) return;
    size_t stop = end;  // the token after the cursor name
    if (fetch) {
      int depth = 0;
      for (stop = at + 1; stop < end; ++stop) {
        PgQuery__Token k = tokens_[stop].kind;
        if (k == PG_QUERY__TOKEN__ASCII_40 || k == PG_QUERY__TOKEN__ASCII_91) ++depth;
        if (k == PG_QUERY__TOKEN__ASCII_41 || k == PG_QUERY__TOKEN__ASCII_93) --depth;
        if (depth == 0 && Word(stop) == "into") break;
      }
      if (stop == end) return;  // PL/pgSQL's parser reports the missing INTO
    }
    if (stop <= at + 1) return;
    const size_t name = stop - 1;
    CursorStatement s;
    s.kind = fetch ? CursorStatement::Kind::kFetch : CursorStatement::Kind::kMove;
    s.cursor = Word(name);
    if (s.cursor.empty()) return;
    s.line = Line(at);
    size_t dir_end = name;  // direction tokens: (at, dir_end)
    if (dir_end > at + 1) {
      const std::string w = Word(dir_end - 1);
      if (w != "from" && w != "in") return;
      --dir_end;
    }
    if (!Direction(at + 1, dir_end, s)) return;
    const size_t n = Add(std::move(s));
    if (fetch) Replace(edits, at, end, fmt::format("SELECT {} {};", CursorMarker(n), Text(stop, end)));
    else Replace(edits, at, end, fmt::format("PERFORM {};", CursorMarker(n)));
  }

  bool Direction(size_t from, size_t to, CursorStatement& s) const {
    using D = CursorStatement::Direction;
    if (from == to) return true;
    const std::string w = Word(from);
    const bool single = to == from + 1;
    if (w == "next" && single) s.direction = D::kNext;
    else if (w == "prior" && single) s.direction = D::kPrior;
    else if (w == "first" && single) s.direction = D::kFirst;
    else if (w == "last" && single) s.direction = D::kLast;
    else if ((w == "absolute" || w == "relative") && !single) {
      s.direction = w == "absolute" ? D::kAbsolute : D::kRelative;
      s.count = Text(from + 1, to);
    } else if (w == "all" && single) {
      s.direction = D::kForward;
      s.all = s.multiple_rows = true;
    } else if (w == "forward" || w == "backward") {
      s.direction = w == "forward" ? D::kForward : D::kBackward;
      if (single) return true;
      s.multiple_rows = true;
      if (Word(from + 1) == "all" && to == from + 2) s.all = true;
      else s.count = Text(from + 1, to);
    } else {
      s.direction = D::kForward;
      s.count = Text(from, to);
      s.multiple_rows = true;
    }
    return true;
  }

  // CLOSE c ;
  void Close(size_t at, std::vector<Edit>& edits) {
    if (Word(at + 1).empty() || !IsSemicolon(at + 2)) return;
    CursorStatement s;
    s.kind = CursorStatement::Kind::kClose;
    s.cursor = Word(at + 1);
    s.line = Line(at);
    const size_t n = Add(std::move(s));
    Replace(edits, at, at + 2, fmt::format("PERFORM {};", CursorMarker(n)));
  }

  // [<<label>>] FOR r IN c [(args)] LOOP ... END LOOP [label] ;
  void For(size_t at, std::vector<Edit>& edits) {
    if (Word(at + 1).empty() || Word(at + 2) != "in" || !cursors_.contains(Word(at + 3))) return;
    CursorStatement s;
    s.kind = CursorStatement::Kind::kFor;
    s.loop_variable = Word(at + 1);
    s.cursor = Word(at + 3);
    s.line = Line(at);
    const size_t next = TakeArguments(at + 4, s);
    if (Word(next) != "loop") return;
    // The END LOOP that closes this loop, and the ';' after it.
    int depth = 1;
    size_t end = next + 1;
    for (; end < tokens_.size(); ++end) {
      if (Word(end) == "end" && Word(end + 1) == "loop") {
        ++end;
        if (--depth == 0) break;
      } else if (Word(end) == "loop") {
        ++depth;
      }
    }
    const size_t semicolon = StatementEnd(end);
    if (semicolon >= tokens_.size()) return;
    // A label before FOR stays the loop's: the record's block goes before it.
    size_t head = at;
    if (at >= 3 && Raw(at - 1) == ">>" && Raw(at - 3) == "<<") head = at - 3;
    const std::string variable(Raw(at + 1));
    const std::string label = head == at ? std::string() : Text(head, at) + " ";
    const size_t n = Add(std::move(s));
    // The FOR stays on its line (the label's may be another).
    if (head != at) Replace(edits, head, at - 1, fmt::format("DECLARE {} record; BEGIN {}", variable, label));
    Replace(edits, at, next,
            fmt::format("{}FOR {} IN SELECT {} LOOP", head == at ? fmt::format("DECLARE {} record; BEGIN ", variable) : "",
                        variable, CursorMarker(n)));
    edits.push_back({tokens_[semicolon].end, tokens_[semicolon].end, " END;"});
  }

  const std::string& body_;
  std::vector<SqlToken> tokens_;
  std::vector<CursorStatement> statements_;
  std::set<std::string> cursors_;  // bound cursors' names
};

}  // namespace

std::string CursorMarker(size_t n) { return fmt::format("{}({})", kMarkerName, n); }

std::optional<size_t> CursorMarkerNumber(std::string_view text) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.back())) || s.back() == ';')) s.remove_suffix(1);
    return s;
  };
  text = trim(text);
  if (text.size() > 7 && (text.substr(0, 7) == "SELECT " || text.substr(0, 7) == "select ")) text = trim(text.substr(7));
  if (!text.starts_with(kMarkerName)) return std::nullopt;
  text.remove_prefix(kMarkerName.size());
  if (text.size() < 3 || text.front() != '(' || text.back() != ')') return std::nullopt;
  text = text.substr(1, text.size() - 2);
  size_t n = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  return n;
}

std::vector<CursorStatement> TakeCursorStatements(std::string& body) {
  std::vector<Edit> edits;
  std::vector<CursorStatement> statements = CursorRewriter(body).Run(edits);
  // Back to front, so earlier offsets stay valid; at one offset the replacement before
  // the insertion (a loop's END; before the statement right after it).
  std::sort(edits.begin(), edits.end(),
            [](const Edit& a, const Edit& b) { return a.start != b.start ? a.start > b.start : a.end > b.end; });
  for (const Edit& e : edits)
    body.replace(static_cast<size_t>(e.start), static_cast<size_t>(e.end - e.start), e.replacement);
  return statements;
}

}  // namespace caracal::planner
