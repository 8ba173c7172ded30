// The backslash commands (psql's command.c, re-implemented for the embedded database):
// argument parsing, messages and results as psql 15 gives them. \d and friends are in
// describe.cc, \pset in pset.cc.
#include <fmt/format.h>
#include <strings.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "planner/exec/describe.h"
#include "frontend/shell/help.h"
#include "planner/analysis/expr_render.h"
#include "frontend/shell/interrupt.h"
#include "frontend/shell/result_printer.h"
#include "frontend/shell/shell.h"

namespace caracal::frontend {

namespace {

// psql commands the embedded database has no use for: a clear message instead of
// "invalid command".
bool UnsupportedPsqlCommand(const std::string& cmd) {
  static const char* kNames[] = {"du", "dg", "dm", "dx", "dp",
                                 "z", "ev", "sv", "H", "html", "lo_import", "lo_export", "lo_list",
                                 "lo_unlink", "password", "crosstabview", "gdesc", "bind", "da", "db", "dc",
                                 "dC", "dd", "dE", "des", "det", "deu", "dew", "dF", "dFd", "dFp", "dFt", "dl", "dL",
                                 "do", "dO", "dP", "drds", "dRp", "dRs", "dy", "dX", "ddp", "dA", "sv+"};
  std::string base = cmd;
  while (!base.empty() && (base.back() == '+' || base.back() == 'S')) base.pop_back();
  for (const char* n : kNames)
    if (base == n || cmd == n) return true;
  return false;
}

bool IsConditional(const std::string& cmd) { return cmd == "if" || cmd == "elif" || cmd == "else" || cmd == "endif"; }

// Whether RunMetaCommand knows `cmd` (psql names an unknown command even in a false
// \if branch, where known ones are skipped).
bool KnownMetaCommand(const std::string& cmd) {
  static const char* kNames[] = {
      "q", "quit", "?", "h", "help", "echo", "qecho", "warn", "set", "unset", "timing", "pset", "x", "t", "a", "f",
      "C", "g", "gx", "gset", "gexec", "p", "print", "r", "reset", "w", "write", "i", "include", "ir", "include_relative", "o",
      "out", "cd", "!", "setenv", "getenv", "encoding", "conninfo", "copyright", "errverbose", "prompt", "s", "watch",
      "startpipeline", "endpipeline", "syncpipeline", "flushrequest", "flush", "getresults", "copy", "e", "edit", "ef", "l", "l+", "list", "dn", "dn+", "dT", "dT+", "dTS", "dTS+", "dD", "dD+", "dDS", "dDS+", "c", "connect", "sf", "sf+", "dw",
      "dw+", "d", "d+", "dS", "dS+", "dconfig", "dconfig+", "restrict", "unrestrict"};
  for (const char* n : kNames)
    if (cmd == n) return true;
  if (UnsupportedPsqlCommand(cmd)) return true;
  // \dt, \di, \ds, \df and their combinations, with S and + modifiers.
  if (cmd.size() > 1 && cmd[0] == 'd') {
    std::string letters;
    for (char c : cmd.substr(1))
      if (c != '+' && c != 'S') letters += c;
    return letters.find_first_not_of("tisv") == std::string::npos || letters == "f" || letters == "fn" || letters == "fp";
  }
  return false;
}

}  // namespace

CommandStatus Shell::HandleMetaCommand(InputScanner& scanner, std::string& query, std::string& previous) {
  std::string cmd = scanner.ReadCommandName();
  CommandStatus status;
  unknown_command_ = false;
  if (restrict_key_ && cmd != "unrestrict") {
    // pg_dump brackets its scripts in \restrict / \unrestrict so that data in the dump
    // cannot smuggle in meta-commands (CVE-2025-8714); psql refuses every other one.
    LogError("backslash commands are restricted; only \\unrestrict is allowed");
    status = CommandStatus::kError;
  } else if (!BranchActive() && !IsConditional(cmd)) {
    if (KnownMetaCommand(cmd)) {
      // Inside a false \if branch commands are parsed, not run (and their variables
      // are not expanded).
      while (scanner.ReadArgument(ArgMode::kNoEval)) {
      }
      scanner.EndCommand();
      return CommandStatus::kSkipLine;
    }
    unknown_command_ = true;  // psql names an unknown command even there
    status = CommandStatus::kError;
  } else {
    status = RunMetaCommand(cmd, scanner, query, previous);
  }
  if (unknown_command_) {
    if (UnsupportedPsqlCommand(cmd)) {
      LogError(fmt::format("\\{} is not supported by caracal (an embedded database with one schema)", cmd));
    } else {
      LogError(fmt::format("invalid command \\{}", cmd));
      if (interactive_) LogHint("Try \\? for help.");
    }
  }
  if (status != CommandStatus::kError) {
    while (std::optional<std::string> arg = scanner.ReadArgument(ArgMode::kNoEval))
      LogWarning(fmt::format("\\{}: extra argument \"{}\" ignored", cmd, *arg));
  } else {
    // psql silently throws away the rest of the line after a failed command.
    while (scanner.ReadArgument(ArgMode::kWholeLine)) {
    }
  }
  scanner.EndCommand();
  return status;
}

CommandStatus Shell::RunMetaCommand(const std::string& cmd, InputScanner& scanner, std::string& query,
                                    std::string& previous) {
  auto arg = [&](ArgMode mode = ArgMode::kNormal) { return scanner.ReadArgument(mode); };
  auto ok = [](bool b) { return b ? CommandStatus::kSkipLine : CommandStatus::kError; };
  auto missing = [&](const std::string& what = "") {
    LogError(what.empty() ? fmt::format("\\{}: missing required argument", cmd) : what);
    return CommandStatus::kError;
  };
  auto say = [&](const std::string& text) {
    FlushOut();
    out_ << text << '\n';
    out_.flush();
  };
  // \g, \gx and \gset run the buffer, or the previous query when it is empty.
  auto send = [&](SendOptions how) {
    if (query.empty()) query = previous;
    pending_send_ = std::move(how);
    return CommandStatus::kSend;
  };

  if (IsConditional(cmd)) return Conditional(cmd, scanner);
  if (cmd == "q" || cmd == "quit") return CommandStatus::kTerminate;
  if (cmd == "?") {
    std::string topic = arg().value_or("commands");
    FlushOut();
    if (topic == "options") out_ << OptionsHelp();
    else if (topic == "variables") out_ << VariablesHelp();
    else out_ << MetaCommandHelp();
    out_.flush();
    return CommandStatus::kSkipLine;
  }
  if (cmd == "h" || cmd == "help") {
    std::string topic = arg(ArgMode::kWholeLine).value_or("");
    FlushOut();
    out_ << SqlHelp(topic);
    out_.flush();
    return CommandStatus::kSkipLine;
  }
  if (cmd == "echo" || cmd == "qecho" || cmd == "warn") {
    std::ostream& target = cmd == "echo" ? out_ : cmd == "qecho" ? QueryOut() : err_;
    if (cmd == "warn") FlushOut();
    bool first = true, no_newline = false, quoted = false;
    std::string text;
    while (std::optional<std::string> v = scanner.ReadArgument(ArgMode::kNormal, &quoted)) {
      if (first && !no_newline && !quoted && *v == "-n") {
        no_newline = true;
        continue;
      }
      if (!first) text += ' ';
      first = false;
      text += *v;
    }
    target << text << (no_newline ? "" : "\n");
    target.flush();
    return CommandStatus::kSkipLine;
  }
  if (cmd == "set") {
    std::optional<std::string> name = arg();
    if (!name) {
      FlushOut();
      for (const auto& [k, v] : variables_.all()) out_ << k << " = '" << v << "'\n";
      out_.flush();
      return CommandStatus::kSkipLine;
    }
    std::string value = arg().value_or("");
    while (std::optional<std::string> more = arg()) value += *more;
    if (std::optional<std::string> error = variables_.Set(*name, value)) {
      LogError(*error);
      return CommandStatus::kError;
    }
    return CommandStatus::kSkipLine;
  }
  if (cmd == "unset") {
    std::optional<std::string> name = arg();
    if (!name) return missing();
    if (std::optional<std::string> error = variables_.Unset(*name)) {
      LogError(*error);
      return CommandStatus::kError;
    }
    return CommandStatus::kSkipLine;
  }
  if (cmd == "timing") {
    std::optional<std::string> v = arg();
    bool good = true;
    if (v) {
      std::optional<bool> b = ParseBool(*v);
      if (b) timing_ = *b;
      else {
        LogError(fmt::format("unrecognized value \"{}\" for \"\\timing\": Boolean expected", *v));
        good = false;
      }
    } else {
      timing_ = !timing_;
    }
    if (!variables_.quiet()) say(timing_ ? "Timing is on." : "Timing is off.");
    return ok(good);
  }
  if (cmd == "pset") {
    std::optional<std::string> name = arg();
    if (!name) {
      FlushOut();
      out_ << PsetListing(print_);
      out_.flush();
      return CommandStatus::kSkipLine;
    }
    std::optional<std::string> value = arg();
    return ok(SetPrintOption(*name, value, variables_.quiet()));
  }
  if (cmd == "x") return ok(SetPrintOption("expanded", arg(), variables_.quiet()));
  if (cmd == "t") return ok(SetPrintOption("tuples_only", arg(), variables_.quiet()));
  if (cmd == "a")
    return ok(SetPrintOption("format", print_.format != OutputFormat::kAligned ? "aligned" : "unaligned", variables_.quiet()));
  if (cmd == "f") return ok(SetPrintOption("fieldsep", arg(), variables_.quiet()));
  if (cmd == "C") return ok(SetPrintOption("title", arg(), variables_.quiet()));
  if (cmd == "g" || cmd == "gx") {
    SendOptions how;
    how.expanded = cmd == "gx";
    std::optional<std::string> first = arg(ArgMode::kFilePipe);
    if (first && (*first)[0] == '(') {
      // \g (name=value ...): \pset options for this query only.
      PrintOptions local = print_;
      std::string token = first->substr(1);
      for (;;) {
        bool last = !token.empty() && token.back() == ')';
        if (last) token.pop_back();
        if (!token.empty()) {
          size_t eq = token.find('=');
          std::optional<std::string> value;
          if (eq != std::string::npos) value = token.substr(eq + 1);
          if (!SetPrintOption(token.substr(0, eq), value, true, &local)) return CommandStatus::kError;
        }
        if (last) break;
        std::optional<std::string> next = arg();
        if (!next) return missing(fmt::format("\\{}: missing right parenthesis", cmd));
        token = *next;
      }
      how.print = local;
      first = arg(ArgMode::kFilePipe);
    }
    how.output = first;
    return send(std::move(how));
  }
  if (cmd == "gexec") {
    SendOptions how;
    how.gexec = true;
    return send(std::move(how));
  }
  if (cmd == "gset") {
    SendOptions how;
    how.gset_prefix = arg().value_or("");
    return send(std::move(how));
  }
  if (cmd == "p" || cmd == "print") {
    FlushOut();
    if (!query.empty()) out_ << query << '\n';
    else if (!previous.empty()) out_ << previous << '\n';
    else if (!variables_.quiet()) out_ << "Query buffer is empty.\n";
    out_.flush();
    return CommandStatus::kSkipLine;
  }
  if (cmd == "r" || cmd == "reset") {
    query.clear();
    scanner.Reset();
    if (!variables_.quiet()) say("Query buffer reset (cleared).");
    return CommandStatus::kSkipLine;
  }
  if (cmd == "w" || cmd == "write") {
    std::optional<std::string> file = arg(ArgMode::kFilePipe);
    if (!file) return missing();
    const std::string& text = query.empty() ? previous : query;
    if ((*file)[0] == '|') {
      IgnoreSigpipe quiet;
      FILE* p = popen(file->c_str() + 1, "w");
      if (!p) return missing(fmt::format("{}: {}", file->substr(1), std::strerror(errno)));
      std::fwrite(text.data(), 1, text.size(), p);
      std::fputc('\n', p);
      pclose(p);
      return CommandStatus::kSkipLine;
    }
    std::ofstream f(*file, std::ios::binary | std::ios::trunc);
    if (!f) return missing(fmt::format("{}: {}", *file, std::strerror(errno)));
    f << text << '\n';
    return CommandStatus::kSkipLine;
  }
  if (cmd == "i" || cmd == "include" || cmd == "ir" || cmd == "include_relative") {
    std::optional<std::string> file = arg();
    if (!file) return missing();
    int r = RunFile(*file, cmd == "ir" || cmd == "include_relative");
    if (terminated_) return CommandStatus::kTerminate;
    return ok(r == kExitSuccess);
  }
  if (cmd == "o" || cmd == "out") return ok(SetQueryOutput(arg(ArgMode::kFilePipe)));
  if (cmd == "cd") {
    std::optional<std::string> dir = arg();
    std::string target = dir ? *dir : (std::getenv("HOME") ? std::getenv("HOME") : "/");
    if (chdir(target.c_str()) != 0) {
      LogError(fmt::format("\\cd: could not change directory to \"{}\": {}", target, std::strerror(errno)));
      return CommandStatus::kError;
    }
    return CommandStatus::kSkipLine;
  }
  if (cmd == "!") {
    std::optional<std::string> command = arg(ArgMode::kWholeLine);
    FlushOut();
    std::string run = command ? *command : (std::getenv("SHELL") ? std::getenv("SHELL") : "/bin/sh");
    int rc = std::system(run.c_str());
    return ok(rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) != 127);
  }
  if (cmd == "setenv") {
    std::optional<std::string> name = arg();
    if (!name) return missing();
    if (name->find('=') != std::string::npos) return missing("\\setenv: environment variable name must not contain \"=\"");
    std::optional<std::string> value = arg();
    if (value) setenv(name->c_str(), value->c_str(), 1);
    else unsetenv(name->c_str());
    return CommandStatus::kSkipLine;
  }
  if (cmd == "getenv") {
    std::optional<std::string> name = arg();
    std::optional<std::string> env = arg();
    if (!name || !env) return missing();
    if (const char* v = std::getenv(env->c_str())) variables_.Set(*name, v);
    return CommandStatus::kSkipLine;
  }
  if (cmd == "encoding") {
    std::optional<std::string> enc = arg();
    if (!enc) {
      say("UTF8");
      return CommandStatus::kSkipLine;
    }
    if (strcasecmp(enc->c_str(), "utf8") == 0 || strcasecmp(enc->c_str(), "utf-8") == 0 ||
        strcasecmp(enc->c_str(), "unicode") == 0)
      return CommandStatus::kSkipLine;
    return missing(fmt::format("{}: invalid encoding name or conversion procedure not found", *enc));
  }
  if (cmd == "restrict" || cmd == "unrestrict") {
    std::optional<std::string> key = arg(ArgMode::kNoEval);
    if (!key) return missing();
    if (cmd == "restrict") {
      restrict_key_ = std::move(*key);
    } else if (!restrict_key_) {
      LogError("\\unrestrict: not currently in restricted mode");
      return CommandStatus::kError;
    } else if (*key != *restrict_key_) {
      LogError("\\unrestrict: wrong key");
      return CommandStatus::kError;
    } else {
      restrict_key_.reset();
    }
    return CommandStatus::kSkipLine;
  }
  if (cmd == "conninfo") {
    const engine::EngineOptions& e = session_.settings().engine_options();
    say(fmt::format("You are connected to the embedded caracal database \"{}\" in this process (in memory: nothing "
                    "is saved on exit); {} worker{}, epochs of up to {} transactions or {} ms.",
                    variables_.Get("DBNAME").value_or("caracal"), e.workers, e.workers == 1 ? "" : "s",
                    e.epoch_max_txns, e.epoch_interval_ms));
    return CommandStatus::kSkipLine;
  }
  if (cmd == "copyright") {
    say("caracal: a deterministic main-memory OLTP database (the Caracal design, SOSP'21) with a\n"
        "PostgreSQL-flavoured SQL front end. Its SQL dialect and this shell follow PostgreSQL and psql.");
    return CommandStatus::kSkipLine;
  }
  if (cmd == "errverbose") {
    if (!last_error_) {
      say("There is no previous error.");
      return CommandStatus::kSkipLine;
    }
    // As psql: pg_log_error of the verbose report ("caracal:FILE:LINE: error: ERROR: ...").
    std::string report = FormatError(*last_error_, "", Verbosity::kVerbose, ShowContext::kAlways);
    if (!report.empty() && report.back() == '\n') report.pop_back();
    LogError(report);
    return CommandStatus::kSkipLine;
  }
  if (cmd == "prompt") {
    std::optional<std::string> first = arg();
    std::optional<std::string> second = arg();
    if (!first) return missing();
    std::string name = second ? *second : *first;
    if (second) {
      FlushOut();
      out_ << *first;
      out_.flush();
    }
    std::string line;
    if (!std::getline(std::cin, line)) line.clear();
    if (std::optional<std::string> error = variables_.Set(name, line)) {
      LogError(*error);
      return CommandStatus::kError;
    }
    return CommandStatus::kSkipLine;
  }
  if (cmd == "s") {
    std::optional<std::string> file = arg();
    std::vector<std::string> entries = source_ ? source_->History() : std::vector<std::string>{};
    std::unique_ptr<std::ofstream> f;
    std::ostream* target = &out_;
    if (file) {
      f = std::make_unique<std::ofstream>(*file, std::ios::trunc);
      if (!*f) return missing(fmt::format("could not save history to file \"{}\": {}", *file, std::strerror(errno)));
      target = f.get();
    }
    FlushOut();
    for (const std::string& e : entries) *target << e << '\n';
    target->flush();
    if (file && !variables_.quiet()) say(fmt::format("Wrote history to file \"{}\".", *file));
    return CommandStatus::kSkipLine;
  }
  if (cmd == "watch") return Watch(scanner, query, previous);
  if (cmd == "e" || cmd == "edit" || cmd == "ef") return Edit(cmd, scanner, query, previous);
  if (cmd == "startpipeline") return ok(StartPipeline());
  if (cmd == "endpipeline") return ok(EndPipeline());
  if (cmd == "syncpipeline" || cmd == "flushrequest" || cmd == "flush") {
    // Statements are submitted at once and every call is its own transaction: there
    // is nothing to synchronise or flush.
    if (!pipeline_.active) return missing(fmt::format("\\{}: not in pipeline mode", cmd));
    return CommandStatus::kSkipLine;
  }
  if (cmd == "getresults") {
    if (!pipeline_.active) return missing("\\getresults: not in pipeline mode");
    std::optional<std::string> n = arg();
    size_t count = n ? static_cast<size_t>(std::max(0, std::atoi(n->c_str()))) : pipeline_.pending.size();
    if (count == 0) count = pipeline_.pending.size();
    if (pipeline_.pending.empty()) {
      say("No pending results to get");
      return CommandStatus::kSkipLine;
    }
    bool good = true;
    count = std::min(count, pipeline_.pending.size());
    for (size_t i = 0; i < count; ++i) {
      Piped& p = pipeline_.pending[i];
      std::optional<StatementResult> r = Await(p.result);
      if (!r) return CommandStatus::kError;
      good = PrintStatement(*r, p.query, p.locus, SendOptions{}, QueryOut()) && good;
    }
    pipeline_.pending.erase(pipeline_.pending.begin(), pipeline_.pending.begin() + static_cast<long>(count));
    return ok(good);
  }
  if (cmd == "copy") {
    std::optional<std::string> rest = arg(ArgMode::kWholeLine);
    if (!rest) return missing("\\copy: arguments required");
    // \copy t FROM file ...: the file is read on the client host, which for the embedded
    // database is this process: COPY FROM with the file name quoted if it was not.
    std::string text = *rest;
    std::string lower = text;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // The direction word after the table (and column list) or the parenthesized query.
    size_t from = lower.find(" from ");
    size_t to = lower.find(" to ");
    if (lower.starts_with("(")) {
      int depth = 0;
      size_t close = 0;
      for (size_t i = 0; i < lower.size(); ++i) {
        if (lower[i] == '(') ++depth;
        if (lower[i] == ')' && --depth == 0) {
          close = i;
          break;
        }
      }
      from = lower.find(" from ", close);
      to = lower.find(" to ", close);
      if (from != std::string::npos && (to == std::string::npos || to > from)) to = std::string::npos;
    }
    const bool copy_to = to != std::string::npos && (from == std::string::npos || to < from);
    if (from == std::string::npos && !copy_to) return missing(fmt::format("\\copy: parse error at \"{}\"", text));
    size_t p = copy_to ? to + 4 : from + 6;
    while (p < text.size() && text[p] == ' ') ++p;
    size_t end = p;
    std::string file;
    if (p < text.size() && text[p] == '\'') {
      end = text.find('\'', p + 1);
      end = end == std::string::npos ? text.size() : end + 1;
      file = text.substr(p, end - p);
    } else {
      while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) && text[end] != ';') ++end;
      file = QuoteLiteral(text.substr(p, end - p));
      // stdin: the lines after the command (the shell reads them as COPY FROM STDIN's).
      std::string word = lower.substr(p, end - p);
      if (word == "stdin" || word == "pstdin") file = "STDIN";
      if (word == "stdout" || word == "pstdout") file = "STDOUT";
    }
    std::string sql = "COPY " + text.substr(0, p) + file + text.substr(end);
    while (!sql.empty() && (sql.back() == ';' || std::isspace(static_cast<unsigned char>(sql.back())))) sql.pop_back();
    return ok(SendQuery(sql, SendOptions{}));
  }
  if (cmd == "sf" || cmd == "sf+") {
    std::optional<std::string> name = arg(ArgMode::kWholeLine);
    if (!name) return missing("function name is required");
    std::string source;
    planner::DescribeResult r = planner::FunctionSource(session_.catalog(), *name, cmd == "sf+", source);
    if (!r.error.empty()) {
      ErrorReport e;
      e.sqlstate = "42883";
      e.message = r.error;
      PrintErrorReport(e, Locus());
      return CommandStatus::kError;
    }
    FlushOut();
    QueryOut() << source;
    QueryOut().flush();
    return CommandStatus::kSkipLine;
  }
  if (cmd == "l" || cmd == "l+" || cmd == "list") {
    // One embedded database.
    planner::TextTable t;
    t.title = "List of databases";
    t.headers = {"Name", "Encoding", "Storage"};
    t.right_aligned = {false, false, false};
    t.rows.push_back({variables_.Get("DBNAME").value_or("caracal"), "UTF8", "in memory"});
    EmitTable(t, print_, QueryOut());
    return CommandStatus::kSkipLine;
  }
  if (cmd == "dn" || cmd == "dn+") {
    planner::TextTable t;
    t.title = "List of schemas";
    t.headers = {"Name"};
    t.right_aligned = {false};
    planner::NamePattern pattern(scanner.ReadArgument(ArgMode::kNormal), true);
    if (pattern.Matches("public")) t.rows.push_back({"public"});
    EmitTable(t, print_, QueryOut());
    return CommandStatus::kSkipLine;
  }
  if (cmd == "dT" || cmd == "dT+" || cmd == "dTS" || cmd == "dTS+") {
    // The user-defined types (enums); + adds their labels, one per line, as psql does.
    const bool verbose = cmd.back() == '+';
    planner::TextTable t;
    t.title = "List of data types";
    t.headers = verbose ? std::vector<std::string>{"Schema", "Name", "Internal name", "Size", "Elements", "Description"}
                        : std::vector<std::string>{"Schema", "Name", "Description"};
    t.right_aligned.assign(t.headers.size(), false);
    planner::NamePattern pattern(scanner.ReadArgument(ArgMode::kNormal), true);
    for (const planner::EnumType* e : session_.catalog().Enums()) {
      if (!pattern.Matches(e->name())) continue;
      std::string labels;
      for (const std::string& l : e->labels()) labels += (labels.empty() ? "" : "\n") + l;
      if (verbose) t.rows.push_back({"public", e->name(), e->name(), "4", labels, ""});
      else t.rows.push_back({"public", e->name(), ""});
    }
    EmitTable(t, print_, QueryOut());
    return CommandStatus::kSkipLine;
  }
  if (cmd == "dD" || cmd == "dD+" || cmd == "dDS" || cmd == "dDS+") {
    // The domains, with their constraints as SQL over VALUE.
    planner::TextTable t;
    t.title = "List of domains";
    t.headers = {"Schema", "Name", "Type", "Collation", "Nullable", "Default", "Check"};
    t.right_aligned.assign(t.headers.size(), false);
    planner::NamePattern pattern(scanner.ReadArgument(ArgMode::kNormal), true);
    planner::RenderNames names;
    names.variable = [](int) { return std::string("VALUE"); };
    for (const planner::DomainType* d : session_.catalog().Domains()) {
      if (!pattern.Matches(d->name())) continue;
      std::string checks;
      for (const planner::DomainType::Check& c : d->checks())
        checks += (checks.empty() ? "" : " ") + fmt::format("CHECK ({})", planner::RenderBareExpr(*c.expr, names));
      t.rows.push_back({"public", d->name(), d->base().Name(), "", d->not_null() ? "not null" : "",
                        d->default_expr() ? planner::RenderExpr(*d->default_expr(), names) : "", checks});
    }
    EmitTable(t, print_, QueryOut());
    return CommandStatus::kSkipLine;
  }
  if (cmd == "c" || cmd == "connect") {
    while (scanner.ReadArgument(ArgMode::kNormal)) {
    }
    return missing("\\connect: caracal runs one embedded database in this process; there is nothing to connect to");
  }
  if (cmd == "dw" || cmd == "dw+") {
    std::optional<std::string> name = arg(ArgMode::kIdentifier);
    if (!name) return missing("\\dw: procedure name is required");
    if (session_.catalog().FindProcedures(*name).empty())
      return missing(fmt::format("Did not find any procedure named \"{}\".", *name));
    SendOptions how;
    how.hidden = true;
    how.title = fmt::format("Write set of \"{}\"", *name);
    return ok(SendQuery(fmt::format("SELECT * FROM caracal_write_sets WHERE procedure = {}", QuoteLiteral(*name)), how));
  }
  if (!cmd.empty() && cmd[0] == 'd' && !UnsupportedPsqlCommand(cmd)) return Describe(cmd, scanner);
  unknown_command_ = true;
  return CommandStatus::kError;
}

// \d[S+] [NAME], \dt, \di, \ds (and combinations such as \dti), \df, \dconfig.
CommandStatus Shell::Describe(const std::string& cmd, InputScanner& scanner) {
  std::string letters;
  for (char c : cmd.substr(1))
    if (c != '+' && c != 'S') letters += c;
  std::optional<std::string> pattern = scanner.ReadArgument(ArgMode::kNormal);
  planner::DescribeResult r;
  if (letters.empty()) {
    r = pattern ? planner::DescribeRelations(session_.catalog(), planner::NamePattern(pattern)) : planner::ListRelations(session_.catalog(), "tsv", planner::NamePattern(std::nullopt));
  } else if (letters.find_first_not_of("tisv") == std::string::npos) {
    r = planner::ListRelations(session_.catalog(), letters, planner::NamePattern(pattern));
  } else if (letters == "f" || letters == "fn" || letters == "fp") {
    r = planner::ListFunctions(session_.catalog(), planner::NamePattern(pattern));
  } else if (letters == "config") {
    planner::ResultSet all = session_.settings().ShowAll();
    planner::NamePattern p(pattern, true);
    planner::TextTable t;
    t.title = "List of configuration parameters";
    t.headers = {"Parameter", "Value"};
    t.right_aligned = {false, false};
    for (const auto& row : all.rows)
      if (p.Matches(*row[0])) t.rows.push_back({*row[0], *row[1]});
    r.tables.push_back(std::move(t));
  } else {
    unknown_command_ = true;
    return CommandStatus::kError;
  }
  if (!r.error.empty()) {
    LogError(r.error);
    return CommandStatus::kError;
  }
  for (const planner::TextTable& t : r.tables) EmitTable(t, print_, QueryOut());
  QueryOut().flush();
  return CommandStatus::kSkipLine;
}

// \if EXPR / \elif EXPR / \else / \endif.
CommandStatus Shell::Conditional(const std::string& cmd, InputScanner& scanner) {
  auto expression = [&]() -> std::optional<bool> {
    std::string text;
    while (std::optional<std::string> v = scanner.ReadArgument(ArgMode::kNormal)) text += (text.empty() ? "" : " ") + *v;
    std::optional<bool> b = ParseBool(text);
    if (!b) LogError(fmt::format("unrecognized value \"{}\" for \"\\{} expression\": Boolean expected", text, cmd == "if" ? "if" : "elif"));
    return b;
  };
  auto skip_args = [&] {
    while (scanner.ReadArgument(ArgMode::kNoEval)) {
    }
  };
  if (cmd == "if") {
    bool parent = BranchActive();
    if (!parent) {
      skip_args();
      branches_.push_back({false, true, false, false});
      return CommandStatus::kSkipLine;
    }
    std::optional<bool> b = expression();
    // An invalid expression counts as false, and the branch as taken (psql).
    branches_.push_back({b.value_or(false), b.value_or(true), false, true});
    return b ? CommandStatus::kSkipLine : CommandStatus::kError;
  }
  if (branches_.empty()) {
    skip_args();
    LogError(fmt::format("\\{}: no matching \\if", cmd));
    return CommandStatus::kError;
  }
  Branch& top = branches_.back();
  if (cmd == "elif") {
    if (top.seen_else) {
      skip_args();
      LogError("\\elif: cannot occur after \\else");
      return CommandStatus::kError;
    }
    if (!top.parent_active || top.taken) {
      skip_args();
      top.active = false;
      return CommandStatus::kSkipLine;
    }
    std::optional<bool> b = expression();
    top.active = b.value_or(false);
    top.taken = b.value_or(true);
    return b ? CommandStatus::kSkipLine : CommandStatus::kError;
  }
  if (cmd == "else") {
    if (top.seen_else) {
      LogError("\\else: cannot occur after \\else");
      return CommandStatus::kError;
    }
    top.seen_else = true;
    top.active = top.parent_active && !top.taken;
    top.taken = true;
    return CommandStatus::kSkipLine;
  }
  branches_.pop_back();  // \endif
  return CommandStatus::kSkipLine;
}

CommandStatus Shell::Edit(const std::string& cmd, InputScanner& scanner, std::string& query,
                          const std::string& previous) {
  if (!interactive_) {
    LogError(fmt::format("\\{}: cannot run an editor when not interactive", cmd));
    return CommandStatus::kError;
  }
  std::optional<std::string> target = scanner.ReadArgument(ArgMode::kNormal);
  std::optional<std::string> line = scanner.ReadArgument(ArgMode::kNormal);
  std::string text, path;
  bool temporary = true;
  if (cmd == "ef") {
    if (target) {
      std::string source;
      planner::DescribeResult r = planner::FunctionSource(session_.catalog(), *target, false, source);
      if (!r.error.empty()) {
        ErrorReport e;
        e.sqlstate = "42883";
        e.message = r.error;
        PrintErrorReport(e, Locus());
        return CommandStatus::kError;
      }
      // Edited and run again, the definition must replace the stored one.
      std::string lower = source.substr(0, 40);
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      for (const char* kind : {"create function", "create procedure"})
        if (lower.rfind(kind, 0) == 0) source.insert(6, " or replace");
      text = source;
    } else {
      text = "CREATE FUNCTION ( )\n RETURNS \n LANGUAGE plpgsql\nAS $function$\nBEGIN\nEND\n$function$\n";
    }
  } else if (target) {
    path = *target;
    temporary = false;
  } else {
    text = query.empty() ? previous : query;
  }
  if (temporary) {
    const char* dir = std::getenv("TMPDIR");
    path = fmt::format("{}/caracal.edit.{}.sql", dir && *dir ? dir : "/tmp", getpid());
    std::ofstream f(path, std::ios::trunc);
    if (!f) {
      LogError(fmt::format("could not open temporary file \"{}\": {}", path, std::strerror(errno)));
      return CommandStatus::kError;
    }
    f << text;
    if (!text.empty() && text.back() != '\n') f << '\n';
  }
  const char* editor = std::getenv("PSQL_EDITOR");
  if (!editor || !*editor) editor = std::getenv("EDITOR");
  if (!editor || !*editor) editor = std::getenv("VISUAL");
  if (!editor || !*editor) editor = "vi";
  std::string command = editor;
  if (line) {
    const char* arg = std::getenv("PSQL_EDITOR_LINENUMBER_ARG");
    command += " " + std::string(arg && *arg ? arg : "+") + *line;
  }
  std::string quoted = "'";
  for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  command += " " + quoted + "'";
  FlushOut();
  int rc = std::system(command.c_str());
  if (rc != 0) {
    if (temporary) std::remove(path.c_str());
    LogError(fmt::format("could not start editor \"{}\"", editor));
    return CommandStatus::kError;
  }
  std::ifstream in(path, std::ios::binary);
  std::stringstream edited;
  edited << in.rdbuf();
  if (temporary) std::remove(path.c_str());
  query = edited.str();
  scanner.Reset();
  return CommandStatus::kNewEdit;
}

// \watch [[i=]SEC] [c=N]: runs the query buffer (or the previous query) every SEC seconds
// (default 2), N times or until Ctrl-C or an error, with psql's title line.
CommandStatus Shell::Watch(InputScanner& scanner, std::string& query, const std::string& previous) {
  double interval = 2;
  long count = -1;
  while (std::optional<std::string> a = scanner.ReadArgument(ArgMode::kNormal)) {
    std::string key, value = *a;
    if (size_t eq = a->find('='); eq != std::string::npos) {
      key = a->substr(0, eq);
      value = a->substr(eq + 1);
    }
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(value.c_str(), &end);
    bool number = !value.empty() && end && *end == '\0' && errno == 0 && std::isfinite(v);
    if (key.empty() || key == "i" || key == "interval") {
      if (!number || v < 0) {
        LogError(fmt::format("\\watch: incorrect interval value \"{}\"", value));
        return CommandStatus::kError;
      }
      interval = v;
    } else if (key == "c" || key == "count") {
      if (!number || v < 1 || v != std::floor(v)) {
        LogError(fmt::format("\\watch: incorrect iteration count \"{}\"", value));
        return CommandStatus::kError;
      }
      count = static_cast<long>(v);
    } else {
      LogError(fmt::format("\\watch: unrecognized parameter \"{}\"", key));
      return CommandStatus::kError;
    }
  }
  std::string text = query.empty() ? previous : query;
  query.clear();
  scanner.Reset();
  if (text.empty()) {
    LogError("\\watch cannot be used with an empty query");
    return CommandStatus::kError;
  }
  for (long i = 0; count < 0 || i < count; ++i) {
    char stamp[128];
    std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%c", std::localtime(&now));
    SendOptions how;
    how.title = print_.title.empty() ? fmt::format("{} (every {}s)\n", stamp, interval)
                                     : fmt::format("{}\t{} (every {}s)\n", print_.title, stamp, interval);
    if (!SendQuery(text, how)) return CommandStatus::kError;
    if (count >= 0 && i + 1 >= count) break;
    // Sleep in small steps so that Ctrl-C ends the watch at once.
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(interval);
    while (std::chrono::steady_clock::now() < until) {
      if (Interrupted()) {
        ClearInterrupt();
        if (interactive_) out_ << '\n';  // past the terminal's "^C"
        return CommandStatus::kSkipLine;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  return CommandStatus::kSkipLine;
}

}  // namespace caracal::frontend
