#include "planner/types/json.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "planner/types/bytes_text.h"
#include "planner/types/numeric.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
// PostgreSQL's JSON_ALPHANUMERIC_CHAR: what a bad "word" token runs over.
bool IsWordChar(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || u >= 0x80;
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xc0 | cp >> 6));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | cp >> 12));
    out.push_back(static_cast<char>(0x80 | (cp >> 6 & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | cp >> 18));
    out.push_back(static_cast<char>(0x80 | (cp >> 12 & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp >> 6 & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

// A recursive-descent parser with PostgreSQL's lexer rules and error reports
// (src/common/jsonapi.c): the same tokens, the same DETAIL for each failure, the same
// CONTEXT line.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  JsonNode Document() {
    JsonNode root = Value();
    Lex();
    if (kind_ != Token::kEnd) Fail(fmt::format("Expected end of input, but found \"{}\".", TokenText()));
    return root;
  }

 private:
  enum class Token { kNone, kEnd, kString, kNumber, kTrue, kFalse, kNull, kObjectStart, kObjectEnd, kArrayStart, kArrayEnd,
                     kComma, kColon };

  // The next token into kind_ / start_ / end_ (and string_ for a string).
  void Lex() {
    while (pos_ < text_.size() && IsJsonSpace(text_[pos_])) ++pos_;
    start_ = pos_;
    if (pos_ >= text_.size()) {
      kind_ = Token::kEnd;
      end_ = pos_;
      return;
    }
    const char c = text_[pos_];
    auto single = [&](Token t) {
      kind_ = t;
      end_ = ++pos_;
    };
    switch (c) {
      case '{': return single(Token::kObjectStart);
      case '}': return single(Token::kObjectEnd);
      case '[': return single(Token::kArrayStart);
      case ']': return single(Token::kArrayEnd);
      case ',': return single(Token::kComma);
      case ':': return single(Token::kColon);
      case '"': return LexString();
      default: break;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return LexNumber();
    // A word: true, false, null, or an invalid token running over word characters.
    size_t p = pos_;
    while (p < text_.size() && IsWordChar(text_[p])) ++p;
    if (p == pos_) p = pos_ + 1;
    end_ = pos_ = p;
    const std::string_view word = text_.substr(start_, end_ - start_);
    if (word == "true") kind_ = Token::kTrue;
    else if (word == "false") kind_ = Token::kFalse;
    else if (word == "null") kind_ = Token::kNull;
    else Fail(fmt::format("Token \"{}\" is invalid.", word));
  }

  void LexNumber() {
    size_t p = pos_;
    auto digits = [&] {
      const size_t from = p;
      while (p < text_.size() && text_[p] >= '0' && text_[p] <= '9') ++p;
      return p - from;
    };
    bool ok = true;
    if (text_[p] == '-') ++p;
    if (p < text_.size() && text_[p] == '0') {
      ++p;
    } else if (digits() == 0) {
      ok = false;
    }
    if (ok && p < text_.size() && text_[p] == '.') {
      ++p;
      if (digits() == 0) ok = false;
    }
    if (ok && p < text_.size() && (text_[p] == 'e' || text_[p] == 'E')) {
      ++p;
      if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
      if (digits() == 0) ok = false;
    }
    // A number followed by word characters (01, 1x, 1.) is one invalid token.
    if (!ok || (p < text_.size() && (IsWordChar(text_[p]) || text_[p] == '.'))) {
      while (p < text_.size() && (IsWordChar(text_[p]) || text_[p] == '.' || text_[p] == '-' || text_[p] == '+')) ++p;
      end_ = pos_ = p;
      Fail(fmt::format("Token \"{}\" is invalid.", text_.substr(start_, end_ - start_)));
    }
    kind_ = Token::kNumber;
    end_ = pos_ = p;
  }

  void LexString() {
    string_.clear();
    size_t p = pos_ + 1;
    for (;;) {
      if (p >= text_.size()) {
        end_ = pos_ = p;
        Fail(fmt::format("Token \"{}\" is invalid.", text_.substr(start_, end_ - start_)));
      }
      const char c = text_[p];
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) {
        end_ = p;
        Fail(fmt::format("Character with value 0x{:02x} must be escaped.", static_cast<unsigned char>(c)));
      }
      if (c != '\\') {
        string_.push_back(c);
        ++p;
        continue;
      }
      ++p;
      if (p >= text_.size()) {
        end_ = pos_ = p;
        Fail(fmt::format("Token \"{}\" is invalid.", text_.substr(start_, end_ - start_)));
      }
      const char e = text_[p];
      switch (e) {
        case '"': case '\\': case '/': string_.push_back(e); ++p; continue;
        case 'b': string_.push_back('\b'); ++p; continue;
        case 'f': string_.push_back('\f'); ++p; continue;
        case 'n': string_.push_back('\n'); ++p; continue;
        case 'r': string_.push_back('\r'); ++p; continue;
        case 't': string_.push_back('\t'); ++p; continue;
        case 'u': {
          ++p;
          auto hex4 = [&]() -> uint32_t {
            uint32_t v = 0;
            for (int i = 0; i < 4; ++i, ++p) {
              const char h = p < text_.size() ? text_[p] : '\0';
              const int d = HexDigitValue(h);
              if (d < 0) {
                end_ = std::min(p + 1, text_.size());
                Fail("\"\\u\" must be followed by four hexadecimal digits.");
              }
              v = v << 4 | static_cast<uint32_t>(d);
            }
            return v;
          };
          uint32_t cp = hex4();
          if (cp >= 0xd800 && cp <= 0xdbff) {
            if (p + 1 < text_.size() && text_[p] == '\\' && text_[p + 1] == 'u') {
              p += 2;
              const uint32_t low = hex4();
              if (low < 0xdc00 || low > 0xdfff) {
                end_ = p;
                Fail("Unicode low surrogate must follow a high surrogate.");
              }
              cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
            } else {
              end_ = p;
              Fail("Unicode low surrogate must follow a high surrogate.");
            }
          } else if (cp >= 0xdc00 && cp <= 0xdfff) {
            end_ = p;
            Fail("Unicode low surrogate must follow a high surrogate.");
          }
          if (cp == 0)
            throw SqlError("22P05", "unsupported Unicode escape sequence")
                .WithDetail("\\u0000 cannot be converted to text.")
                .WithContext(Context(p));
          AppendUtf8(string_, cp);
          continue;
        }
        default: {
          end_ = p + 1;
          start_ = p;
          Fail(fmt::format("Escape sequence \"\\{}\" is invalid.", text_.substr(p, 1)));
        }
      }
    }
    kind_ = Token::kString;
    end_ = pos_ = p + 1;
  }

  std::string_view TokenText() const { return text_.substr(start_, end_ - start_); }

  // PostgreSQL's report_json_context: the line of the error up to the token's end.
  std::string Context(size_t context_end) const {
    size_t line_start = 0;
    int line = 1;
    for (size_t i = 0; i < context_end && i < text_.size(); ++i)
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    size_t from = line_start;
    while (context_end - from >= 50) {
      ++from;
      while (from < context_end && (static_cast<unsigned char>(text_[from]) & 0xc0) == 0x80) ++from;
    }
    const bool more = kind_ != Token::kEnd && context_end < text_.size() && text_[context_end] != '\n' &&
                      text_[context_end] != '\r';
    return fmt::format("JSON data, line {}: {}{}{}", line, from > line_start ? "..." : "",
                       text_.substr(from, context_end - from), more ? "..." : "");
  }

  [[noreturn]] void Fail(const std::string& detail) const {
    throw SqlError(sqlstate::kInvalidTextRepresentation, "invalid input syntax for type json")
        .WithDetail(detail)
        .WithContext(Context(end_));
  }

  [[noreturn]] void Expected(const char* what) const {
    if (kind_ == Token::kEnd) Fail("The input string ended unexpectedly.");
    Fail(fmt::format("Expected {}, but found \"{}\".", what, TokenText()));
  }

  JsonNode Value() {
    Lex();
    return ValueFromToken();
  }

  JsonNode ValueFromToken() {
    JsonNode node;
    const size_t from = start_;
    switch (kind_) {
      case Token::kString: node.kind = JsonNode::Kind::kString; node.text = string_; break;
      case Token::kNumber: node.kind = JsonNode::Kind::kNumber; node.text = std::string(TokenText()); break;
      case Token::kTrue: node.kind = JsonNode::Kind::kBool; node.boolean = true; break;
      case Token::kFalse: node.kind = JsonNode::Kind::kBool; break;
      case Token::kNull: node.kind = JsonNode::Kind::kNull; break;
      case Token::kObjectStart: Object(node); break;
      case Token::kArrayStart: Array(node); break;
      default: Expected("JSON value");
    }
    node.raw = text_.substr(from, end_ - from);
    return node;
  }

  // Nesting is bounded so that a deep document cannot exhaust a worker thread's stack
  // (PostgreSQL bounds it by max_stack_depth).
  static constexpr int kMaxDepth = 1000;
  void Enter() {
    if (++depth_ > kMaxDepth)
      throw SqlError("54001", fmt::format("JSON nesting depth exceeds the maximum allowed ({})", kMaxDepth));
  }

  void Object(JsonNode& node) {
    Enter();
    node.kind = JsonNode::Kind::kObject;
    Lex();
    if (kind_ == Token::kObjectEnd) {
      --depth_;
      return;
    }
    for (;;) {
      if (kind_ != Token::kString) Expected(node.keys.empty() ? "string or \"}\"" : "string");
      node.keys.push_back(string_);
      Lex();
      if (kind_ != Token::kColon) Expected("\":\"");
      node.items.push_back(Value());
      Lex();
      if (kind_ == Token::kObjectEnd) {
        --depth_;
        return;
      }
      if (kind_ != Token::kComma) Expected("\",\" or \"}\"");
      Lex();
    }
  }

  void Array(JsonNode& node) {
    Enter();
    node.kind = JsonNode::Kind::kArray;
    Lex();
    if (kind_ == Token::kArrayEnd) {
      --depth_;
      return;
    }
    for (;;) {
      node.items.push_back(ValueFromToken());
      Lex();
      if (kind_ == Token::kArrayEnd) {
        --depth_;
        return;
      }
      if (kind_ != Token::kComma) Expected("\",\" or \"]\"");
      Lex();
    }
  }

  std::string_view text_;
  size_t pos_ = 0, start_ = 0, end_ = 0;
  Token kind_ = Token::kNone;  // kNone until the first token is lexed
  int depth_ = 0;
  std::string string_;
};

// jsonb's key order: shorter keys first, then bytewise.
bool JsonbKeyLess(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

void AppendJsonbText(std::string& out, const JsonNode& node) {
  switch (node.kind) {
    case JsonNode::Kind::kNull: out += "null"; return;
    case JsonNode::Kind::kBool: out += node.boolean ? "true" : "false"; return;
    case JsonNode::Kind::kNumber: out += node.text; return;
    case JsonNode::Kind::kString: out += JsonQuote(node.text); return;
    case JsonNode::Kind::kArray:
      out.push_back('[');
      for (size_t i = 0; i < node.items.size(); ++i) {
        if (i) out += ", ";
        AppendJsonbText(out, node.items[i]);
      }
      out.push_back(']');
      return;
    case JsonNode::Kind::kObject:
      out.push_back('{');
      for (size_t i = 0; i < node.items.size(); ++i) {
        if (i) out += ", ";
        out += JsonQuote(node.keys[i]);
        out += ": ";
        AppendJsonbText(out, node.items[i]);
      }
      out.push_back('}');
      return;
  }
}

bool ScalarsEqual(const JsonNode& a, const JsonNode& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case JsonNode::Kind::kNull: return true;
    case JsonNode::Kind::kBool: return a.boolean == b.boolean;
    case JsonNode::Kind::kString: return a.text == b.text;
    case JsonNode::Kind::kNumber: {
      const std::optional<Numeric> x = Numeric::Parse(a.text), y = Numeric::Parse(b.text);
      return x && y ? Compare(*x, *y) == 0 : a.text == b.text;
    }
    default: return false;
  }
}

bool Contains(const JsonNode& a, const JsonNode& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case JsonNode::Kind::kObject:
      for (size_t i = 0; i < b.keys.size(); ++i) {
        const JsonNode* v = a.Member(b.keys[i]);
        if (v == nullptr) return false;
        if (v->kind != b.items[i].kind) return false;
        if (!Contains(*v, b.items[i])) return false;
      }
      return true;
    case JsonNode::Kind::kArray:
      for (const JsonNode& want : b.items) {
        const bool found = std::any_of(a.items.begin(), a.items.end(), [&](const JsonNode& have) {
          if (want.kind == JsonNode::Kind::kArray || want.kind == JsonNode::Kind::kObject)
            return have.kind == want.kind && Contains(have, want);
          return ScalarsEqual(have, want);
        });
        if (!found) return false;
      }
      return true;
    default: return ScalarsEqual(a, b);
  }
}

}  // namespace

const JsonNode* JsonNode::Member(std::string_view key) const {
  if (kind != Kind::kObject) return nullptr;
  for (size_t i = keys.size(); i-- > 0;)
    if (keys[i] == key) return &items[i];
  return nullptr;
}

const JsonNode* JsonNode::Element(int64_t index) const {
  if (kind != Kind::kArray) return nullptr;
  const auto n = static_cast<int64_t>(items.size());
  if (index < 0) index += n;
  if (index < 0 || index >= n) return nullptr;
  return &items[static_cast<size_t>(index)];
}

JsonNode ParseJson(std::string_view text) { return Parser(text).Document(); }

JsonNode ToJsonb(JsonNode node) {
  node.raw = {};
  switch (node.kind) {
    case JsonNode::Kind::kNumber:
      if (std::optional<Numeric> n = Numeric::Parse(node.text)) node.text = n->ToString();
      return node;
    case JsonNode::Kind::kArray:
      for (JsonNode& item : node.items) item = ToJsonb(std::move(item));
      return node;
    case JsonNode::Kind::kObject: {
      // Stable sort by key, then keep the last of each run of equal keys.
      std::vector<size_t> order(node.keys.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t a, size_t b) { return JsonbKeyLess(node.keys[a], node.keys[b]); });
      JsonNode out;
      out.kind = JsonNode::Kind::kObject;
      for (size_t k = 0; k < order.size(); ++k) {
        const size_t i = order[k];
        if (k + 1 < order.size() && node.keys[order[k + 1]] == node.keys[i]) continue;
        out.keys.push_back(std::move(node.keys[i]));
        out.items.push_back(ToJsonb(std::move(node.items[i])));
      }
      return out;
    }
    default: return node;
  }
}

std::string JsonbText(const JsonNode& node) {
  std::string out;
  AppendJsonbText(out, node);
  return out;
}

std::string_view JsonTypeName(const JsonNode& node) {
  switch (node.kind) {
    case JsonNode::Kind::kNull: return "null";
    case JsonNode::Kind::kBool: return "boolean";
    case JsonNode::Kind::kNumber: return "number";
    case JsonNode::Kind::kString: return "string";
    case JsonNode::Kind::kArray: return "array";
    case JsonNode::Kind::kObject: return "object";
  }
  return "null";
}

std::string JsonQuote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
        else out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

std::string JsonScalarText(const JsonNode& node, bool jsonb) {
  if (node.kind == JsonNode::Kind::kString) return node.text;
  if (!jsonb) return std::string(node.raw);
  return JsonbText(node);
}

bool JsonbContains(const JsonNode& a, const JsonNode& b) {
  // A top-level array contains a scalar it holds ('[1, 2]' @> '1').
  if (a.kind == JsonNode::Kind::kArray && b.kind != JsonNode::Kind::kArray && b.kind != JsonNode::Kind::kObject) {
    JsonNode wrapped;
    wrapped.kind = JsonNode::Kind::kArray;
    wrapped.items.push_back(b);
    return Contains(a, wrapped);
  }
  return Contains(a, b);
}

}  // namespace caracal::planner
