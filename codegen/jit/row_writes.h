// Compiled row writes: an UPDATE's or INSERT's new values evaluated by generated code and
// stored straight into the row blob's slots, with no Datum in between (the runner's
// general path evaluates them into Datums, then encodes those).
//
// UPDATE patch. The runner copies the old row's blob (RowPatch) and calls the patch with
// EvalState::row = the old row and a PatchTarget (eval_state.h) over the copy as output:
// the WHERE residual, then every SET value (all computed before any slot changes),
// stored into the copy's slots, null bits and same-size string bytes. When a string
// value changes size or nullness, caracal_rt_rebuild_row then encodes the whole row
// (the copy's columns, with the string values) into PatchTarget::rebuilt.
//
// INSERT row. The generated code evaluates the VALUES row in column order, fills one
// BuildCell per column (eval_state.h) and calls caracal_rt_build_row, which encodes the
// row as RowBuilder would (engine EncodeRow) and hands it to the caller.
//
// Both return a RowWrite (runtime/eval_state.h):
//   kRowWritten   the row is written (a patched copy or a rebuilt row, or a built row);
//   kRowRejected  the UPDATE's WHERE residual rejected the row (nothing written);
//   kRowFallback  a value needs the general path: a NULL for a NOT NULL or key column,
//                 a numeric at another scale or beyond int64, a string the layout cannot
//                 take as it is. The runner drops what was written and runs the
//                 statement's general path, which evaluates the same pure expressions
//                 again and so reaches the same values, or raises the same error;
//   0             an error (in EvalState::error), as any compiled expression.
// What is written is byte for byte what the general path writes (UpdatedRow, BuildRow in
// codegen/): the state hash cannot tell them apart.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include "codegen/jit/expr_codegen.h"
#include "engine/types/types.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::codegen {

// Whether every SET column of UPDATE `s` has a representation the patch writes directly:
// integers, booleans, timestamps, floats, numeric(p, s) with 0 <= s <= 18, strings.
bool UpdatePatchable(const planner::Stmt& s, const engine::Schema& schema);
// Emits the patch of UPDATE `s` (UpdatePatchable) at the emitter's insert point, writing
// into the PatchTarget at `target`, and returns from the function with a RowWrite.
void EmitUpdatePatch(ExprEmitter& emitter, const planner::Stmt& s, const engine::Schema& schema, llvm::Value* target);

// Whether INSERT ... VALUES `s` can build its row in compiled code: every column as
// UpdatePatchable allows or any string type, an integer primary key (the runner reads
// the key back from the row), and no ON CONFLICT DO UPDATE (which needs the values as
// EXCLUDED).
bool InsertBuildable(const planner::Stmt& s, const engine::Schema& schema);
// Emits the row build of INSERT `s` (InsertBuildable): the row goes to *`out`
// (RowValue**), owned by the caller; returns from the function with a RowWrite.
void EmitInsertRow(ExprEmitter& emitter, const planner::Stmt& s, const engine::Schema& schema, llvm::Value* out);

}  // namespace caracal::codegen
