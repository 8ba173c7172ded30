#include "codegen/runtime/direct_declare.h"

#include <algorithm>

namespace caracal::codegen {

using planner::AccessInfo;

DirectDeclare RowDeclarationOf(const planner::Stmt& s) {
  if (s.table == nullptr || !s.access) return DirectDeclare::kNone;
  switch (s.access->access) {
    case AccessInfo::Access::kReadPrefetch: return DirectDeclare::kPrefetch;
    case AccessInfo::Access::kInsert: return DirectDeclare::kInsertOnce;
    case AccessInfo::Access::kUpsert: return DirectDeclare::kUpsert;
    case AccessInfo::Access::kDelete: return DirectDeclare::kDelete;
    case AccessInfo::Access::kUpdate:
      return s.access->apply_row_update ? DirectDeclare::kRowUpdate : DirectDeclare::kUpdate;
    default: return DirectDeclare::kNone;
  }
}

DirectDeclare DirectDeclareOf(const planner::Stmt& s) {
  const DirectDeclare how = RowDeclarationOf(s);
  return DeclaresIndexEntries(how, *s.table) ? DirectDeclare::kNone : how;
}

bool DeclareDirect(engine::DeclareContext& declare, DirectDeclare how, const planner::Stmt& s, const engine::Key& key) {
  const engine::TableId table = s.table->id;
  switch (how) {
    case DirectDeclare::kPrefetch: declare.Prefetch(table, key); return true;
    // A program that may insert a key twice (two branches, a loop over repeated values)
    // declares it once; the second INSERT then fails at execution with the duplicate-key
    // error, as in PostgreSQL.
    case DirectDeclare::kInsertOnce: return declare.DeclareInsertOnce(table, key);
    case DirectDeclare::kUpsert: declare.DeclareWrite(table, key, engine::WriteKind::kUpsert); return true;
    case DirectDeclare::kUpdate: declare.DeclareWrite(table, key, engine::WriteKind::kUpdate); return true;
    case DirectDeclare::kRowUpdate: declare.DeclareRowUpdate(table, key, std::max(s.access->weight, 1)); return true;
    case DirectDeclare::kDelete: declare.DeclareWrite(table, key, engine::WriteKind::kDelete); return true;
    case DirectDeclare::kNone: break;
  }
  return true;
}

}  // namespace caracal::codegen
