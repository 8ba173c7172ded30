// SELECT currval('s') and SELECT lastval(): the value this session drew last from a
// sequence (from any, for lastval), as drivers ask for it after an INSERT (PHP's PDO
// lastInsertId, psycopg-era code). The front end keeps what each client's transactions
// drew (engine TxnResult::drawn) and answers from it, after that client's transactions
// in flight have completed. Served as a statement of its own - one call, constant
// arguments, no other clause; inside other queries and procedure bodies these
// functions are not supported yet.
#pragma once

#include <pg_query/pg_query.pb-c.h>

#include <optional>
#include <string>
#include <vector>

#include "planner/catalog/catalog.h"
#include "planner/types/result_set.h"

namespace caracal::planner {

struct SequenceValueCall {
  bool last = false;     // lastval(); else currval(sequence)
  std::string sequence;  // currval's argument, as given
  int location = -1;     // of that argument
  // currval(pg_get_serial_sequence('t', 'c')): the sequence column c of t owns.
  std::optional<std::pair<std::string, std::string>> serial_of;
  std::string column;    // the output column: the alias, or the function's name
};

// The calls `stmt` is a SELECT of (each output one of them), or nullopt when it is not
// that. Throws SqlError (0A000) for an argument that is not a constant.
std::optional<std::vector<SequenceValueCall>> AsSequenceValueCalls(const PgQuery__Node* stmt);

// currval's sequence: its catalog entry (42P01 at the argument when there is none, 42602
// for a name that is not one); null when pg_get_serial_sequence names none (currval of
// NULL is NULL).
const SequenceInfo* SequenceOfCall(const SequenceValueCall& call, const Catalog& catalog);

// The one-row result, a bigint column per call.
ResultSet SequenceValueResult(const std::vector<SequenceValueCall>& calls, const std::vector<std::optional<int64_t>>& values);

}  // namespace caracal::planner
