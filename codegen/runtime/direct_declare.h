// DirectDeclare: the point declarations that are exactly one call on the DeclareContext.
//
// Most of an init program's declarations (TPC-C's all but one) name one row and nothing
// else: a prefetch, an insert or update of a table without secondary indexes, a delete.
// For those the compiled init code calls caracal_rt_declare_direct, which goes from the
// key to the engine without the statement hooks and the runner; ProcedureInterpreter::DeclarePoint
// uses the same functions, so both paths declare the same thing.
#pragma once

#include <cstdint>

#include "engine/types/key.h"
#include "engine/procedure/procedure.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::codegen {

enum class DirectDeclare : int32_t {
  kNone = 0,     // more than one call (index entries), or not a point access
  kPrefetch,     // a point read
  kInsertOnce,   // an INSERT (declared once, however often the program reaches it)
  kUpsert,       // INSERT ... ON CONFLICT DO UPDATE / NOTHING
  kUpdate,
  kRowUpdate,    // an UPDATE run as ApplyRowUpdate
  kDelete,
};

// The call that declares body statement `s`'s row (a point access with an AccessInfo),
// leaving aside the secondary-index entries a write may also need; kNone if it is not a
// point access.
DirectDeclare RowDeclarationOf(const planner::Stmt& s);
// RowDeclarationOf(s) when that call is all `s` needs declared; else kNone.
DirectDeclare DirectDeclareOf(const planner::Stmt& s);
// Whether a row declared as `how` in `table` may need index entries declared too: a
// write that creates or changes a row of a table with secondary indexes (a delete leaves
// its entries, which scans skip; a read writes none). Asked of the table as it is now:
// one may have gained an index since the code that asks was compiled.
inline bool DeclaresIndexEntries(DirectDeclare how, const planner::TableInfo& table) {
  return how != DirectDeclare::kPrefetch && how != DirectDeclare::kDelete && how != DirectDeclare::kNone &&
         !table.indexes.empty();
}

// Declares `s`'s row `key` as `how` (not kNone) says. Returns false only for an insert
// declared before (DeclareContext::DeclareInsertOnce).
bool DeclareDirect(engine::DeclareContext& declare, DirectDeclare how, const planner::Stmt& s, const engine::Key& key);

}  // namespace caracal::codegen
