// InitParameters: which parameters a procedure's init program can read.
//
// Declare builds a frame for the init program alone. A parameter the init program never
// reads (TPC-C NewOrder's quantities: they change no key) need not be converted from the
// transaction's arguments there: MakeFrame leaves it NULL, and Execute converts it.
#pragma once

#include <vector>

#include "planner/plan/procedure_ir.h"

namespace caracal::codegen {

struct InitParameters {
  // One flag per parameter: whether the init program may read it. Over-approximated:
  // every DECLARE default, every expression of the init program's own statements and of
  // the reads it runs (kReconRead) counts; of a statement it declares (kDeclare), the key
  // expressions,
  // and the values of the written row when its table has secondary indexes.
  std::vector<bool> read;
  // The tables whose written values were left out because they had no secondary index.
  // A table can gain one before the procedure is analysed again (its calls already
  // queued); then the declarations need those values, and `read` no longer holds.
  std::vector<const planner::TableInfo*> unindexed_writes;

  // Whether `read` still holds (no table of unindexed_writes has gained an index).
  bool Holds() const {
    for (const planner::TableInfo* t : unindexed_writes)
      if (!t->indexes.empty()) return false;
    return true;
  }
};

InitParameters ParametersReadByInit(const planner::ProcedureIr& ir);

}  // namespace caracal::codegen
