// ConnectionSettings: the run-time parameters that are per connection in PostgreSQL
// (DateStyle, TimeZone, application_name, client_min_messages, extra_float_digits,
// search_path, ...) and the read-only ones a server reports (server_version,
// integer_datetimes, ...). SET / SHOW / RESET of these names stay inside the
// connection; the engine's `caracal.*` settings are the database's and go to the
// Session (frontend/session/settings.h). Values are kept as given, except TimeZone: a SET
// to a zone other than UTC is refused, since timestamptz values always print in UTC (a
// client's start-up TimeZone is kept and reported, and values still print in UTC).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace caracal::server {

class ConnectionSettings {
 public:
  ConnectionSettings();

  // A name with a dot outside the engine's caracal. prefix: a custom parameter.
  static bool IsPlaceholder(const std::string& name);
  // Makes a placeholder exist (empty) if it does not yet.
  void DeclarePlaceholder(const std::string& name) { FindOrAddPlaceholder(name); }
  // The placeholders that exist, by lower-case name.
  std::vector<std::string> Placeholders() const;
  // Whether `name` (any case) is a per-connection parameter (placeholders are).
  bool Handles(const std::string& name) const;
  // The parameter's canonical spelling ("DateStyle"), for SHOW's column and ParameterStatus.
  std::string CanonicalName(const std::string& name) const;
  // Sets a parameter. Throws planner::SqlError for a read-only one or a bad value.
  // Returns true if it is reported to the client (ParameterStatus) when it changes.
  bool Set(const std::string& name, const std::string& value);
  bool Reset(const std::string& name);
  void ResetAll();
  std::string Get(const std::string& name) const;
  // A start-up packet's parameter; unknown ones are ignored as PostgreSQL's options are
  // (Throws for a client_encoding other than UTF8).
  void SetFromStartup(const std::string& name, const std::string& value);

  // The parameters PostgreSQL 15 reports at start-up, with their values.
  std::vector<std::pair<std::string, std::string>> Reported() const;
  // client_min_messages says a message of this severity goes to the client.
  bool SendsSeverity(const std::string& severity) const;

 private:
  struct Entry {
    std::string canonical;
    std::string value;
    std::string reset_value;
    bool read_only = false;
    bool reported = false;
  };
  Entry* Find(const std::string& name);
  // Find, creating an empty placeholder entry for a placeholder name never set.
  Entry* FindOrAddPlaceholder(const std::string& name);
  const Entry* Find(const std::string& name) const;
  std::map<std::string, Entry> entries_;  // by lower-case name
};

}  // namespace caracal::server
