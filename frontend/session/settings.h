// Settings: the run-time parameters that SET / SHOW / RESET act on, in PostgreSQL's
// extension style (DESIGN §4): the engine's switches as `caracal.*` (workers, epoch size
// and interval, batch append, split-on-demand, GC, ...), plus a few of PostgreSQL's own
// that clients expect (client_min_messages, application_name, read-only server_version,
// ...). Values are validated with PostgreSQL's messages and SQLSTATEs (`SET
// caracal.workers = 0` is an error), and SHOW prints them as PostgreSQL does.
//
// The session applies a changed engine setting between epochs by draining the engine
// and starting a new one over the same database (engine_options()).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/execution/engine_options.h"
#include "planner/types/result_set.h"

struct PgQuery__Node;
struct PgQuery__VariableSetStmt;
struct PgQuery__VariableShowStmt;

namespace caracal::frontend {

class Settings {
 public:
  // `initial` is what RESET returns the engine settings to.
  explicit Settings(const engine::EngineOptions& initial);

  // SET name = value (nullopt: DEFAULT). Values are the statement's arguments as text;
  // several are an error for every parameter here. Throws planner::SqlError.
  void Set(const std::string& name, const std::optional<std::vector<std::string>>& values);
  void Reset(const std::string& name);
  void ResetAll();
  // The value a parameter starts with and RESET returns to, read-only ones included
  // (the session sets those it knows only once it is open: caracal.data_directory, ...).
  void SetInitial(const std::string& name, const std::string& value);

  // SHOW name: one row, one column named after the parameter.
  planner::ResultSet Show(const std::string& name) const;
  // SHOW ALL: name, setting, description of every parameter, by name.
  planner::ResultSet ShowAll() const;

  // The current value of a parameter as SHOW prints it. Throws for unknown names.
  std::string Get(const std::string& name) const;
  bool GetBool(const std::string& name) const;
  // A name with a dot that no parameter here has (and not caracal.*): a placeholder, an
  // application's own parameter, which SET creates.
  bool IsPlaceholder(const std::string& name) const;
  // Makes a placeholder exist (empty) if it does not yet.
  void DeclarePlaceholder(const std::string& name);
  // The placeholders SET so far, by lower-case name (SHOW ALL lists only parameters).
  const std::map<std::string, std::string>& placeholders() const { return placeholders_; }

  // The engine options the current settings describe.
  const engine::EngineOptions& engine_options() const { return engine_; }

  struct Parameter;  // a registry entry (settings.cc)

 private:
  const Parameter& Find(const std::string& name) const;

  // Validates `text` for `p` and returns the canonical value; throws SqlError.
  std::string Canonical(const Parameter& p, const std::string& text) const;
  void Store(const Parameter& p, const std::string& value);

  std::map<std::string, std::string> values_;  // name -> canonical current value
  std::map<std::string, std::string> resets_;  // name -> value RESET restores
  std::map<std::string, std::string> placeholders_;  // custom parameters SET so far, by lower-case name
  engine::EngineOptions engine_;
};

// The statement forms: SET / SET ... TO DEFAULT / RESET / RESET ALL, and SHOW [ALL].
// SET TRANSACTION's and BEGIN's transaction modes (DefElems): any isolation level (each
// is served as SERIALIZABLE), READ WRITE, [NOT] DEFERRABLE; READ ONLY is 0A000.
void CheckTransactionModes(PgQuery__Node* const* modes, size_t n);

// ExecuteSet returns the command tag ("SET" or "RESET"). SET LOCAL acts as SET inside a
// transaction block (`in_block`: the block restores it when it ends); outside one it
// changes nothing and gives PostgreSQL's WARNING.
struct SetOutcome {
  std::string tag;
  std::vector<std::string> warnings;
};
SetOutcome ExecuteSet(const PgQuery__VariableSetStmt* stmt, Settings& settings, bool in_block = false);
planner::ResultSet ExecuteShow(const PgQuery__VariableShowStmt* stmt, const Settings& settings);

}  // namespace caracal::frontend
