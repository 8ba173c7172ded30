// Statements a connection answers itself, without the database: SET / SHOW / RESET of
// per-connection parameters, PREPARE / EXECUTE / DEALLOCATE (its own namespace of
// prepared statements, as in PostgreSQL), DISCARD. Transaction control goes to the
// session like any statement, with the connection's block, so the wire and the shell
// answer it alike (frontend/session/transaction_block.h).
extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <fmt/format.h>

#include "planner/exec/setting_call.h"
#include "planner/parser/parse_tree.h"
#include "planner/types/sql_error.h"
#include "server/connection.h"
#include "server/parameters.h"
#include "server/pg_types.h"

namespace caracal::server {

namespace {

// The value of SET's arguments as PostgreSQL's flatten_set_variable_args gives it.
std::string SetValue(const PgQuery__VariableSetStmt* s) {
  std::string out;
  for (size_t i = 0; i < s->n_args; ++i) {
    const PgQuery__Node* a = s->args[i];
    if (a->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) a = a->type_cast->arg;
    std::string v;
    if (a->node_case == PG_QUERY__NODE__NODE_A_CONST) {
      const PgQuery__AConst* c = a->a_const;
      switch (c->val_case) {
        case PG_QUERY__A__CONST__VAL_IVAL: v = std::to_string(c->ival->ival); break;
        case PG_QUERY__A__CONST__VAL_FVAL: v = c->fval->fval; break;
        case PG_QUERY__A__CONST__VAL_SVAL: v = c->sval->sval; break;
        case PG_QUERY__A__CONST__VAL_BOOLVAL: v = c->boolval->boolval ? "on" : "off"; break;
        default: break;
      }
    }
    if (!out.empty()) out += ", ";
    out += v;
  }
  return out;
}

bool IsPerConnection(const ConnectionSettings& settings, const std::string& name) {
  return name.rfind("caracal.", 0) != 0 && settings.Handles(name);
}

WireResult Tag(std::string tag) {
  WireResult r;
  r.tag = std::move(tag);
  return r;
}

ErrorFields Warning(const std::string& sqlstate, const std::string& message) {
  ErrorFields e;
  e.severity = "WARNING";
  e.sqlstate = sqlstate;
  e.message = message;
  return e;
}

}  // namespace

WireResult Connection::RunSettingCall(const planner::SettingCall& call) {
  WireResult set;
  if (call.kind == planner::SettingCall::Kind::kSetConfig && call.is_local &&
      block_.status() == frontend::TransactionBlock::Status::kIdle) {
    // For the statement's own transaction, which ends with it: nothing stays set (a
    // placeholder comes to exist, empty), and no warning, unlike SET LOCAL.
    if (ConnectionSettings::IsPlaceholder(call.name))
      settings_.DeclarePlaceholder(call.name);
    else if (IsPerConnection(settings_, call.name))
      settings_.Get(call.name);
    else
      shared_.With([&](frontend::Session& s) { return s.settings().Get(call.name); });  // must exist
    planner::ResultSet rs = planner::SettingCallResult(call, call.value);
    return TextRows({rs.columns[0].name}, std::move(rs.rows), "SELECT 1");
  }
  if (call.kind == planner::SettingCall::Kind::kSetConfig) {
    // As the SET it amounts to: per connection or the database's, kept or undone by a
    // block as SET is.
    const std::string text = planner::SetStatementText(call);
    const planner::ParseTree tree = planner::ParseTree::Parse(text);
    Started started = StartStatement(tree.statements().at(0), text);
    set = Finish(started);
    if (set.error) return set;
  }
  std::optional<std::string> value;
  try {
    value = IsPerConnection(settings_, call.name)
                ? settings_.Get(call.name)
                : shared_.With([&](frontend::Session& s) { return s.settings().Get(call.name); });
  } catch (const planner::SqlError&) {
    if (!call.missing_ok) throw;
  }
  planner::ResultSet rs = planner::SettingCallResult(call, value);
  WireResult r = TextRows({rs.columns[0].name}, std::move(rs.rows), "SELECT 1");
  r.notices = std::move(set.notices);
  r.parameter_status = std::move(set.parameter_status);
  return r;
}

std::optional<WireResult> Connection::RunLocalDescribe(const planner::ParsedStatement& stmt) {
  const PgQuery__Node* n = stmt.node;
  if (!n) return std::nullopt;
  if (std::optional<planner::SettingCall> call = planner::AsSettingCall(n))
    return TextRows({planner::SettingCallResult(*call, std::nullopt).columns[0].name}, {}, "SELECT 1");
  switch (n->node_case) {
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
      if (IsPerConnection(settings_, n->variable_show_stmt->name))
        return TextRows({settings_.CanonicalName(n->variable_show_stmt->name)}, {}, "SHOW");
      return std::nullopt;
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
    case PG_QUERY__NODE__NODE_PREPARE_STMT:
    case PG_QUERY__NODE__NODE_DEALLOCATE_STMT:
    case PG_QUERY__NODE__NODE_DISCARD_STMT: return WireResult{};
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT: {
      const PgQuery__VariableSetStmt* s = n->variable_set_stmt;
      if (s->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI || s->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL ||
          IsPerConnection(settings_, s->name))
        return WireResult{};
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

std::optional<WireResult> Connection::RunLocal(const planner::ParsedStatement& stmt, const std::string& text) {
  const PgQuery__Node* n = stmt.node;
  if (!n) return std::nullopt;
  switch (n->node_case) {
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT: {
      const PgQuery__VariableSetStmt* s = n->variable_set_stmt;
      std::string name = s->name ? s->name : "";
      switch (s->kind) {
        case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI: return Tag("SET");  // SET TRANSACTION ..., SET SESSION CHARACTERISTICS
        case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL: {
          // Per connection only: the engine's settings are the whole database's.
          NoteSettingInBlock("", false);
          settings_.ResetAll();
          WireResult r = Tag("RESET");
          for (const auto& p : settings_.Reported()) r.parameter_status.push_back(p);
          return r;
        }
        default: break;
      }
      if (!IsPerConnection(settings_, name)) return std::nullopt;
      if (s->n_args > 1 && ConnectionSettings::IsPlaceholder(name))
        throw planner::SqlError("42601", fmt::format("SET {} takes only one argument", name));
      WireResult r = Tag(s->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ? "RESET" : "SET");
      if (s->is_local && block_.status() == frontend::TransactionBlock::Status::kIdle) {
        // As in PostgreSQL: a warning, and nothing changes.
        r.notices.push_back(Warning("25P01", "SET LOCAL can only be used in transaction blocks"));
        return r;
      }
      NoteSettingInBlock(settings_.CanonicalName(name), s->is_local);
      bool reported = s->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE ? settings_.Set(name, SetValue(s))
                                                                             : settings_.Reset(name);
      if (reported) r.parameter_status.emplace_back(settings_.CanonicalName(name), settings_.Get(name));
      return r;
    }
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT: {
      std::string name = n->variable_show_stmt->name;
      if (!IsPerConnection(settings_, name)) return std::nullopt;
      return TextRows({settings_.CanonicalName(name)}, {{settings_.Get(name)}}, "SHOW");
    }
    case PG_QUERY__NODE__NODE_PREPARE_STMT: {
      try {
        planner::PreparedStatement p = shared_.With(
            [&](frontend::Session& s) { return planner::Prepare(n->prepare_stmt, stmt.text, &s.catalog()); });
        if (sql_prepared_.contains(p.name) || statements_.contains(p.name)) throw planner::PreparedStatementExists(p.name);
        // Also a statement of the extended protocol, as in PostgreSQL, whose namespace is
        // one: a driver may Bind it (pgtcl's pg_exec_prepared does).
        auto wire = std::make_shared<Prepared>();
        wire->text = p.text;
        wire->tree = std::make_shared<const planner::ParseTree>(planner::ParseExecuteText(p.text));
        wire->slots = p.slots;
        std::vector<int32_t> declared;
        for (const planner::SqlType& t : p.types) declared.push_back(t.id == planner::TypeId::kUnknown ? 0 : TypeOid(t));
        wire->types = shared_.With([&](frontend::Session& s) {
          return InferParameterTypes(&wire->tree->statements()[0], s.catalog(), declared, static_cast<int>(declared.size()));
        });
        const std::string name = p.name;
        statements_[name] = std::move(wire);
        sql_prepared_.emplace(name, std::move(p));
        return Tag("PREPARE");
      } catch (...) {
        return FromCurrentException(text);
      }
    }
    case PG_QUERY__NODE__NODE_EXECUTE_STMT: {
      std::string bound;
      std::optional<planner::ParseTree> tree;
      try {
        const char* name = n->execute_stmt->name ? n->execute_stmt->name : "";
        auto it = sql_prepared_.find(name);
        if (it == sql_prepared_.end()) throw planner::PreparedStatementMissing(name);
        bound = planner::ExecuteText(it->second, n->execute_stmt);
        tree.emplace(planner::ParseExecuteText(bound));
      } catch (...) {
        return FromCurrentException(text);
      }
      return RunStatement(tree->statements()[0], bound);
    }
    case PG_QUERY__NODE__NODE_DEALLOCATE_STMT: {
      const PgQuery__DeallocateStmt* d = n->deallocate_stmt;
      if (!d->name || !*d->name) {
        statements_.clear();
        sql_prepared_.clear();
        return Tag("DEALLOCATE ALL");
      }
      if (statements_.erase(d->name) + sql_prepared_.erase(d->name) == 0) {
        WireResult r;
        ErrorFields e;
        e.sqlstate = "26000";
        e.message = fmt::format("prepared statement \"{}\" does not exist", d->name);
        r.error = e;
        return r;
      }
      return Tag("DEALLOCATE");
    }
    case PG_QUERY__NODE__NODE_DISCARD_STMT: {
      auto mode = n->discard_stmt->target;
      if (mode == PG_QUERY__DISCARD_MODE__DISCARD_ALL) {
        statements_.clear();
        sql_prepared_.clear();
        portals_.clear();
        settings_.ResetAll();
        return Tag("DISCARD ALL");
      }
      return Tag(mode == PG_QUERY__DISCARD_MODE__DISCARD_PLANS       ? "DISCARD PLANS"
                 : mode == PG_QUERY__DISCARD_MODE__DISCARD_SEQUENCES ? "DISCARD SEQUENCES"
                                                                     : "DISCARD TEMP");
    }
    default: (void)text; return std::nullopt;
  }
}

}  // namespace caracal::server

namespace caracal::server {

void Connection::NoteSettingInBlock(const std::string& canonical, bool local) {
  if (block_.status() == frontend::TransactionBlock::Status::kIdle) return;
  if (!settings_at_block_start_) settings_at_block_start_ = settings_;
  if (canonical.empty()) {  // RESET ALL: every value set LOCAL so far is kept at COMMIT
    local_restore_.clear();
    return;
  }
  if (local)
    local_restore_.try_emplace(canonical, settings_.Get(canonical));
  else
    local_restore_.erase(canonical);
}

void Connection::EndBlockSettings(bool committed, WireResult& r) {
  const std::vector<std::pair<std::string, std::string>> before = settings_.Reported();
  if (!committed) {
    // Parameters go back to their values at BEGIN; placeholders the block created stay,
    // empty, as PostgreSQL's do.
    ConnectionSettings restored = *settings_at_block_start_;
    for (const std::string& name : settings_.Placeholders()) restored.DeclarePlaceholder(name);
    settings_ = std::move(restored);
  } else
    for (const auto& [name, value] : local_restore_) settings_.Set(name, value);
  settings_at_block_start_.reset();
  local_restore_.clear();
  const std::vector<std::pair<std::string, std::string>> after = settings_.Reported();
  for (size_t i = 0; i < after.size(); ++i)
    if (i >= before.size() || before[i] != after[i]) r.parameter_status.push_back(after[i]);
}

}  // namespace caracal::server
