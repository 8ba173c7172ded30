// COPY ... FROM 'file' / STDIN (text and CSV) and COPY ... TO: good files load, bad ones load nothing and name the
// line. Messages and CONTEXT lines were verified on PostgreSQL 15.
#include <cstdio>

#include "tests/frontend/session/session_fixture.h"

namespace caracal::frontend::testing {
namespace {

class CopyTest : public SessionTest {
 protected:
  void SetUp() override { Q("create table c (a int primary key, b varchar(10) not null, n numeric(6,2) default 9.5)"); }

  std::string File(const std::string& content) {
    std::string path = TempPath(std::to_string(counter_++) + ".csv");
    FILE* f = std::fopen(path.c_str(), "w");
    std::fputs(content.c_str(), f);
    std::fclose(f);
    return path;
  }
  std::string Copy(const std::string& content, const std::string& options = "(format csv)",
                   const std::string& columns = "") {
    return "copy c " + columns + " from '" + File(content) + "' " + options;
  }

  int counter_ = 0;
};

TEST_F(CopyTest, LoadsGoodFiles) {
  EXPECT_EQ(Q(Copy("a,b,n\n1,x,1.5\n2,\"y, z\",\n3,\"\"\"q\"\"\",2.555\n", "(format csv, header)")), "COPY 3");
  EXPECT_EQ(Q("select a, b, n from c order by a"), "1|x|1.50\n2|y, z|\n3|\"q\"|2.56");
  // A column list: the others take their DEFAULT.
  EXPECT_EQ(Q(Copy("x4,4\n", "(format csv)", "(b, a)")), "COPY 1");
  EXPECT_EQ(Q("select * from c where a = 4"), "4|x4|9.50");
  EXPECT_EQ(Q(Copy("5;semi;1\n", "(format csv, delimiter ';')")), "COPY 1");
  EXPECT_EQ(Q(Copy("", "(format csv)")), "COPY 0");
  EXPECT_EQ(Q("select count(*) from c"), "5");
}

TEST_F(CopyTest, BadFilesLoadNothing) {
  ErrorReport e = E(Copy("1,x,1\n2,y,2\nz,w,3\n"));
  EXPECT_EQ(e.sqlstate, "22P02");
  EXPECT_EQ(e.message, "invalid input syntax for type integer: \"z\"");
  EXPECT_EQ(e.context, "COPY c, line 3, column a: \"z\"");

  e = E(Copy("1,x,1\n2\n"));
  EXPECT_EQ(e.sqlstate, "22P04");
  EXPECT_EQ(e.message, "missing data for column \"b\"");
  EXPECT_EQ(e.context, "COPY c, line 2: \"2\"");

  e = E(Copy("1,x,3,4\n"));
  EXPECT_EQ(e.message, "extra data after last expected column");
  EXPECT_EQ(e.context, "COPY c, line 1: \"1,x,3,4\"");

  e = E(Copy("1,x,1\n1,y,2\n"));
  EXPECT_EQ(e.sqlstate, "23505");
  EXPECT_EQ(e.message, "duplicate key value violates unique constraint \"c_pkey\"");
  EXPECT_EQ(e.detail, "Key (a)=(1) already exists.");
  EXPECT_EQ(e.context, "COPY c, line 2");

  e = E(Copy("1,\"x\n"));
  EXPECT_EQ(e.message, "unterminated CSV quoted field");

  e = E(Copy("1,,1\n"));
  EXPECT_EQ(e.sqlstate, "23502");
  EXPECT_EQ(e.message, "null value in column \"b\" of relation \"c\" violates not-null constraint");
  EXPECT_EQ(e.detail, "Failing row contains (1, null, 1.00).");

  e = E(Copy("1,abcdefghijk,1\n"));
  EXPECT_EQ(e.sqlstate, "22001");
  EXPECT_EQ(e.message, "value too long for type character varying(10)");
  EXPECT_EQ(e.context, "COPY c, line 1, column b: \"abcdefghijk\"");

  e = E(Copy("1,x,12345.6\n"));
  EXPECT_EQ(e.message, "numeric field overflow");

  EXPECT_EQ(Q("select count(*) from c"), "0");
}

TEST_F(CopyTest, DuplicatesAgainstTheTable) {
  EXPECT_EQ(Q(Copy("5,p,1\n")), "COPY 1");
  ErrorReport e = E(Copy("6,q,1\n5,p,1\n"));
  EXPECT_EQ(e.sqlstate, "23505");
  EXPECT_EQ(e.detail, "Key (a)=(5) already exists.");
  EXPECT_EQ(e.context, "COPY c, line 2");
  EXPECT_EQ(Q("select a from c"), "5");
}

TEST_F(CopyTest, StatementErrors) {
  EXPECT_EQ(E("copy c from '/nonexistent/x.csv' (format csv)").sqlstate, "58P01");
  EXPECT_EQ(Err("copy nosuch from '/tmp/x' (format csv)"), "42P01: relation \"nosuch\" does not exist");
  EXPECT_EQ(Err(Copy("1\n", "(format csv)", "(a, nosuch)")), "42703: column \"nosuch\" of relation \"c\" does not exist");
  EXPECT_EQ(E("copy c from stdin").sqlstate, "0A000");  // a session with no client to read it from
  EXPECT_EQ(E("copy (insert into c values (1, 'x')) to stdout").sqlstate, "0A000");
  EXPECT_EQ(Err(Copy("1\tx\n", "(quote '\"')")), "0A000: COPY quote available only in CSV mode");
  EXPECT_EQ(E(Copy("1\n", "(format binary)")).sqlstate, "0A000");
}

// COPY TO a file writes what COPY FROM reads back.
TEST_F(CopyTest, ToAFileAndBack) {
  ASSERT_EQ(Q("insert into c values (1, 'a\tb', null), (2, 'q\"', 2.5)"), "INSERT 0 2");
  const std::string text = TempPath("out.txt"), csv = TempPath("out.csv");
  EXPECT_EQ(Q("copy c to '" + text + "'"), "COPY 2");
  EXPECT_EQ(Q("copy (select * from c order by a desc) to '" + csv + "' (format csv, header)"), "COPY 2");
  EXPECT_EQ(Q("delete from c"), "DELETE 2");
  EXPECT_EQ(Q("copy c from '" + text + "'"), "COPY 2");
  EXPECT_EQ(Q("select a, b, n is null from c order by a"), "1|a\tb|t\n2|q\"|f");
  EXPECT_EQ(Q("delete from c"), "DELETE 2");
  EXPECT_EQ(Q("copy c from '" + csv + "' (format csv, header)"), "COPY 2");
  EXPECT_EQ(Q("select a, b, n from c order by a"), "1|a\tb|\n2|q\"|2.50");
}

// The text format, PostgreSQL's default: tabs, \N for NULL, backslash escapes, and a
// line \. that ends the data.
TEST_F(CopyTest, TextFormat) {
  EXPECT_EQ(Q(Copy("1\tplain\t1.5\n2\ttab\\there\\\\x\t\\N\n3\t\\101\\x42\\n\t2\n\\.\n9\tafter\t1\n", "")), "COPY 3");
  EXPECT_EQ(Q("select a, b, n is null, length(b) from c order by a"), "1|plain|f|5\n2|tab\there\\x|t|10\n3|AB\n|f|3");
  EXPECT_EQ(Q(Copy("4|p|NULL\n", "(delimiter '|', null 'NULL')")), "COPY 1");
  EXPECT_EQ(Q("select a, n from c where a = 4"), "4|");
  EXPECT_EQ(Q(Copy("a\tb\n5\tq\t1\n", "(format text, header)")), "COPY 1");
  ErrorReport e = E(Copy("6\tx\t1\textra\n", ""));
  EXPECT_EQ(e.message, "extra data after last expected column");
  EXPECT_EQ(e.context, "COPY c, line 1: \"6\tx\t1\textra\"");
  // COPY FROM STDIN reads what the client hands over.
  session_.set_copy_input([] { return std::string("7\tin\t\\N\n\\.\n"); });
  EXPECT_EQ(Q("copy c from stdin"), "COPY 1");
  session_.set_copy_input([] { return std::string("8,csv,2\n\\.\n"); });
  EXPECT_EQ(Q("copy c from stdin with csv"), "COPY 1");
  session_.set_copy_input({});
  EXPECT_EQ(Q("select a, b from c where a >= 7 order by a"), "7|in\n8|csv");
}

}  // namespace
}  // namespace caracal::frontend::testing
