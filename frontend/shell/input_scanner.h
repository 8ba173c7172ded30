// InputScanner: psql's input lexer (psqlscan.l / psqlscanslash.l behaviour, re-implemented).
// The shell feeds it one input line at a time; it accumulates SQL into a query buffer
// and says when a statement is complete (a ';' outside quotes, dollar quotes, comments,
// parentheses and BEGIN ATOMIC ... END), when a backslash meta-command starts, or that the
// line ended mid-statement (and in which state, for the continuation prompt). It expands
// psql variables (:name, :'name', :"name", :{?name}) outside quotes, and parses the
// arguments of meta-commands as psql does (quotes, backslash escapes, variables, "\\").
//
// Like psql, leading whitespace and "--" comments of a statement are dropped, and the
// statement's text keeps its terminating ';'.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caracal::frontend {

// What the continuation prompt shows (psql's %R): '=' ready, '-' continuing, '\'' in a
// string, '"' in a quoted identifier, '$' in a dollar quote, '*' in a comment, '(' in
// parentheses.
enum class PromptStatus { kReady, kContinue, kSingleQuote, kDoubleQuote, kDollarQuote, kComment, kParen };

enum class ScanResult {
  kSemicolon,   // a statement ended: the query buffer holds it (with the ';')
  kBackslash,   // a meta-command starts: read it with ReadCommandName / ReadArgument
  kIncomplete,  // the line ended inside a quote, comment, parentheses, or with nothing buffered
  kEol,         // the line ended with an unfinished statement in the buffer
};

// How a meta-command argument is read.
enum class ArgMode {
  kNormal,     // one word: quotes, escapes and variables processed ("..." kept)
  kIdentifier, // like kNormal, then "..." dequoted and the rest lower-cased (psql's OT_SQLID)
  kNoEval,     // like kNormal without variable expansion (extra arguments being skipped)
  kWholeLine,  // the rest of the line, as written (trailing whitespace removed)
  kFilePipe,   // a file name, or "|command" up to the end of the line
};

class InputScanner {
 public:
  // The value of a psql variable, or nullopt when it is not set.
  using VariableLookup = std::function<std::optional<std::string>(const std::string& name)>;
  // Receives the shell's warnings ("skipping recursive expansion of variable ...").
  using WarningSink = std::function<void(const std::string& message)>;

  InputScanner(VariableLookup lookup, WarningSink warn);

  // Starts scanning `line` (one input line, without its newline). State carried over
  // from earlier lines (an open quote, parentheses) stays.
  void SetLine(std::string line);
  // Scans on from the current position, appending SQL text to `query`; see ScanResult.
  // `prompt` tells what the next line continues.
  ScanResult Scan(std::string& query, PromptStatus& prompt);

  // After kBackslash: the command name (everything up to whitespace or a backslash).
  std::string ReadCommandName();
  // The next argument of the current meta-command; nullopt when there are no more
  // (end of line, or a backslash that ends the command).
  // `quoted` (if given) tells whether any part of it was quoted.
  std::optional<std::string> ReadArgument(ArgMode mode, bool* quoted = nullptr);
  // Ends the current meta-command: a "\\" separator is consumed, so SQL may follow it.
  void EndCommand();

  // Forgets an unfinished statement's lexer state (Ctrl-C, \r).
  void Reset();
  // Whether the lexer is inside a quoted string, quoted identifier, dollar quote or
  // comment (an empty input line is then part of the statement).
  bool InQuote() const;
  // Whether anything is left on the current line.
  bool AtEndOfLine() const { return pos_ >= line_.size(); }

 private:
  enum class State { kInitial, kQuote, kExtendedQuote, kDoubleQuote, kDollarQuote, kComment };

  // Appends the expansion of a variable reference at pos_ (":name", ":'name'", ...) and
  // returns true, or returns false when pos_ does not start one.
  bool ExpandVariable(std::string& out, bool in_sql);
  void TrackIdentifier(std::string_view word);
  std::string ReadQuotedArgument();

  VariableLookup lookup_;
  WarningSink warn_;
  std::string line_;
  size_t pos_ = 0;
  // Variable values spliced into line_ for re-scanning: [begin, end) and the name, to
  // refuse recursive expansion as psql does.
  struct Splice {
    size_t end;
    std::string name;
  };
  std::vector<Splice> splices_;

  State state_ = State::kInitial;
  int comment_depth_ = 0;
  int paren_depth_ = 0;
  int begin_depth_ = 0;        // BEGIN ATOMIC ... END in CREATE FUNCTION / PROCEDURE
  std::array<char, 4> identifiers_{};  // first letters of the statement's leading keywords
  int identifier_count_ = 0;
  std::string dollar_tag_;     // "$tag$" of the open dollar quote
};

// Quotes `value` as a SQL literal ('...', with E'...' when it holds backslashes), as
// psql's :'name' does.
std::string QuoteLiteral(std::string_view value);
// Quotes `value` as a SQL identifier ("..."), as psql's :"name" does.
std::string QuoteIdentifier(std::string_view value);

}  // namespace caracal::frontend
