#include "bench/sql/sql_twin.h"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "frontend/session/session.h"

namespace caracal::bench {

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// What sql/tpcc/sequences.sh prints for these warehouses (3000 orders and customers per
// district, as the native loader makes).
std::string TpccSequences(int warehouses) {
  std::string sql;
  for (int w = 1; w <= warehouses; ++w)
    for (int d = 1; d <= 10; ++d) sql += fmt::format("CREATE SEQUENCE tpcc_o_id_{}_{} START 3001;\n", w, d);
  sql += fmt::format("CREATE SEQUENCE tpcc_history_id START {};\n", warehouses * 10 * 3000 + 1);
  return sql;
}

frontend::SessionOptions SessionOptionsFor(const RunOptions& options) {
  frontend::SessionOptions o;
  o.engine = options.engine;
  return o;
}

class Twin final : public SqlTwin {
 public:
  Twin(const RunOptions& options, const std::string& sql_dir)
      : session_(SessionOptionsFor(options)) {
    const bool tpcc = options.workload.rfind("tpcc", 0) == 0;
    const std::string dir = sql_dir + (tpcc ? "/tpcc" : "/ycsb");
    Run(ReadFile(dir + "/schema.sql"), dir + "/schema.sql");
    if (tpcc) Run(TpccSequences(options.workload == "tpcc-1wh" ? 1 : options.workload_options.warehouses), "sequences");
    const auto start = std::chrono::steady_clock::now();
    Run(ReadFile(dir + "/procedures.sql"), dir + "/procedures.sql");
    if (options.procedures == "sql-set") {
      if (!tpcc) throw std::invalid_argument("--procedures sql-set: only tpcc has set-based procedures");
      Run(ReadFile(dir + "/procedures_set_based.sql"), dir + "/procedures_set_based.sql");
    }
    compile_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    // What is measured is the steady state: every procedure on its second-tier code.
    session_.procedure_cache().WaitForReoptimization();
  }

  engine::Database& database() override { return session_.database(); }
  engine::Engine& engine() override { return session_.engine(); }
  double compile_ms() const override { return compile_ms_; }

  const engine::Procedure& ProcedureFor(const engine::Procedure& native) override {
    auto it = by_native_.find(&native);
    if (it != by_native_.end()) return *it->second;
    const engine::Procedure* sql = session_.FindProcedure(native.name());
    if (sql == nullptr) throw std::invalid_argument("no SQL procedure named " + native.name());
    by_native_.emplace(&native, sql);
    return *sql;
  }

 private:
  void Run(const std::string& sql, const std::string& what) {
    for (const frontend::StatementResult& r : session_.Execute(sql))
      if (r.error) throw std::invalid_argument(fmt::format("{}: ERROR:  {}", what, r.error->message));
  }

  frontend::Session session_;
  double compile_ms_ = 0;
  std::map<const engine::Procedure*, const engine::Procedure*> by_native_;
};

}  // namespace

std::unique_ptr<SqlTwin> MakeSqlTwin(const RunOptions& options, const std::string& sql_dir) {
  return std::make_unique<Twin>(options, sql_dir);
}

}  // namespace caracal::bench
