// End-to-end runs of the `caracal` binary: stdout, stderr and exit status compared with
// what `psql -X` prints for the same script on PostgreSQL 15 (verified there, with
// "psql:" replaced by "caracal:" in file-located messages).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

struct CliRun {
  std::string out, err;
  int status = -1;
};

// A file name unique to this test and process (ctest runs tests in parallel).
std::string TempPath(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "/caracal_cli_" + info->name() + "_" + std::to_string(getpid()) + "_" + name;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs caracal with `args` (already shell-quoted) and optional stdin text.
CliRun Caracal(const std::string& args, const std::string& stdin_text = "") {
  std::string in = TempPath("in.sql"), out = TempPath("out.txt"), err = TempPath("err.txt");
  std::ofstream(in) << stdin_text;
  std::string cmd = std::string(CARACAL_BINARY) + " --workers 1 " + args + " < " + in + " > " + out + " 2> " + err;
  int raw = std::system(cmd.c_str());
  return CliRun{Slurp(out), Slurp(err), WIFEXITED(raw) ? WEXITSTATUS(raw) : -1};
}

std::string WriteScript(const std::string& name, const std::string& text) {
  std::string path = TempPath(name);
  std::ofstream(path) << text;
  return path;
}

TEST(CliTest, CommandsPrintLikePsqlUnaligned) {
  CliRun r = Caracal("-X -A -c " + Quote("select 1 as a, 'x' as b, null::int as c") + " -c " +
                  Quote("create table t (k int primary key); select count(*) from t"));
  EXPECT_EQ(r.out, "a|b|c\n1|x|\n(1 row)\nCREATE TABLE\ncount\n0\n(1 row)\n");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.status, 0);
}

TEST(CliTest, TuplesOnlyQuietAndSeparator) {
  CliRun r = Caracal("-X -A -t -q -F , -c " + Quote("create table t (k int primary key, v text)") + " -c " +
                  Quote("select 1 / 0") + " -c " + Quote("select 1, 'two'"));
  EXPECT_EQ(r.out, "1,two\n");
  EXPECT_EQ(r.err, "ERROR:  division by zero\n");
  EXPECT_EQ(r.status, 0);  // the last -c succeeded
}

TEST(CliTest, AlignedOutput) {
  CliRun r = Caracal("-X -c " + Quote("select 1 as a, 'xyz' as bb, null::int as c, 1.5 as ddddd"));
  EXPECT_EQ(r.out,
            " a | bb  | c | ddddd \n"
            "---+-----+---+-------\n"
            " 1 | xyz |   |   1.5\n"
            "(1 row)\n\n");
}

TEST(CliTest, ErrorsWithPositionHintAndFileLine) {
  std::string script = WriteScript("cli_errors.sql",
                                   "-- comment\n"
                                   "create table t (a int primary key, b text);\n"
                                   "select 1 as x,\n"
                                   "   y from t;\n"
                                   "create table if not exists t (a int);\n"
                                   "select 'a' + 'b';\n"
                                   "\n"
                                   "  select * from t; select 1/0;\n"
                                   "select 1 +\n"
                                   " 'x';\n");
  CliRun r = Caracal("-X -A -f " + script);
  EXPECT_EQ(r.out, "CREATE TABLE\nCREATE TABLE\na|b\n(0 rows)\n");
  std::string p = "caracal:" + script + ":";
  EXPECT_EQ(r.err, p + "4: ERROR:  column \"y\" does not exist\n"
                       "LINE 2:    y from t;\n"
                       "           ^\n" +
                       p + "5: NOTICE:  relation \"t\" already exists, skipping\n" + p +
                       "6: ERROR:  operator is not unique: unknown + unknown\n"
                       "LINE 1: select 'a' + 'b';\n"
                       "                   ^\n"
                       "HINT:  Could not choose a best candidate operator. You might need to add explicit type casts.\n" +
                       p + "8: ERROR:  division by zero\n" + p +
                       "10: ERROR:  invalid input syntax for type integer: \"x\"\n"
                       "LINE 2:  'x';\n"
                       "         ^\n");
  EXPECT_EQ(r.status, 0);
}

TEST(CliTest, OnErrorStopExitsThree) {
  std::string script = WriteScript("cli_stop.sql", "select 1;\nselect nosuch;\nselect 2;\n");
  CliRun r = Caracal("-X -A -t -v ON_ERROR_STOP=1 -f " + script);
  EXPECT_EQ(r.out, "1\n");
  EXPECT_EQ(r.err, "caracal:" + script + ":2: ERROR:  column \"nosuch\" does not exist\n"
                   "LINE 1: select nosuch;\n"
                   "               ^\n");
  EXPECT_EQ(r.status, 3);
  // Without it, the script goes on and the exit status is 0.
  r = Caracal("-X -A -t -f " + script);
  EXPECT_EQ(r.out, "1\n2\n");
  EXPECT_EQ(r.status, 0);
}

TEST(CliTest, CommandErrorsStopTheirStringAndSetStatus) {
  CliRun r = Caracal("-X -A -t -c " + Quote("select 1; select x; select 2"));
  EXPECT_EQ(r.out, "1\n");
  EXPECT_EQ(r.err, "ERROR:  column \"x\" does not exist\nLINE 1: select 1; select x; select 2\n                         ^\n");
  EXPECT_EQ(r.status, 1);
  r = Caracal("-X -A -t -c " + Quote("select x") + " -c " + Quote("select 2"));
  EXPECT_EQ(r.out, "2\n");
  EXPECT_EQ(r.status, 0);
  r = Caracal("-X -A -t -v ON_ERROR_STOP=1 -c " + Quote("select x") + " -c " + Quote("select 2"));
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.status, 1);
}

TEST(CliTest, StdinAndMissingFile) {
  CliRun r = Caracal("-X -A -t", "select 40 + 2;\nselect x;\n");
  EXPECT_EQ(r.out, "42\n");
  EXPECT_EQ(r.err, "ERROR:  column \"x\" does not exist\nLINE 1: select x;\n               ^\n");
  EXPECT_EQ(r.status, 0);
  r = Caracal("-X -f /nonexistent/script.sql");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("/nonexistent/script.sql"), std::string::npos);
}

TEST(CliTest, CopyAndQueryFromAFile) {
  std::string csv = WriteScript("cli_data.csv", "id,name,price\n1,apple,1.50\n2,banana,0.25\n3,cherry,10.00\n");
  std::string script = WriteScript("cli_copy.sql",
                                   "create table fruit (id int primary key, name text, price numeric(8,2));\n"
                                   "copy fruit from '" + csv + "' with (format csv, header);\n"
                                   "select name, price from fruit where id >= 2 order by price desc;\n"
                                   "select count(*), sum(price), avg(price) from fruit;\n");
  CliRun r = Caracal("-X -A -f " + script);
  EXPECT_EQ(r.out,
            "CREATE TABLE\nCOPY 3\nname|price\ncherry|10.00\nbanana|0.25\n(2 rows)\n"
            "count|sum|avg\n3|11.75|3.9166666666666667\n(1 row)\n");
  EXPECT_EQ(r.err, "");
}

}  // namespace

namespace {

// A data directory across three runs of the binary: what one run commits the next
// finds; CHECKPOINT, the durability settings and caracal_stat_durability work.
TEST(CliTest, DataDirectorySurvivesRuns) {
  const std::string dir = TempPath("data");
  CliRun first = Caracal("-X -A -t " + Quote(dir) + " -c " +
                         Quote("create table t (k int primary key, v text); create sequence s") + " -c " +
                         Quote("insert into t values (nextval('s'), 'a'), (nextval('s'), 'b')") + " -c checkpoint -c " +
                         Quote("insert into t values (nextval('s'), 'c')"));
  EXPECT_EQ(first.err, "");
  EXPECT_EQ(first.status, 0);
  CliRun second = Caracal("-X -A -t " + Quote(dir) + " -c " + Quote("select * from t order by k") + " -c " +
                          Quote("show caracal.data_directory") + " -c " +
                          Quote("select value from caracal_stat_durability where name = 'checkpoints'") + " -c " +
                          Quote("set caracal.synchronous_commit = off") + " -c " +
                          Quote("insert into t values (nextval('s'), 'd')"));
  EXPECT_EQ(second.out, "1|a\n2|b\n3|c\n" + dir + "\n0\nSET\nINSERT 0 1\n");
  EXPECT_EQ(second.err, "");
  CliRun third = Caracal("-X -A -t " + Quote(dir) + " -c " + Quote("select count(*), max(k) from t"));
  EXPECT_EQ(third.out, "4|4\n");
  std::system(("rm -rf " + Quote(dir)).c_str());
}

TEST(CliTest, ADirectoryThatIsNotCaracalsIsLeftAlone) {
  const std::string dir = TempPath("notours");
  std::system(("mkdir -p " + Quote(dir) + " && echo keep > " + Quote(dir + "/file")).c_str());
  CliRun r = Caracal("-X " + Quote(dir) + " -c " + Quote("select 1"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("is not a caracal data directory"), std::string::npos) << r.err;
  EXPECT_EQ(Slurp(dir + "/file"), "keep\n");
  std::ifstream lock(dir + "/LOCK");
  EXPECT_FALSE(lock.good()) << "nothing may be created in it";
  std::system(("rm -rf " + Quote(dir)).c_str());
}

}  // namespace
