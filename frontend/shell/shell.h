// Shell: the psql-like front of the embedded database (psql's MainLoop, SendQuery and
// backslash commands, re-implemented over a Session). It reads lines from a LineSource,
// cuts them into statements and meta-commands with the InputScanner, runs statements on
// the Session and prints what psql would print: results in the \pset format, command
// tags, NOTICEs and errors (with the "caracal:FILE:LINE: " prefix in scripts), timing.
//
// Exit statuses as psql's: RunLoop / RunFile / RunCommand return 0, 1 (a file could not
// be read, a -c command failed) or 3 (a script failed under ON_ERROR_STOP).
//
// Meta-commands live in meta_commands.cc, \d and friends in describe.cc.
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "frontend/shell/input_scanner.h"
#include "frontend/shell/interrupt.h"
#include "frontend/shell/line_source.h"
#include "frontend/shell/table_printer.h"
#include "frontend/shell/progress.h"
#include "frontend/session/session.h"
#include "frontend/shell/shell_variables.h"

namespace caracal::frontend {

inline constexpr int kExitSuccess = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUser = 3;

// What a meta-command asks of the loop (psql's backslashResult).
enum class CommandStatus {
  kSkipLine,   // done; go on with the line
  kSend,       // run the query buffer (\g, \gx, \gset, \watch)
  kError,      // failed (counts for ON_ERROR_STOP)
  kTerminate,  // \q
  kNewEdit,    // \e, \ef: the query buffer was edited; scan it as new input
};

class Shell {
 public:
  // `out` / `err` are the process's stdout and stderr.
  Shell(Session& session, std::ostream& out, std::ostream& err);
  ~Shell();
  Shell(const Shell&) = delete;
  Shell& operator=(const Shell&) = delete;

  ShellVariables& variables() { return variables_; }
  PrintOptions& print_options() { return print_; }
  // Applies a \pset assignment (also -P) to the shell's options, or to `target` (\g's
  // one-query options); false (after printing the error) if invalid.
  bool SetPrintOption(const std::string& name, const std::optional<std::string>& value, bool quiet,
                      PrintOptions* target = nullptr);

  // psql's MainLoop over one input source; returns an exit status. `file_name` is the
  // name used in "caracal:FILE:LINE:" prefixes (empty for stdin and the terminal).
  int RunLoop(LineSource& source, const std::string& file_name = "");
  // -f FILE / \i FILE ("-" is stdin). `relative_to_current` is \ir.
  int RunFile(const std::string& path, bool relative_to_current = false);
  // -c TEXT: one query (all its statements, stopping at the first error), or, when it
  // starts with a backslash, a line of meta-commands.
  int RunCommand(const std::string& text);

  // Statements from here to EndPipeline are submitted without waiting (-1, \startpipeline).
  bool StartPipeline();
  // Prints the pipeline's results in submission order; false if one failed.
  bool EndPipeline();
  bool in_pipeline() const { return pipeline_.active; }

  // After \q (or "quit" at the prompt): the caller should exit.
  bool terminated() const { return terminated_; }
  // Messages lose their "caracal: error:" prefix from now on (psql does so once it
  // reads stdin or runs -c).
  void UseTerseMessages() { terse_logging_ = true; }
  // The banner and "Type "help" for help." of an interactive start.
  void PrintBanner(const std::string& mode);
  // Sets -q/--quiet, -e/-a/-b style echo and similar start-up variables.
  void SetVariable(const std::string& name, const std::string& value);
  // Tab completion candidates for the line typed so far (after the statement's earlier
  // lines), from the catalog, settings and variables.
  std::vector<std::string> Completions(const std::string& text_before_cursor);
  // Output of query results goes to `path` from now on (-o; \o).
  bool SetQueryOutput(const std::optional<std::string>& target);

 private:
  friend class MetaCommands;

  // psql's pg_log_error / pg_log_warning / pg_log_info, with the locus prefix.
  void Log(const char* level, const std::string& message);
  void LogError(const std::string& message);
  void LogWarning(const std::string& message);
  void LogHint(const std::string& message);
  void LogInfo(const std::string& message);
  std::string Locus() const;  // "caracal:FILE:LINE: " in a script, else ""
  std::string ReadCopyData();  // COPY ... FROM STDIN's lines (Session::set_copy_input)

  // Runs one query string; prints its results. `how` selects \gx / \gset / \g FILE.
  struct SendOptions {
    bool expanded = false;                   // \gx
    std::optional<std::string> gset_prefix;  // \gset [prefix]
    bool gexec = false;                      // \gexec: run every value of the result
    std::optional<std::string> output;       // \g FILE
    std::optional<PrintOptions> print;       // \g (format=csv ...): for this query only
    std::string title;                       // \watch's title line
    bool hidden = false;                     // a describe command's own query: not echoed,
                                             // ERROR / ROW_COUNT / SQLSTATE untouched
  };
  bool SendQuery(const std::string& query, const SendOptions& how);
  // Waits for one statement; Ctrl-C stops waiting (the transaction still completes).
  std::optional<StatementResult> Await(PendingResult& pending);
  // Prints one statement's result (notices, rows or tag, error); false if it failed.
  bool PrintStatement(const StatementResult& result, const std::string& query, const std::string& locus,
                      const SendOptions& how, std::ostream& out);
  void PrintErrorReport(const ErrorReport& error, const std::string& locus);
  void PrintNotices(const std::vector<std::string>& notices, const std::string& locus);
  void PrintTiming(double ms);
  void RecordOutcome(const StatementResult& result);

  // The query output (stdout, a \o file or pipe), and printing through the pager.
  std::ostream& QueryOut();
  void EmitTable(const planner::TextTable& table, const PrintOptions& options, std::ostream& out);
  void FlushOut();

  CommandStatus HandleMetaCommand(InputScanner& scanner, std::string& query, std::string& previous);
  CommandStatus RunMetaCommand(const std::string& cmd, InputScanner& scanner, std::string& query,
                               std::string& previous);
  CommandStatus Describe(const std::string& cmd, InputScanner& scanner);
  CommandStatus Watch(InputScanner& scanner, std::string& query, const std::string& previous);
  CommandStatus Conditional(const std::string& cmd, InputScanner& scanner);
  // \e [FILE [LINE]] and \ef [FUNCTION [LINE]]: the buffer (or the file, or the
  // function's CREATE statement) in $PSQL_EDITOR / $EDITOR / $VISUAL / vi.
  CommandStatus Edit(const std::string& cmd, InputScanner& scanner, std::string& query, const std::string& previous);
  // The \if / \elif / \else / \endif stack: whether input is being executed.
  bool BranchActive() const;

  Session& session_;
  std::ostream& out_;
  std::ostream& err_;
  ShellVariables variables_;
  PrintOptions print_;
  bool timing_ = false;
  bool terminated_ = false;
  // psql logs tersely ("invalid command \x") once a -c or the terminal was used; a -f
  // script before that logs "caracal:FILE:LINE: error: ...".
  bool terse_logging_ = false;

  // The current input: file name and line number for message prefixes.
  std::string input_name_;
  int line_number_ = 0;
  bool interactive_ = false;
  LineSource* source_ = nullptr;

  // \o target.
  std::unique_ptr<std::ostream> query_out_;
  std::unique_ptr<IgnoreSigpipe> query_pipe_sigpipe_;  // declared first: outlives the pipe
  std::unique_ptr<FILE, int (*)(FILE*)> query_pipe_{nullptr, pclose};
  std::unique_ptr<std::streambuf> query_pipe_buf_;

  // \if stack: for each level, whether this branch runs and whether one already ran.
  struct Branch {
    bool active;
    bool taken;
    bool seen_else;
    bool parent_active;
  };
  std::vector<Branch> branches_;

  // \startpipeline ... \endpipeline.
  struct Piped {
    PendingResult result;
    std::string query;
    std::string locus;
  };
  struct Pipeline {
    bool active = false;
    std::vector<Piped> pending;
    std::chrono::steady_clock::time_point started;
  } pipeline_;

  const std::string* typing_query_ = nullptr;  // the statement being typed (completion)
  bool unknown_command_ = false;
  // Set by \restrict: until \unrestrict with the same key, no other meta-command runs.
  std::optional<std::string> restrict_key_;
  // Ctrl-C cancelled a wait or a COPY: a script then stops (psql's EXIT_USER).
  bool cancel_requested_ = false;           // RunMetaCommand did not know the command
  SendOptions pending_send_;               // how the loop runs the buffer after \g, \gx, \gset
  CopyProgressMeter copy_progress_;
  std::optional<ErrorReport> last_error_;  // \errverbose
};

// \pset with no arguments: every printing option and its value, as psql lists them.
std::string PsetListing(const PrintOptions& options);

}  // namespace caracal::frontend
