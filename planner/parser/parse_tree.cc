#include "planner/parser/parse_tree.h"

#include <functional>

extern "C" {
#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>
}

#include <algorithm>
#include <cctype>

namespace caracal::planner {

namespace {

// Reads SQL words of a statement, skipping whitespace and comments.
class WordReader {
 public:
  explicit WordReader(std::string_view text) : text_(text) {}
  size_t position() {
    Skip();
    return pos_;
  }
  // The next identifier-like word (case-folded), or "" at anything else.
  std::string Word() {
    Skip();
    std::string word;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
                                   text_[pos_] == '$' || static_cast<unsigned char>(text_[pos_]) >= 0x80))
      word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text_[pos_++]))));
    return word;
  }
  // A name: a word, or a "quoted identifier" (kept as written).
  std::string Name() {
    Skip();
    if (pos_ < text_.size() && text_[pos_] == '"') {
      std::string name;
      for (++pos_; pos_ < text_.size(); ++pos_) {
        if (text_[pos_] != '"') {
          name.push_back(text_[pos_]);
        } else if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '"') {
          name.push_back('"');
          ++pos_;
        } else {
          ++pos_;
          return name;
        }
      }
      return "";
    }
    return Word();
  }
  bool AtEnd() { return position() >= text_.size(); }

 private:
  void Skip() {
    for (;;) {
      while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      if (text_.substr(pos_, 2) == "--") {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (text_.substr(pos_, 2) == "/*") {
        size_t end = text_.find("*/", pos_ + 2);
        pos_ = end == std::string_view::npos ? text_.size() : end + 2;
      } else {
        return;
      }
    }
  }
  std::string_view text_;
  size_t pos_ = 0;
};

struct ExtensionStatement {
  Extension kind;
  int location;  // byte offset in the input
  int length;
  std::string name;
};

bool MentionsExplain(std::string_view sql) {
  static constexpr std::string_view kWord = "explain";
  return std::search(sql.begin(), sql.end(), kWord.begin(), kWord.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         }) != sql.end();
}

// Finds the Extension statements of `input` and blanks what PostgreSQL's grammar would
// reject (the whole EXPLAIN PROCEDURE statement, the word EXPLAIN before CALL) with
// spaces, so that every byte offset stays the same.
std::vector<ExtensionStatement> BlankExtensions(std::string& input) {
  std::vector<ExtensionStatement> found;
  if (!MentionsExplain(input)) return found;
  PgQuerySplitResult split = pg_query_split_with_scanner(input.c_str());
  if (split.error == nullptr) {
    for (int i = 0; i < split.n_stmts; ++i) {
      int location = split.stmts[i]->stmt_location, length = split.stmts[i]->stmt_len;
      std::string_view piece = std::string_view(input).substr(location, length);
      WordReader words(piece);
      size_t start = words.position();
      if (words.Word() != "explain") continue;
      size_t after_explain = words.position();
      std::string what = words.Word();
      if (what == "procedure" || what == "function") {
        std::string name = words.Name();
        if (name.empty() || !words.AtEnd()) continue;  // let the parser report it
        found.push_back({Extension::kExplainProcedure, location + static_cast<int>(start), length - static_cast<int>(start), name});
        std::fill_n(input.begin() + location, length, ' ');
      } else if (what == "call") {
        found.push_back({Extension::kExplainCall, location + static_cast<int>(after_explain), 0, ""});
        std::fill_n(input.begin() + location + start, after_explain - start, ' ');
      }
    }
  }
  pg_query_free_split_result(split);
  return found;
}

}  // namespace

std::string SyntaxError::hint() const {
  const std::string_view m = what();
  if (m == "subquery in FROM must have an alias") return "For example, FROM (SELECT ...) [AS] foo.";
  if (m == "VALUES in FROM must have an alias") return "For example, FROM (VALUES ...) [AS] foo.";
  return {};
}

void ParseTree::Deleter::operator()(PgQuery__ParseResult* p) const { pg_query__parse_result__free_unpacked(p, nullptr); }

ParseTree ParseTree::Parse(std::string_view sql) {
  ParseTree tree;
  tree.input_ = std::string(sql);
  std::string parsed = tree.input_;
  std::vector<ExtensionStatement> extensions = BlankExtensions(parsed);
  PgQueryProtobufParseResult raw = pg_query_parse_protobuf(parsed.c_str());
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
    ParsedStatement statement{raw_stmt->stmt, location, tree.input_.substr(location, length), Extension::kNone, {}};
    for (const ExtensionStatement& e : extensions)
      if (e.kind == Extension::kExplainCall && e.location >= location && e.location < location + length)
        statement.extension = Extension::kExplainCall;
    tree.statements_.push_back(std::move(statement));
  }
  for (const ExtensionStatement& e : extensions) {
    if (e.kind != Extension::kExplainProcedure) continue;
    ParsedStatement statement{nullptr, e.location, tree.input_.substr(e.location, e.length), e.kind, e.name};
    auto at = std::ranges::find_if(tree.statements_, [&](const ParsedStatement& s) { return s.location > e.location; });
    tree.statements_.insert(at, std::move(statement));
  }
  return tree;
}

int LineOf(std::string_view text, int offset) {
  int line = 1;
  for (int i = 0; i < offset && i < static_cast<int>(text.size()); ++i)
    if (text[i] == '\n') ++line;
  return line;
}

namespace {

// Whether `found` holds for a message of the protobuf-c tree under `m`: walks every
// message field (libpg_query has a node type per grammar production; a generic walk
// keeps this independent of them).
bool AnyMessage(const ProtobufCMessage* m, const std::function<bool(const ProtobufCMessage*)>& found) {
  if (m == nullptr) return false;
  if (found(m)) return true;
  const ProtobufCMessageDescriptor* d = m->descriptor;
  const char* base = reinterpret_cast<const char*>(m);
  for (unsigned i = 0; i < d->n_fields; ++i) {
    const ProtobufCFieldDescriptor& field = d->fields[i];
    if (field.type != PROTOBUF_C_TYPE_MESSAGE) continue;
    // A oneof's members share their storage: only the one set is there.
    if ((field.flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0 &&
        *reinterpret_cast<const uint32_t*>(base + field.quantifier_offset) != field.id)
      continue;
    if (field.label == PROTOBUF_C_LABEL_REPEATED) {
      const size_t n = *reinterpret_cast<const size_t*>(base + field.quantifier_offset);
      auto* items = *reinterpret_cast<ProtobufCMessage* const* const*>(base + field.offset);
      for (size_t k = 0; k < n; ++k)
        if (AnyMessage(items[k], found)) return true;
    } else if (AnyMessage(*reinterpret_cast<ProtobufCMessage* const*>(base + field.offset), found)) {
      return true;
    }
  }
  return false;
}

bool MessageCalls(const ProtobufCMessage* m, const std::function<bool(std::string_view)>& wanted) {
  return AnyMessage(m, [&](const ProtobufCMessage* n) {
    if (n->descriptor != &pg_query__func_call__descriptor) return false;
    const auto* f = reinterpret_cast<const PgQuery__FuncCall*>(n);
    if (f->n_funcname == 0) return false;
    const PgQuery__Node* last = f->funcname[f->n_funcname - 1];
    return last->node_case == PG_QUERY__NODE__NODE_STRING && wanted(last->string->sval);
  });
}

}  // namespace

bool CallsFunction(const PgQuery__Node* node, std::string_view name) {
  return MessageCalls(reinterpret_cast<const ProtobufCMessage*>(node), [&](std::string_view n) { return n == name; });
}

bool CallsFunction(const PgQuery__Node* node, const std::function<bool(std::string_view)>& wanted) {
  return MessageCalls(reinterpret_cast<const ProtobufCMessage*>(node), wanted);
}

bool NamesRelation(const PgQuery__Node* node, const std::function<bool(const PgQuery__RangeVar&)>& wanted) {
  return AnyMessage(reinterpret_cast<const ProtobufCMessage*>(node), [&](const ProtobufCMessage* n) {
    return n->descriptor == &pg_query__range_var__descriptor && wanted(*reinterpret_cast<const PgQuery__RangeVar*>(n));
  });
}

}  // namespace caracal::planner
