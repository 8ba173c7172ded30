// Shared helpers for the front-end tests: a small in-memory Session and ways to read its
// answers as psql -A -t would print them.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <string>
#include <vector>

#include "frontend/session/session.h"

namespace caracal::frontend::testing {

// A file name unique to this test and process (ctest runs tests in parallel).
inline std::string TempPath(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "/caracal_" + info->test_suite_name() + "_" + info->name() + "_" +
         std::to_string(getpid()) + "_" + name;
}

inline SessionOptions SmallOptions() {
  SessionOptions o;
  o.engine.workers = 1;
  o.engine.epoch_interval_ms = 1;
  return o;
}

class SessionTest : public ::testing::Test {
 protected:
  SessionTest() : session_(SmallOptions()) {}

  // Runs `sql`; expects success; returns the last result's rows as "a|b" lines joined
  // by '\n' (NULL prints empty, as psql -A), or its command tag if it has no rows.
  std::string Q(const std::string& sql) {
    std::vector<StatementResult> results = session_.Execute(sql);
    EXPECT_FALSE(results.empty()) << sql;
    if (results.empty()) return "";
    for (const auto& r : results)
      if (r.error) {
        ADD_FAILURE() << sql << "\n -> ERROR: " << r.error->message << " (" << r.error->sqlstate << ")";
        return "<error>";
      }
    const StatementResult& last = results.back();
    if (!last.rows) return last.tag;
    std::string out;
    for (size_t i = 0; i < last.rows->rows.size(); ++i) {
      if (i) out += "\n";
      const auto& row = last.rows->rows[i];
      for (size_t c = 0; c < row.size(); ++c) out += (c ? "|" : "") + row[c].value_or("");
    }
    return out;
  }

  // The header of the last result, "a|b".
  std::string Header(const std::string& sql) {
    std::vector<StatementResult> results = session_.Execute(sql);
    if (results.empty() || !results.back().rows) return "<no rows>";
    std::string out;
    for (const auto& c : results.back().rows->columns) out += (out.empty() ? "" : "|") + c.name;
    return out;
  }

  // Runs `sql`; expects it to fail; returns the error.
  ErrorReport E(const std::string& sql) {
    std::vector<StatementResult> results = session_.Execute(sql);
    if (results.empty() || !results.back().error) {
      ADD_FAILURE() << sql << " did not fail";
      return ErrorReport{};
    }
    return *results.back().error;
  }

  // "SQLSTATE: message" of a failing statement.
  std::string Err(const std::string& sql) {
    ErrorReport e = E(sql);
    return e.sqlstate + ": " + e.message;
  }

  Session session_;
};

}  // namespace caracal::frontend::testing
