#include "server/connection_settings.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "planner/types/sql_error.h"

namespace caracal::server {

namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// PostgreSQL's client_min_messages levels, least severe first.
int Level(const std::string& severity) {
  static const char* kLevels[] = {"debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error"};
  std::string s = Lower(severity);
  if (s == "debug") s = "debug2";
  if (s == "info") return 100;  // INFO always goes to the client
  for (int i = 0; i < 9; ++i)
    if (s == kLevels[i]) return i;
  return 6;
}

}  // namespace

ConnectionSettings::ConnectionSettings() {
  struct Default {
    const char* name;
    const char* value;
    bool read_only;
    bool reported;
  };
  static const Default kDefaults[] = {
      {"application_name", "", false, true},
      {"client_encoding", "UTF8", false, true},
      {"DateStyle", "ISO, MDY", false, true},
      {"default_transaction_read_only", "off", false, true},
      {"in_hot_standby", "off", true, true},
      {"integer_datetimes", "on", true, true},
      {"IntervalStyle", "postgres", false, true},
      {"is_superuser", "on", true, true},
      {"server_encoding", "UTF8", true, true},
      {"server_version", "15.0 (caracal 0.1.0)", true, true},
      {"server_version_num", "150000", true, false},
      {"session_authorization", "caracal", true, true},
      {"standard_conforming_strings", "on", true, true},
      {"TimeZone", "UTC", false, true},
      {"client_min_messages", "notice", false, false},
      {"extra_float_digits", "1", false, false},
      {"search_path", "\"$user\", public", false, false},
      {"statement_timeout", "0", false, false},
      {"lock_timeout", "0", false, false},
      {"idle_in_transaction_session_timeout", "0", false, false},
      {"default_transaction_isolation", "serializable", false, false},
      {"transaction_isolation", "serializable", false, false},
      {"default_transaction_deferrable", "off", false, false},
      {"transaction_read_only", "off", false, false},
      {"bytea_output", "hex", false, false},
      {"datestyle", "ISO, MDY", false, true},  // placeholder; replaced below
      {"max_identifier_length", "63", true, false},
      {"synchronous_commit", "on", false, false},
      {"jit", "off", false, false},
      {"row_security", "on", false, false},
      {"lc_messages", "C", false, false},
      {"lc_monetary", "C", false, false},
      {"lc_numeric", "C", false, false},
      {"lc_time", "C", false, false},
      {"timezone_abbreviations", "Default", false, false},
      {"geqo", "on", false, false},
      {"work_mem", "4MB", false, false},
      {"max_connections", "100", true, false},
  };
  for (const Default& d : kDefaults) {
    std::string key = Lower(d.name);
    if (entries_.count(key)) continue;
    entries_[key] = Entry{d.name, d.value, d.value, d.read_only, d.reported};
  }
}

ConnectionSettings::Entry* ConnectionSettings::Find(const std::string& name) {
  auto it = entries_.find(Lower(name));
  return it == entries_.end() ? nullptr : &it->second;
}

const ConnectionSettings::Entry* ConnectionSettings::Find(const std::string& name) const {
  auto it = entries_.find(Lower(name));
  return it == entries_.end() ? nullptr : &it->second;
}

bool ConnectionSettings::IsPlaceholder(const std::string& name) {
  const std::string key = Lower(name);
  return key.find('.') != std::string::npos && key.rfind("caracal.", 0) != 0;
}

std::vector<std::string> ConnectionSettings::Placeholders() const {
  std::vector<std::string> out;
  for (const auto& [name, e] : entries_)
    if (IsPlaceholder(name)) out.push_back(name);
  return out;
}

bool ConnectionSettings::Handles(const std::string& name) const { return Find(name) != nullptr || IsPlaceholder(name); }

ConnectionSettings::Entry* ConnectionSettings::FindOrAddPlaceholder(const std::string& name) {
  if (Entry* e = Find(name)) return e;
  if (!IsPlaceholder(name)) return nullptr;
  // An application's own parameter (`SET app.user_id = 42`), kept as text for the rest
  // of the connection, as PostgreSQL keeps a placeholder no extension claims.
  return &entries_.emplace(Lower(name), Entry{Lower(name), "", "", false, false}).first->second;
}

std::string ConnectionSettings::CanonicalName(const std::string& name) const {
  const Entry* e = Find(name);
  return e ? e->canonical : Lower(name);
}

bool ConnectionSettings::Set(const std::string& name, const std::string& raw) {
  Entry* e = FindOrAddPlaceholder(name);
  if (!e) throw planner::SqlError("42704", fmt::format("unrecognized configuration parameter \"{}\"", Lower(name)));
  std::string value = raw;
  std::string key = Lower(name);
  if (key == "client_encoding") {
    std::string v = Lower(raw);
    v.erase(std::remove(v.begin(), v.end(), '-'), v.end());
    if (v != "utf8" && v != "unicode")
      throw planner::SqlError("0A000", fmt::format("conversion between {} and UTF8 is not supported", raw));
    value = "UTF8";
  }
  if (key == "client_min_messages") value = Lower(raw);
  if (key == "timezone") {
    // timestamptz values print in UTC (planner/types/datetime.h): a SET to another zone
    // would be acknowledged and then ignored, so it is refused.
    static const char* const kUtc[] = {"utc", "etc/utc", "gmt", "etc/gmt", "uct", "universal", "zulu", "z", "0", "+0", "-0", "+00", "-00"};
    std::string v = Lower(raw);
    if (std::find(std::begin(kUtc), std::end(kUtc), v) == std::end(kUtc))
      throw planner::SqlError("0A000", fmt::format("time zone \"{}\" is not supported", raw))
          .WithHint("The session time zone is UTC; timestamptz values are shown in UTC.");
  }
  if (e->read_only && value != e->value)
    throw planner::SqlError("55P02", fmt::format("parameter \"{}\" cannot be changed", key));
  e->value = value;
  return e->reported;
}

bool ConnectionSettings::Reset(const std::string& name) {
  Entry* e = FindOrAddPlaceholder(name);
  if (!e) throw planner::SqlError("42704", fmt::format("unrecognized configuration parameter \"{}\"", Lower(name)));
  e->value = e->reset_value;
  return e->reported;
}

void ConnectionSettings::ResetAll() {
  for (auto& [_, e] : entries_) e.value = e.reset_value;
}

std::string ConnectionSettings::Get(const std::string& name) const {
  const Entry* e = Find(name);
  if (!e) throw planner::SqlError("42704", fmt::format("unrecognized configuration parameter \"{}\"", Lower(name)));
  return e->value;
}

void ConnectionSettings::SetFromStartup(const std::string& name, const std::string& value) {
  Entry* e = Find(name);
  if (!e || e->read_only) return;
  if (Lower(name) == "timezone") {
    // A driver sends its host's zone; the connection stays in UTC, which is what it is
    // told (ParameterStatus), rather than failing to connect.
    try {
      Set(name, value);
    } catch (const planner::SqlError&) {
      return;
    }
  } else {
    Set(name, value);
  }
  // What a start-up packet sets is what RESET returns to.
  e->reset_value = e->value;
}

std::vector<std::pair<std::string, std::string>> ConnectionSettings::Reported() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [_, e] : entries_)
    if (e.reported) out.emplace_back(e.canonical, e.value);
  return out;
}

bool ConnectionSettings::SendsSeverity(const std::string& severity) const {
  return Level(severity) >= Level(Get("client_min_messages"));
}

}  // namespace caracal::server
