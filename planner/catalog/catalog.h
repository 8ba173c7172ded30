// Catalog: the SQL-level description of what the engine stores. Tables carry their SQL
// column types (numeric(p,s), char(n), varchar(n)), NOT NULL, bound DEFAULT expressions
// and primary key; indexes map to engine secondary indexes; sequences to engine
// sequences. Tables, indexes and sequences share one namespace, as PostgreSQL's
// relations do. Names are stored case-folded (the parser already lower-cases unquoted
// identifiers).
//
// Invariants: every TableInfo names a live engine table whose Schema matches its
// columns and primary key; every IndexInfo names a secondary index of its table's
// engine table. Mutations happen only between epochs (callers hold
// Engine::RunExclusive); reads happen on the session thread.
#pragma once

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/storage/database.h"
#include "planner/expr/expr.h"
#include "planner/parser/fragment_parser.h"
#include "planner/types/domain_type.h"
#include "planner/types/enum_type.h"
#include "planner/types/sql_error.h"
#include "planner/types/sql_type.h"

namespace caracal::planner {

struct ProcedureIr;

struct CatalogColumn {
  std::string name;
  SqlType type;
  bool not_null = false;
  std::shared_ptr<const Expr> default_expr;  // bound, coerced to `type`; null: DEFAULT NULL
  // serial and identity columns: the sequence their default draws from, which the
  // table owns (DROP TABLE drops it).
  std::string owned_sequence;
  enum class Identity : uint8_t { kNone, kAlways, kByDefault } identity = Identity::kNone;
  // GENERATED ALWAYS AS (expr) STORED: the value every write computes (binder/
  // generated_columns.h), bound over the row's other columns (kColumn slots, none of
  // them generated) and coerced to `type`; immutable. Null for an ordinary column.
  std::shared_ptr<const Expr> generated;
};

// The sequence column `c`'s default is nextval() of (through casts), as a regclass
// prints its name (parser/qualified_name.h); null if none.
const std::string* DefaultSequence(const CatalogColumn& c);

class Catalog;
// pg_get_serial_sequence(table, column): the sequence `column` of `table` owns (serial,
// identity, OWNED BY) as PostgreSQL prints it ("public.t_id_seq"), or nullopt when it
// owns none. `table` is read as a regclass text is, `column` literally. Throws 42P01 /
// 42703 as PostgreSQL does.
std::optional<std::string> SerialSequenceName(const Catalog& catalog, std::string_view table, std::string_view column);

struct TableInfo;

// A bulk load (COPY, the between-epochs INSERT ... SELECT) fills the columns it is not
// given from their defaults; one that draws from a sequence cannot be loaded that way
// yet (the load's log records rows, not sequence advances). Throws 0A000 naming it.
void RefuseSequenceDefaults(const TableInfo& table, const std::vector<bool>& given, std::string_view statement);

// CHECK (expr): a boolean over the table's columns (kColumn slots); a row for which it
// is false (not NULL) is refused with 23514.
struct CheckConstraint {
  std::string name;
  std::shared_ptr<const Expr> expr;
};

// FOREIGN KEY (columns) REFERENCES referenced_table (referenced_columns), MATCH SIMPLE:
// a row with a NULL in `columns` references nothing. The referenced columns are the
// referenced table's primary key or one of its UNIQUE constraints (as PostgreSQL
// requires). The catalog keeps `referenced` pointing at that table's description and
// lists this key in its `referenced_by`.
struct ForeignKey {
  enum class Action : uint8_t { kNoAction, kRestrict, kCascade, kSetNull, kSetDefault };
  std::string name;
  std::vector<int> columns;
  std::string referenced_table;
  std::vector<int> referenced_columns;
  Action on_delete = Action::kNoAction;
  Action on_update = Action::kNoAction;
  const TableInfo* referenced = nullptr;  // maintained by the catalog
  int64_t created = 0;  // the catalog's number for it, in creation order (as PostgreSQL's OIDs)
};

// A foreign key of another table (or of the same one) that references a table.
struct ReferencingKey {
  const TableInfo* table = nullptr;
  const ForeignKey* key = nullptr;
};

// CREATE TRIGGER: a function (a TriggerFunction) the table's writes call. Row triggers
// are woven into each INSERT / UPDATE / DELETE of the table when it is bound
// (binder/row_triggers.h), statement triggers around it; see planner/README.md, "Triggers".
struct TriggerInfo {
  enum Event : uint8_t { kInsert = 1, kUpdate = 2, kDelete = 4, kTruncate = 8 };
  std::string name;
  std::string function;  // a TriggerFunction's name
  bool before = true;    // BEFORE, else AFTER
  bool row = true;       // FOR EACH ROW, else FOR EACH STATEMENT
  uint8_t events = 0;    // Event bits
  std::vector<std::string> update_columns;  // UPDATE OF: fires only when SET names one of them
  std::string when;      // WHEN (...) as written, over NEW and OLD; empty: none
  std::vector<std::string> args;  // TG_ARGV
  bool enabled = true;   // ALTER TABLE ... DISABLE TRIGGER
  // Whether it fires on `event` of a statement that SETs `set` (column names; UPDATE).
  bool FiresOn(Event event, const std::vector<std::string>& set = {}) const;
};

struct TableInfo {
  std::string name;
  engine::TableId id = 0;
  std::vector<CatalogColumn> columns;
  std::vector<int> primary_key;  // column positions, in key order
  // Declared without a primary key: the engine keys its rows by a hidden row identity
  // (planner/catalog/row_identity.h), so no statement reads or writes one row by key.
  bool HasRowIdentity() const { return primary_key.empty(); }
  // The primary key's constraint (and index) name: "<table>_pkey" when it was made, or
  // the CONSTRAINT name given; a RENAME of the table keeps it, as PostgreSQL does.
  std::string primary_key_name;
  std::string PrimaryKeyName() const { return primary_key_name.empty() ? name + "_pkey" : primary_key_name; }
  std::vector<std::string> indexes;  // names of this table's indexes, in engine index order
  // Its UNIQUE indexes by engine position: what every INSERT and UPDATE checks (after
  // the primary key), in the order PostgreSQL checks them.
  struct UniqueIndex {
    int engine_index = 0;
    std::string name;
    std::vector<int> columns;
  };
  std::vector<UniqueIndex> unique_indexes;
  // Whether a write of `column` may break a UNIQUE index.
  bool InUniqueIndex(int column) const;
  std::vector<CheckConstraint> checks;  // by name: the order PostgreSQL checks them in
  std::vector<ForeignKey> foreign_keys;  // in the order they were made
  std::vector<ReferencingKey> referenced_by;  // maintained by the catalog
  // Whether a write of `column` needs a foreign-key check: it is a referencing column
  // (the referenced row must exist) or a referenced one (rows may still reference it).
  bool InForeignKey(int column) const;

  int ColumnIndex(std::string_view column) const;
  // CREATE TRIGGER: by name, the order PostgreSQL fires them in.
  std::vector<TriggerInfo> triggers;
  bool HasTriggers(TriggerInfo::Event event) const;
};

struct IndexInfo {
  std::string name;
  std::string table;
  std::vector<int> columns;
  int engine_index = 0;  // position among the engine table's secondary indexes
  // UNIQUE: no two rows hold the same non-NULL values in `columns` (NULLs are distinct,
  // as PostgreSQL's default). `constraint`: made by a UNIQUE constraint, not CREATE INDEX.
  bool unique = false;
  bool constraint = false;
  // A partial index's WHERE as written (CREATE INDEX ... WHERE p): shown by \d. The
  // index holds every row all the same: a non-unique index answers the same queries
  // with or without its rows outside p, only larger.
  std::string predicate;
};

// CREATE VIEW: the statement's text and its parse, bound again (as a subquery named
// after the view) wherever a query reads the view, so a view always reads its tables as
// they are now. `columns`: the output columns as bound at CREATE (names after any column
// list); `relations`: the tables and views its query reads, which cannot be dropped while
// it exists.
struct ViewInfo {
  std::string name;
  std::string definition;                 // the CREATE [OR REPLACE] VIEW statement
  std::shared_ptr<const PgParse> parse;   // of `definition`: statement(0) is the ViewStmt
  std::vector<std::string> column_names;  // CREATE VIEW v (a, b): the names given
  std::vector<std::pair<std::string, SqlType>> columns;
  std::vector<std::string> relations;
};

// A function or procedure whose body could not be bound when it was created, because
// something it names did not exist yet (a pg_dump script creates functions before the
// tables they use; PostgreSQL checks a PL/pgSQL body's statements only when they run).
// Kept as its CREATE statement and bound again after later DDL (planner/exec/
// procedure_ddl.h); until then a call fails with the error binding gave.
struct PendingRoutine {
  std::string name;
  std::string source;                    // the CREATE [OR REPLACE] statement
  std::vector<SqlType> parameter_types;  // the IN / INOUT ones, which tell overloads apart
  bool is_procedure = false;
  SqlError error{"42883", ""};           // why it is not bound (no position)
};

// CREATE TYPE name AS (field type, ...): a row type with no table, for routines'
// results (RETURNS SETOF name) and record variables (`r name;`). Composite values as
// columns, parameters or scalars are not supported.
struct CompositeType {
  std::string name;
  std::vector<std::pair<std::string, SqlType>> fields;
};

// CREATE FUNCTION ... RETURNS trigger: kept as its statement and bound for each table a
// trigger fires it on (NEW and OLD take that table's row type), as PostgreSQL compiles
// a trigger function once per table.
struct TriggerFunction {
  std::string name;
  std::string source;  // the CREATE [OR REPLACE] FUNCTION statement
};

class Catalog;
// The table a write (INSERT, UPDATE, DELETE, COPY FROM) names: 42P01 when there is none,
// 0A000 naming the view when it is a view (views are read-only here).
const TableInfo& TableToWrite(const Catalog& catalog, std::string_view name, int location = -1);

// A sequence as CREATE / ALTER SEQUENCE define it (planner/exec/sequence_ddl.h checks
// the options). Its position lives in the engine (engine/storage/sequences.h).
struct SequenceInfo {
  std::string name;
  std::string engine_name;  // the engine never forgets a sequence: re-creations get a new name
  TypeId type = TypeId::kInt8;  // AS: smallint, integer or bigint
  int64_t start = 1;
  int64_t increment = 1;
  int64_t min = 1;
  int64_t max = std::numeric_limits<int64_t>::max();
  int64_t cache = 1;  // kept for \d and the catalog; values are drawn serially anyway
  bool cycle = false;
};

// A stored procedure or function as the catalog keeps it: its compiled IR, which the
// catalog does not look into, and the facts the catalog needs of it, taken from the IR
// when it is stored (planner/plan/procedure_ir.h's StoredRoutineFor).
struct StoredRoutine {
  std::shared_ptr<const ProcedureIr> ir;
  std::string name;
  std::string signature;                 // name(argument types): order and messages
  std::vector<SqlType> parameter_types;  // what overloads are told apart by
  bool is_procedure = false;             // PROCEDURE, not FUNCTION
  std::vector<const TableInfo*> tables;  // the tables its statements use
};

class Catalog {
 public:
  explicit Catalog(engine::Database& db) : db_(db) {}

  engine::Database& database() { return db_; }
  const engine::Database& database() const { return db_; }

  const TableInfo* FindTable(std::string_view name) const;
  const IndexInfo* FindIndex(std::string_view name) const;
  const SequenceInfo* FindSequence(std::string_view name) const;
  const ViewInfo* FindView(std::string_view name) const;
  std::vector<const ViewInfo*> Views() const;  // by name
  // The views that read relation `name` (a table or another view), by name.
  std::vector<std::string> ViewsReading(std::string_view name) const;
  // Whether any relation (table, index, sequence) has this name.
  bool RelationExists(std::string_view name) const;
  std::vector<const TableInfo*> Tables() const;     // by name
  std::vector<const SequenceInfo*> Sequences() const;  // by name

  // Enum types (CREATE TYPE ... AS ENUM), by name; see types/enum_type.h.
  const EnumType* FindEnum(std::string_view name) const;
  std::vector<const EnumType*> Enums() const;  // by name
  // Mutations: only between epochs, as the others. CreateEnum throws 42710 when a type
  // of that name exists (a table's name is a type's too, as PostgreSQL's row types);
  // DropEnum forgets the name, keeping the EnumType alive (types/enum_type.h).
  const EnumType& CreateEnum(std::string name, std::vector<std::string> labels);
  void DropEnum(std::string_view name);
  // ALTER TYPE: the enum of that name, to change in place.
  EnumType& MutableEnum(std::string_view name);
  void RenameEnum(std::string_view name, const std::string& new_name);
  // The columns of type `type` (or arrays of it), as "column c of table t".
  std::vector<std::string> EnumUsers(const EnumType& type) const;
  // Domains (CREATE DOMAIN), by name; see types/domain_type.h. Enum types and domains
  // share PostgreSQL's type namespace (with the tables' row types).
  const DomainType* FindDomain(std::string_view name) const;
  std::vector<const DomainType*> Domains() const;  // by name
  const DomainType& CreateDomain(DomainType domain);
  void DropDomain(std::string_view name);
  // The columns of domain `type`, as "column c of table t".
  std::vector<std::string> DomainUsers(const DomainType& type) const;
  // Whether a type (an enum, a domain, a composite type) or a table's row type has
  // this name.
  bool TypeExists(std::string_view name) const;
  // Composite types (CREATE TYPE ... AS (...)), by name.
  const CompositeType* FindComposite(std::string_view name) const;
  void CreateComposite(CompositeType type);
  void DropComposite(std::string_view name);

  // Mutations: only between epochs. They throw SqlError and then change nothing.
  const TableInfo& CreateTable(TableInfo table);
  void DropTable(std::string_view name);
  // ALTER TABLE of what does not change the rows' layout (defaults, NOT NULL, CHECK):
  // `table` replaces the description of the table of its name in place (the IR's
  // TableInfo pointers stay valid), keeping its engine table and indexes.
  void ReplaceTableDescription(TableInfo table);
  // ALTER TABLE that changes the rows' layout or key (exec/table_rewrite.h): `table` (the
  // same name and id) replaces the description in place and `rows`, in its layout, the
  // table's rows. `index_columns`: the table's indexes to keep, by name, with their
  // columns at the new positions (the others are dropped). The old state comes back for
  // UndoRewrite, if the DDL fails after all, or for FinishRewrite, which frees it.
  struct RewrittenTable {
    TableInfo info;
    std::vector<IndexInfo> indexes;
    std::unique_ptr<engine::Table> rows;
  };
  RewrittenTable RewriteTable(TableInfo table, const std::map<std::string, std::vector<int>>& index_columns,
                              std::vector<engine::RowValuePtr> rows);
  void UndoRewrite(RewrittenTable old);
  // ALTER TABLE ... RENAME TO / ALTER INDEX ... RENAME TO (or RENAME CONSTRAINT of a
  // UNIQUE constraint): the description keeps its address (the IR's pointers stay
  // valid); the engine table takes the new name too. The caller checks the new name.
  void RenameTable(std::string_view name, const std::string& new_name);
  void RenameIndex(std::string_view name, const std::string& new_name);
  void FinishRewrite(RewrittenTable old);
  // CREATE INDEX fills the new engine index from the table's rows (`predicate`: see
  // IndexInfo).
  const IndexInfo& CreateIndex(std::string name, std::string_view table, std::vector<int> columns, bool unique = false,
                               bool constraint = false, std::string predicate = {});
  // DROP INDEX in two steps, so that the procedures using the table can be analysed
  // again without the index before the engine loses it: DetachIndex removes the index
  // from the catalog only (the table's later indexes take the engine positions they
  // will have once it is dropped); then either DropDetachedIndex drops the engine's
  // index, or ReattachIndex restores the catalog as it was. Detach several in some
  // order, then drop them in that order or reattach them in the reverse one.
  struct DetachedIndex {
    IndexInfo info;
    engine::TableId table = 0;
  };
  DetachedIndex DetachIndex(std::string_view name);
  void ReattachIndex(DetachedIndex detached);
  void DropDetachedIndex(const DetachedIndex& detached);
  // CREATE [OR REPLACE] VIEW: `replace` replaces a view of that name.
  void StoreView(ViewInfo view, bool replace);
  void DropView(std::string_view name);
  // `sequence.engine_name` is chosen here.
  const SequenceInfo& CreateSequence(SequenceInfo sequence);
  // ALTER SEQUENCE: the new definition of sequence `definition.name`; `restart` sets the
  // next value drawn.
  void AlterSequence(const SequenceInfo& definition, std::optional<int64_t> restart);
  void DropSequence(std::string_view name);

  // Procedures and functions, overloaded by name (PostgreSQL's rules: one per name and
  // IN-parameter type list). A stored procedure is immutable; CREATE OR REPLACE stores a
  // new one.
  std::vector<std::shared_ptr<const ProcedureIr>> FindProcedures(std::string_view name) const;
  std::vector<std::shared_ptr<const ProcedureIr>> Procedures() const;  // by name, then signature
  // Stores `routine`; one with the same name and parameter types is replaced when
  // `replace`, otherwise it is an error (42723).
  void StoreProcedure(StoredRoutine routine, bool replace);
  void RemoveProcedure(const ProcedureIr& ir);
  // Routines waiting to be bound (PendingRoutine), in creation order. Storing one
  // replaces a pending one of the same name and parameter types.
  void StorePendingRoutine(PendingRoutine routine);
  void RemovePendingRoutine(std::string_view name, const std::vector<SqlType>& parameter_types);
  const std::vector<PendingRoutine>& PendingRoutines() const { return pending_routines_; }
  // The first pending routine of this name, or null.
  const PendingRoutine* FindPendingRoutine(std::string_view name) const;
  // Trigger functions (RETURNS trigger), by name; they take no arguments, so a name is
  // one function.
  const TriggerFunction* FindTriggerFunction(std::string_view name) const;
  std::vector<const TriggerFunction*> TriggerFunctions() const;  // by name
  void StoreTriggerFunction(TriggerFunction function);
  void RemoveTriggerFunction(std::string_view name);
  // "trigger t on table x" for each trigger that executes function `name`.
  std::vector<std::string> TriggersExecuting(std::string_view name) const;
  // The procedures whose statements use `table` (DROP TABLE refuses while any does:
  // compiled procedures hold its description), by signature.
  std::vector<std::string> ProceduresUsing(const TableInfo& table) const;

  // An unused name for an index on `table` over `columns`, as PostgreSQL picks one
  // (t_a_b_idx, then t_a_b_idx1, ...).
  std::string ChooseIndexName(std::string_view table, const std::vector<std::string>& columns,
                              std::string_view suffix = "idx", const std::vector<std::string>& taken = {}) const;

  // The engine schema for a table description.
  static engine::Schema EngineSchema(const TableInfo& table);

  // What the caracal_stat_durability view shows (name, value rows): set by a session
  // over a data directory (engine/durability/durable_store.h); none in memory.
  using StatusRows = std::function<std::vector<std::pair<std::string, std::string>>()>;
  void set_durability_status(StatusRows rows) { durability_status_ = std::move(rows); }
  std::vector<std::pair<std::string, std::string>> DurabilityStatus() const {
    return durability_status_ ? durability_status_() : std::vector<std::pair<std::string, std::string>>{};
  }

 private:
  void RefuseWhileProceduresUse(const TableInfo& table, const std::string& what) const;
  // Points every foreign key at its referenced table and rebuilds `referenced_by`: after
  // every change of tables.
  void LinkForeignKeys();
  void NumberIndexes(TableInfo& table);

  engine::Database& db_;
  std::map<std::string, std::unique_ptr<TableInfo>, std::less<>> tables_;
  std::map<std::string, IndexInfo, std::less<>> indexes_;
  std::map<std::string, SequenceInfo, std::less<>> sequences_;
  std::map<std::string, ViewInfo, std::less<>> views_;
  std::map<std::string, EnumType*, std::less<>> enums_;
  std::vector<std::unique_ptr<EnumType>> enum_storage_;  // every enum ever made (see DropEnum)
  std::map<std::string, DomainType*, std::less<>> domains_;
  std::vector<std::unique_ptr<DomainType>> domain_storage_;  // every domain ever made
  std::map<std::string, CompositeType, std::less<>> composites_;
  std::map<std::string, std::vector<StoredRoutine>, std::less<>> procedures_;
  std::vector<PendingRoutine> pending_routines_;
  std::map<std::string, TriggerFunction, std::less<>> trigger_functions_;
  int sequence_generation_ = 0;
  int64_t foreign_keys_created_ = 0;
  StatusRows durability_status_;
};

}  // namespace caracal::planner
