// PL/pgSQL cursors, lowered into the statements the rest of the IR already has.
//
// A cursor's query runs when it is OPENed, as in PostgreSQL, whose portal keeps the
// snapshot of its OPEN: later writes of the same call do not show in its rows. So OPEN
// reads every row into arrays (a SELECT INTO that collects, as a FOR over a query does)
// and the cursor is a position in them: FETCH and MOVE are position arithmetic
// (PostgreSQL's portal rules: 0 before the first row, rows + 1 after the last) and array
// reads, CLOSE marks it closed. The write-set analysis, the interpreter and the JIT then
// treat a cursor like any FOR over a query; what a FETCH gives is read-derived.
//
// An unbound refcursor may be opened by several OPEN ... FOR statements with different
// queries: each is a site with arrays of its own, and a FETCH picks the open site's.
#include <fmt/format.h>

#include "planner/binder/coerce.h"
#include "planner/binder/plpgsql_binder.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

using namespace plpgsql_json;

namespace {

const SqlType kInt4 = SqlType::Of(TypeId::kInt4);
const SqlType kInt8 = SqlType::Of(TypeId::kInt8);
const SqlType kBool = SqlType::Of(TypeId::kBool);

// `text` with each {name} replaced by the quoted hidden name "$name".
std::string Placeholders(std::string text) {
  for (const char* name : {"site", "pos", "rows", "count", "moved", "noscroll", "cursor"}) {
    const std::string from = fmt::format("{{{}}}", name);
    const std::string to = fmt::format("\"${}\"", name);
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace

std::string_view ProcedureBinder::CursorStatementName(const CursorStatement& s) {
  switch (s.kind) {
    case CursorStatement::Kind::kOpen: return "at OPEN";
    case CursorStatement::Kind::kFetch: return "at FETCH";
    case CursorStatement::Kind::kMove: return "at MOVE";
    case CursorStatement::Kind::kClose: return "at CLOSE";
    case CursorStatement::Kind::kFor: return "at FOR over cursor";
    case CursorStatement::Kind::kDeclare: break;
  }
  return "during statement block local variable initialization";
}

std::optional<size_t> ProcedureBinder::CursorStatementOf(std::string_view type, const json& st) const {
  std::string text;
  if (type == "PLpgSQL_stmt_perform") text = QueryOf(Get(st, "expr"));
  else if (type == "PLpgSQL_stmt_execsql") text = QueryOf(Get(st, "sqlstmt"));
  else if (type == "PLpgSQL_stmt_fors") text = QueryOf(Get(st, "query"));
  else return std::nullopt;
  std::optional<size_t> n = CursorMarkerNumber(text);
  if (n && *n >= body_.cursors.size()) return std::nullopt;
  return n;
}

void ProcedureBinder::DeclareCursor(int variable, const CursorStatement* declaration, int line) {
  CursorState c;
  c.variable = variable;
  c.declaration = declaration;
  const std::string prefix = fmt::format("$cursor{}_", cursors_.size());
  c.prefix = prefix;
  c.site = AddVariable(prefix + "site", kInt4, VariableKind::kLocal);
  ir_->variables[c.site].default_value = MakeConst(Datum::Int(0), kInt4);
  c.position = AddVariable(prefix + "pos", kInt4, VariableKind::kTemp);
  c.rows = AddVariable(prefix + "rows", kInt4, VariableKind::kTemp);
  c.count = AddVariable(prefix + "count", kInt8, VariableKind::kTemp);
  c.moved = AddVariable(prefix + "moved", kInt8, VariableKind::kTemp);
  // NO SCROLL (on the declaration or an OPEN of this name) is checked as the cursor moves.
  const std::string name = ir_->variables[variable].name;
  bool no_scroll = declaration && declaration->scroll == CursorStatement::Scroll::kNoScroll;
  for (const CursorStatement& s : body_.cursors)
    no_scroll = no_scroll || (s.kind == CursorStatement::Kind::kOpen && s.cursor == name &&
                              s.scroll == CursorStatement::Scroll::kNoScroll);
  if (no_scroll) c.no_scroll = AddVariable(prefix + "noscroll", kBool, VariableKind::kTemp);
  if (declaration) {
    line_ = line;
    for (const auto& [name, type] : declaration->parameters)
      c.parameters.push_back(AddVariable(name, TypeFromText(type, line), VariableKind::kTemp));
  }
  cursors_.push_back(std::move(c));
}

ProcedureBinder::CursorState& ProcedureBinder::CursorNamed(const std::string& name) {
  const int slot = scope_.Find(name);
  if (slot < 0) throw SqlError(sqlstate::kSyntaxError, fmt::format("\"{}\" is not a known variable", name));
  for (CursorState& c : cursors_)
    if (c.variable == slot) return c;
  throw SqlError(sqlstate::kDatatypeMismatch, fmt::format("variable \"{}\" must be of type cursor or refcursor", name));
}

ExprPtr ProcedureBinder::CursorExpr(const CursorState& c, const std::string& text, const SqlType& type) {
  scope_.PushBlock("");
  scope_.Declare("$site", c.site);
  scope_.Declare("$pos", c.position);
  scope_.Declare("$rows", c.rows);
  scope_.Declare("$count", c.count);
  scope_.Declare("$moved", c.moved);
  scope_.Declare("$cursor", c.variable);
  if (c.no_scroll >= 0) scope_.Declare("$noscroll", c.no_scroll);
  ExprPtr e = BindExpr(Placeholders(text), line_, [&](ExprBinder& b, const PgQuery__Node* n) {
    return Coerce(b.Bind(n), type, CastContext::kAssignment);
  });
  scope_.PopBlock();
  return e;
}

StmtPtr ProcedureBinder::CursorAssign(const CursorState& c, int target, const std::string& text) {
  auto s = NewStmt(StmtKind::kAssign, line_);
  s->target = target;
  s->value = CursorExpr(c, text, ir_->variables[target].type);
  return s;
}

StmtPtr ProcedureBinder::CursorRaiseIf(const CursorState& c, const std::string& cond, const char* sqlstate,
                                       const std::string& message, const char* hint) {
  StmtPtr check = RaiseIf(CursorExpr(c, cond, kBool), sqlstate, {}, hint, line_);
  // The message names the portal, the cursor variable's value (a format argument, so
  // the name is never read as a format).
  Stmt& raise = *check->blocks[0][0];
  raise.message = message;
  raise.args.insert(raise.args.begin(), MakeSlot(Slot{SlotSpace::kVariable, c.variable}, SqlType::Of(TypeId::kText)));
  if (raise.raise_hint >= 0) ++raise.raise_hint;
  return check;
}

void ProcedureBinder::CheckCursorOpen(const CursorState& c, Block& out) {
  const std::string name = ir_->variables[c.variable].name;
  out.push_back(RaiseIf(CursorExpr(c, "{cursor} IS NULL", kBool), "22004",
                        fmt::format("cursor variable \"{}\" is null", name), nullptr, line_));
  out.push_back(CursorRaiseIf(c, "{site} = 0", "34000", "cursor \"%\" does not exist"));
}

size_t ProcedureBinder::OpenCursor(CursorState& c, const CursorStatement& s, Block& out) {
  const std::string name = ir_->variables[c.variable].name;
  const CursorStatement* declared = c.declaration;
  std::string query = s.query;
  if (s.execute) Unsupported("OPEN ... FOR EXECUTE", line_, "Open the cursor for the query itself.");
  if (declared) {
    if (!s.query.empty())
      throw SqlError(sqlstate::kSyntaxError, fmt::format("syntax error at or near \"FOR\""))
          .WithDetail(fmt::format("Cursor \"{}\" is bound to a query.", name));
    query = declared->query;
  } else if (query.empty()) {
    if (s.kind == CursorStatement::Kind::kFor)
      throw SqlError(sqlstate::kSyntaxError, "cursor FOR loop must use a bound cursor variable");
    throw SqlError(sqlstate::kSyntaxError, "syntax error, expected \"FOR\"");
  }
  // The arguments, in the parameters' order (PL/pgSQL's checks and messages).
  std::vector<std::string> values(declared ? declared->parameters.size() : 0);
  if (declared) {
    if (declared->parameters.empty() && s.has_arguments)
      throw SqlError(sqlstate::kSyntaxError, fmt::format("cursor \"{}\" has no arguments", name));
    if (!declared->parameters.empty() && !s.has_arguments)
      throw SqlError(sqlstate::kSyntaxError, fmt::format("cursor \"{}\" has arguments", name));
    size_t positional = 0;
    for (const CursorStatement::Argument& a : s.arguments) {
      size_t at = positional;
      if (!a.name.empty()) {
        at = values.size();
        for (size_t p = 0; p < values.size(); ++p)
          if (declared->parameters[p].first == a.name) at = p;
        if (at == values.size())
          throw SqlError(sqlstate::kSyntaxError, fmt::format("cursor \"{}\" has no argument named \"{}\"", name, a.name));
      } else {
        ++positional;
      }
      if (at >= values.size()) throw SqlError(sqlstate::kSyntaxError, fmt::format("too many arguments for cursor \"{}\"", name));
      if (!values[at].empty())
        throw SqlError(sqlstate::kSyntaxError,
                       fmt::format("value for parameter \"{}\" of cursor \"{}\" specified more than once",
                                   declared->parameters[at].first, name));
      values[at] = a.value;
    }
    for (const std::string& v : values)
      if (v.empty()) throw SqlError(sqlstate::kSyntaxError, fmt::format("not enough arguments for cursor \"{}\"", name));
  }
  out.push_back(CursorRaiseIf(c, "{site} <> 0", "42P03", "cursor \"%\" already in use"));
  // An unbound cursor's portal gets a name when the variable has none, as in
  // PostgreSQL ("<unnamed portal N>"; N counts this call's cursors here).
  if (!declared) {
    const size_t index = static_cast<size_t>(&c - cursors_.data());
    out.push_back(CursorAssign(c, c.variable, fmt::format("COALESCE({{cursor}}, '<unnamed portal {}>')", index + 1)));
  }
  for (size_t p = 0; p < values.size(); ++p) {
    auto assign = NewStmt(StmtKind::kAssign, line_);
    assign->target = c.parameters[p];
    assign->value = BindAssignmentTo(values[p], line_, c.parameters[p]);
    out.push_back(std::move(assign));
  }
  // The query sees the cursor's parameters by name, and the variables in scope here.
  scope_.PushBlock("");
  if (declared)
    for (size_t p = 0; p < c.parameters.size(); ++p) scope_.Declare(declared->parameters[p].first, c.parameters[p]);
  const size_t site = c.sites.size();
  StmtPtr read;
  try {
    read = BindRowCollector(query, fmt::format("{}site{}_", c.prefix, site + 1));
  } catch (...) {
    scope_.PopBlock();
    throw;
  }
  scope_.PopBlock();
  CursorSite opened;
  opened.columns = QueryColumns(*read);
  opened.arrays.assign(read->into.begin(), read->into.end() - 1);
  opened.rows = read->into.back();
  out.push_back(std::move(read));
  auto rows = NewStmt(StmtKind::kAssign, line_);
  rows->target = c.rows;
  rows->value = MakeSlot(Slot{SlotSpace::kVariable, opened.rows}, kInt4);
  out.push_back(std::move(rows));
  out.push_back(CursorAssign(c, c.position, "0"));
  out.push_back(CursorAssign(c, c.site, std::to_string(site + 1)));
  if (c.no_scroll >= 0) {
    const CursorStatement::Scroll scroll = declared ? declared->scroll : s.scroll;
    out.push_back(CursorAssign(c, c.no_scroll, scroll == CursorStatement::Scroll::kNoScroll ? "true" : "false"));
  }
  c.sites.push_back(std::move(opened));
  return site;
}

void ProcedureBinder::CloseCursor(const CursorState& c, Block& out) {
  out.push_back(CursorAssign(c, c.site, "0"));
  // The rows are not needed any more.
  for (const CursorSite& site : c.sites)
    for (int array : site.arrays) {
      auto clear = NewStmt(StmtKind::kAssign, line_);
      clear->target = array;
      clear->value = MakeConst(Datum::Null(), ir_->variables[array].type);
      out.push_back(std::move(clear));
    }
}

void ProcedureBinder::BindCursorStatement(const CursorStatement& s, const json& st, Block& out) {
  line_ = st.value("lineno", line_);
  CursorState& c = CursorNamed(s.cursor);
  switch (s.kind) {
    case CursorStatement::Kind::kOpen: OpenCursor(c, s, out); return;
    case CursorStatement::Kind::kClose:
      CheckCursorOpen(c, out);
      CloseCursor(c, out);
      return;
    case CursorStatement::Kind::kFetch:
    case CursorStatement::Kind::kMove: BindFetchOrMove(c, s, st, out); return;
    case CursorStatement::Kind::kFor: BindCursorFor(c, s, st, out); return;
    case CursorStatement::Kind::kDeclare: break;
  }
  throw SqlError(sqlstate::kInternalError, "internal error: a cursor declaration as a statement");
}

void ProcedureBinder::BindFetchOrMove(CursorState& c, const CursorStatement& s, const json& st, Block& out) {
  using D = CursorStatement::Direction;
  const bool fetch = s.kind == CursorStatement::Kind::kFetch;
  if (fetch && s.multiple_rows) throw SqlError(sqlstate::kSyntaxError, "FETCH statement cannot return multiple rows");
  std::vector<int> targets;
  std::string record;
  if (fetch) {
    std::vector<int> row_fields;
    record = RecordTarget(Get(st, "target"), &row_fields);
    if (record.empty()) targets = IntoTargets(Get(st, "target"), line_);
    if (!row_fields.empty()) {
      targets = row_fields;
      record.clear();
    }
  }
  CheckCursorOpen(c, out);
  if (!s.count.empty()) {
    auto count = NewStmt(StmtKind::kAssign, line_);
    count->target = c.count;
    count->value = BindAssignmentTo(s.count, line_, c.count);
    out.push_back(std::move(count));
    out.push_back(RaiseIf(CursorExpr(c, "{count} IS NULL", kBool), "22004", "relative or absolute cursor position is null",
                          nullptr, line_));
  } else if (s.all) {
    out.push_back(CursorAssign(c, c.count, "{rows}::bigint + 1"));
  } else if (s.direction == D::kForward || s.direction == D::kBackward) {
    out.push_back(CursorAssign(c, c.count, "1"));
  }
  // PostgreSQL's portal moves (DoPortalRunFetch): the new position, and for a move over
  // several rows how many it went over, from where it stood.
  const std::string forward =
      "CASE WHEN {count} = 0 THEN {pos} WHEN {pos} + {count} <= {rows} THEN {pos} + {count} ELSE {rows} + 1 END";
  const std::string backward = "CASE WHEN {count} = 0 THEN {pos} WHEN {pos} - {count} >= 1 THEN {pos} - {count} ELSE 0 END";
  const std::string on_row = "CASE WHEN {pos} BETWEEN 1 AND {rows} THEN 1 ELSE 0 END";
  const std::string moved_forward = fmt::format("CASE WHEN {{count}} = 0 THEN {} ELSE GREATEST(0, LEAST({{count}}, {{rows}} - {{pos}})) END", on_row);
  const std::string moved_backward = fmt::format("CASE WHEN {{count}} = 0 THEN {} ELSE GREATEST(0, LEAST({{count}}, {{pos}} - 1)) END", on_row);
  std::string position, moved;
  switch (s.direction) {
    case D::kNext: position = "LEAST({pos} + 1, {rows} + 1)"; break;
    case D::kPrior: position = "GREATEST({pos} - 1, 0)"; break;
    case D::kFirst: position = "LEAST(1, {rows} + 1)"; break;
    case D::kLast: position = "GREATEST({rows}, 0)"; break;
    case D::kAbsolute:
      position = "CASE WHEN {count} > 0 THEN LEAST({count}, {rows} + 1) WHEN {count} < 0 THEN GREATEST({rows} + 1 + {count}, 0) ELSE 0 END";
      break;
    case D::kRelative:
      position = "CASE WHEN {count} > 0 THEN LEAST({pos} + {count}, {rows} + 1) WHEN {count} < 0 THEN GREATEST({pos} + {count}, 0) ELSE {pos} END";
      break;
    case D::kForward:
    case D::kBackward: {
      // A negative count goes the other way.
      const bool fwd = s.direction == D::kForward;
      auto flip = [](std::string text) {
        std::string out;
        for (size_t at = 0; at < text.size();) {
          if (text.compare(at, 7, "{count}") == 0) {
            out += "(-{count})";
            at += 7;
          } else {
            out += text[at++];
          }
        }
        return out;
      };
      position = fmt::format("CASE WHEN {{count}} >= 0 THEN {} ELSE {} END", fwd ? forward : backward,
                             flip(fwd ? backward : forward));
      moved = fmt::format("CASE WHEN {{count}} >= 0 THEN {} ELSE {} END", fwd ? moved_forward : moved_backward,
                          flip(fwd ? moved_backward : moved_forward));
      break;
    }
  }
  if (s.multiple_rows) out.push_back(CursorAssign(c, c.moved, moved));
  // NO SCROLL: PostgreSQL refuses any move backwards.
  if (c.no_scroll >= 0)
    out.push_back(RaiseIf(CursorExpr(c, fmt::format("{{noscroll}} AND ({}) < {{pos}}", position), kBool), "55000",
                          "cursor can only scan forward", "Declare it with SCROLL option to enable backward scan.", line_));
  out.push_back(CursorAssign(c, c.position, position));
  if (!s.multiple_rows) out.push_back(CursorAssign(c, c.moved, on_row));
  out.push_back(CursorAssign(c, ir_->found_variable, "{moved} <> 0"));
  auto row_count = NewStmt(StmtKind::kAssign, line_);
  row_count->target = loops_.RowCountVariable();
  row_count->value = CursorExpr(c, "{moved}", kInt8);
  out.push_back(std::move(row_count));
  if (!fetch) return;

  // The row's values into the targets (NULLs when there is none), from the open site.
  if (!record.empty()) {
    if (c.sites.empty())
      Unsupported("FETCH into a record from a cursor that no earlier statement opens", line_,
                  "FETCH into a list of variables, or OPEN the cursor before the FETCH in the function's text.");
    for (const CursorSite& site : c.sites)
      if (site.columns.size() != c.sites[0].columns.size() ||
          !std::equal(site.columns.begin(), site.columns.end(), c.sites[0].columns.begin(),
                      [](const OutputColumn& a, const OutputColumn& b) { return a.name == b.name && a.type == b.type; }))
        Unsupported("FETCH into a record from a cursor opened for queries of different columns", line_);
    targets = SetRecordShape(record, c.sites[0].columns);
  }
  auto choose = NewStmt(StmtKind::kIf, line_);
  choose->conds.push_back(CursorExpr(c, "{moved} = 0", kBool));
  choose->blocks.emplace_back();
  for (int t : targets) {
    auto clear = NewStmt(StmtKind::kAssign, line_);
    clear->target = t;
    clear->value = MakeConst(Datum::Null(), ir_->variables[t].type);
    choose->blocks.back().push_back(std::move(clear));
  }
  for (size_t k = 0; k < c.sites.size(); ++k) {
    const CursorSite& site = c.sites[k];
    choose->conds.push_back(CursorExpr(c, fmt::format("{{site}} = {}", k + 1), kBool));
    choose->blocks.emplace_back();
    Stmt read;  // the collector's INTO list, for AssignRowTargets
    read.into = site.arrays;
    AssignRowTargets(read, site.columns, c.position, targets, choose->blocks.back());
  }
  choose->else_block.push_back(CheckRaise("0A000", "FETCH from a cursor that a later statement of the function opens is not supported yet",
                                          "OPEN the cursor before the FETCH in the function's text.", line_));
  out.push_back(std::move(choose));
}

void ProcedureBinder::BindCursorFor(CursorState& c, const CursorStatement& s, const json& st, Block& out) {
  const std::string record = RecordTarget(Get(st, "var"));
  if (record.empty()) throw SqlError(sqlstate::kInternalError, "internal error: a cursor FOR loop without its record");
  const size_t site = OpenCursor(c, s, out);
  const CursorSite& rows = c.sites[site];
  std::vector<int> targets = SetRecordShape(record, rows.columns);
  auto loop = NewStmt(StmtKind::kForRange, line_);
  loop->label = st.value("label", "");
  loop->lower = MakeConst(Datum::Int(1), kInt4);
  loop->upper = MakeSlot(Slot{SlotSpace::kVariable, rows.rows}, kInt4);
  loop->target = AddVariable(fmt::format("{}_i", ir_->variables[rows.rows].name), kInt4, VariableKind::kLoopVar);
  // The cursor stands on the loop's row (a FETCH in the body goes on from there).
  auto position = NewStmt(StmtKind::kAssign, line_);
  position->target = c.position;
  position->value = MakeSlot(Slot{SlotSpace::kVariable, loop->target}, kInt4);
  loop->body.push_back(std::move(position));
  Stmt read;
  read.into = rows.arrays;
  AssignRowTargets(read, rows.columns, loop->target, targets, loop->body);
  // The body may declare cursors of its own: `c` is found again by its index after it.
  const size_t index = static_cast<size_t>(&c - cursors_.data());
  BindLoopBody(st, *loop);
  out.push_back(std::move(loop));
  // The loop closes the cursor when it ends.
  CloseCursor(cursors_[index], out);
}

}  // namespace caracal::planner
