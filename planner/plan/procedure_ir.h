// The typed procedure IR: what the PL/pgSQL binder makes of a CREATE FUNCTION /
// CREATE PROCEDURE body, what the write-set analysis annotates, and what codegen/ (and
// its reference interpreter) runs on the engine. See README.md, "Procedures".
//
// Shape: a procedure is a tree of statements over a flat frame of variables. Every
// value the body names (parameter, DECLAREd variable, loop variable, FOUND, a hidden
// temporary, a sequence value drawn at sequencing) is one frame slot: an Expr reads it
// as Slot{kVariable, index}. Embedded SQL is bound into table-access statements whose
// expressions read the current row as Slot{kColumn, i} (table schema order) and, in
// INSERT ... ON CONFLICT DO UPDATE, the proposed row as Slot{kExcluded, i}.
//
// The analysis (write_set_analysis.h) adds, per procedure:
//   * `sequence_calls`: every nextval() of the body, hoisted to sequencing time; the
//     body reads the drawn value from a hidden frame slot instead;
//   * per statement, an AccessInfo (the EXPLAIN PROCEDURE row);
//   * `init`: the init program - a slice of the body (assignments of input-derived
//     variables, loops over input-derived bounds, reconnaissance reads) with kDeclare
//     statements where the body writes, which the engine's Declare step runs;
//   * a kPublish statement in `body` after the last statement that can abort.
// Both `init` and `body` are ordinary statement lists, run by the same executor.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/catalog/catalog.h"
#include "planner/expr/expr.h"
#include "planner/plan/query_plan.h"
#include "planner/plan/select_plan.h"
#include "planner/types/sql_type.h"

namespace caracal::planner {

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

enum class VariableKind : uint8_t {
  kParameter,  // IN / INOUT parameter, in declaration order (frame slots 0..n-1)
  kOutParameter,  // OUT parameter (a result column of the call)
  kLocal,      // DECLAREd variable
  kLoopVar,    // FOR / FOREACH loop variable
  kFound,      // the FOUND flag (one per procedure)
  kRowCount,   // GET DIAGNOSTICS' ROW_COUNT: rows the last SQL statement processed
  kSequence,   // the value of sequence_calls[i] (drawn at sequencing) or of live_sequence_calls[i]
  kNow,        // now() / current_timestamp: the transaction's timestamp, drawn at sequencing
  kRandomSeed, // the seed of the call's random() values (expr/random_draws.h), drawn at sequencing
  kTemp,       // a hidden temporary of the binder or analysis
};

struct Variable {
  std::string name;  // as written (hidden ones start with '$')
  SqlType type;
  VariableKind kind = VariableKind::kLocal;
  bool constant = false;
  bool not_null = false;
  ExprPtr default_value;  // DECLARE ... := expr (coerced to `type`); null: NULL
  int line = 0;           // of the DECLARE (CONTEXT of an error in its default)
};

// Where a table statement finds its rows (keys are expressions over variable slots only).
struct KeyAccess {
  enum class Kind : uint8_t {
    kPoint,      // every primary-key column fixed: `key` has one Expr per key column
    kRange,      // `key` fixes a primary-key prefix; optional bounds on the next column
    kIndex,      // secondary index `index`: `key` fixes a prefix of its columns, optional bounds
    kFullScan,
  };
  Kind kind = Kind::kFullScan;
  int index = -1;  // kIndex: engine secondary index position (TableInfo::indexes order)
  std::vector<ExprPtr> key;
  ExprPtr lower, upper;  // on the column after the prefix; null: unbounded
  bool lower_inclusive = true, upper_inclusive = true;
};

// The analysis result for one statement that touches a table (an EXPLAIN PROCEDURE row
// and a caracal_write_sets row).
struct AccessInfo {
  enum class Access : uint8_t {
    kRead,          // a read that is not prefetched (EXPLAIN prints "read")
    kReadPrefetch,  // a point read whose key is known at initialization
    kInsert, kUpsert, kUpdate, kDelete, kRangeUpdate, kRangeDelete,
  };
  enum class KeyClass : uint8_t { kStatic, kLoop, kRange, kDependent };
  Access access = Access::kRead;
  KeyClass key_class = KeyClass::kStatic;
  std::string key_expr;      // the key as an expression of the parameters, for humans
  bool apply_row_update = false;
  int weight = 0;            // ApplyRowUpdate weight estimate (0 when not a candidate)
  // ApplyRowUpdate: whether the body needs the update's outcome (FOUND is read later, or
  // the row count is the result): then it waits for a split piece to run.
  bool wait_for_update = true;
  std::string note;          // why anything fell back; which read a dependent key needs
  int depends_on = -1;       // kDependent: statement id of the read it needs
  // Secondary indexes (by name) whose new entries this write cannot name at
  // initialization: a new indexed value depends on a read or on the row itself, an
  // UPDATE keeps some of the index's columns from the old row, or the rows are a range's.
  // The executor declares them unknown (DeclareContext::DeclareIndexUnknown).
  std::vector<std::string> unknown_indexes;
};

enum class StmtKind : uint8_t {
  kAssign,       // target := value
  kIf,           // branches: (cond, block)*, else_block
  kForRange,     // FOR var IN [REVERSE] lower..upper [BY step] LOOP body
  kForEach,      // FOREACH var IN ARRAY array LOOP body
  kWhile,        // WHILE cond LOOP body (cond null: plain LOOP)
  kExit,         // EXIT [label] [WHEN cond]
  kContinue,     // CONTINUE [label] [WHEN cond]
  kSelectInto,   // SELECT ... INTO targets [STRICT]; also PERFORM (no targets)
  kInsert,       // INSERT ... [ON CONFLICT] [RETURNING ... INTO]
  kUpdate,       // UPDATE ... [RETURNING ... INTO]
  kDelete,       // DELETE ... [RETURNING ... INTO]
  kRaise,        // RAISE level 'format', args [USING ERRCODE]
  kReturn,       // RETURN [value]
  kReturnNext,   // RETURN NEXT [values]
  kReturnQuery,  // RETURN QUERY select
  kPublish,      // (analysis) the transaction can no longer abort from here on
  kDeclare,      // (init program only) declare the accesses of body statement `target_stmt`
  kReconRead,    // (init program only) run body statement `target_stmt`'s read against the
                 // last committed state, assigning its targets (reconnaissance)
  kNull,         // NULL;
  // BEGIN body EXCEPTION WHEN ... THEN handler ... END: `body` runs in a subtransaction;
  // an error leaving it undoes the body's writes (variables keep their values, as in
  // PL/pgSQL) and runs the first handler whose conditions match, blocks[i] for
  // handler_conditions[i], or leaves the block unmatched. In the init program: `body`
  // stops at an error, then `else_block` (every handler's declarations) runs.
  kExceptionBlock,
};

// The fields of a caught error a handler sees (Stmt::error_slots): SQLSTATE, SQLERRM, and
// what GET STACKED DIAGNOSTICS reads besides them.
enum ErrorSlot : uint8_t { kErrorSqlstate, kErrorMessage, kErrorDetail, kErrorHint, kErrorContext, kErrorSlotCount };

enum class OnConflict : uint8_t { kNone, kDoNothing, kDoUpdate };
enum class RaiseLevel : uint8_t { kNotice, kWarning, kInfo, kLog, kDebug, kException };

struct Stmt {
  StmtKind kind = StmtKind::kNull;
  int id = -1;    // statement number within the procedure (EXPLAIN's "statement"), body only
  int line = 0;   // 1-based line within the CREATE statement's text
  std::string label;  // loop label (kForRange/kForEach/kWhile), or EXIT/CONTINUE's target
  // PL/pgSQL's CONTEXT line for an error this statement raises ("PL/pgSQL function f(integer)
  // line 3 at assignment"): how PostgreSQL names the statement it came from ("at
  // assignment", "at SQL statement", "during statement block local variable
  // initialization"); empty for statements the analysis made (no CONTEXT).
  std::string_view plpgsql_what;
  // The SQL a table statement runs, as PL/pgSQL passes it to SPI (an INTO clause blanked
  // out, PERFORM as SELECT): quoted in CONTEXT when that SQL raised.
  std::string sql_text;

  // kAssign: `target` := `value` (value already coerced to the variable's type).
  // kForRange / kForEach: `target` is the loop variable.
  int target = -1;
  ExprPtr value;  // kAssign; kReturn (may be null); kForEach: the array

  // kIf: conds[i] guards blocks[i]; else_block. kWhile/kExit/kContinue: conds[0] if any.
  std::vector<ExprPtr> conds;
  std::vector<Block> blocks;
  Block else_block;
  // Loops: the body.
  Block body;
  ExprPtr lower, upper, step;  // kForRange (step null: 1)
  bool reverse = false;

  // Table statements.
  const TableInfo* table = nullptr;
  KeyAccess where_key;              // kUpdate/kDelete: rows addressed; kSelectInto uses `select`
  ExprPtr filter;                   // residual WHERE over column + variable slots (null: none)
  std::unique_ptr<SelectPlan> select;  // kSelectInto / kReturnQuery: the query (variable slots allowed)
  // kSelectInto / kReturnQuery of a query that is more than one table's rows (a join, a
  // subquery, WITH, ...; see NeedsQueryPlanner): its plan instead of `select`, with
  // kVariable slots anywhere in it. `table` is then null; the statement still has an id
  // (a read, never prefetched; its results are read-derived).
  std::unique_ptr<QueryPlan> query;
  KeyAccess select_key;             // kSelectInto / kReturnQuery: where its rows come from
  std::vector<ExprPtr> row_values;  // kInsert: one per table column (defaults filled in, coerced)
  std::vector<std::pair<int, ExprPtr>> assignments;  // kUpdate SET / DO UPDATE SET: (column, value)
  OnConflict on_conflict = OnConflict::kNone;
  ExprPtr conflict_filter;          // DO UPDATE ... WHERE (null: none)
  // ON CONFLICT DO NOTHING with no target: a row that a UNIQUE index refuses is skipped
  // too, not only one whose primary key is taken (PostgreSQL's arbiters: every index).
  bool conflict_any_index = false;
  // ON CONFLICT (cols) DO NOTHING whose target is a UNIQUE index rather than the primary
  // key: that index's name (empty: the primary key). Only a row that index refuses is
  // skipped; a taken primary key then raises, as PostgreSQL's arbiter rules say.
  std::string conflict_index;
  std::vector<ExprPtr> returning;   // RETURNING expressions (column + variable slots)
  std::vector<int> into;            // INTO targets (frame slots), for SELECT and RETURNING
  bool strict = false;              // INTO STRICT
  // kSelectInto of a FOR over a query: every row, output column c into array variable
  // into[c], and the row count into into.back(); it sets neither FOUND nor ROW_COUNT
  // (the kForRange after it iterates over the arrays).
  bool collect = false;
  bool emit_returning = false;      // ad-hoc DML: each RETURNING row is a result row
  // A write of a data-modifying WITH query: each RETURNING value is appended to the array
  // variable into[c] (the rows the query gives the rest of the statement).
  bool append_returning = false;
  // kSelectInto of a PL/pgSQL expression that is a query (x := (SELECT ...), IF EXISTS
  // (...)), into one hidden temporary: it sets neither FOUND nor ROW_COUNT, gives NULL
  // without a row and raises 21000 with more than one, as PL/pgSQL's expressions do.
  bool expression_query = false;
  // The first CONTEXT line of an error the statement's SQL raises, when it is not
  // `SQL statement "<sql_text>"` (an expression query's: `SQL expression "..."`).
  std::string sql_context;
  // kSelectInto: the query reads at most one row by its full primary key, its WHERE is
  // exactly those key equalities, and it has no grouping, ordering or LIMIT: a found row
  // is the answer (executors may skip the general query machinery).
  bool point_lookup = false;
  // kSelectInto: an output reads a target an earlier output is assigned to (SELECT y, x
  // INTO x, y ...). PL/pgSQL computes the row before it assigns any target, so executors
  // must too; a point lookup's may otherwise assign as they go.
  bool into_reads_targets = false;
  // kSelectInto over a primary-key range of the table that the next statement of its
  // block UPDATEs or DELETEs by a range: that statement's id (else -1). An executor may
  // keep the rows the query read for it, which then need not read them again when its
  // range turns out to be the same (Delivery's sum of its order lines, then their update).
  int feeds_range_write = -1;

  // kRaise.
  RaiseLevel level = RaiseLevel::kException;
  std::string message;              // the format string ('%' placeholders)
  std::vector<ExprPtr> args;        // kRaise format arguments; kReturnNext values
  // kRaise ... USING DETAIL / HINT: their expressions are args[raise_detail] and
  // args[raise_hint] (after the format arguments), -1 if absent.
  int raise_detail = -1, raise_hint = -1;
  std::string sqlstate = "P0001";

  // kDeclare / kReconRead: the body statement this init statement stands for.
  int target_stmt = -1;

  // kExceptionBlock: per handler, the SQLSTATEs it catches (a code ending in "000" is a
  // class and catches the class; "OTHERS" all but 57014 and P0004, as PL/pgSQL).
  std::vector<std::vector<std::string>> handler_conditions;
  // kExceptionBlock: the text slots a caught error is stored in for its handler
  // (ErrorSlot order); kRaise with `reraise` (a bare RAISE; in a handler): where it reads
  // the error to raise again.
  std::vector<int> error_slots;
  bool reraise = false;

  // Analysis result for table statements (body only).
  std::optional<AccessInfo> access;
  // A serial procedure's nextval() calls in this statement (indexes into
  // ProcedureIr::live_sequence_calls), drawn in order as the statement starts.
  std::vector<int> draws;
  // TRUNCATE's DELETEs: no foreign-key check or action (the binder made sure no other
  // table references the truncated ones).
  bool skips_foreign_keys = false;
};

struct SequenceCall {
  ExprPtr sequence_name;  // text, over parameter slots and constants only
  int variable = -1;      // the kSequence frame slot that receives the value
  int line = 0;           // of the statement (live calls: CONTEXT of a missing sequence)
  // A DECLARE default's: the local's variable index (the CONTEXT of a draw that fails at
  // sequencing names the local's initialisation, else the statement reading `variable`).
  int local = -1;
};

// A trigger function bound for a table (ProcedureIr::trigger_table): its parameters
// are the NEW row's columns, then the OLD row's, then these (TG_OP, ...), in this order;
// binder/row_triggers.h passes them.
enum TriggerArgument : uint8_t { kTgOp, kTgName, kTgWhen, kTgLevel, kTgTableName, kTgTableSchema, kTgRelname, kTgNargs,
                                 kTgArgv, kTriggerArgumentCount };

struct ProcedureIr {
  enum class Kind : uint8_t { kFunction, kProcedure };
  enum class Returns : uint8_t { kVoid, kScalar, kTable, kSetOf };

  std::string name;
  Kind kind = Kind::kFunction;
  Returns returns = Returns::kVoid;
  // STRICT (RETURNS NULL ON NULL INPUT): a call with a NULL argument does not run; its
  // result is NULL (no rows for a set-returning function), as in PostgreSQL.
  bool strict = false;
  std::vector<OutputColumn> result_columns;  // kScalar: one; kTable / kSetOf / OUT params: all
  // RETURNS SETOF record without OUT parameters (kTable): result_columns are the shape
  // its RETURN NEXT / RETURN QUERY give (empty if none does); a call in FROM names the
  // columns with a column definition list, which must match it (binder/call_binder.cc).
  bool returns_record = false;
  std::vector<Variable> variables;           // the frame; parameters first
  int parameter_count = 0;
  int found_variable = -1;
  // ROW_COUNT (bigint), only when a GET DIAGNOSTICS reads it: each SQL statement sets it,
  // as it sets FOUND. Starts at 0, as FOUND starts false.
  int row_count_variable = -1;
  // OUT / INOUT parameter slots, in declaration order: a function with OUT parameters
  // returns one row of them (or, with RETURN NEXT, one row per RETURN NEXT).
  std::vector<int> out_variables;
  // The arguments CALL takes, in declaration order: each one's parameter slot. As in
  // PostgreSQL 14+, a procedure's OUT parameters are among them (CALL passes a
  // placeholder, usually NULL, that is type-checked and not used); a function's are not.
  std::vector<int> call_slots;
  // The kNow slot when the body uses now(); its value is drawn at sequencing, after the
  // sequence values (so the input log replays it).
  int now_variable = -1;
  // now_variable, added (a timestamptz kNow variable) on first use.
  int NowVariable();
  // The kRandomSeed slot (bigint) when the body or a function it calls draws random();
  // drawn at sequencing after now() (analysis/draw_sites.h adds it).
  int random_seed_variable = -1;
  int RandomSeedVariable();
  std::string source;  // the whole CREATE statement, for \sf and error positions
  // The composite type its result is (RETURNS SETOF t), which DROP TYPE then refuses to
  // drop; empty if none.
  std::string result_composite;
  // A trigger function bound for this table's rows (a kProcedure: its out_variables are
  // the NEW row's columns as the function leaves them, then a bool that is true when it
  // returned NULL, which skips the row); null for every other routine.
  const TableInfo* trigger_table = nullptr;
  // The trigger functions bound into this body by its writes (binder/row_triggers.h),
  // which AnalyzeProcedure analyses first (the binder cannot: it is below the analysis).
  std::vector<std::shared_ptr<ProcedureIr>> trigger_routines;
  // LANGUAGE sql (binder/sql_function_body.h): the line of the PL/pgSQL body it was
  // translated into where each SQL statement starts; empty for PL/pgSQL.
  std::vector<int> sql_statement_lines;
  bool is_sql_function() const { return !sql_statement_lines.empty(); }
  // A statement run once as a procedure: an ad-hoc INSERT / UPDATE / DELETE ("INSERT",
  // "UPDATE" or "DELETE", the command tag) or a DO block ("DO"); empty for CREATEd
  // procedures. `source` then holds the statement's text.
  std::string command_tag;
  bool is_ad_hoc_dml() const { return !command_tag.empty() && command_tag != "DO"; }
  bool is_do_block() const { return command_tag == "DO"; }

  Block body;
  std::vector<SequenceCall> sequence_calls;  // analysis
  // Analysis: why the write set is known only as the call runs (empty: it is known
  // before, by the init program). The call then runs alone in its epoch (the engine's
  // Procedure::needs_solo_epoch), with no init program, and the nextval() calls of its
  // body are drawn as their statements start (`live_sequence_calls`, Stmt::draws) rather
  // than at sequencing, so a call draws exactly what PostgreSQL's would.
  std::string serial_reason;
  std::vector<SequenceCall> live_sequence_calls;
  bool is_serial() const { return !serial_reason.empty(); }
  // The nextval() call whose value frame slot `slot` holds, or nullptr.
  const SequenceCall* SequenceCallOf(int slot) const;
  Block init;                                // analysis: the init program
  // Body statements that touch tables (pointers into `body`): statement id k is
  // table_statements[k - 1].
  std::vector<const Stmt*> table_statements;

  // name(type, type, ...) of the IN / INOUT parameters, as \df prints it.
  std::string Signature() const;
  // format_procedure's name(type,type), as PL/pgSQL's CONTEXT lines name the function
  // (a DO block: its name alone).
  std::string ContextSignature() const;
  // The parameter types of the signature, without the name or parentheses: "integer, text".
  std::string ArgumentTypes() const;
  // The table statement with id `id` (an init statement's target_stmt), nullptr if none.
  const Stmt* TableStatement(int id) const {
    if (id < 1 || id > static_cast<int>(table_statements.size())) return nullptr;
    return table_statements[static_cast<size_t>(id - 1)];
  }
};

// The output columns of a kSelectInto / kReturnQuery's query (`select` or `query`).
inline const std::vector<OutputColumn>& QueryColumns(const Stmt& s) { return s.query ? s.query->columns : s.select->columns; }

// What the catalog keeps of `ir` besides the IR itself (planner/catalog/catalog.h).
StoredRoutine StoredRoutineFor(std::shared_ptr<const ProcedureIr> ir);

}  // namespace caracal::planner
