#include "frontend/session/settings.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <fmt/format.h>
#include <strings.h>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <functional>

#include "planner/types/sql_error.h"

namespace caracal::frontend {

using planner::SqlError;

namespace {

constexpr const char* kInvalidParameterValue = "22023";
constexpr const char* kUndefinedObject = "42704";
constexpr const char* kCantChangeRuntimeParam = "55P02";
constexpr const char* kInvalidName = "42602";

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// PostgreSQL's parse_bool: unique prefixes of true/false/yes/no, on/off, 1/0.
std::optional<bool> PgBool(const std::string& raw) {
  std::string v = Lower(raw);
  auto prefix = [&](const char* word, size_t min) { return v.size() >= min && std::string(word).rfind(v, 0) == 0; };
  if (prefix("true", 1)) return true;
  if (prefix("false", 1)) return false;
  if (prefix("yes", 1)) return true;
  if (prefix("no", 1)) return false;
  if (prefix("on", 2)) return true;
  if (prefix("off", 2)) return false;
  if (v == "1") return true;
  if (v == "0") return false;
  return std::nullopt;
}

}  // namespace

struct Settings::Parameter {
  enum class Kind { kBool, kInt, kEnum, kString };
  std::string name;
  Kind kind = Kind::kString;
  int64_t min = 0, max = 0;            // kInt
  std::vector<std::string> choices;    // kEnum
  bool read_only = false;
  std::string description;
  // Engine parameters: read from and write to EngineOptions.
  std::function<std::string(const engine::EngineOptions&)> get;
  std::function<void(engine::EngineOptions&, const std::string&)> set;
};

namespace {

using Parameter = Settings::Parameter;

std::string BoolText(bool b) { return b ? "on" : "off"; }

Parameter IntEngine(std::string name, int64_t min, int64_t max, std::string description,
                    std::function<int64_t(const engine::EngineOptions&)> get, std::function<void(engine::EngineOptions&, int64_t)> set) {
  Parameter p;
  p.name = std::move(name);
  p.kind = Parameter::Kind::kInt;
  p.min = min;
  p.max = max;
  p.description = std::move(description);
  p.get = [get](const engine::EngineOptions& o) { return std::to_string(get(o)); };
  p.set = [set](engine::EngineOptions& o, const std::string& v) { set(o, std::stoll(v)); };
  return p;
}

Parameter BoolEngine(std::string name, std::string description, bool engine::EngineOptions::*field) {
  Parameter p;
  p.name = std::move(name);
  p.kind = Parameter::Kind::kBool;
  p.description = std::move(description);
  p.get = [field](const engine::EngineOptions& o) { return BoolText(o.*field); };
  p.set = [field](engine::EngineOptions& o, const std::string& v) { o.*field = v == "on"; };
  return p;
}

Parameter IntPlain(std::string name, int64_t min, int64_t max, std::string description) {
  Parameter p;
  p.name = std::move(name);
  p.kind = Parameter::Kind::kInt;
  p.min = min;
  p.max = max;
  p.description = std::move(description);
  return p;
}

Parameter Plain(std::string name, Parameter::Kind kind, std::string description, std::vector<std::string> choices = {},
                bool read_only = false) {
  Parameter p;
  p.name = std::move(name);
  p.kind = kind;
  p.description = std::move(description);
  p.choices = std::move(choices);
  p.read_only = read_only;
  return p;
}

// Every parameter, by name. The engine ones mirror engine/execution/engine_options.h.
const std::map<std::string, Parameter>& Registry() {
  static const std::map<std::string, Parameter> registry = [] {
    std::vector<Parameter> list = {
        IntEngine("caracal.workers", 1, 256, "Worker threads that run each epoch.",
                  [](const engine::EngineOptions& o) { return o.workers; }, [](engine::EngineOptions& o, int64_t v) { o.workers = static_cast<int>(v); }),
        IntEngine("caracal.epoch_max_txns", 1, INT_MAX, "An epoch closes when it holds this many transactions.",
                  [](const engine::EngineOptions& o) { return o.epoch_max_txns; },
                  [](engine::EngineOptions& o, int64_t v) { o.epoch_max_txns = static_cast<uint32_t>(v); }),
        IntEngine("caracal.epoch_interval_ms", 0, 3600000,
                  "An epoch closes this many milliseconds after its first transaction arrived.",
                  [](const engine::EngineOptions& o) { return o.epoch_interval_ms; },
                  [](engine::EngineOptions& o, int64_t v) { o.epoch_interval_ms = static_cast<uint32_t>(v); }),
        BoolEngine("caracal.batch_append", "Batch append: contended row locks divert pending versions to per-core buffers.",
                   &engine::EngineOptions::batch_append),
        IntEngine("caracal.row_buffers", 0, 1 << 20, "Batch-append row buffers per core, allocated when the engine starts.",
                  [](const engine::EngineOptions& o) { return o.row_buffers; },
                  [](engine::EngineOptions& o, int64_t v) { o.row_buffers = static_cast<uint32_t>(v); }),
        BoolEngine("caracal.split_on_demand", "Split-on-demand: ApplyRowUpdate on contended rows runs as pieces.",
                   &engine::EngineOptions::split_on_demand),
        IntEngine("caracal.split_threshold", 1, INT_MAX, "Pending versions that put a row in the contention set.",
                  [](const engine::EngineOptions& o) { return o.split_threshold; },
                  [](engine::EngineOptions& o, int64_t v) { o.split_threshold = static_cast<uint32_t>(v); }),
        BoolEngine("caracal.gc", "Major garbage collection of rows not written in the last gc_k epochs.", &engine::EngineOptions::gc),
        BoolEngine("caracal.minor_gc", "Minor garbage collection while initialization appends to a row.",
                   &engine::EngineOptions::minor_gc),
        IntEngine("caracal.gc_k", 1, 1000000, "Epochs after its last write before the major collector trims a row.",
                  [](const engine::EngineOptions& o) { return o.gc_k; },
                  [](engine::EngineOptions& o, int64_t v) { o.gc_k = static_cast<uint32_t>(v); }),
        Plain("caracal.jit", Parameter::Kind::kBool,
              "Procedures created or first called from now on are compiled with LLVM (off: interpreted)."),
        Plain("caracal.dump_ir", Parameter::Kind::kBool,
              "EXPLAIN PROCEDURE also shows the procedure's optimised LLVM IR (an INFO message)."),
        // Durability (a data directory: engine/durability/durable_store.h); no effect in memory.
        Plain("caracal.synchronous_commit", Parameter::Kind::kBool,
              "Results wait until their epoch's log record is durable (off: a crash can lose acknowledged work)."),
        IntPlain("caracal.checkpoint_interval_s", 0, 86400,
                 "Seconds between checkpoints of the data directory (0: none on a timer)."),
        IntPlain("caracal.checkpoint_log_mb", 0, INT_MAX,
                 "A checkpoint starts once this many MB were logged since the last one (0: none on size)."),
        Plain("caracal.data_directory", Parameter::Kind::kString,
              "The data directory (empty: the database is in memory).", {}, true),
        Plain("client_min_messages", Parameter::Kind::kEnum, "Sets the message levels that are sent to the client.",
              {"debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error"}),
        Plain("application_name", Parameter::Kind::kString, "Sets the application name to be reported."),
        Plain("server_version", Parameter::Kind::kString, "Shows the server version.", {}, true),
        Plain("server_version_num", Parameter::Kind::kString, "Shows the server version as an integer.", {}, true),
        Plain("server_encoding", Parameter::Kind::kString, "Shows the server (database) character set encoding.", {},
              true),
        Plain("client_encoding", Parameter::Kind::kString, "Sets the client's character set encoding.", {"utf8"}, true),
        Plain("standard_conforming_strings", Parameter::Kind::kString, "Causes '...' strings to treat backslashes literally.",
              {}, true),
    };
    std::map<std::string, Parameter> m;
    for (Parameter& p : list) m.emplace(p.name, std::move(p));
    return m;
  }();
  return registry;
}

}  // namespace

Settings::Settings(const engine::EngineOptions& initial) : engine_(initial) {
  for (const auto& [name, p] : Registry())
    if (p.get) values_[name] = p.get(engine_);
  values_["caracal.jit"] = "on";
  values_["caracal.dump_ir"] = "off";
  values_["client_min_messages"] = "notice";
  values_["application_name"] = "caracal";
  values_["server_version"] = "15.0 (caracal 0.1.0)";
  values_["server_version_num"] = "150000";
  values_["server_encoding"] = "UTF8";
  values_["client_encoding"] = "UTF8";
  values_["standard_conforming_strings"] = "on";
  values_["caracal.synchronous_commit"] = "on";
  values_["caracal.checkpoint_interval_s"] = "300";
  values_["caracal.checkpoint_log_mb"] = "256";
  values_["caracal.data_directory"] = "";
  resets_ = values_;
}

void Settings::SetInitial(const std::string& name, const std::string& value) {
  const Parameter& p = Find(name);
  values_[p.name] = value;
  resets_[p.name] = value;
}

const Settings::Parameter& Settings::Find(const std::string& raw) const {
  std::string name = Lower(raw);
  auto it = Registry().find(name);
  if (it != Registry().end()) return it->second;
  // Like an extension that reserved its prefix: any other caracal.* name is invalid.
  if (name.rfind("caracal.", 0) == 0)
    throw SqlError(kInvalidName, fmt::format("invalid configuration parameter name \"{}\"", name))
        .WithDetail("\"caracal\" is a reserved prefix.")
        .WithHint("SHOW ALL lists the parameters.");
  throw SqlError(kUndefinedObject, fmt::format("unrecognized configuration parameter \"{}\"", name));
}

std::string Settings::Canonical(const Parameter& p, const std::string& text) const {
  switch (p.kind) {
    case Parameter::Kind::kBool: {
      std::optional<bool> b = PgBool(text);
      if (!b) throw SqlError(kInvalidParameterValue, fmt::format("parameter \"{}\" requires a Boolean value", p.name));
      return BoolText(*b);
    }
    case Parameter::Kind::kInt: {
      // PostgreSQL's parse_int: an integer, or a number rounded to one.
      errno = 0;
      char* end = nullptr;
      double v = std::strtod(text.c_str(), &end);
      while (end && *end && std::isspace(static_cast<unsigned char>(*end))) ++end;
      if (text.empty() || end == text.c_str() || *end != '\0' || errno == ERANGE || std::isnan(v))
        throw SqlError(kInvalidParameterValue, fmt::format("invalid value for parameter \"{}\": \"{}\"", p.name, text));
      v = std::rint(v);
      if (v > INT_MAX || v < INT_MIN)
        throw SqlError(kInvalidParameterValue, fmt::format("invalid value for parameter \"{}\": \"{}\"", p.name, text))
            .WithHint("Value exceeds integer range.");
      auto n = static_cast<int64_t>(v);
      if (n < p.min || n > p.max)
        throw SqlError(kInvalidParameterValue,
                       fmt::format("{} is outside the valid range for parameter \"{}\" ({} .. {})", n, p.name, p.min, p.max));
      return std::to_string(n);
    }
    case Parameter::Kind::kEnum: {
      std::string v = Lower(text);
      for (const std::string& c : p.choices)
        if (c == v) return v;
      std::string list;
      for (const std::string& c : p.choices) list += (list.empty() ? "" : ", ") + c;
      throw SqlError(kInvalidParameterValue, fmt::format("invalid value for parameter \"{}\": \"{}\"", p.name, text))
          .WithHint(fmt::format("Available values: {}.", list));
    }
    case Parameter::Kind::kString: return text;
  }
  return text;
}

void Settings::Store(const Parameter& p, const std::string& value) {
  values_[p.name] = value;
  if (p.set) p.set(engine_, value);
}

void Settings::Set(const std::string& raw, const std::optional<std::vector<std::string>>& values) {
  const Parameter& p = Find(raw);
  if (p.read_only) throw SqlError(kCantChangeRuntimeParam, fmt::format("parameter \"{}\" cannot be changed", p.name));
  if (!values) {
    Store(p, resets_.at(p.name));
    return;
  }
  if (values->size() != 1)
    throw SqlError(planner::sqlstate::kSyntaxError, fmt::format("SET {} takes only one argument", p.name));
  Store(p, Canonical(p, values->front()));
}

void Settings::Reset(const std::string& raw) {
  const Parameter& p = Find(raw);
  if (p.read_only) throw SqlError(kCantChangeRuntimeParam, fmt::format("parameter \"{}\" cannot be changed", p.name));
  Store(p, resets_.at(p.name));
}

void Settings::ResetAll() {
  for (const auto& [name, p] : Registry())
    if (!p.read_only) Store(p, resets_.at(name));
}

std::string Settings::Get(const std::string& name) const { return values_.at(Find(name).name); }

bool Settings::GetBool(const std::string& name) const { return Get(name) == "on"; }

planner::ResultSet Settings::Show(const std::string& raw) const {
  const Parameter& p = Find(raw);
  planner::ResultSet rs;
  rs.columns.push_back({Lower(raw), planner::SqlType::Of(planner::TypeId::kText)});
  rs.rows.push_back({values_.at(p.name)});
  return rs;
}

planner::ResultSet Settings::ShowAll() const {
  planner::ResultSet rs;
  for (const char* c : {"name", "setting", "description"})
    rs.columns.push_back({c, planner::SqlType::Of(planner::TypeId::kText)});
  for (const auto& [name, p] : Registry()) rs.rows.push_back({name, values_.at(name), p.description});
  return rs;
}

namespace {

// A SET argument as text, as PostgreSQL's flatten_set_variable_args reads it.
std::string ArgText(const PgQuery__Node* n) {
  if (n->node_case == PG_QUERY__NODE__NODE_A_CONST) {
    const PgQuery__AConst* c = n->a_const;
    switch (c->val_case) {
      case PG_QUERY__A__CONST__VAL_IVAL: return std::to_string(c->ival->ival);
      case PG_QUERY__A__CONST__VAL_FVAL: return c->fval->fval;
      case PG_QUERY__A__CONST__VAL_SVAL: return c->sval->sval;
      case PG_QUERY__A__CONST__VAL_BOOLVAL: return c->boolval->boolval ? "true" : "false";
      default: break;
    }
  }
  throw planner::NotSupported("this form of SET value");
}

}  // namespace

SetOutcome ExecuteSet(const PgQuery__VariableSetStmt* stmt, Settings& settings) {
  SetOutcome out;
  if (stmt->is_local) {
    // Outside a transaction block SET LOCAL has no effect (PostgreSQL warns the same way).
    out.warnings.push_back("SET LOCAL can only be used in transaction blocks");
    out.tag = "SET";
    return out;
  }
  switch (stmt->kind) {
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE: {
      std::vector<std::string> values;
      for (size_t i = 0; i < stmt->n_args; ++i) values.push_back(ArgText(stmt->args[i]));
      settings.Set(stmt->name, values);
      out.tag = "SET";
      break;
    }
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT:
      settings.Set(stmt->name, std::nullopt);
      out.tag = "SET";
      break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET:
      settings.Reset(stmt->name);
      out.tag = "RESET";
      break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL:
      settings.ResetAll();
      out.tag = "RESET";
      break;
    default: throw planner::NotSupported(fmt::format("SET {}", stmt->name ? stmt->name : ""));
  }
  return out;
}

planner::ResultSet ExecuteShow(const PgQuery__VariableShowStmt* stmt, const Settings& settings) {
  std::string name = stmt->name ? stmt->name : "";
  if (Lower(name) == "all") return settings.ShowAll();
  return settings.Show(name);
}

}  // namespace caracal::frontend
