#include "codegen/runtime/statement_runtime.h"

#include <new>

#include "codegen/runtime/direct_declare.h"
#include "codegen/runtime/point_key.h"

#include "codegen/runtime/statement_hooks.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

using planner::Datum;
using planner::SqlError;

std::string FormatRaiseMessage(const std::string& format, const std::vector<Datum>& args,
                               const std::vector<planner::SqlType>& types) {
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    if (next >= args.size()) throw SqlError("42601", "too few parameters specified for RAISE");
    out += args[next].is_null() ? "<NULL>" : planner::DatumToText(args[next], types[next]);
    ++next;
  }
  if (next < args.size()) throw SqlError("42601", "too many parameters specified for RAISE");
  return out;
}

std::string RunRaise(const planner::Stmt& stmt, std::vector<Datum> args) {
  std::vector<planner::SqlType> types;
  for (const auto& a : stmt.args) types.push_back(a->type);
  auto option_text = [&](int index) -> std::string {
    if (index < 0) return {};
    if (args[index].is_null()) throw SqlError("22004", "RAISE statement option cannot be null");
    return planner::DatumToText(args[index], types[index]);
  };
  std::string detail = option_text(stmt.raise_detail), hint = option_text(stmt.raise_hint);
  // The format arguments come first; DETAIL and HINT follow them.
  size_t format_args = args.size() - (stmt.raise_detail >= 0) - (stmt.raise_hint >= 0);
  args.resize(format_args);
  types.resize(format_args);
  std::string message = FormatRaiseMessage(stmt.message, args, types);
  if (stmt.level == planner::RaiseLevel::kException) {
    SqlError e(stmt.sqlstate, message);
    if (!detail.empty()) e.WithDetail(std::move(detail));
    if (!hint.empty()) e.WithHint(std::move(hint));
    throw e;
  }
  return message;
}

namespace {
StatementHooks& Hooks(EvalState* state) { return *static_cast<StatementHooks*>(state->user); }

template <typename F>
int32_t Guard(EvalState* state, F&& f) {
  try {
    return f();
  } catch (...) {
    state->error = std::current_exception();
    return 0;
  }
}
}  // namespace

}  // namespace caracal::codegen

using caracal::codegen::EvalState;

extern "C" {

int32_t caracal_rt_stmt(EvalState* state, const caracal::planner::Stmt* stmt) {
  return caracal::codegen::Guard(state, [&] { return caracal::codegen::Hooks(state).RunStatement(*stmt) ? 2 : 1; });
}

int32_t caracal_rt_stmt_key(EvalState* state, const caracal::planner::Stmt* stmt, const caracal::engine::Key* key) {
  return caracal::codegen::Guard(state, [&] { return caracal::codegen::Hooks(state).RunStatementWithKey(*stmt, key) ? 2 : 1; });
}

int32_t caracal_rt_declare_key(EvalState* state, const caracal::planner::Stmt* init, const caracal::engine::Key* key,
                               const caracal::planner::Stmt* body) {
  return caracal::codegen::Guard(state, [&] {
    caracal::codegen::Hooks(state).DeclareWithKey(*init, *body, key);
    return 1;
  });
}

int32_t caracal_rt_declare_direct(EvalState* state, const caracal::planner::Stmt* init, const caracal::engine::Key* key,
                                  const caracal::planner::Stmt* body, int32_t how) {
  using caracal::codegen::DirectDeclare;
  caracal::engine::DeclareContext* declare = state->declare;
  // An index created since the code was compiled has entries to declare as well.
  if (declare == nullptr || key == nullptr ||
      caracal::codegen::DeclaresIndexEntries(static_cast<DirectDeclare>(how), *body->table))
    return caracal_rt_declare_key(state, init, key, body);
  return caracal::codegen::Guard(state, [&] {
    caracal::codegen::DeclareDirect(*declare, static_cast<DirectDeclare>(how), *body, *key);
    return 1;
  });
}

int32_t caracal_rt_read_row(EvalState* state, const caracal::planner::Stmt* stmt, const caracal::engine::Key* key,
                            const caracal::engine::RowValue** row) {
  return caracal::codegen::Guard(state, [&] {
    *row = key == nullptr ? nullptr : caracal::codegen::Hooks(state).ReadRow(*stmt, *key);
    return 1;
  });
}

void caracal_rt_key_build(void* storage, const int64_t* parts, int32_t n, int32_t widths) {
  new (storage) caracal::engine::Key(caracal::codegen::KeyFromParts(parts, n, widths));
}

void caracal_rt_key_drop(void* storage) { static_cast<caracal::engine::Key*>(storage)->~Key(); }

int32_t caracal_rt_publish(EvalState* state) {
  return caracal::codegen::Guard(state, [&] {
    caracal::codegen::Hooks(state).Publish();
    return 1;
  });
}

int32_t caracal_rt_raise_stmt(EvalState* state, const caracal::planner::Stmt* stmt, const caracal::planner::Datum* args) {
  using caracal::planner::RaiseLevel;
  return caracal::codegen::Guard(state, [&] {
    std::string message =
        caracal::codegen::RunRaise(*stmt, std::vector<caracal::planner::Datum>(args, args + stmt->args.size()));
    // Only NOTICE and above reach a client at PostgreSQL's default client_min_messages.
    if (stmt->level == RaiseLevel::kNotice || stmt->level == RaiseLevel::kWarning || stmt->level == RaiseLevel::kInfo) {
      const char* severity = stmt->level == RaiseLevel::kWarning ? "WARNING" : stmt->level == RaiseLevel::kInfo ? "INFO" : "NOTICE";
      caracal::codegen::Hooks(state).Notice(stmt->level == RaiseLevel::kNotice ? message
                                                                               : std::string(severity) + ":" + message);
    }
    return 1;
  });
}

int32_t caracal_rt_return(EvalState* state, const caracal::planner::Datum* value) {
  return caracal::codegen::Guard(state, [&] {
    caracal::codegen::Hooks(state).Return(*value);
    return 1;
  });
}

int32_t caracal_rt_routine_call(EvalState* state, const caracal::planner::Expr* call, const caracal::planner::Datum* args,
                                int32_t n, caracal::planner::Datum* out) {
  return caracal::codegen::Guard(state, [&] {
    *out = caracal::codegen::Hooks(state).CallRoutine(*call, std::span<const caracal::planner::Datum>(args, static_cast<size_t>(n)));
    return 1;
  });
}

double caracal_rt_random(EvalState* state, int32_t site) { return caracal::codegen::Hooks(state).Random(site); }

void caracal_rt_error_at(EvalState* state, const void* at, int32_t where) {
  state->error_at = at;
  state->error_where = where;
}

}  // extern "C"
