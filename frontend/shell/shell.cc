#include "frontend/shell/shell.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <fmt/format.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <fstream>
#include <iostream>
#include <sstream>

#include "frontend/shell/completion.h"
#include "frontend/shell/interrupt.h"
#include "planner/exec/ddl.h"
#include "planner/parser/parse_tree.h"
#include "planner/types/sql_error.h"
#include "frontend/shell/result_printer.h"
#include "frontend/shell/prompt.h"

namespace caracal::frontend {

namespace {

// A std::streambuf over a FILE* (a \o pipe or the pager).
class FileBuf : public std::streambuf {
 public:
  explicit FileBuf(FILE* f) : f_(f) {}

 protected:
  int overflow(int c) override {
    if (c == EOF) return 0;
    return std::fputc(c, f_) == EOF ? EOF : c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    return static_cast<std::streamsize>(std::fwrite(s, 1, static_cast<size_t>(n), f_));
  }
  int sync() override { return std::fflush(f_); }

 private:
  FILE* f_;
};

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && strncasecmp(s.data(), prefix.data(), prefix.size()) == 0;
}

// "help", "quit", "exit" (or "\q") alone on a line, maybe with one ';' (psql's rule).
bool OnlyWordOnLine(std::string_view line, size_t word_len) {
  std::string_view rest = line.substr(word_len);
  size_t i = 0;
  while (i < rest.size() && std::isspace(static_cast<unsigned char>(rest[i]))) ++i;
  if (i < rest.size() && rest[i] == ';') ++i;
  while (i < rest.size() && std::isspace(static_cast<unsigned char>(rest[i]))) ++i;
  return i == rest.size();
}

// The number in a command tag ("INSERT 0 5" -> 5, "COPY 3" -> 3), for ROW_COUNT.
std::string TagCount(const std::string& tag) {
  size_t sp = tag.rfind(' ');
  if (sp == std::string::npos) return "0";
  std::string n = tag.substr(sp + 1);
  return !n.empty() && n.find_first_not_of("0123456789") == std::string::npos ? n : "0";
}

int TerminalRows() {
  struct winsize ws {};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0) return ws.ws_row;
  return 0;
}

int TerminalColumns() {
  if (const char* c = std::getenv("COLUMNS"); c && std::atoi(c) > 0) return std::atoi(c);
  struct winsize ws {};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 0;
}

}  // namespace

Shell::Shell(Session& session, std::ostream& out, std::ostream& err)
    : session_(session), out_(out), err_(err), copy_progress_(err, &err == &std::cerr && isatty(STDERR_FILENO)) {
  session_.set_copy_progress([this](int64_t rows) {
    if (Interrupted()) cancel_requested_ = true;
    copy_progress_.Update(rows);
  });
  session_.set_copy_input([this] { return ReadCopyData(); });
  variables_.Set("VERSION", "caracal 0.1.0 (PostgreSQL 15 dialect), embedded");
  variables_.Set("VERSION_NAME", "0.1.0");
  variables_.Set("VERSION_NUM", "100");
  if (const char* user = std::getenv("USER")) variables_.Set("USER", user);
}

Shell::~Shell() {
  if (pipeline_.active) EndPipeline();
  FlushOut();
  session_.set_copy_progress({});
  session_.set_copy_input({});
}

// COPY ... FROM STDIN: the lines after the statement, up to a line "\." or the end of
// the input, as psql sends them (at the terminal with its banner and ">> " prompt).
std::string Shell::ReadCopyData() {
  if (source_ == nullptr) throw planner::SqlError("57014", "COPY FROM STDIN has no input to read");
  if (interactive_) {
    FlushOut();
    out_ << "Enter data to be copied followed by a newline.\n"
            "End with a backslash and a period on a line by itself, or an EOF signal.\n";
    out_.flush();
  }
  std::string data;
  for (;;) {
    std::optional<std::string> line = source_->ReadLine(interactive_ ? ">> " : "");
    if (!line) break;
    ++line_number_;
    if (*line == "\\.") break;
    data += *line;
    data += '\n';
  }
  return data;
}

// ---- logging -------------------------------------------------------------------------

std::string Shell::Locus() const {
  if (input_name_.empty()) return "";
  return fmt::format("caracal:{}:{}: ", input_name_, line_number_);
}

void Shell::LogInfo(const std::string& message) {
  FlushOut();
  err_ << Locus() << message << '\n';
  err_.flush();
}

// psql's pg_log_error / pg_log_warning: "caracal:FILE:LINE: error: msg" in a -f script
// before anything made logging terse; then just the locus and the message.
void Shell::Log(const char* level, const std::string& message) {
  FlushOut();
  if (terse_logging_) err_ << Locus();
  else err_ << (input_name_.empty() ? "caracal: " : Locus()) << level << ": ";
  err_ << message << '\n';
  err_.flush();
}

void Shell::LogError(const std::string& message) { Log("error", message); }

void Shell::LogWarning(const std::string& message) { Log("warning", message); }

void Shell::LogHint(const std::string& message) {
  FlushOut();
  if (!terse_logging_) err_ << "caracal: hint: ";
  err_ << message << '\n';
  err_.flush();
}

void Shell::SetVariable(const std::string& name, const std::string& value) {
  if (std::optional<std::string> error = variables_.Set(name, value)) LogError(*error);
}

void Shell::PrintBanner(const std::string& mode) {
  if (variables_.quiet()) return;
  out_ << "caracal 0.1.0 (" << mode << ")\n";
  out_ << "Type \"help\" for help.\n\n";
  out_.flush();
}

// ---- output --------------------------------------------------------------------------

std::ostream& Shell::QueryOut() { return query_out_ ? *query_out_ : out_; }

void Shell::FlushOut() {
  out_.flush();
  if (query_out_) query_out_->flush();
}

bool Shell::SetQueryOutput(const std::optional<std::string>& target) {
  FlushOut();
  query_out_.reset();
  query_pipe_buf_.reset();
  query_pipe_.reset();
  query_pipe_sigpipe_.reset();
  if (!target || target->empty()) return true;
  if ((*target)[0] == '|') {
    query_pipe_sigpipe_ = std::make_unique<IgnoreSigpipe>();
    FILE* p = popen(target->c_str() + 1, "w");
    if (!p) {
      LogError(fmt::format("{}: {}", target->substr(1), std::strerror(errno)));
      return false;
    }
    query_pipe_.reset(p);
    query_pipe_buf_ = std::make_unique<FileBuf>(p);
    query_out_ = std::make_unique<std::ostream>(query_pipe_buf_.get());
    return true;
  }
  auto file = std::make_unique<std::ofstream>(*target, std::ios::binary | std::ios::trunc);
  if (!*file) {
    LogError(fmt::format("{}: {}", *target, std::strerror(errno)));
    return false;
  }
  query_out_ = std::move(file);
  return true;
}

// Tables printed to a terminal go through the pager when they are taller than it
// (\pset pager on) or always (\pset pager always), as psql does.
void Shell::EmitTable(const planner::TextTable& table, const PrintOptions& options, std::ostream& out) {
  bool to_terminal = &out == &out_ && interactive_ && isatty(STDOUT_FILENO);
  std::ostringstream text;
  Print(table, options, text, to_terminal ? TerminalColumns() : 0);
  std::string s = text.str();
  if (to_terminal && options.pager != 0) {
    int rows = TerminalRows();
    int lines = static_cast<int>(std::count(s.begin(), s.end(), '\n'));
    if (options.pager == 2 || (rows > 0 && lines >= rows && lines >= options.pager_min_lines)) {
      const char* cmd = std::getenv("PSQL_PAGER");
      if (!cmd || !*cmd) cmd = std::getenv("PAGER");
      if (!cmd || !*cmd) cmd = "more";  // psql's default
      out_.flush();
      IgnoreSigpipe quiet;  // the user may quit the pager before the end
      if (FILE* p = popen(cmd, "w")) {
        std::fwrite(s.data(), 1, s.size(), p);
        pclose(p);
        return;
      }
    }
  }
  out << s;
}

void Shell::PrintTiming(double ms) {
  FlushOut();
  if (ms < 1000.0) {
    out_ << fmt::format("Time: {:.3f} ms\n", ms);
  } else {
    double seconds = ms / 1000.0;
    double minutes = std::floor(seconds / 60.0);
    seconds -= 60.0 * minutes;
    if (minutes < 60.0) {
      out_ << fmt::format("Time: {:.3f} ms ({:02d}:{:06.3f})\n", ms, static_cast<int>(minutes), seconds);
    } else {
      double hours = std::floor(minutes / 60.0);
      minutes -= 60.0 * hours;
      if (hours < 24.0) {
        out_ << fmt::format("Time: {:.3f} ms ({:02d}:{:02d}:{:06.3f})\n", ms, static_cast<int>(hours),
                            static_cast<int>(minutes), seconds);
      } else {
        double days = std::floor(hours / 24.0);
        hours -= 24.0 * days;
        out_ << fmt::format("Time: {:.3f} ms ({:.0f} d {:02d}:{:02d}:{:06.3f})\n", ms, days, static_cast<int>(hours),
                            static_cast<int>(minutes), seconds);
      }
    }
  }
  out_.flush();
}

void Shell::PrintErrorReport(const ErrorReport& error, const std::string& locus) {
  FlushOut();
  err_ << FormatError(error, locus, variables_.verbosity(), variables_.show_context());
  err_.flush();
}

// NOTICEs (and WARNING / INFO, which the engine passes as "WARNING:text") to stderr,
// filtered by client_min_messages as the server would.
void Shell::PrintNotices(const std::vector<std::string>& notices, const std::string& locus) {
  if (notices.empty()) return;
  std::string min = session_.settings().Get("client_min_messages");
  auto rank = [](std::string_view level) {
    if (level == "warning") return 2;
    if (level == "error") return 3;
    if (level == "notice") return 1;
    return 0;  // log, debug*
  };
  FlushOut();
  for (const std::string& n : notices) {
    std::string severity = "NOTICE", text = n;
    for (const char* s : {"WARNING", "INFO"})
      if (n.rfind(std::string(s) + ":", 0) == 0) {
        severity = s;
        text = n.substr(std::strlen(s) + 1);
      }
    int level = severity == "WARNING" ? 2 : severity == "NOTICE" ? 1 : 99;  // INFO always reaches the client
    if (level < rank(min)) continue;
    err_ << locus << severity << ":  " << text << '\n';
  }
  err_.flush();
}

void Shell::RecordOutcome(const StatementResult& r) {
  if (r.error) {
    variables_.Set("ERROR", "true");
    variables_.Set("SQLSTATE", r.error->sqlstate);
    variables_.Set("ROW_COUNT", "0");
    variables_.Set("LAST_ERROR_MESSAGE", r.error->message);
    variables_.Set("LAST_ERROR_SQLSTATE", r.error->sqlstate);
    last_error_ = r.error;
    return;
  }
  variables_.Set("ERROR", "false");
  variables_.Set("SQLSTATE", "00000");
  variables_.Set("ROW_COUNT", r.rows ? std::to_string(r.rows->rows.size()) : TagCount(r.tag));
}

bool Shell::PrintStatement(const StatementResult& r, const std::string& query, const std::string& locus,
                           const SendOptions& how, std::ostream& out) {
  PrintNotices(r.notices, locus);
  if (!how.hidden) RecordOutcome(r);
  if (r.error) {
    PrintErrorReport(*r.error, locus);
    if (variables_.echo() == EchoMode::kErrors) LogInfo("STATEMENT:  " + query);
    return false;
  }
  if (r.copy_out) {
    // COPY ... TO STDOUT: the data, where the query's output goes, then the tag.
    out << *r.copy_out;
    out.flush();
  }
  if (how.gexec) {
    // \gexec: every non-NULL value, row by row, runs as a statement of its own.
    if (!r.rows) return true;
    bool ok = true;
    for (const auto& row : r.rows->rows)
      for (const auto& cell : row) {
        if (!cell) continue;
        if (Interrupted()) return ok;
        if (variables_.echo() == EchoMode::kAll) {
          out_ << *cell << '\n';
          out_.flush();
        }
        if (!SendQuery(*cell, SendOptions{})) {
          ok = false;
          if (variables_.on_error_stop()) return false;
        }
      }
    return ok;
  }
  if (how.gset_prefix) {
    if (!r.rows) {
      LogError("\\gset: query must return a result set");  // psql: no tuples to store
      return false;
    }
    if (r.rows->rows.empty()) {
      LogError("no rows returned for \\gset");
      return false;
    }
    if (r.rows->rows.size() > 1) {
      LogError("more than one row returned for \\gset");
      return false;
    }
    for (size_t c = 0; c < r.rows->columns.size(); ++c) {
      std::string name = *how.gset_prefix + r.rows->columns[c].name;
      const auto& v = r.rows->rows[0][c];
      std::optional<std::string> error = v ? variables_.Set(name, *v) : variables_.Unset(name);
      if (error) {
        LogError(*error);
        return false;
      }
    }
    return true;
  }
  if (r.rows) {
    PrintOptions o = how.print ? *how.print : print_;
    if (how.expanded) o.expanded = ExpandedMode::kOn;
    planner::TextTable t = TableFromResult(*r.rows, o);
    if (!how.title.empty()) t.title = how.title;
    else if (!print_.title.empty()) t.title = print_.title;
    EmitTable(t, o, out);
    if (!out) {
      // A pipe that closed early (\o |head): psql's message, and the shell goes on.
      int error = errno;
      out.clear();
      LogError(fmt::format("could not print result table: {}", std::strerror(error ? error : EPIPE)));
      return false;
    }
    // As psql: INSERT, UPDATE and DELETE ... RETURNING print their tag after the rows.
    const bool returning = r.tag.starts_with("INSERT") || r.tag.starts_with("UPDATE") || r.tag.starts_with("DELETE");
    if (returning && !variables_.quiet()) out << r.tag << '\n';
  } else if (!variables_.quiet() && !r.tag.empty()) {
    out << r.tag << '\n';
  }
  out.flush();
  return true;
}

std::vector<std::string> Shell::Completions(const std::string& text) {
  CompletionSources s;
  const planner::Catalog& catalog = session_.catalog();
  for (const planner::TableInfo* t : catalog.Tables()) {
    s.tables.push_back(t->name);
    if (!t->primary_key.empty()) s.indexes.push_back(t->PrimaryKeyName());
    for (const std::string& i : t->indexes) s.indexes.push_back(i);
    for (const planner::CatalogColumn& c : t->columns) s.columns[t->name].push_back(c.name);
  }
  for (const planner::SequenceInfo* q : catalog.Sequences()) s.sequences.push_back(q->name);
  for (const auto& p : catalog.Procedures())
    if (std::find(s.procedures.begin(), s.procedures.end(), p->name) == s.procedures.end()) s.procedures.push_back(p->name);
  for (const auto& row : session_.settings().ShowAll().rows) {
    s.settings.push_back(*row[0]);
    if (*row[1] == "on" || *row[1] == "off") s.boolean_settings.push_back(*row[0]);
  }
  for (const auto& [name, value] : variables_.all()) s.variables.push_back(name);
  s.keyword_case = variables_.Get("COMP_KEYWORD_CASE").value_or("preserve-upper");
  std::string context = typing_query_ && !typing_query_->empty() ? *typing_query_ + "\n" + text : text;
  return Complete(context, s);
}

// ---- running statements --------------------------------------------------------------

std::optional<StatementResult> Shell::Await(PendingResult& pending) {
  while (!pending.WaitFor(std::chrono::milliseconds(50))) {
    if (Interrupted()) {
      ClearInterrupt();
      cancel_requested_ = true;
      FlushOut();
      err_ << "Cancel request sent\n"
           << "WARNING:  stopped waiting for the result: the transaction was already submitted and still commits or "
              "aborts on its own\n";
      err_.flush();
      return std::nullopt;
    }
  }
  return pending.Get();
}

namespace {

// With AUTOCOMMIT off, psql starts a block before any statement but transaction
// control and the few that cannot run in one; DDL and COPY commit on their own here.
bool OpensBlockWithoutAutocommit(const planner::ParsedStatement& s) {
  if (s.node == nullptr) return false;
  switch (s.node->node_case) {
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
    case PG_QUERY__NODE__NODE_VACUUM_STMT:
    case PG_QUERY__NODE__NODE_CHECK_POINT_STMT:
    case PG_QUERY__NODE__NODE_COPY_STMT: return false;
    default: return !planner::IsDdl(s.node);
  }
}

}  // namespace

bool Shell::SendQuery(const std::string& query, const SendOptions& how) {
  if (variables_.echo() == EchoMode::kQueries && !how.hidden) {
    FlushOut();
    out_ << query << '\n';
    out_.flush();
  }
  if (pipeline_.active) {
    std::vector<PendingResult> started = session_.Submit(query);
    for (PendingResult& p : started) pipeline_.pending.push_back(Piped{std::move(p), query, Locus()});
    return true;
  }
  auto start = std::chrono::steady_clock::now();
  copy_progress_.Start();
  std::vector<StatementResult> results;
  // One statement (the usual case from a script) is waited for interruptibly; a string
  // of several (-c "a; b") runs like a simple-query message, stopping at the first error.
  // Parsed once, here, for both the count and the run.
  Session::ParsedText parsed = Session::ParseText(query);
  if (!variables_.autocommit() && session_.own_block().status() == TransactionBlock::Status::kIdle &&
      parsed.statement_count() > 0 && OpensBlockWithoutAutocommit(parsed.tree->statements().front()))
    session_.Execute("BEGIN");  // as psql with AUTOCOMMIT off: silently, before the statement
  if (parsed.statement_count() <= 1) {
    std::vector<PendingResult> pending = session_.Submit(parsed);
    for (PendingResult& p : pending) {
      std::optional<StatementResult> r = Await(p);
      if (!r) return false;
      results.push_back(std::move(*r));
    }
  } else {
    results = session_.Execute(parsed);
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  copy_progress_.Finish();
  // \g FILE (or |command): opened once there is a result to print, as psql does.
  std::unique_ptr<std::ofstream> file;
  std::unique_ptr<IgnoreSigpipe> pipe_sigpipe;  // outlives the pipe
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(nullptr, pclose);
  std::unique_ptr<std::streambuf> pipe_buf;
  std::unique_ptr<std::ostream> pipe_out;
  std::ostream* out = &QueryOut();
  bool any_success = std::any_of(results.begin(), results.end(), [](const StatementResult& r) { return !r.error; });
  if (how.output && any_success) {
    if ((*how.output)[0] == '|') {
      FlushOut();
      pipe_sigpipe = std::make_unique<IgnoreSigpipe>();
      pipe.reset(popen(how.output->c_str() + 1, "w"));
      if (!pipe) {
        LogError(fmt::format("{}: {}", how.output->substr(1), std::strerror(errno)));
        return false;
      }
      pipe_buf = std::make_unique<FileBuf>(pipe.get());
      pipe_out = std::make_unique<std::ostream>(pipe_buf.get());
      out = pipe_out.get();
    } else {
      file = std::make_unique<std::ofstream>(*how.output, std::ios::binary | std::ios::trunc);
      if (!*file) {
        LogError(fmt::format("{}: {}", *how.output, std::strerror(errno)));
        return false;
      }
      out = file.get();
    }
  }
  bool ok = true;
  std::string locus = Locus();
  for (const StatementResult& r : results) ok = PrintStatement(r, query, locus, how, *out) && ok;
  if (timing_) PrintTiming(ms);
  return ok;
}

bool Shell::StartPipeline() {
  if (pipeline_.active) {
    LogError("already in pipeline mode");
    return false;
  }
  pipeline_.active = true;
  pipeline_.pending.clear();
  pipeline_.started = std::chrono::steady_clock::now();
  return true;
}

bool Shell::EndPipeline() {
  if (!pipeline_.active) {
    LogError("cannot send pipeline when not in pipeline mode");
    return false;
  }
  pipeline_.active = false;
  bool ok = true;
  std::vector<Piped> pending = std::move(pipeline_.pending);
  pipeline_.pending.clear();
  for (size_t i = 0; i < pending.size(); ++i) {
    std::optional<StatementResult> r = Await(pending[i].result);
    if (!r) {
      // Ctrl-C: stop printing; the remaining transactions complete on their own.
      return false;
    }
    ok = PrintStatement(*r, pending[i].query, pending[i].locus, SendOptions{}, QueryOut()) && ok;
  }
  if (timing_)
    PrintTiming(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - pipeline_.started).count());
  return ok;
}

// ---- the main loop -------------------------------------------------------------------

bool Shell::BranchActive() const { return branches_.empty() || branches_.back().active; }

int Shell::RunLoop(LineSource& source, const std::string& file_name) {
  // Each input source has its own \if stack, as in psql.
  struct Saved {
    std::string name;
    int line;
    bool interactive;
    LineSource* source;
    std::vector<Branch> branches;
  } saved{input_name_, line_number_, interactive_, source_, std::move(branches_)};
  input_name_ = file_name;
  line_number_ = 0;
  interactive_ = source.interactive();
  source_ = &source;
  branches_.clear();
  if (interactive_) terse_logging_ = true;

  InputScanner scanner([this](const std::string& name) { return variables_.Get(name); },
                       [this](const std::string& message) { LogWarning(message); });
  std::string query, previous, history;
  const std::string* saved_typing = typing_query_;
  typing_query_ = &query;
  PromptStatus prompt = PromptStatus::kReady;
  int result = kExitSuccess;
  int count_eof = 0;
  bool success = true;
  CommandStatus last_status = CommandStatus::kSkipLine;
  auto add_history = [&](const std::string& line) { history += line + "\n"; };
  auto send_history = [&] {
    if (!history.empty()) {
      history.pop_back();
      source.AddHistory(history);
    }
    history.clear();
  };

  while (result == kExitSuccess) {
    if (Interrupted() || cancel_requested_) {
      // Ctrl-C stops a script (psql: "You get here if you stopped a script with
      // Ctrl-C"); at the terminal it only cancelled what was running.
      cancel_requested_ = false;
      if (!interactive_) {
        result = kExitUser;
        break;
      }
      ClearInterrupt();
    }
    FlushOut();
    std::optional<std::string> line;
    if (interactive_) {
      if (query.empty()) prompt = PromptStatus::kReady;
      PromptContext pc{prompt, !BranchActive(), pipeline_.active, 1, session_.own_block().ready_status()};
      std::string format = variables_.Get(prompt == PromptStatus::kReady ? "PROMPT1" : "PROMPT2").value_or("");
      line = source.ReadLine(ExpandPrompt(format, pc, variables_));
      if (!line && source.interrupted()) {
        // Ctrl-C while typing: forget the statement being entered.
        ClearInterrupt();
        scanner.Reset();
        query.clear();
        history.clear();
        count_eof = 0;
        prompt = PromptStatus::kReady;
        out_ << '\n';
        continue;
      }
    } else {
      line = source.ReadLine("");
      if (!line && source.failed()) result = kExitFailure;
    }
    if (!line) {
      if (interactive_) {
        ++count_eof;
        if (count_eof < variables_.ignoreeof()) {
          if (!variables_.quiet()) out_ << "Use \"\\q\" to leave caracal.\n";
          continue;
        }
        out_ << (variables_.quiet() ? "" : "\\q") << '\n';
      }
      break;
    }
    count_eof = 0;
    ++line_number_;
    if (line_number_ == 1 && line->rfind("\xEF\xBB\xBF", 0) == 0) line->erase(0, 3);
    if (line->empty() && !scanner.InQuote()) continue;
    if (variables_.echo() == EchoMode::kAll && !interactive_) {
      out_ << *line << '\n';
      out_.flush();
    }

    if (interactive_) {
      bool help = StartsWithNoCase(*line, "help") && OnlyWordOnLine(*line, 4);
      bool quit = (StartsWithNoCase(*line, "exit") || StartsWithNoCase(*line, "quit")) && OnlyWordOnLine(*line, 4);
      bool q = line->rfind("\\q", 0) == 0;
      if (help) {
        if (!query.empty()) {
          out_ << "Use \\? for help or press control-C to clear the input buffer.\n";
        } else {
          out_ << "You are using caracal, the command-line interface to the caracal database.\n"
                  "Type:  \\h for help with SQL commands\n"
                  "       \\? for help with caracal commands\n"
                  "       \\g or terminate with semicolon to execute query\n"
                  "       \\q to quit\n";
          out_.flush();
          continue;
        }
      }
      if (quit) {
        if (!query.empty()) {
          bool plain = prompt == PromptStatus::kReady || prompt == PromptStatus::kContinue || prompt == PromptStatus::kParen;
          out_ << (plain ? "Use \\q to quit.\n" : "Use control-D to quit.\n");
        } else {
          terminated_ = true;
          break;
        }
      }
      if (q && !query.empty() && prompt != PromptStatus::kReady && prompt != PromptStatus::kContinue &&
          prompt != PromptStatus::kParen)
        out_ << "Use control-D to quit.\n";
    }

    size_t added_newline = std::string::npos;
    if (!query.empty()) {
      query += '\n';
      added_newline = query.size();
    }
    scanner.SetLine(*line);
    success = true;
    bool saved_in_history = false;
    bool redisplay = false;
    last_status = CommandStatus::kSkipLine;
    while (success || !variables_.on_error_stop()) {
      ScanResult r = scanner.Scan(query, prompt);
      if (r == ScanResult::kSemicolon || (r == ScanResult::kEol && variables_.singleline())) {
        if (interactive_ && !saved_in_history) {
          add_history(*line);
          send_history();
          saved_in_history = true;
        }
        if (BranchActive()) {
          success = SendQuery(query, SendOptions{});
          previous = query;
        } else {
          if (interactive_) LogError("query ignored; use \\endif or Ctrl-C to exit current \\if block");
          success = true;
        }
        query.clear();
        added_newline = std::string::npos;
      } else if (r == ScanResult::kBackslash) {
        if (query.size() == added_newline) {
          // A line holding only a meta-command leaves the query buffer as it was.
          query.pop_back();
          send_history();
        }
        added_newline = std::string::npos;
        if (interactive_ && !saved_in_history) {
          add_history(*line);
          send_history();
          saved_in_history = true;
        }
        last_status = HandleMetaCommand(scanner, query, previous);
        success = last_status != CommandStatus::kError;
        if (last_status == CommandStatus::kTerminate) break;
        if (last_status == CommandStatus::kNewEdit) {
          // psql re-scans what came back from the editor as new input: complete
          // statements run, the rest stays in the buffer and is shown.
          if (!query.empty() && query.back() != '\n') query += '\n';
          *line = query;
          query.clear();
          scanner.Reset();
          scanner.SetLine(*line);
          saved_in_history = false;
          redisplay = true;
          continue;
        }
        if (last_status == CommandStatus::kSend) {
          // \g and friends: run the buffer (HandleMetaCommand put the previous query in
          // it if it was empty) the way they asked.
          success = SendQuery(query, pending_send_);
          pending_send_ = SendOptions{};
          previous = query;
          query.clear();
          scanner.Reset();
        }
      }
      if (r == ScanResult::kIncomplete || r == ScanResult::kEol) break;
    }
    if (interactive_ && !saved_in_history) add_history(*line);
    if (redisplay && !query.empty()) {
      out_ << query << '\n';
      out_.flush();
    }
    if (last_status == CommandStatus::kTerminate) break;
    if (terminated_) break;
    if (!interactive_ && !success && variables_.on_error_stop()) result = kExitUser;
  }

  // A statement without ';' at the end of a script still runs (not at the terminal).
  if (!query.empty() && !interactive_ && result == kExitSuccess && last_status != CommandStatus::kTerminate &&
      !terminated_) {
    if (BranchActive()) success = SendQuery(query, SendOptions{});
    else success = true;
    if (!success && variables_.on_error_stop()) result = kExitUser;
  }
  if (last_status != CommandStatus::kTerminate && result != kExitUser && !branches_.empty()) {
    LogError("reached EOF without finding closing \\endif(s)");
    if (variables_.on_error_stop() && !interactive_) result = kExitUser;
  }
  typing_query_ = saved_typing;
  input_name_ = saved.name;
  line_number_ = saved.line;
  interactive_ = saved.interactive;
  source_ = saved.source;
  branches_ = std::move(saved.branches);
  return result;
}

int Shell::RunFile(const std::string& path, bool relative_to_current) {
  std::string resolved = path;
  if (relative_to_current && !path.empty() && path[0] != '/' && !input_name_.empty()) {
    size_t slash = input_name_.rfind('/');
    if (slash != std::string::npos) resolved = input_name_.substr(0, slash + 1) + path;
  }
  if (resolved == "-") {
    StreamLineSource stdin_source(std::cin);
    return RunLoop(stdin_source, "<stdin>");
  }
  std::ifstream in(resolved, std::ios::binary);
  if (!in) {
    LogError(fmt::format("{}: {}", resolved, std::strerror(errno)));
    return kExitFailure;
  }
  StreamLineSource file(in);
  return RunLoop(file, resolved);
}

int Shell::RunCommand(const std::string& text) {
  terse_logging_ = true;
  if (variables_.echo() == EchoMode::kAll) out_ << text << '\n';
  if (!text.empty() && text[0] == '\\') {
    // One meta-command (psql runs only the first of a -c line).
    InputScanner scanner([this](const std::string& name) { return variables_.Get(name); },
                         [this](const std::string& message) { LogWarning(message); });
    scanner.SetLine(text);
    std::string query, previous;
    PromptStatus prompt;
    if (scanner.Scan(query, prompt) != ScanResult::kBackslash) return kExitSuccess;
    CommandStatus status = HandleMetaCommand(scanner, query, previous);
    if (status == CommandStatus::kTerminate) terminated_ = true;
    return status == CommandStatus::kError ? kExitFailure : kExitSuccess;
  }
  return SendQuery(text, SendOptions{}) ? kExitSuccess : kExitFailure;
}

}  // namespace caracal::frontend
