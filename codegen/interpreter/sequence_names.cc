#include "codegen/interpreter/sequence_names.h"

#include "planner/parser/qualified_name.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

const std::string& SequenceEngineName(const planner::SequenceCall& call, const planner::EvalContext& ctx,
                                      const planner::Catalog& catalog) {
  planner::Datum name = planner::Eval(*call.sequence_name, ctx);
  if (name.is_null()) throw planner::SqlError("22004", "nextval: the sequence name is null");
  const planner::RelationText relation = planner::RelationNameFromText(name.s);
  const planner::SequenceInfo* seq = relation.in_pg_catalog ? nullptr : catalog.FindSequence(relation.name);
  if (seq == nullptr) throw planner::SqlError("42P01", "relation \"" + relation.display + "\" does not exist");
  return seq->engine_name;
}

}  // namespace caracal::codegen
