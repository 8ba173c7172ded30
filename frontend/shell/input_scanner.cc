#include "frontend/shell/input_scanner.h"

#include <fmt/format.h>

#include <cstdio>
#include <memory>

namespace caracal::frontend {

namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool IsIdentStart(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_' || u >= 0x80;
}
bool IsIdentCont(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9') || c == '$'; }
bool IsVariableChar(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }
char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (Lower(a[i]) != Lower(b[i])) return false;
  return true;
}

// The length of a dollar-quote delimiter ($$ or $tag$) at `s[p]`, or 0.
size_t DollarDelimiter(std::string_view s, size_t p) {
  if (p >= s.size() || s[p] != '$') return 0;
  size_t q = p + 1;
  if (q < s.size() && IsIdentStart(s[q])) {
    ++q;
    while (q < s.size() && (IsIdentStart(s[q]) || (s[q] >= '0' && s[q] <= '9'))) ++q;
  }
  return q < s.size() && s[q] == '$' ? q + 1 - p : 0;
}

// Runs `command` for a backtick argument and returns its output without the trailing newline.
std::string RunBacktick(const std::string& command, const InputScanner::WarningSink& warn) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) {
    warn(fmt::format("could not execute command \"{}\"", command));
    return "";
  }
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe.get())) > 0) out.append(buf, n);
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace

std::string QuoteLiteral(std::string_view value) {
  bool backslash = value.find('\\') != std::string_view::npos;
  std::string q = backslash ? " E'" : "'";
  for (char c : value) {
    if (c == '\'' || c == '\\') q += c;
    q += c;
  }
  return q + "'";
}

std::string QuoteIdentifier(std::string_view value) {
  std::string q = "\"";
  for (char c : value) {
    if (c == '"') q += c;
    q += c;
  }
  return q + "\"";
}

InputScanner::InputScanner(VariableLookup lookup, WarningSink warn) : lookup_(std::move(lookup)), warn_(std::move(warn)) {}

void InputScanner::SetLine(std::string line) {
  line_ = std::move(line);
  pos_ = 0;
  splices_.clear();
}

void InputScanner::Reset() {
  state_ = State::kInitial;
  comment_depth_ = paren_depth_ = begin_depth_ = identifier_count_ = 0;
  identifiers_.fill('\0');
  dollar_tag_.clear();
}

bool InputScanner::InQuote() const { return state_ != State::kInitial; }

// psql tracks BEGIN ... END only inside CREATE [OR REPLACE] FUNCTION|PROCEDURE, so that
// the semicolons of a SQL-standard body (BEGIN ATOMIC ... END) do not end the statement.
void InputScanner::TrackIdentifier(std::string_view word) {
  if (identifier_count_ == 0) identifiers_.fill('\0');
  for (std::string_view k : {"create", "function", "procedure", "or", "replace"})
    if (EqualsNoCase(word, k) && identifier_count_ < static_cast<int>(identifiers_.size()))
      identifiers_[identifier_count_] = Lower(word[0]);
  ++identifier_count_;
  const auto& id = identifiers_;
  bool in_routine = id[0] == 'c' && (id[1] == 'f' || id[1] == 'p' || (id[1] == 'o' && id[2] == 'r' && (id[3] == 'f' || id[3] == 'p')));
  if (!in_routine || paren_depth_ != 0) return;
  if (EqualsNoCase(word, "begin")) ++begin_depth_;
  else if (EqualsNoCase(word, "case") && begin_depth_ >= 1) ++begin_depth_;
  else if (EqualsNoCase(word, "end") && begin_depth_ > 0) --begin_depth_;
}

bool InputScanner::ExpandVariable(std::string& out, bool in_sql) {
  // pos_ is at ':'.
  size_t p = pos_ + 1;
  if (p >= line_.size()) return false;
  char open = line_[p];
  if (open == '{' && p + 1 < line_.size() && line_[p + 1] == '?') {
    size_t q = p + 2, start = q;
    while (q < line_.size() && IsVariableChar(line_[q])) ++q;
    if (q == start || q >= line_.size() || line_[q] != '}') return false;
    out += lookup_(line_.substr(start, q - start)) ? "TRUE" : "FALSE";
    pos_ = q + 1;
    return true;
  }
  if (open == '\'' || open == '"') {
    size_t q = p + 1, start = q;
    while (q < line_.size() && IsVariableChar(line_[q])) ++q;
    if (q == start || q >= line_.size() || line_[q] != open) return false;
    std::string name = line_.substr(start, q - start);
    std::optional<std::string> value = lookup_(name);
    if (!value) {
      out += line_.substr(pos_, q + 1 - pos_);
    } else {
      out += open == '\'' ? QuoteLiteral(*value) : QuoteIdentifier(*value);
    }
    pos_ = q + 1;
    return true;
  }
  size_t q = p;
  while (q < line_.size() && IsVariableChar(line_[q])) ++q;
  if (q == p) return false;
  std::string name = line_.substr(p, q - p);
  std::optional<std::string> value = lookup_(name);
  bool recursive = false;
  for (const Splice& s : splices_)
    if (s.name == name) recursive = true;
  if (recursive) {
    warn_(fmt::format("skipping recursive expansion of variable \"{}\"", name));
    value.reset();
  }
  if (!value) {
    out += line_.substr(pos_, q - pos_);
    pos_ = q;
    return true;
  }
  if (!in_sql) {
    out += *value;
    pos_ = q;
    return true;
  }
  // In SQL the value is lexed as if it had been typed (it may hold quotes or ';').
  size_t removed = q - pos_;
  line_.replace(pos_, removed, *value);
  for (Splice& s : splices_) s.end = s.end + value->size() - removed;
  splices_.push_back(Splice{pos_ + value->size(), name});
  return true;
}

ScanResult InputScanner::Scan(std::string& query, PromptStatus& prompt) {
  auto append = [&](std::string_view s) { query.append(s); };
  while (pos_ < line_.size()) {
    while (!splices_.empty() && splices_.back().end <= pos_) splices_.pop_back();
    char c = line_[pos_];
    char next = pos_ + 1 < line_.size() ? line_[pos_ + 1] : '\0';
    switch (state_) {
      case State::kQuote:
      case State::kExtendedQuote:
        if (state_ == State::kExtendedQuote && c == '\\' && pos_ + 1 < line_.size()) {
          append(line_.substr(pos_, 2));
          pos_ += 2;
        } else if (c == '\'' && next == '\'') {
          append("''");
          pos_ += 2;
        } else {
          if (c == '\'') state_ = State::kInitial;
          query += c;
          ++pos_;
        }
        continue;
      case State::kDoubleQuote:
        if (c == '"' && next == '"') {
          append("\"\"");
          pos_ += 2;
        } else {
          if (c == '"') state_ = State::kInitial;
          query += c;
          ++pos_;
        }
        continue;
      case State::kDollarQuote:
        if (c == '$' && line_.compare(pos_, dollar_tag_.size(), dollar_tag_) == 0) {
          append(dollar_tag_);
          pos_ += dollar_tag_.size();
          state_ = State::kInitial;
        } else {
          query += c;
          ++pos_;
        }
        continue;
      case State::kComment:
        if (c == '/' && next == '*') {
          ++comment_depth_;
          append("/*");
          pos_ += 2;
        } else if (c == '*' && next == '/') {
          append("*/");
          pos_ += 2;
          if (--comment_depth_ == 0) state_ = State::kInitial;
        } else {
          query += c;
          ++pos_;
        }
        continue;
      case State::kInitial: break;
    }
    // Outside quotes.
    if (IsSpace(c)) {
      if (!query.empty()) query += c;
      ++pos_;
    } else if (c == '-' && next == '-') {
      // A comment runs to the end of the line (a "line" re-scanned after \e may hold
      // several); like whitespace, dropped before a statement.
      size_t end = line_.find('\n', pos_);
      if (end == std::string::npos) end = line_.size();
      if (!query.empty()) append(std::string_view(line_).substr(pos_, end - pos_));
      pos_ = end;
    } else if (c == '/' && next == '*') {
      state_ = State::kComment;
      comment_depth_ = 1;
      append("/*");
      pos_ += 2;
    } else if (c == '\'') {
      state_ = State::kQuote;
      query += c;
      ++pos_;
    } else if (c == '"') {
      state_ = State::kDoubleQuote;
      query += c;
      ++pos_;
    } else if (c == '$') {
      size_t n = DollarDelimiter(line_, pos_);
      if (n > 0) {
        dollar_tag_ = line_.substr(pos_, n);
        state_ = State::kDollarQuote;
        append(dollar_tag_);
        pos_ += n;
      } else {
        query += c;
        ++pos_;
        while (pos_ < line_.size() && line_[pos_] >= '0' && line_[pos_] <= '9') query += line_[pos_++];
      }
    } else if (c == '(') {
      ++paren_depth_;
      query += c;
      ++pos_;
    } else if (c == ')') {
      if (paren_depth_ > 0) --paren_depth_;
      query += c;
      ++pos_;
    } else if (c == ';') {
      query += c;
      ++pos_;
      if (paren_depth_ == 0 && begin_depth_ == 0) {
        identifier_count_ = 0;
        prompt = PromptStatus::kContinue;
        return ScanResult::kSemicolon;
      }
    } else if (c == '\\') {
      if (next == ';' || next == ':') {
        // "\;" and "\:" put the character itself into the query.
        query += next;
        pos_ += 2;
      } else {
        ++pos_;
        prompt = query.empty() ? PromptStatus::kReady : PromptStatus::kContinue;
        return ScanResult::kBackslash;
      }
    } else if (c == ':') {
      if (next == ':' || next == '=') {
        append(line_.substr(pos_, 2));
        pos_ += 2;
      } else if (!ExpandVariable(query, true)) {
        query += c;
        ++pos_;
      }
    } else if (IsIdentStart(c)) {
      size_t end = pos_ + 1;
      while (end < line_.size() && IsIdentCont(line_[end])) ++end;
      std::string_view word = std::string_view(line_).substr(pos_, end - pos_);
      char after = end < line_.size() ? line_[end] : '\0';
      if (word.size() == 1 && after == '\'' && std::string_view("eEbBxXnN").find(word[0]) != std::string_view::npos) {
        // E'...' understands backslash escapes; B'', X'' and N'' quote like '...'.
        state_ = (word[0] == 'e' || word[0] == 'E') ? State::kExtendedQuote : State::kQuote;
        append(line_.substr(pos_, 2));
        pos_ = end + 1;
      } else if (word.size() == 1 && (word[0] == 'u' || word[0] == 'U') && after == '&' && end + 1 < line_.size() &&
                 (line_[end + 1] == '\'' || line_[end + 1] == '"')) {
        state_ = line_[end + 1] == '\'' ? State::kQuote : State::kDoubleQuote;
        append(line_.substr(pos_, 3));
        pos_ = end + 2;
      } else {
        TrackIdentifier(word);
        append(word);
        pos_ = end;
      }
    } else if (c >= '0' && c <= '9') {
      // A number (so that "1e5" or "1a" never looks like the start of E'...').
      size_t end = pos_ + 1;
      while (end < line_.size() && (IsIdentCont(line_[end]) || line_[end] == '.')) ++end;
      append(std::string_view(line_).substr(pos_, end - pos_));
      pos_ = end;
    } else {
      query += c;
      ++pos_;
    }
  }
  switch (state_) {
    case State::kQuote:
    case State::kExtendedQuote: prompt = PromptStatus::kSingleQuote; return ScanResult::kIncomplete;
    case State::kDoubleQuote: prompt = PromptStatus::kDoubleQuote; return ScanResult::kIncomplete;
    case State::kDollarQuote: prompt = PromptStatus::kDollarQuote; return ScanResult::kIncomplete;
    case State::kComment: prompt = PromptStatus::kComment; return ScanResult::kIncomplete;
    case State::kInitial: break;
  }
  if (paren_depth_ > 0) {
    prompt = PromptStatus::kParen;
    return ScanResult::kIncomplete;
  }
  if (begin_depth_ > 0) {
    prompt = PromptStatus::kContinue;
    return ScanResult::kIncomplete;
  }
  if (!query.empty()) {
    prompt = PromptStatus::kContinue;
    return ScanResult::kEol;
  }
  prompt = PromptStatus::kReady;
  return ScanResult::kIncomplete;
}

std::string InputScanner::ReadCommandName() {
  size_t start = pos_;
  while (pos_ < line_.size() && !IsSpace(line_[pos_]) && line_[pos_] != '\\') ++pos_;
  return line_.substr(start, pos_ - start);
}

// A single-quoted meta-command argument: '' is a quote; \n \t \b \r \f, octal \ooo and
// hex \xHH escapes as in psql.
std::string InputScanner::ReadQuotedArgument() {
  std::string out;
  ++pos_;  // the opening quote
  while (pos_ < line_.size()) {
    char c = line_[pos_];
    if (c == '\'') {
      if (pos_ + 1 < line_.size() && line_[pos_ + 1] == '\'') {
        out += '\'';
        pos_ += 2;
        continue;
      }
      ++pos_;
      return out;
    }
    if (c == '\\' && pos_ + 1 < line_.size()) {
      char e = line_[pos_ + 1];
      pos_ += 2;
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'b': out += '\b'; break;
        case 'r': out += '\r'; break;
        case 'f': out += '\f'; break;
        case 'x': {
          int v = 0, n = 0;
          while (n < 2 && pos_ < line_.size() && std::isxdigit(static_cast<unsigned char>(line_[pos_]))) {
            char h = line_[pos_++];
            v = v * 16 + (h <= '9' ? h - '0' : (Lower(h) - 'a' + 10));
            ++n;
          }
          if (n == 0) out += 'x';
          else out += static_cast<char>(v);
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            int v = e - '0', n = 1;
            while (n < 3 && pos_ < line_.size() && line_[pos_] >= '0' && line_[pos_] <= '7') {
              v = v * 8 + (line_[pos_++] - '0');
              ++n;
            }
            out += static_cast<char>(v);
          } else {
            out += e;
          }
      }
      continue;
    }
    out += c;
    ++pos_;
  }
  // psql accepts an unterminated quote at the end of the line as ending there.
  warn_("unterminated quoted string");
  return out;
}

std::optional<std::string> InputScanner::ReadArgument(ArgMode mode, bool* quoted) {
  if (quoted) *quoted = false;
  while (pos_ < line_.size() && IsSpace(line_[pos_])) ++pos_;
  if (pos_ >= line_.size()) return std::nullopt;
  if (mode == ArgMode::kWholeLine || (mode == ArgMode::kFilePipe && line_[pos_] == '|')) {
    std::string rest = line_.substr(pos_);
    pos_ = line_.size();
    while (!rest.empty() && IsSpace(rest.back())) rest.pop_back();
    if (rest.empty()) return std::nullopt;
    return rest;
  }
  if (line_[pos_] == '\\') return std::nullopt;
  std::string out;
  bool quoted_anything = false;
  while (pos_ < line_.size() && !IsSpace(line_[pos_]) && line_[pos_] != '\\') {
    char c = line_[pos_];
    if (c == '\'') {
      out += ReadQuotedArgument();
      quoted_anything = true;
    } else if (c == '"') {
      size_t end = line_.find('"', pos_ + 1);
      if (end == std::string::npos) end = line_.size() - 1;
      out += line_.substr(pos_, end + 1 - pos_);
      pos_ = end + 1;
      quoted_anything = true;
    } else if (c == '`' && mode != ArgMode::kNoEval) {
      size_t end = line_.find('`', pos_ + 1);
      if (end == std::string::npos) {
        warn_("unterminated quoted string");
        end = line_.size();
      }
      out += RunBacktick(line_.substr(pos_ + 1, end - pos_ - 1), warn_);
      pos_ = std::min(end + 1, line_.size());
      quoted_anything = true;
    } else if (c == ':' && mode != ArgMode::kNoEval && ExpandVariable(out, false)) {
      quoted_anything = true;
    } else {
      out += c;
      ++pos_;
    }
  }
  if (out.empty() && !quoted_anything) return std::nullopt;
  if (quoted) *quoted = quoted_anything;
  if (mode == ArgMode::kIdentifier) {
    // Unquoted letters are lower-cased; "..." is taken as written ("" is a quote).
    std::string id;
    bool in_quotes = false;
    for (size_t i = 0; i < out.size(); ++i) {
      char c = out[i];
      if (c == '"') {
        if (in_quotes && i + 1 < out.size() && out[i + 1] == '"') {
          id += '"';
          ++i;
        } else {
          in_quotes = !in_quotes;
        }
      } else {
        id += in_quotes ? c : Lower(c);
      }
    }
    return id;
  }
  return out;
}

void InputScanner::EndCommand() {
  size_t p = pos_;
  while (p < line_.size() && IsSpace(line_[p])) ++p;
  if (line_.compare(p, 2, "\\\\") == 0) pos_ = p + 2;
}

}  // namespace caracal::frontend
