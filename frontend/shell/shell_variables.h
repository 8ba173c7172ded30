// ShellVariables: psql's variables (\set, \unset, -v, :name) and the special ones that
// steer the shell (ON_ERROR_STOP, QUIET, ECHO, VERBOSITY, SHOW_CONTEXT, PROMPT1-3,
// HISTFILE, HISTSIZE, HISTCONTROL, IGNOREEOF, SINGLELINE, ...). As in psql, a special
// variable's value is checked when it is set (a bad value is refused with psql's
// message and the old value stays) and unsetting one restores its default.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace caracal::frontend {

enum class EchoMode { kNone, kErrors, kQueries, kAll };
enum class Verbosity { kDefault, kVerbose, kTerse, kSqlstate };
enum class ShowContext { kNever, kErrors, kAlways };
enum class HistControl { kNone, kIgnoreSpace, kIgnoreDups, kIgnoreBoth };

// psql's boolean syntax: unique prefixes of true/false/yes/no, on/off (two letters at
// least), 1/0, any case. nullopt if `value` is none of them.
std::optional<bool> ParseBool(std::string_view value);

class ShellVariables {
 public:
  ShellVariables();

  std::optional<std::string> Get(const std::string& name) const;
  // Sets `name`; returns an error message (psql's wording) instead when the name is
  // invalid or a special variable refuses the value.
  std::optional<std::string> Set(const std::string& name, const std::string& value);
  std::optional<std::string> Unset(const std::string& name);
  const std::map<std::string, std::string>& all() const { return values_; }

  bool on_error_stop() const { return on_error_stop_; }
  bool quiet() const { return quiet_; }
  bool singleline() const { return singleline_; }
  bool singlestep() const { return singlestep_; }
  bool autocommit() const { return autocommit_; }
  EchoMode echo() const { return echo_; }
  Verbosity verbosity() const { return verbosity_; }
  ShowContext show_context() const { return show_context_; }
  HistControl histcontrol() const { return histcontrol_; }
  int histsize() const { return histsize_; }
  int ignoreeof() const { return ignoreeof_; }

 private:
  // Validates a special variable's new value and updates the typed copy; returns an
  // error, or the value to store (unset: the default).
  std::optional<std::string> Apply(const std::string& name, std::optional<std::string>& value);

  std::map<std::string, std::string> values_;
  bool on_error_stop_ = false, quiet_ = false, singleline_ = false, singlestep_ = false, autocommit_ = true;
  EchoMode echo_ = EchoMode::kNone;
  Verbosity verbosity_ = Verbosity::kDefault;
  ShowContext show_context_ = ShowContext::kErrors;
  HistControl histcontrol_ = HistControl::kNone;
  int histsize_ = 500;
  int ignoreeof_ = 0;
};

}  // namespace caracal::frontend
