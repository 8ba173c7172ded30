// caracal: the embedded database and its psql-like shell.
//
//   caracal [OPTION]... [DATADIR]
//
// With DATADIR the database is durable: created there if missing, recovered on start
// (engine/durability/durable_store.h). Without it, the database lives in memory.
// Options are psql's (-c, -f, -v, -X, -A, -t, -F, -q, -e, --csv, -1, ...; see
// `caracal --help`). With -c / -f the commands run in order and caracal exits; otherwise
// it reads stdin, interactively (libedit, history, completion) when stdin and stdout are
// terminals. Exit status as psql's: 0, 1 (a file could not be read, the last -c failed),
// 2 (the database could not be opened), 3 (a script failed under ON_ERROR_STOP).
#include <getopt.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "frontend/shell/help.h"
#include "frontend/shell/interrupt.h"
#include "frontend/shell/line_editor.h"
#include "frontend/session/session.h"
#include "frontend/shell/shell.h"
#include "server/listen_command.h"

namespace {

using caracal::frontend::Shell;

struct Action {
  enum class Kind { kCommand, kFile } kind;
  std::string value;
};

struct Options {
  std::vector<Action> actions;
  std::vector<std::pair<std::string, std::optional<std::string>>> variables;  // -v, in order
  std::vector<std::pair<std::string, std::optional<std::string>>> psets;      // -P and format flags, in order
  std::optional<std::string> output;
  std::optional<std::string> datadir;
  bool no_psqlrc = false;
  bool single_transaction = false;
  bool no_readline = false;
  int workers = 2;
  // --listen [HOST:]PORT: serve PostgreSQL clients instead of running the shell.
  bool listen = false;
  caracal::server::ServerConfig server;
  std::optional<std::string> password_file;
};

constexpr const char* kVersion = "caracal 0.1.0";

[[noreturn]] void Usage(const std::string& message) {
  std::cerr << "caracal: " << message << "\ncaracal: hint: Try \"caracal --help\" for more information.\n";
  std::exit(1);
}

Options ParseArguments(int argc, char** argv) {
  enum { kCsv = 1000, kWorkers, kHelp, kListen, kPasswordFile, kMaxConnections, kIdleTimeout, kTrustRemote,
         kMaxMessageBytes, kStartupTimeout };
  static const option kLong[] = {
      {"command", required_argument, nullptr, 'c'},
      {"file", required_argument, nullptr, 'f'},
      {"set", required_argument, nullptr, 'v'},
      {"variable", required_argument, nullptr, 'v'},
      {"version", no_argument, nullptr, 'V'},
      {"no-psqlrc", no_argument, nullptr, 'X'},
      {"single-transaction", no_argument, nullptr, '1'},
      {"help", optional_argument, nullptr, kHelp},
      {"echo-all", no_argument, nullptr, 'a'},
      {"echo-errors", no_argument, nullptr, 'b'},
      {"echo-queries", no_argument, nullptr, 'e'},
      {"echo-hidden", no_argument, nullptr, 'E'},
      {"no-readline", no_argument, nullptr, 'n'},
      {"output", required_argument, nullptr, 'o'},
      {"quiet", no_argument, nullptr, 'q'},
      {"single-line", no_argument, nullptr, 'S'},
      {"single-step", no_argument, nullptr, 's'},
      {"no-align", no_argument, nullptr, 'A'},
      {"csv", no_argument, nullptr, kCsv},
      {"field-separator", required_argument, nullptr, 'F'},
      {"pset", required_argument, nullptr, 'P'},
      {"record-separator", required_argument, nullptr, 'R'},
      {"tuples-only", no_argument, nullptr, 't'},
      {"expanded", no_argument, nullptr, 'x'},
      {"field-separator-zero", no_argument, nullptr, 'z'},
      {"record-separator-zero", no_argument, nullptr, '0'},
      {"workers", required_argument, nullptr, kWorkers},
      {"listen", required_argument, nullptr, kListen},
      {"password-file", required_argument, nullptr, kPasswordFile},
      {"max-connections", required_argument, nullptr, kMaxConnections},
      {"idle-timeout", required_argument, nullptr, kIdleTimeout},
      {"max-message-bytes", required_argument, nullptr, kMaxMessageBytes},
      {"trust-remote", no_argument, nullptr, kTrustRemote},
      {"startup-timeout", required_argument, nullptr, kStartupTimeout},
      {"host", required_argument, nullptr, 'h'},
      {"port", required_argument, nullptr, 'p'},
      {"username", required_argument, nullptr, 'U'},
      {"dbname", required_argument, nullptr, 'd'},
      {"no-password", no_argument, nullptr, 'w'},
      {"password", no_argument, nullptr, 'W'},
      {nullptr, 0, nullptr, 0},
  };
  Options o;
  auto variable = [&](const std::string& v) {
    size_t eq = v.find('=');
    if (eq == std::string::npos) o.variables.emplace_back(v, std::nullopt);
    else o.variables.emplace_back(v.substr(0, eq), v.substr(eq + 1));
  };
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, "c:f:v:VX1?abeEno:qSsAF:P:R:txz0h:p:U:d:wW", kLong, nullptr)) != -1) {
    switch (c) {
      case 'c': o.actions.push_back({Action::Kind::kCommand, optarg}); break;
      case 'f': o.actions.push_back({Action::Kind::kFile, optarg}); break;
      case 'v': variable(optarg); break;
      case 'V': std::cout << kVersion << "\n"; std::exit(0);
      case 'X': o.no_psqlrc = true; break;
      case '1': o.single_transaction = true; break;
      case 'a': o.variables.emplace_back("ECHO", "all"); break;
      case 'b': o.variables.emplace_back("ECHO", "errors"); break;
      case 'e': o.variables.emplace_back("ECHO", "queries"); break;
      case 'E': break;  // there are no hidden queries to show
      case 'n': o.no_readline = true; break;
      case 'o': o.output = optarg; break;
      case 'q': o.variables.emplace_back("QUIET", "on"); break;
      case 'S': o.variables.emplace_back("SINGLELINE", "on"); break;
      case 's': o.variables.emplace_back("SINGLESTEP", "on"); break;
      case 'A': o.psets.emplace_back("format", "unaligned"); break;
      case kCsv: o.psets.emplace_back("format", "csv"); break;
      case 'F': o.psets.emplace_back("fieldsep", optarg); break;
      case 'R': o.psets.emplace_back("recordsep", optarg); break;
      case 't': o.psets.emplace_back("tuples_only", "on"); break;
      case 'x': o.psets.emplace_back("expanded", "on"); break;
      case 'z': o.psets.emplace_back("fieldsep_zero", std::nullopt); break;
      case '0': o.psets.emplace_back("recordsep_zero", std::nullopt); break;
      case 'P': {
        std::string v = optarg;
        size_t eq = v.find('=');
        if (eq == std::string::npos) o.psets.emplace_back(v, std::nullopt);
        else o.psets.emplace_back(v.substr(0, eq), v.substr(eq + 1));
        break;
      }
      case kWorkers: {
        char* end = nullptr;
        long n = std::strtol(optarg, &end, 10);
        if (!end || *end || n < 1 || n > 256) Usage("--workers must be between 1 and 256");
        o.workers = static_cast<int>(n);
        break;
      }
      case kListen: {
        std::string v = optarg;
        o.listen = true;
        size_t colon = v.rfind(':');
        std::string port = v;
        if (colon != std::string::npos) {
          o.server.host = v.substr(0, colon);
          if (o.server.host.size() > 1 && o.server.host.front() == '[' && o.server.host.back() == ']')
            o.server.host = o.server.host.substr(1, o.server.host.size() - 2);
          port = v.substr(colon + 1);
        }
        char* end = nullptr;
        long n = std::strtol(port.c_str(), &end, 10);
        if (port.empty() || !end || *end || n < 0 || n > 65535) Usage("--listen wants [HOST:]PORT (PORT 0: any free port)");
        o.server.port = static_cast<int>(n);
        break;
      }
      case kPasswordFile: o.password_file = optarg; break;
      case kMaxConnections:
      case kIdleTimeout:
      case kStartupTimeout:
      case kMaxMessageBytes: {
        char* end = nullptr;
        long long n = std::strtoll(optarg, &end, 10);
        if (!end || *end || n < 0 || (c == kMaxConnections && (n < 1 || n > 100000)) ||
            (c == kMaxMessageBytes && n < 1024))
          Usage(std::string("invalid value for --") + (c == kMaxConnections ? "max-connections" : c == kIdleTimeout ? "idle-timeout" : c == kStartupTimeout ? "startup-timeout" : "max-message-bytes"));
        if (c == kMaxConnections) o.server.max_connections = static_cast<int>(n);
        else if (c == kIdleTimeout) o.server.idle_timeout = std::chrono::seconds(n);
        else if (c == kStartupTimeout) o.server.startup_timeout = std::chrono::seconds(std::max<long long>(n, 1));
        else o.server.max_message_bytes = static_cast<size_t>(n);
        break;
      }
      case kTrustRemote:
        o.server.trust_remote = true;
        break;
      case kHelp: {
        std::string topic = optarg ? optarg : "options";
        if (topic == "commands") std::cout << caracal::frontend::MetaCommandHelp();
        else if (topic == "variables") std::cout << caracal::frontend::VariablesHelp();
        else if (topic == "options") std::cout << caracal::frontend::OptionsHelp();
        else Usage("unrecognized help topic \"" + topic + "\"");
        std::exit(0);
      }
      case 'h':
      case 'p':
      case 'U':
      case 'd':
      case 'w':
      case 'W':
        Usage(std::string("option -") + static_cast<char>(c) +
              " does not apply: caracal runs its database in this process (give a data directory as an argument)");
      case '?':
        if (optopt == '?' || (optopt == 0 && std::string(argv[optind - 1]) == "-?")) {
          std::cout << caracal::frontend::OptionsHelp();
          std::exit(0);
        }
        if (optopt && std::string("cfvoFPRhpUd").find(static_cast<char>(optopt)) != std::string::npos)
          Usage(std::string("option requires an argument -- '") + static_cast<char>(optopt) + "'");
        Usage(optopt ? std::string("invalid option -- '") + static_cast<char>(optopt) + "'"
                     : "unrecognized option '" + std::string(argv[optind - 1]) + "'");
      default: Usage("invalid option");
    }
  }
  if (optind < argc) o.datadir = argv[optind++];
  for (; optind < argc; ++optind)
    std::cerr << "caracal: warning: extra command-line argument \"" << argv[optind] << "\" ignored\n";
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  Options options = ParseArguments(argc, argv);

  caracal::frontend::SessionOptions session_options;
  session_options.engine.workers = options.workers;
  session_options.engine.epoch_interval_ms = 1;
  session_options.engine.adaptive_epoch_start = true;
  if (options.listen) {
    // A server's calls come from many clients: epochs close on their interval.
    if (options.password_file) {
      std::ifstream in(*options.password_file);
      std::string password;
      if (!in || !std::getline(in, password)) {
        std::cerr << "caracal: error: could not read the password file \"" << *options.password_file << "\"\n";
        return 2;
      }
      options.server.password = password;
    } else if (const char* env = std::getenv("CARACAL_PASSWORD"); env && *env) {
      options.server.password = env;
    }
  }
  if (options.datadir) {
    session_options.durability.emplace();
    session_options.durability->data_dir = *options.datadir;
  }
  std::optional<caracal::frontend::Session> opened;
  try {
    opened.emplace(session_options);
  } catch (const std::exception& e) {
    std::cerr << "caracal: error: could not open data directory \"" << options.datadir.value_or("") << "\": " << e.what()
              << "\n";
    return 2;
  }
  caracal::frontend::Session& session = *opened;
  // A cut log tail is worth a word even in scripts: unacknowledged work was dropped.
  if (session.durable() != nullptr && session.durable()->recovery().cut)
    std::cerr << "WARNING:  " << session.durable()->recovery().Describe() << "\n";
  if (options.listen) return caracal::server::Serve(options.server, session, std::cerr);
  Shell shell(session, std::cout, std::cerr);

  for (const auto& [name, value] : options.variables) {
    std::optional<std::string> error =
        value ? shell.variables().Set(name, *value) : shell.variables().Unset(name);
    if (error) {
      std::cerr << "caracal: error: " << *error << "\n";
      return 1;
    }
  }
  for (const auto& [name, value] : options.psets)
    if (!shell.SetPrintOption(name, value, true)) {
      std::cerr << "caracal: error: could not set printing parameter \"" << name << "\"\n";
      return 1;
    }
  if (options.output && !shell.SetQueryOutput(*options.output)) return 1;

  caracal::frontend::InstallInterruptHandler();

  // The start-up file, as psql's ~/.psqlrc: $CARACALRC or ~/.caracalrc, unless -X.
  if (!options.no_psqlrc) {
    std::string rc;
    if (const char* env = std::getenv("CARACALRC")) rc = env;
    else if (const char* home = std::getenv("HOME")) rc = std::string(home) + "/.caracalrc";
    std::error_code ec;
    if (!rc.empty() && std::filesystem::exists(rc, ec)) shell.RunFile(rc);
  }

  if (!options.actions.empty()) {
    if (options.single_transaction) shell.StartPipeline();
    int status = caracal::frontend::kExitSuccess;
    for (const Action& a : options.actions) {
      status = a.kind == Action::Kind::kCommand ? shell.RunCommand(a.value) : shell.RunFile(a.value);
      if (shell.terminated()) break;
      if (status != caracal::frontend::kExitSuccess && shell.variables().on_error_stop()) break;
    }
    if (options.single_transaction && shell.in_pipeline() && !shell.EndPipeline() && status == 0 &&
        shell.variables().on_error_stop())
      status = caracal::frontend::kExitUser;
    return status;
  }

  bool interactive = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  shell.UseTerseMessages();
  if (!interactive) {
    caracal::frontend::StreamLineSource input(std::cin);
    return shell.RunLoop(input);
  }
  if (session.durable() != nullptr)
    shell.PrintBanner("durable database in \"" + session.durable()->data_dir().string() + "\"");
  else
    shell.PrintBanner("embedded in-memory database: nothing is saved on exit");
  std::unique_ptr<caracal::frontend::LineSource> input = caracal::frontend::MakeLineEditor(
      shell.variables(), [&shell](const std::string& text) { return shell.Completions(text); }, !options.no_readline);
  return shell.RunLoop(*input);
}
