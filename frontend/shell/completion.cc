#include "frontend/shell/completion.h"

#include <dirent.h>
#include <strings.h>

#include <algorithm>
#include <set>

namespace caracal::frontend {

namespace {

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool IsBreak(char c) { return std::string_view(" \t\n@><=;|&(),").find(c) != std::string_view::npos; }

// The words of the current statement before the word being completed, upper-cased, with
// quoted strings collapsed (so that their contents never look like keywords).
std::vector<std::string> PreviousWords(const std::string& text, size_t word_start) {
  std::vector<std::string> words;
  std::string current;
  char quote = 0;
  auto flush = [&] {
    if (!current.empty()) words.push_back(Upper(current));
    current.clear();
  };
  for (size_t i = 0; i < word_start; ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') {
      flush();
      quote = c;
      current = "''";
      flush();
      continue;
    }
    if (c == ';') {
      flush();
      words.clear();
      continue;
    }
    if (c == '(' || c == ')' || c == ',' || c == '=') {
      flush();
      words.push_back(std::string(1, c));
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      flush();
      continue;
    }
    current += c;
  }
  flush();
  return words;
}

// Keywords in the case COMP_KEYWORD_CASE asks for, given what was typed.
std::string KeywordCase(const std::string& keyword, const std::string& typed, const std::string& mode) {
  bool typed_lower = !typed.empty() && std::islower(static_cast<unsigned char>(typed[0]));
  bool typed_upper = !typed.empty() && std::isupper(static_cast<unsigned char>(typed[0]));
  if (mode == "lower") return Lower(keyword);
  if (mode == "upper") return Upper(keyword);
  if (mode == "preserve-lower") return typed_upper ? Upper(keyword) : Lower(keyword);
  return typed_lower ? Lower(keyword) : Upper(keyword);  // preserve-upper
}

std::vector<std::string> Files(const std::string& prefix) {
  std::string dir = ".", base = prefix;
  size_t slash = prefix.rfind('/');
  if (slash != std::string::npos) {
    dir = slash == 0 ? "/" : prefix.substr(0, slash);
    base = prefix.substr(slash + 1);
  }
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if (name.rfind(base, 0) != 0) continue;
    if (name[0] == '.' && base.empty()) continue;
    std::string full = slash == std::string::npos ? name : prefix.substr(0, slash + 1) + name;
    if (e->d_type == DT_DIR) full += '/';
    out.push_back(full);
  }
  closedir(d);
  return out;
}

}  // namespace

const std::vector<std::string>& MetaCommandNames() {
  static const std::vector<std::string> names = {
      "\\?",        "\\a",        "\\C",         "\\cd",           "\\conninfo",    "\\copy",     "\\copyright",
      "\\d",        "\\dconfig",  "\\e",         "\\ef",  "\\df",        "\\di",           "\\ds",          "\\dt",       "\\dw",
      "\\echo",     "\\elif",     "\\else",      "\\encoding",     "\\endif",       "\\endpipeline",
      "\\errverbose", "\\f",      "\\g",         "\\gexec",         "\\getenv",       "\\getresults",  "\\gset",     "\\gx",
      "\\h",        "\\help",     "\\i",         "\\if",           "\\ir",          "\\o",        "\\p",
      "\\prompt",   "\\pset",     "\\q",         "\\qecho",        "\\r",           "\\restrict",   "\\unrestrict",           "\\s",        "\\set",
      "\\setenv",   "\\sf",       "\\startpipeline", "\\t",        "\\timing",      "\\unset",    "\\w",
      "\\warn",     "\\watch",    "\\x",         "\\!"};
  return names;
}

std::vector<std::string> Complete(const std::string& text, const CompletionSources& s) {
  size_t start = text.size();
  while (start > 0 && !IsBreak(text[start - 1])) --start;
  const std::string word = text.substr(start);
  std::set<std::string> out;
  auto offer = [&](const std::string& candidate) {
    if (candidate.size() >= word.size() && strncasecmp(candidate.c_str(), word.c_str(), word.size()) == 0)
      out.insert(candidate);
  };
  auto keywords = [&](std::initializer_list<const char*> list) {
    for (const char* k : list) offer(KeywordCase(k, word, s.keyword_case));
  };
  auto names = [&](const std::vector<std::string>& list, const std::string& suffix = "") {
    for (const std::string& n : list) offer(n + suffix);
  };
  auto done = [&] { return std::vector<std::string>(out.begin(), out.end()); };

  // The current line: a meta-command and its arguments.
  size_t line_start = text.rfind('\n', start == 0 ? 0 : start - 1);
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  std::string line = text.substr(line_start);
  size_t first = line.find_first_not_of(" \t");
  if (!word.empty() && word[0] == '\\') {
    names(MetaCommandNames());
    return done();
  }
  if (!word.empty() && word[0] == ':') {
    for (const std::string& v : s.variables) offer(":" + v);
    return done();
  }
  if (first != std::string::npos && line[first] == '\\') {
    size_t end = line.find_first_of(" \t", first);
    std::string cmd = line.substr(first, end == std::string::npos ? std::string::npos : end - first);
    if (cmd == "\\i" || cmd == "\\ir" || cmd == "\\o" || cmd == "\\w" || cmd == "\\include" || cmd == "\\cd" ||
        cmd == "\\g" || cmd == "\\gx" || cmd == "\\s") {
      for (const std::string& f : Files(word)) out.insert(f);
      return done();
    }
    if (cmd == "\\d" || cmd == "\\d+" || cmd == "\\dt" || cmd == "\\dt+") {
      names(s.tables);
      if (cmd[2] != 't') {
        names(s.indexes);
        names(s.sequences);
      }
    } else if (cmd == "\\di") {
      names(s.indexes);
    } else if (cmd == "\\ds") {
      names(s.sequences);
    } else if (cmd == "\\df" || cmd == "\\ef" || cmd == "\\sf" || cmd == "\\sf+" || cmd == "\\dw") {
      names(s.procedures);
    } else if (cmd == "\\set" || cmd == "\\unset") {
      names(s.variables);
    } else if (cmd == "\\pset") {
      for (const char* o : {"border", "columns", "csv_fieldsep", "expanded", "fieldsep", "fieldsep_zero", "footer",
                            "format", "linestyle", "null", "numericlocale", "pager", "pager_min_lines", "recordsep",
                            "recordsep_zero", "tableattr", "title", "tuples_only"})
        offer(o);
    } else if (cmd == "\\x") {
      for (const char* o : {"on", "off", "auto"}) offer(o);
    } else if (cmd == "\\timing" || cmd == "\\t") {
      for (const char* o : {"on", "off"}) offer(o);
    } else if (cmd == "\\?") {
      for (const char* o : {"commands", "options", "variables"}) offer(o);
    } else if (cmd == "\\copy") {
      std::vector<std::string> words = PreviousWords(line, line.size() - word.size());
      if (!words.empty() && words.back() == "FROM") {
        for (const std::string& f : Files(word)) out.insert(f);
      } else if (words.size() == 1) {
        names(s.tables);
      } else {
        keywords({"FROM", "WITH", "CSV", "HEADER"});
      }
    }
    return done();
  }

  // SQL.
  std::vector<std::string> words = PreviousWords(text, start);
  auto prev = [&](size_t back) -> std::string {
    return words.size() > back ? words[words.size() - 1 - back] : std::string();
  };
  // The tables the statement names, for column completion.
  auto statement_columns = [&] {
    bool any = false;
    for (size_t i = 0; i + 1 < words.size(); ++i)
      if (words[i] == "FROM" || words[i] == "UPDATE" || words[i] == "INTO" || words[i] == "TABLE" || words[i] == "ON") {
        auto it = s.columns.find(Lower(words[i + 1]));
        if (it != s.columns.end()) {
          names(it->second);
          any = true;
        }
      }
    return any;
  };
  const std::string p1 = prev(0), p2 = prev(1);
  const std::string head = words.empty() ? "" : words[0];

  if (words.empty()) {
    keywords({"SELECT", "INSERT INTO", "UPDATE", "DELETE FROM", "CALL", "CREATE", "DROP", "COPY", "SET", "SHOW",
              "RESET", "EXPLAIN"});
    return done();
  }
  if ((head == "SET" || head == "SHOW" || head == "RESET") && words.size() == 1) {
    names(s.settings);
    if (head != "SET") keywords({"ALL"});
    return done();
  }
  if (head == "SET" && words.size() == 2) {
    keywords({"TO"});
    offer("=");
    return done();
  }
  if (head == "SET" && words.size() == 3 && (p1 == "TO" || p1 == "=")) {
    keywords({"DEFAULT"});
    if (std::find(s.boolean_settings.begin(), s.boolean_settings.end(), Lower(p2)) != s.boolean_settings.end())
      for (const char* v : {"on", "off"}) offer(v);
    return done();
  }
  if (p1 == "CREATE") {
    keywords({"TABLE", "INDEX", "SEQUENCE", "FUNCTION", "PROCEDURE", "OR REPLACE"});
    return done();
  }
  if (p1 == "OR" && p2 == "CREATE") {
    keywords({"REPLACE"});
    return done();
  }
  if (p1 == "REPLACE" && p2 == "OR") {
    keywords({"FUNCTION", "PROCEDURE"});
    return done();
  }
  if (p1 == "DROP") {
    keywords({"TABLE", "INDEX", "SEQUENCE", "FUNCTION", "PROCEDURE"});
    return done();
  }
  if (p2 == "DROP" || (p2 == "EXISTS" && prev(3) == "DROP")) {
    std::string what = p2 == "DROP" ? p1 : prev(2);
    if (what == "TABLE") names(s.tables);
    else if (what == "INDEX") names(s.indexes);
    else if (what == "SEQUENCE") names(s.sequences);
    else if (what == "FUNCTION" || what == "PROCEDURE") names(s.procedures);
    if (p2 == "DROP") keywords({"IF EXISTS"});
    return done();
  }
  if (p1 == "EXPLAIN") {
    keywords({"PROCEDURE", "FUNCTION", "CALL", "SELECT"});
    return done();
  }
  if ((p1 == "PROCEDURE" || p1 == "FUNCTION") && p2 == "EXPLAIN") {
    names(s.procedures);
    return done();
  }
  if (p1 == "CALL") {
    names(s.procedures, "(");
    return done();
  }
  if (p1 == "INSERT") {
    keywords({"INTO"});
    return done();
  }
  if (p1 == "DELETE") {
    keywords({"FROM"});
    return done();
  }
  if (p1 == "FROM" || p1 == "JOIN" || p1 == "INTO" || p1 == "UPDATE" || p1 == "TABLE" || p1 == "COPY" ||
      (p1 == "ON" && words.size() >= 2 && (head == "CREATE"))) {
    names(s.tables);
    if (p1 == "FROM" && head == "SELECT") names(s.procedures, "(");
    return done();
  }
  if (p1 == "SELECT") {
    // No table named yet: any table's columns, and the functions.
    if (!statement_columns()) {
      for (const auto& [table, cols] : s.columns) names(cols);
      names(s.procedures, "(");
    }
    keywords({"DISTINCT", "COUNT(*)", "*"});
    return done();
  }
  if (p2 == "INTO" && head == "INSERT") {
    keywords({"VALUES", "SELECT", "("});
    return done();
  }
  if (p1 == "(" && prev(2) == "INTO") {
    statement_columns();
    return done();
  }
  if (p2 == "UPDATE") {
    keywords({"SET"});
    return done();
  }
  if (p2 == "FROM" && head == "SELECT") {
    keywords({"WHERE", "GROUP BY", "ORDER BY", "LIMIT"});
    return done();
  }
  if (p1 == "ORDER" || p1 == "GROUP") {
    keywords({"BY"});
    return done();
  }
  if (p1 == "WHERE" || p1 == "AND" || p1 == "OR" || p1 == "BY" || p1 == "SET" || p1 == "," || p1 == "(" || p1 == "=" ||
      p1 == "NOT") {
    statement_columns();
    if (p1 == "WHERE" || p1 == "AND" || p1 == "OR") keywords({"NOT"});
    return done();
  }
  statement_columns();
  keywords({"AND", "OR", "WHERE", "FROM", "ORDER BY", "GROUP BY", "LIMIT", "VALUES", "RETURNING", "ON CONFLICT", "AS",
            "DESC", "ASC", "IS NULL", "IS NOT NULL", "NULL", "TRUE", "FALSE"});
  return done();
}

}  // namespace caracal::frontend
