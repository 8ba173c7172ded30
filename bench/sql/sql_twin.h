// The SQL twin of a benchmark workload (caracal-bench --procedures sql): an embedded
// session that has run sql/<workload>/ (schema, sequences, procedures) through the
// compiler, so the native loader fills the same tables and each generated transaction
// runs as a call of the SQL procedure of the same name.
#pragma once

#include <memory>
#include <string>

#include "bench/runner.h"

namespace caracal::bench {

// `sql_dir`: the project's sql/ folder. Throws std::invalid_argument if a script fails.
std::unique_ptr<SqlTwin> MakeSqlTwin(const RunOptions& options, const std::string& sql_dir);

}  // namespace caracal::bench
