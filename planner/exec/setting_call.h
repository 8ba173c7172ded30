// SELECT [pg_catalog.]set_config(name, value, is_local) and SELECT
// [pg_catalog.]current_setting(name [, missing_ok]): the function forms of SET and SHOW.
// pg_dump starts every script with `SELECT pg_catalog.set_config('search_path', '',
// false)`, and applications pass their own parameters this way
// (`set_config('app.user_id', '42', true)`).
//
// Served as a statement of its own, the way the front ends serve SET and SHOW: one call
// with constant arguments, no FROM or other clause. set_config runs as the SET it
// amounts to (so it follows SET's rules inside transaction blocks) and returns the new
// value as current_setting would show it. Inside other queries and procedure bodies
// these functions are not supported yet.
#pragma once

#include <pg_query/pg_query.pb-c.h>

#include <optional>
#include <string>

#include "planner/types/result_set.h"

namespace caracal::planner {

struct SettingCall {
  enum class Kind { kSetConfig, kCurrentSetting };
  Kind kind = Kind::kCurrentSetting;
  std::string name;                  // as given
  std::optional<std::string> value;  // set_config's new value; NULL resets the parameter
  bool is_local = false;             // set_config(..., true): SET LOCAL
  bool missing_ok = false;           // current_setting(..., true): NULL for an unknown name
  std::string column;                // the output column: the alias, or the function's name
};

// The call `stmt` is, or nullopt when it is not a SELECT of exactly one of them. Throws
// SqlError (0A000) for arguments that are not constants, 22004 for a NULL name.
std::optional<SettingCall> AsSettingCall(const PgQuery__Node* stmt);

// The statement set_config amounts to: SET [LOCAL] name TO 'value', or RESET name /
// SET LOCAL name TO DEFAULT for a NULL value. search_path's value is a list, split at
// its commas as PostgreSQL splits it.
std::string SetStatementText(const SettingCall& call);

// The one-row, one-column result (text) the call returns.
ResultSet SettingCallResult(const SettingCall& call, const std::optional<std::string>& value);

}  // namespace caracal::planner
