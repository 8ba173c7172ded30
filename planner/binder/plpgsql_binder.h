// The PL/pgSQL binder behind BindProcedure (procedure_binder.h), private to
// planner/binder: one object binds one CREATE FUNCTION / CREATE PROCEDURE body. Its
// members are defined in procedure_binder.cc, except the cursor statements'
// (cursor_binder.cc).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planner/binder/expr_binder.h"
#include "planner/binder/plpgsql_scope.h"
#include "planner/binder/table_statement_binder.h"
#include "planner/catalog/catalog.h"
#include "planner/parser/plpgsql_parser.h"
#include "planner/plan/procedure_ir.h"

struct PgQuery__CreateFunctionStmt;
struct PgQuery__SelectStmt;
struct PgQuery__TypeName;
struct PgQuery__Node;

namespace caracal::planner {

using json = nlohmann::json;

// Reading pg_query_parse_plpgsql's JSON tree, defensively (it leaves out zero and false
// values).
namespace plpgsql_json {
// A member of a JSON object, or null.
const json& Get(const json& j, std::string_view key);
// The first (and only) key of a {"PLpgSQL_x": {...}} node, and its body.
std::string_view NodeType(const json& node);
const json& NodeBody(const json& node);
// The text of a {"PLpgSQL_expr": {"query": ...}} node.
std::string QueryOf(const json& expr);
}  // namespace plpgsql_json

class ProcedureBinder {
 public:
  ProcedureBinder(const Catalog& catalog, std::string_view text)
      : catalog_(catalog), text_(text), ir_(std::make_shared<ProcedureIr>()), scope_(*ir_) {}

  std::shared_ptr<ProcedureIr> Bind(const PgQuery__CreateFunctionStmt* stmt);
  // A trigger function (RETURNS trigger) bound for the rows of `table`
  // (trigger_function_binder.cc; BindTriggerFunction in procedure_binder.h). `depth`:
  // how many trigger functions are being bound around this one.
  std::shared_ptr<ProcedureIr> BindTrigger(const PgQuery__CreateFunctionStmt* stmt, const TableInfo& table, int depth);

 private:
  struct DatumInfo {
    int slot = -1;
    std::string record;  // a record variable (no slot): its name
    // `r t%ROWTYPE`: a record whose fields are t's columns from its declaration on (their
    // slots, in column order); empty for `record`, which takes its fields from each
    // query that assigns it.
    std::vector<int> row_fields;
  };

  void BindSignature(const PgQuery__CreateFunctionStmt* stmt);
  // LANGUAGE, STRICT and the body's text; returns the language (checked).
  std::string BindOptions(const PgQuery__CreateFunctionStmt* stmt);
  // Trigger functions (trigger_function_binder.cc): NEW, OLD and the TG_ variables as
  // parameters; RETURN NEW / OLD / NULL as what the row becomes.
  void BindTriggerSignature(const PgQuery__CreateFunctionStmt* stmt, const TableInfo& table);
  void BindTriggerReturn(const json& st, Block& out);
  // The body (after the signature) for Bind and BindTrigger.
  void BindBody();
  SqlType ParameterType(const PgQuery__TypeName* t) const;
  SqlType TypeFromText(const std::string& typname, int line);
  // The fields of row type `name` (a table's, or a composite type's), or nullopt when it
  // names neither (or a built-in type).
  std::optional<std::vector<OutputColumn>> RowTypeColumns(std::string name) const;
  int AddVariable(std::string name, SqlType type, VariableKind kind);

  // Datums, in the order PL/pgSQL created them while parsing (see README.md).
  void SkipRowDatums();
  void DeclareBlockVariables(const json& block, Block& out, bool top_level);
  StmtPtr BindExceptionHandlers(const json& exceptions, Block body);
  void BindGetStackedDiagnostics(const json& st, Block& out);
  int DeclareLoopVariable(const json& var);
  int SlotOfVarno(int varno, int line) const;
  std::vector<int> IntoTargets(const json& target, int line) const;
  // The parameter slot an ALIAS FOR names, or -1.
  int AliasSlot(const PlpgsqlBody::Alias& alias) const;
  // The record variable a FOR loop's or INTO's target is, or "" (a list of scalar
  // variables); with `row_fields`, the fields of a %ROWTYPE record.
  std::string RecordTarget(const json& target, std::vector<int>* row_fields = nullptr) const;
  // Gives record `record` the fields `columns` (new variables named record.column), read
  // as record.column from here on; returns their slots.
  std::vector<int> SetRecordShape(const std::string& record, const std::vector<OutputColumn>& columns);

  // Cursors (cursor_binder.cc). A cursor variable is a text variable (the portal's
  // name) with hidden state: which OPEN statement's rows it holds (0: closed) and where
  // it stands in them. Each OPEN (and FOR over a cursor) reads its query into arrays, as
  // a FOR over a query does; FETCH and MOVE are position arithmetic and array reads.
  struct CursorSite {
    std::vector<OutputColumn> columns;
    std::vector<int> arrays;  // one array variable per column
    int rows = -1;            // the row count the read collected
  };
  struct CursorState {
    int variable = -1;   // the refcursor variable
    int site = -1;       // int4: 0 closed, k: open on sites[k - 1]
    int position = -1;   // int4: 0 before the first row, 1..rows on one, rows + 1 after the last
    int rows = -1;       // int4: the open site's row count
    int count = -1;      // int8: a FETCH / MOVE count
    int moved = -1;      // int8: the rows a FETCH / MOVE went over (FOUND, ROW_COUNT)
    int no_scroll = -1;  // bool: the open site was opened NO SCROLL (-1: none can be)
    std::string prefix;  // of its hidden variables' names
    const CursorStatement* declaration = nullptr;  // a bound cursor's; null: unbound refcursor
    std::vector<int> parameters;  // a bound cursor's parameters (variables its query reads)
    std::vector<CursorSite> sites;
  };
  void DeclareCursor(int variable, const CursorStatement* declaration, int line);
  // The cursor statement a PERFORM, SQL statement or FOR over a query stands for (a
  // marker: cursor_statements.h), if it is one.
  std::optional<size_t> CursorStatementOf(std::string_view type, const json& st) const;
  void BindCursorStatement(const CursorStatement& s, const json& st, Block& out);
  // How PL/pgSQL's CONTEXT names the statement: "at FETCH", "at FOR over cursor", ...
  static std::string_view CursorStatementName(const CursorStatement& s);
  CursorState& CursorNamed(const std::string& name);
  // `text` bound as an expression of `type`, where "$site", "$pos", "$rows", "$count",
  // "$moved" and "$cursor" name `c`'s state and variable.
  ExprPtr CursorExpr(const CursorState& c, const std::string& text, const SqlType& type);
  StmtPtr CursorAssign(const CursorState& c, int target, const std::string& text);
  StmtPtr CursorRaiseIf(const CursorState& c, const std::string& cond, const char* sqlstate, const std::string& message,
                        const char* hint = nullptr);
  // The checks every statement but OPEN makes first: the variable names a portal, and
  // it is open.
  void CheckCursorOpen(const CursorState& c, Block& out);
  // OPEN's work, for OPEN and FOR over a cursor: its query read into a new site, which
  // it then stands before. Returns the site's index in c.sites.
  size_t OpenCursor(CursorState& c, const CursorStatement& s, Block& out);
  void CloseCursor(const CursorState& c, Block& out);
  void BindFetchOrMove(CursorState& c, const CursorStatement& s, const json& st, Block& out);
  void BindCursorFor(CursorState& c, const CursorStatement& s, const json& st, Block& out);
  // The query `query` as a SELECT INTO that collects every row: column c into a new
  // array variable `prefix`c, the row count into `prefix`rows (the last INTO target).
  StmtPtr BindRowCollector(const std::string& query, const std::string& prefix);
  // Assignments of `targets` from row `index` (an int4 slot) of the arrays `read`
  // collected (columns `columns`): a column's element each, NULL past the last column.
  void AssignRowTargets(const Stmt& read, const std::vector<OutputColumn>& columns, int index,
                        const std::vector<int>& targets, Block& out);

  // A FOR loop's body statements (st's "body"), appended to loop.body, in the loop's
  // scope and under its label.
  void BindLoopBody(const json& st, Stmt& loop);
  Block BindStatements(const json& list);
  void BindStatement(const json& node, Block& out);
  void BindStatementKind(std::string_view type, const json& st, Block& out);
  void BindBlock(const json& st, Block& out);
  StmtPtr BindAssign(const json& st);
  StmtPtr BindIf(const json& st);
  StmtPtr BindCase(const json& st, Block& out);
  StmtPtr BindForRange(const json& st);
  StmtPtr BindForEach(const json& st);
  void BindForQuery(const json& st, Block& out);
  StmtPtr BindLoop(const json& st, bool with_condition);
  StmtPtr BindExit(const json& st);
  void BindExecSql(const json& st, Block& out);
  StmtPtr BindPerform(const json& st);
  // CALL p(...): the call, then each OUT / INOUT parameter's value assigned to the
  // variable passed for it, as PL/pgSQL's CALL does.
  void BindCall(const json& st, Block& out);
  StmtPtr BindReturn(const json& st);
  StmtPtr BindReturnNext(const json& st);
  // RETURN NEXT `query` (a record or row variable) of a function returning rows.
  StmtPtr ReturnNextRecord(StmtPtr s, const std::string& query);
  StmtPtr BindReturnQuery(const json& st);
  StmtPtr BindRaise(const json& st);
  StmtPtr BindAssert(const json& st);
  void BindGetDiagnostics(const json& st, Block& out);
  // INTO targets set to NULL first (a write that may not run, or run for no row).
  void ClearTargets(const std::vector<int>& targets, Block& out) const;
  void ReturningIntoOfLoop(std::vector<StmtPtr>& stmts, std::vector<int> targets, const std::string& record, bool strict,
                           const std::vector<OutputColumn>& returning);

  // Expressions: PL/pgSQL hands them over as text; they are parsed as `SELECT <expr>`.
  ExprPtr BindExpr(const std::string& text, int line, const std::function<ExprPtr(ExprBinder&, const PgQuery__Node*)>& bind);
  ExprPtr BindValue(const json& expr, int line);
  ExprPtr BindCondition(const json& expr, int line, std::string_view clause);
  ExprPtr BindAssignmentTo(const std::string& text, int line, int slot);
  ExprPtr BindElementAssignment(const std::string& target, const std::string& value, int slot);
  // The query `stmt` (an expression's text `text` as SELECT) run by a hidden SELECT INTO
  // appended to pending_; returns the parse of a reference to its temporary, for `bind`.
  std::string HoistExpressionQuery(const PgQuery__SelectStmt* stmt, const std::string& text, int line);
  // pending_, taken.
  Block TakePending() { return std::exchange(pending_, {}); }
  // Byte offset of `text` (an expression or statement PL/pgSQL extracted from line
  // `line` of the body) in the statement text; -1 if it cannot be found.
  int LocateInStatement(const std::string& text, int line) const;

  StmtPtr NewStmt(StmtKind kind, int line) const;
  // The errors PL/pgSQL raises itself (CASE without ELSE, ASSERT, RETURNING INTO's row
  // count): RAISE EXCEPTION of `sqlstate` / `message` [/ HINT `hint`], and that RAISE
  // under `IF cond`.
  StmtPtr CheckRaise(const char* sqlstate, std::string message, const char* hint, int line) const;
  StmtPtr RaiseIf(ExprPtr cond, const char* sqlstate, std::string message, const char* hint, int line) const;
  void CheckAssignable(int slot, int line) const;
  [[noreturn]] void Unsupported(const std::string& what, int line, const std::string& hint = {}) const;

  const Catalog& catalog_;
  std::string text_;
  PlpgsqlBody body_;
  std::shared_ptr<ProcedureIr> ir_;
  PlpgsqlScope scope_;
  json datums_;
  std::vector<DatumInfo> datum_info_;
  int calls_ = 0;        // CALL statements bound so far (their temporaries' names)
  bool sql_language_ = false;  // LANGUAGE sql: the body is translated (sql_function_body.h)
  std::string body_text_;      // the AS string
  int for_queries_ = 0;  // FOR-over-query loops bound so far (their hidden variables' names)
  std::vector<CursorState> cursors_;
  // Expressions that are queries (x := (SELECT ...), IF EXISTS (...)): each is run by a
  // hidden SELECT INTO a temporary placed just before the statement that uses it.
  // BindExpr leaves them here; BindStatement puts them in place (IF's ELSIF and WHILE
  // take theirs themselves: they evaluate their conditions more than once or not at all).
  Block pending_;
  int expression_queries_ = 0;
  // Hidden variables, FOUND and ROW_COUNT for set-based writes bound as loops.
  class LoopHost final : public DmlLoopHost {
   public:
    explicit LoopHost(ProcedureBinder& binder) : binder_(binder) {}
    int AddVariable(std::string name, SqlType type, VariableKind kind) override {
      return binder_.AddVariable(std::move(name), type, kind);
    }
    int FoundVariable() override { return binder_.ir_->found_variable; }
    int RowCountVariable() override {
      if (binder_.ir_->row_count_variable < 0)
        binder_.ir_->row_count_variable = binder_.AddVariable("$row_count", SqlType::Of(TypeId::kInt8), VariableKind::kRowCount);
      return binder_.ir_->row_count_variable;
    }
    bool AllowsReturning() const override { return true; }  // discarded, or INTO (BindExecSql)
    int TriggerDepth() const override { return binder_.trigger_depth_; }
    void AddTriggerRoutine(std::shared_ptr<ProcedureIr> routine) override {
      binder_.ir_->trigger_routines.push_back(std::move(routine));
    }

   private:
    ProcedureBinder& binder_;
  };
  LoopHost loops_{*this};
  // The CONTEXT line of an error in the expression being bound, when it is an assignment's.
  std::string assignment_context_;
  size_t cursor_ = 0;         // the next datum not yet attributed to a declaration
  int line_ = 0;              // line of the statement being bound (error CONTEXT)
  std::vector<std::string> loop_labels_;  // labels of the enclosing loops ("" if none)
  std::vector<int> body_line_starts_;
  bool has_out_parameters_ = false;
  bool is_setof_ = false;
  bool top_level_done_ = false;  // the function's outermost block has been entered
  std::vector<std::vector<int>> handler_errors_;  // the error slots of each enclosing handler, innermost last
  size_t return_next_used_ = 0;   // RETURN NEXT expressions taken from body_.return_next
  // A trigger function's: the table and how deep in trigger functions it is bound.
  const TableInfo* trigger_table_ = nullptr;
  int trigger_depth_ = 0;
  int trigger_skip_ = -1;  // the out variable that says the row is skipped
};

}  // namespace caracal::planner
