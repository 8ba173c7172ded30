// Golden tests of the PL/pgSQL compiler: every tests/planner/{golden,corpus}/NAME.sql
// runs statement by statement on a fresh embedded database, and what a client sees -
// each statement, then its rows (psql -A style, with header and row count), command
// tag, NOTICEs or error (with DETAIL, HINT, CONTEXT) - must equal NAME.out.
//
// golden/ covers the analysis of the shipped workloads (sql/tpcc, sql/ycsb); corpus/
// is a hand-made set of small procedures, one concern each: every key class, every
// fallback, every error. A line `\i FILE` includes FILE (relative to the repository).
//
// To accept new output on purpose: CARACAL_UPDATE_GOLDEN=1 build/tests/planner/golden_test
// and review the diff of the .out files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/shell/result_printer.h"
#include "planner/parser/statement_splitter.h"
#include "frontend/session/session.h"

namespace caracal::frontend::testing {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The script with `\i FILE` lines replaced by the file's text.
std::string Expand(const std::string& script) {
  std::stringstream in(script);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.rfind("\\i ", 0) == 0) out += ReadFile(fs::path(CARACAL_SOURCE_DIR) / line.substr(3)) + "\n";
    else out += line + "\n";
  }
  return out;
}

std::string Render(const StatementResult& r) {
  std::string out;
  for (const std::string& n : r.notices) out += "NOTICE:  " + n + "\n";
  if (r.error) {
    out += FormatError(*r.error, "");
    return out;
  }
  if (!r.rows) return out + r.tag + "\n";
  for (size_t c = 0; c < r.rows->columns.size(); ++c) out += (c ? "|" : "") + r.rows->columns[c].name;
  out += "\n";
  for (const auto& row : r.rows->rows) {
    for (size_t c = 0; c < row.size(); ++c) out += (c ? "|" : "") + row[c].value_or("");
    out += "\n";
  }
  return out + "(" + std::to_string(r.rows->rows.size()) + (r.rows->rows.size() == 1 ? " row)\n" : " rows)\n");
}

std::string RunScript(const std::string& script) {
  SessionOptions options;
  options.engine.workers = 2;
  options.engine.epoch_interval_ms = 1;
  Session session(options);
  std::string out;
  for (const planner::ScriptStatement& s : planner::SplitScript(Expand(script))) {
    out += s.text + "\n";
    for (const StatementResult& r : session.Execute(s.text)) out += Render(r);
    out += "\n";
  }
  return out;
}

std::vector<fs::path> Cases() {
  std::vector<fs::path> cases;
  for (const char* dir : {"golden", "corpus"})
    for (const auto& e : fs::directory_iterator(fs::path(CARACAL_SOURCE_DIR) / "tests" / "planner" / dir))
      if (e.path().extension() == ".sql") cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  return cases;
}

class Golden : public ::testing::TestWithParam<fs::path> {};

TEST_P(Golden, OutputMatches) {
  const fs::path& sql = GetParam();
  fs::path expected_path = fs::path(sql).replace_extension(".out");
  std::string got = RunScript(ReadFile(sql));
  if (std::getenv("CARACAL_UPDATE_GOLDEN")) {
    std::ofstream(expected_path) << got;
    return;
  }
  ASSERT_TRUE(fs::exists(expected_path)) << expected_path << " is missing; run with CARACAL_UPDATE_GOLDEN=1";
  std::string expected = ReadFile(expected_path);
  EXPECT_EQ(expected, got) << "output of " << sql << " differs from " << expected_path;
}

INSTANTIATE_TEST_SUITE_P(Scripts, Golden, ::testing::ValuesIn(Cases()), [](const auto& info) {
  std::string name = info.param.parent_path().filename().string() + "_" + info.param.stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

}  // namespace
}  // namespace caracal::frontend::testing
