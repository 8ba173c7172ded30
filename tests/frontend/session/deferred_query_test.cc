// Queries started with defer_queries (what the wire server does, so that its shared
// session's lock is not held while a query runs): the query is planned when it starts
// and runs when its result is asked for, on the committed state then - which holds every
// call submitted before it started; a table dropped in between is an error, never a read
// of a table that is gone.
#include <gtest/gtest.h>

#include "tests/frontend/session/session_fixture.h"

namespace caracal::frontend::testing {
namespace {

class DeferredQueryTest : public SessionTest {
 protected:
  PendingResult Start(const std::string& sql) {
    parsed_.push_back(std::make_unique<Session::ParsedText>(Session::ParseText(sql)));
    const Session::ParsedText& p = *parsed_.back();
    return session_.StartStatement(p.tree->statements()[0], p.text, true);
  }
  std::vector<std::unique_ptr<Session::ParsedText>> parsed_;
};

std::string Rows(const StatementResult& r) {
  if (r.error) return "ERROR " + r.error->sqlstate + ": " + r.error->message;
  std::string out;
  for (const auto& row : r.rows->rows) {
    for (size_t c = 0; c < row.size(); ++c) out += (c ? "|" : "") + row[c].value_or("NULL");
    out += ";";
  }
  return out;
}

TEST_F(DeferredQueryTest, SeesTheCallsSubmittedBeforeIt) {
  Q("CREATE TABLE t (id integer PRIMARY KEY, v integer)");
  Q("CREATE TABLE u (id integer PRIMARY KEY, t_id integer)");
  Q("INSERT INTO t VALUES (1, 10), (2, 20)");
  Q("INSERT INTO u VALUES (1, 1), (2, 1), (3, 2)");
  // Submitted, not waited for: the queries started after them must still see them.
  std::vector<PendingResult> calls = session_.Submit("INSERT INTO u VALUES (4, 2); UPDATE t SET v = 21 WHERE id = 2");
  PendingResult joined = Start("SELECT t.id, count(*) FROM t JOIN u ON u.t_id = t.id GROUP BY t.id ORDER BY 1");
  PendingResult single = Start("SELECT v FROM t WHERE id = 2");
  EXPECT_EQ(Rows(joined.Get()), "1|2;2|2;");
  EXPECT_EQ(Rows(single.Get()), "21;");
  for (PendingResult& c : calls) EXPECT_FALSE(c.Get().error);
}

TEST_F(DeferredQueryTest, ErrorsArriveWithTheResult) {
  Q("CREATE TABLE t (id integer PRIMARY KEY, v integer)");
  Q("INSERT INTO t VALUES (1, 0)");
  EXPECT_EQ(Rows(Start("SELECT 1 / v FROM t").Get()), "ERROR 22012: division by zero");
  EXPECT_EQ(Rows(Start("SELECT nosuch FROM t").Get()), "ERROR 42703: column \"nosuch\" does not exist");
}

TEST_F(DeferredQueryTest, ATableDroppedBeforeTheQueryRunsIsAnError) {
  Q("CREATE TABLE t (id integer PRIMARY KEY, v integer)");
  Q("CREATE TABLE u (id integer PRIMARY KEY)");
  Q("INSERT INTO t VALUES (1, 10)");
  PendingResult q = Start("SELECT * FROM t JOIN u ON u.id = t.id");
  Q("DROP TABLE u");
  EXPECT_EQ(Rows(q.Get()), "ERROR 40001: could not run the query: the catalog changed after it was planned");
}

}  // namespace
}  // namespace caracal::frontend::testing
