#include "frontend/session/settings.h"

#include <algorithm>

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
  // A PostgreSQL parameter this database takes only some values of: which ones, and a
  // HINT for the rest (SET to another value is 0A000, never silently ignored).
  std::function<bool(const std::string&)> supported;
  std::string unsupported_hint;
  bool list = false;  // SET takes a list of values (search_path = "$user", public)
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

// A parameter clients and pg_dump set, with `supported` saying which of its values this
// database has.
Parameter Limited(std::string name, Parameter::Kind kind, std::string description, std::function<bool(const std::string&)> supported,
                  std::string hint, std::vector<std::string> choices = {}) {
  Parameter p = Plain(std::move(name), kind, std::move(description), std::move(choices));
  p.supported = std::move(supported);
  p.unsupported_hint = std::move(hint);
  return p;
}

// A value as compared for "the same as now": case, '-' and '_' aside (UTF8 = utf-8).
std::string Comparable(const std::string& v) {
  std::string out;
  for (char c : Lower(v))
    if (c != '-' && c != '_' && c != '\'' && c != ' ') out.push_back(c);
  return out;
}

// 0 with or without a unit: a timeout that is off.
bool IsZeroDuration(const std::string& v) {
  const std::string c = Comparable(v);
  return c == "0" || c == "0ms" || c == "0s" || c == "0min" || c == "0h" || c == "0d";
}

bool OnlyPublic(const std::string& path) {
  std::string item;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != ',') {
      if (path[i] != ' ' && path[i] != '"') item.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(path[i]))));
      continue;
    }
    if (!item.empty() && item != "public" && item != "$user" && item != "pg_catalog") return false;
    item.clear();
  }
  return true;
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
        BoolEngine("caracal.adaptive_epochs",
                   "Epochs also start once as many transactions wait as recent epochs held.",
                   &engine::EngineOptions::adaptive_epoch_start),
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
        Plain("caracal.snapshot_tries", Parameter::Kind::kBool,
              "Statements in a transaction block are shown from the last committed snapshot."),
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
        [] {
          Parameter p = Limited("search_path", Parameter::Kind::kString,
                                "Sets the schema search order for names that are not schema-qualified.", OnlyPublic,
                                "Only the public schema exists here.");
          p.list = true;
          return p;
        }(),
        Limited("statement_timeout", Parameter::Kind::kString, "Sets the maximum allowed duration of any statement (0: none).",
                IsZeroDuration, "Statements are not timed out here.", {}),
        Limited("lock_timeout", Parameter::Kind::kString, "Sets the maximum allowed duration of any wait for a lock (0: none).",
                IsZeroDuration, "Nothing waits for locks here: transactions run in serial order.", {}),
        Limited("idle_in_transaction_session_timeout", Parameter::Kind::kString,
                "Sets the maximum allowed idle time between queries, when in a transaction (0: none).",
                IsZeroDuration, "Sessions are not timed out here.", {}),
        Limited("idle_session_timeout", Parameter::Kind::kString, "Sets the maximum allowed idle time between queries (0: none).",
                IsZeroDuration, "Sessions are not timed out here.", {}),
        Limited("default_tablespace", Parameter::Kind::kString, "Sets the default tablespace to create tables and indexes in.",
                [](const std::string& v) { return v.empty(); }, "There are no tablespaces here."),
        Limited("default_table_access_method", Parameter::Kind::kString, "Sets the default table access method for new tables.",
                [](const std::string& v) { return Lower(v) == "heap"; }, "Tables are the engine's multi-versioned rows."),
        Limited("timezone", Parameter::Kind::kString, "Sets the time zone for displaying and interpreting time stamps.",
                [](const std::string& v) { return Comparable(v) == "utc" || Comparable(v) == "etc/utc" || Comparable(v) == "gmt"; },
                "Only UTC is supported yet."),
        Limited("datestyle", Parameter::Kind::kString, "Sets the display format for date and time values.",
                [](const std::string& v) { return Comparable(v) == "iso,mdy" || Comparable(v) == "iso"; },
                "Dates print as ISO, MDY here."),
        Limited("intervalstyle", Parameter::Kind::kString, "Sets the display format for interval values.",
                [](const std::string& v) { return Lower(v) == "postgres"; }, "Intervals print in the postgres style here."),
        // Every block is served as SERIALIZABLE, whatever level is asked for (a stronger
        // guarantee than any): transaction_isolation always says so.
        Plain("default_transaction_isolation", Parameter::Kind::kEnum,
              "Sets the transaction isolation level of each new transaction (each is served as serializable).",
              {"serializable", "repeatable read", "read committed", "read uncommitted"}),
        Plain("transaction_isolation", Parameter::Kind::kString, "Shows the current transaction's isolation level.", {},
              true),
        Plain("transaction_read_only", Parameter::Kind::kString, "Shows whether the current transaction is read-only.", {},
              true),
        Plain("default_transaction_read_only", Parameter::Kind::kBool,
              "Sets the default read-only status of new transactions (only read-write ones exist here).", {}, true),
        Plain("transaction_deferrable", Parameter::Kind::kString, "Shows whether the current transaction is deferrable.",
              {}, true),
        Plain("check_function_bodies", Parameter::Kind::kBool,
              "Check routine bodies during CREATE FUNCTION and CREATE PROCEDURE (here they are always bound and checked)."),
        Plain("row_security", Parameter::Kind::kBool, "Enable row security (there are no row security policies here)."),
        Plain("xmloption", Parameter::Kind::kEnum, "Sets whether XML data is to be considered as documents or content fragments.",
              {"content", "document"}),
        [] {
          // PostgreSQL 12+ prints the shortest exact form for any value above 0, as here.
          Parameter p = IntPlain("extra_float_digits", -15, 3, "Sets the number of digits displayed for floating-point values.");
          p.supported = [](const std::string& v) { return std::stoi(v) > 0; };
          p.unsupported_hint = "Floats always print their shortest exact form here.";
          return p;
        }(),
    };
    for (Parameter& p : list)
      if (p.name == "datestyle") p.list = true;  // SET datestyle = ISO, MDY
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
  values_["caracal.snapshot_tries"] = "on";
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
  values_["search_path"] = "\"$user\", public";
  for (const char* timeout : {"statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout", "idle_session_timeout"})
    values_[timeout] = "0";
  values_["default_tablespace"] = "";
  values_["default_table_access_method"] = "heap";
  values_["timezone"] = "UTC";
  values_["datestyle"] = "ISO, MDY";
  values_["intervalstyle"] = "postgres";
  values_["default_transaction_isolation"] = "serializable";
  values_["transaction_isolation"] = "serializable";
  values_["transaction_read_only"] = "off";
  values_["default_transaction_read_only"] = "off";
  values_["transaction_deferrable"] = "off";
  values_["check_function_bodies"] = "on";
  values_["row_security"] = "on";
  values_["xmloption"] = "content";
  values_["extra_float_digits"] = "1";
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

bool Settings::IsPlaceholder(const std::string& raw) const {
  const std::string name = Lower(raw);
  return name.find('.') != std::string::npos && name.rfind("caracal.", 0) != 0 && !Registry().contains(name);
}

void Settings::DeclarePlaceholder(const std::string& raw) { placeholders_.try_emplace(Lower(raw)); }

void Settings::Set(const std::string& raw, const std::optional<std::vector<std::string>>& values) {
  if (IsPlaceholder(raw)) {
    // An application's own parameter (`SET app.user_id = 42`): kept as text, as
    // PostgreSQL keeps a placeholder no extension claims.
    if (values && values->size() != 1)
      throw SqlError(planner::sqlstate::kSyntaxError, fmt::format("SET {} takes only one argument", Lower(raw)));
    placeholders_[Lower(raw)] = values ? values->front() : "";
    return;
  }
  const Parameter& p = Find(raw);
  if (p.read_only) {
    // Setting one to the value it has (SET client_encoding = 'UTF8') changes nothing.
    if (values && values->size() == 1 && Comparable(values->front()) == Comparable(values_.at(p.name))) return;
    throw SqlError(kCantChangeRuntimeParam, fmt::format("parameter \"{}\" cannot be changed", p.name));
  }
  if (!values) {
    Store(p, resets_.at(p.name));
    return;
  }
  std::string value;
  if (p.list) {
    for (const std::string& v : *values) {
      // A schema name that needs quotes keeps them, as PostgreSQL shows search_path.
      const bool plain = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'; });
      value += (value.empty() ? "" : ", ") + (p.name == "search_path" && !plain ? "\"" + v + "\"" : v);
    }
  } else {
    if (values->size() != 1)
      throw SqlError(planner::sqlstate::kSyntaxError, fmt::format("SET {} takes only one argument", p.name));
    value = Canonical(p, values->front());
  }
  if (p.supported && !p.supported(value))
    throw SqlError(planner::sqlstate::kFeatureNotSupported, fmt::format("{} = '{}' is not supported", p.name, value))
        .WithHint(p.unsupported_hint);
  Store(p, value);
}

void Settings::Reset(const std::string& raw) {
  if (IsPlaceholder(raw)) {
    placeholders_[Lower(raw)] = "";
    return;
  }
  const Parameter& p = Find(raw);
  if (p.read_only) throw SqlError(kCantChangeRuntimeParam, fmt::format("parameter \"{}\" cannot be changed", p.name));
  Store(p, resets_.at(p.name));
}

void Settings::ResetAll() {
  for (auto& [name, value] : placeholders_) value.clear();
  for (const auto& [name, p] : Registry())
    if (!p.read_only) Store(p, resets_.at(name));
}

std::string Settings::Get(const std::string& name) const {
  if (auto it = placeholders_.find(Lower(name)); it != placeholders_.end()) return it->second;
  return values_.at(Find(name).name);
}

bool Settings::GetBool(const std::string& name) const { return Get(name) == "on"; }

planner::ResultSet Settings::Show(const std::string& raw) const {
  planner::ResultSet rs;
  rs.columns.push_back({Lower(raw), planner::SqlType::Of(planner::TypeId::kText)});
  rs.rows.push_back({Get(raw)});
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

void CheckTransactionModes(PgQuery__Node* const* modes, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const PgQuery__Node* o = modes[i];
    if (o->node_case != PG_QUERY__NODE__NODE_DEF_ELEM || o->def_elem->defname == nullptr) continue;
    const PgQuery__Node* arg = o->def_elem->arg;
    if (std::string_view(o->def_elem->defname) == "transaction_read_only" && arg != nullptr &&
        arg->node_case == PG_QUERY__NODE__NODE_A_CONST && arg->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL &&
        arg->a_const->ival->ival == 1)
      throw planner::SqlError(planner::sqlstate::kFeatureNotSupported, "READ ONLY transactions are not supported yet")
          .WithHint("Leave out READ ONLY: a transaction that only reads is served the same way.");
  }
}

SetOutcome ExecuteSet(const PgQuery__VariableSetStmt* stmt, Settings& settings, bool in_block) {
  SetOutcome out;
  if (stmt->is_local && !in_block) {
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
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI:
      // SET TRANSACTION ... / SET SESSION CHARACTERISTICS AS TRANSACTION ...: every
      // isolation level is served as SERIALIZABLE; READ ONLY is not (CheckTransactionModes).
      CheckTransactionModes(stmt->args, stmt->n_args);
      out.tag = "SET";
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
