// caracal: the embedded database with a psql-like command line.
//
//   caracal [DATADIR] [-c SQL]... [-f FILE]... [-X] [-A] [-t] [-q] [-F SEP] [-v NAME=VALUE]...
//
// With DATADIR the database is durable: created there if missing, recovered on start
// (frontend/durable_store.h). Without it, the database lives in memory.
// -c and -f run in the order given (stdin if neither). Output follows `psql -X`: rows in
// aligned or (-A) unaligned format, command tags unless -q, errors on stderr as libpq
// formats them. Exit status as psql's: 0 normally; 1 if a file cannot be read or the last
// -c failed (or any -c failed under ON_ERROR_STOP); 3 if a script (-f or stdin) failed
// under ON_ERROR_STOP=1.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "frontend/printer.h"
#include "frontend/script.h"
#include "frontend/session.h"

namespace {

using caracal::frontend::PrintOptions;
using caracal::frontend::Session;
using caracal::frontend::StatementResult;

struct Action {
  bool is_file;
  std::string value;
};

bool TruthyVariable(const std::string& v) {
  std::string s;
  for (char c : v) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s == "1" || s == "on" || s == "true" || s == "yes" || s == "t" || s == "y";
}

// Prints the results of one Execute call; returns false if one of them failed.
bool Report(const std::vector<StatementResult>& results, const PrintOptions& options, const std::string& prefix) {
  bool ok = true;
  for (const StatementResult& r : results) {
    if (r.error) {
      std::cout.flush();
      // NOTICEs raised before the error still reach the client, as in PostgreSQL.
      for (const std::string& n : r.notices) std::cerr << prefix << "NOTICE:  " << n << "\n";
      std::cerr << caracal::frontend::FormatError(*r.error, prefix);
      ok = false;
    } else {
      caracal::frontend::PrintResult(r, options, std::cout, std::cerr, prefix);
    }
  }
  std::cout.flush();
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"caracal: a deterministic main-memory database with a PostgreSQL-flavoured SQL front end"};
  std::vector<Action> actions;
  PrintOptions options;
  bool no_psqlrc = false;
  std::vector<std::string> variables;
  int workers = 2;
  std::string data_dir;
  app.add_option("datadir", data_dir, "data directory: a durable database, created if missing (default: in memory)");
  app.add_option_function<std::vector<std::string>>(
         "-c,--command", [&](const std::vector<std::string>&) {}, "run SQL (may be repeated)")
      ->each([&](const std::string& v) { actions.push_back({false, v}); })
      ->allow_extra_args(false);
  app.add_option_function<std::vector<std::string>>(
         "-f,--file", [&](const std::vector<std::string>&) {}, "run SQL from a file (may be repeated)")
      ->each([&](const std::string& v) { actions.push_back({true, v}); })
      ->allow_extra_args(false);
  app.add_flag("-X,--no-psqlrc", no_psqlrc, "accepted for psql compatibility (there is no startup file)");
  app.add_flag("-A,--no-align", options.unaligned, "unaligned output");
  app.add_flag("-t,--tuples-only", options.tuples_only, "print rows only");
  app.add_flag("-q,--quiet", options.quiet, "no command tags");
  app.add_option("-F,--field-separator", options.field_separator, "field separator for unaligned output");
  app.add_option("-v,--set,--variable", variables, "set a variable NAME=VALUE (ON_ERROR_STOP)");
  app.add_option("--workers", workers, "engine worker threads")->check(CLI::Range(1, 256));
  CLI11_PARSE(app, argc, argv);

  bool on_error_stop = false;
  for (const std::string& v : variables) {
    auto eq = v.find('=');
    std::string name = v.substr(0, eq);
    std::string value = eq == std::string::npos ? "" : v.substr(eq + 1);
    if (name == "ON_ERROR_STOP") on_error_stop = TruthyVariable(value);
  }

  caracal::frontend::SessionOptions session_options;
  session_options.engine.workers = workers;
  session_options.engine.epoch_interval_ms = 1;
  if (!data_dir.empty()) {
    session_options.durability.emplace();
    session_options.durability->data_dir = data_dir;
  }
  std::optional<Session> opened;
  try {
    opened.emplace(session_options);
  } catch (const std::exception& e) {
    std::cerr << "caracal: error: could not open the database in \"" << data_dir << "\": " << e.what() << "\n";
    return 2;
  }
  Session& session = *opened;
  if (session.durable() != nullptr && session.durable()->recovery().cut)
    std::cerr << "WARNING:  " << session.durable()->recovery().Describe() << "\n";

  // Runs a script (file or stdin) statement by statement, as psql sends them.
  auto run_script = [&](const std::string& text, const std::string& name) -> bool {
    bool all_ok = true;
    for (const auto& stmt : caracal::frontend::SplitScript(text)) {
      std::string prefix = name.empty() ? "" : "caracal:" + name + ":" + std::to_string(stmt.end_line) + ": ";
      if (!Report(session.Execute(stmt.text), options, prefix)) {
        all_ok = false;
        if (on_error_stop) return false;
      }
    }
    return all_ok;
  };

  if (actions.empty()) {
    std::stringstream buffer;
    buffer << std::cin.rdbuf();
    if (!run_script(buffer.str(), "") && on_error_stop) return 3;
    return 0;
  }
  int status = 0;
  for (const Action& a : actions) {
    if (a.is_file) {
      std::ifstream in(a.value, std::ios::binary);
      if (!in) {
        std::cerr << "caracal: error: " << a.value << ": No such file or directory\n";
        return 1;
      }
      std::stringstream buffer;
      buffer << in.rdbuf();
      bool ok = run_script(buffer.str(), a.value);
      if (!ok && on_error_stop) return 3;
      status = 0;
    } else {
      bool ok = Report(session.Execute(a.value), options, "");
      if (!ok && on_error_stop) return 1;
      status = ok ? 0 : 1;
    }
  }
  return status;
}
