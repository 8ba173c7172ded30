#include "codegen/interpreter/sequence_names.h"

#include "planner/types/sql_error.h"

namespace caracal::codegen {

const std::string& SequenceEngineName(const planner::SequenceCall& call, const planner::EvalContext& ctx,
                                      const planner::Catalog& catalog) {
  planner::Datum name = planner::Eval(*call.sequence_name, ctx);
  if (name.is_null()) throw planner::SqlError("22004", "nextval: the sequence name is null");
  const planner::SequenceInfo* seq = catalog.FindSequence(name.s);
  if (seq == nullptr) throw planner::SqlError("42P01", "relation \"" + name.s + "\" does not exist");
  return seq->engine_name;
}

}  // namespace caracal::codegen
