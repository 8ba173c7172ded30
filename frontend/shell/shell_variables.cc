#include "frontend/shell/shell_variables.h"

#include <fmt/format.h>
#include <strings.h>

#include <charconv>
#include <functional>
#include <vector>

namespace caracal::frontend {

namespace {

// Case-insensitive: is `value` (non-empty unless min_len allows) a prefix of `word`
// at least `min_len` long?
bool PrefixOf(std::string_view value, std::string_view word, size_t min_len = 1) {
  if (value.size() < min_len || value.size() > word.size()) return false;
  return strncasecmp(value.data(), word.data(), value.size()) == 0;
}

std::optional<int> ParseInt(std::string_view value) {
  int v = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || value.empty()) return std::nullopt;
  return v;
}

bool ValidName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    unsigned char u = static_cast<unsigned char>(c);
    if (!(std::isalnum(u) || u == '_' || u >= 0x80)) return false;
  }
  return true;
}

template <typename E>
struct EnumChoice {
  const char* name;
  E value;
};

// An enum variable: the value must be one of the choices (any case).
template <typename E>
std::optional<std::string> ParseEnum(const std::string& name, const std::string& value,
                                     std::initializer_list<EnumChoice<E>> choices, E& out) {
  for (const auto& c : choices)
    if (strcasecmp(value.c_str(), c.name) == 0) {
      out = c.value;
      return std::nullopt;
    }
  std::string list;
  for (const auto& c : choices) list += (list.empty() ? "" : ", ") + std::string(c.name);
  return fmt::format("unrecognized value \"{}\" for \"{}\"\nAvailable values are: {}.", value, name, list);
}

}  // namespace

std::optional<bool> ParseBool(std::string_view value) {
  if (PrefixOf(value, "true")) return true;
  if (PrefixOf(value, "false")) return false;
  if (PrefixOf(value, "yes")) return true;
  if (PrefixOf(value, "no")) return false;
  // "o" alone is ambiguous: on/off need two letters.
  if (PrefixOf(value, "on", 2)) return true;
  if (PrefixOf(value, "off", 2)) return false;
  if (value == "1") return true;
  if (value == "0") return false;
  return std::nullopt;
}

ShellVariables::ShellVariables() {
  values_ = {
      {"AUTOCOMMIT", "on"},          {"COMP_KEYWORD_CASE", "preserve-upper"},
      {"DBNAME", "caracal"},         {"ECHO", "none"},
      {"ECHO_HIDDEN", "off"},        {"ENCODING", "UTF8"},
      {"FETCH_COUNT", "0"},          {"HISTCONTROL", "none"},
      {"HISTSIZE", "500"},           {"IGNOREEOF", "0"},
      {"ON_ERROR_ROLLBACK", "off"},  {"ON_ERROR_STOP", "off"},
      {"PROMPT1", "%/%R%x%# "},      {"PROMPT2", "%/%R%x%# "},
      {"PROMPT3", ">> "},            {"QUIET", "off"},
      {"SHOW_ALL_RESULTS", "on"},    {"SHOW_CONTEXT", "errors"},
      {"SINGLELINE", "off"},         {"SINGLESTEP", "off"},
      {"VERBOSITY", "default"},
  };
}

std::optional<std::string> ShellVariables::Get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> ShellVariables::Apply(const std::string& name, std::optional<std::string>& value) {
  // Boolean variables: unset means off, an empty value means on.
  auto boolean = [&](bool& target) -> std::optional<std::string> {
    if (!value) value = "off";
    else if (value->empty()) value = "on";
    std::optional<bool> b = ParseBool(*value);
    if (!b) return fmt::format("unrecognized value \"{}\" for \"{}\": Boolean expected", *value, name);
    target = *b;
    return std::nullopt;
  };
  if (name == "ON_ERROR_STOP") return boolean(on_error_stop_);
  if (name == "QUIET") return boolean(quiet_);
  if (name == "SINGLELINE") return boolean(singleline_);
  if (name == "SINGLESTEP") return boolean(singlestep_);
  if (name == "AUTOCOMMIT") return boolean(autocommit_);
  if (name == "SHOW_ALL_RESULTS") {
    bool ignored;
    return boolean(ignored);
  }
  if (name == "ECHO") {
    if (!value) value = "none";
    return ParseEnum<EchoMode>(name, *value,
                               {{"none", EchoMode::kNone}, {"errors", EchoMode::kErrors},
                                {"queries", EchoMode::kQueries}, {"all", EchoMode::kAll}},
                               echo_);
  }
  if (name == "VERBOSITY") {
    if (!value) value = "default";
    return ParseEnum<Verbosity>(name, *value,
                                {{"default", Verbosity::kDefault}, {"verbose", Verbosity::kVerbose},
                                 {"terse", Verbosity::kTerse}, {"sqlstate", Verbosity::kSqlstate}},
                                verbosity_);
  }
  if (name == "SHOW_CONTEXT") {
    if (!value) value = "errors";
    return ParseEnum<ShowContext>(
        name, *value, {{"never", ShowContext::kNever}, {"errors", ShowContext::kErrors}, {"always", ShowContext::kAlways}},
        show_context_);
  }
  if (name == "HISTCONTROL") {
    if (!value) value = "none";
    return ParseEnum<HistControl>(name, *value,
                                  {{"ignorespace", HistControl::kIgnoreSpace}, {"ignoredups", HistControl::kIgnoreDups},
                                   {"ignoreboth", HistControl::kIgnoreBoth}, {"none", HistControl::kNone}},
                                  histcontrol_);
  }
  if (name == "COMP_KEYWORD_CASE") {
    if (!value) value = "preserve-upper";
    int ignored;
    return ParseEnum<int>(name, *value, {{"lower", 0}, {"upper", 1}, {"preserve-lower", 2}, {"preserve-upper", 3}},
                          ignored);
  }
  if (name == "ECHO_HIDDEN" || name == "ON_ERROR_ROLLBACK") {
    if (!value) value = "off";
    if (value->empty()) value = "on";
    const char* extra = name == "ECHO_HIDDEN" ? "noexec" : "interactive";
    if (strcasecmp(value->c_str(), extra) == 0 || ParseBool(*value)) return std::nullopt;
    return fmt::format("unrecognized value \"{}\" for \"{}\"\nAvailable values are: on, off, {}.", *value, name, extra);
  }
  if (name == "HISTSIZE" || name == "FETCH_COUNT") {
    if (!value) value = name == "HISTSIZE" ? "500" : "0";
    std::optional<int> n = ParseInt(*value);
    if (!n) return fmt::format("invalid value \"{}\" for \"{}\": integer expected", *value, name);
    if (name == "HISTSIZE") histsize_ = *n;
    return std::nullopt;
  }
  if (name == "IGNOREEOF") {
    // Like bash's IGNOREEOF: a value that is not a number means 10.
    if (!value) value = "0";
    if (!ParseInt(*value)) value = "10";
    ignoreeof_ = *ParseInt(*value);
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> ShellVariables::Set(const std::string& name, const std::string& value) {
  if (!ValidName(name)) return fmt::format("invalid variable name: \"{}\"", name);
  std::optional<std::string> v = value;
  if (std::optional<std::string> error = Apply(name, v)) return error;
  values_[name] = *v;
  return std::nullopt;
}

std::optional<std::string> ShellVariables::Unset(const std::string& name) {
  if (!ValidName(name)) return fmt::format("invalid variable name: \"{}\"", name);
  std::optional<std::string> v;
  if (std::optional<std::string> error = Apply(name, v)) return error;
  if (v) values_[name] = *v;
  else values_.erase(name);
  return std::nullopt;
}

}  // namespace caracal::frontend
