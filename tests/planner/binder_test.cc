// The binder's and the analysis' output as IR (the shape codegen/ relies on), beyond
// what EXPLAIN prints: frame layout, statement numbering, nextval hoisting, the init
// program, the publish point.
#include <gtest/gtest.h>

#include "planner/plan/ir_visit.h"
#include "tests/frontend/session/session_fixture.h"

namespace caracal::frontend::testing {
namespace {

using planner::ProcedureIr;
using planner::StmtKind;
using planner::VariableKind;

class BinderTest : public SessionTest {
 protected:
  void SetUp() override {
    Q("CREATE TABLE kv (k integer PRIMARY KEY, v bigint NOT NULL, note text)");
    Q("CREATE TABLE ev (g integer, t integer, x integer, PRIMARY KEY (g, t))");
    Q("CREATE SEQUENCE s");
  }
  const ProcedureIr& Ir(const std::string& name) {
    auto found = session_.catalog().FindProcedures(name);
    EXPECT_EQ(found.size(), 1u);
    return *found.at(0);
  }
  // The kinds of a block's statements, e.g. "declare,assign,if".
  static std::string Kinds(const planner::Block& block) {
    static const char* kNames[] = {"assign", "if",     "for",     "foreach", "while",  "exit",    "continue",
                                   "select", "insert", "update",  "delete",  "raise",  "return",  "return_next",
                                   "return_query", "publish", "declare", "recon", "null"};
    std::string out;
    for (const auto& s : block) out += (out.empty() ? "" : ",") + std::string(kNames[static_cast<int>(s->kind)]);
    return out;
  }
};

TEST_F(BinderTest, FrameLayoutParametersFirst) {
  Q(R"(CREATE FUNCTION f(a integer, OUT o text, INOUT b bigint) LANGUAGE plpgsql AS $$
       DECLARE x numeric(5,2) := a; BEGIN o := x::text; b := b + 1; END $$)");
  const ProcedureIr& ir = Ir("f");
  ASSERT_EQ(ir.parameter_count, 2);
  EXPECT_EQ(ir.variables[0].name, "a");
  EXPECT_EQ(ir.variables[1].name, "b");  // INOUT is an input: slot 1
  EXPECT_EQ(ir.variables[2].kind, VariableKind::kOutParameter);
  EXPECT_EQ(ir.out_variables, (std::vector<int>{2, 1}));  // declaration order of the outputs
  EXPECT_EQ(ir.variables[ir.found_variable].name, "found");
  EXPECT_EQ(ir.result_columns.size(), 2u);
  EXPECT_EQ(ir.returns, ProcedureIr::Returns::kScalar);
  EXPECT_EQ(Q("SELECT * FROM f(3, 4)"), "3.00|5");
}

TEST_F(BinderTest, NextvalIsHoistedToSequencing) {
  Q(R"(CREATE FUNCTION f(p integer) RETURNS bigint LANGUAGE plpgsql AS $$
       DECLARE id bigint := nextval('s');
       BEGIN INSERT INTO kv VALUES (p, id, 'x'); RETURN id; END $$)");
  const ProcedureIr& ir = Ir("f");
  ASSERT_EQ(ir.sequence_calls.size(), 1u);
  EXPECT_EQ(ir.variables[ir.sequence_calls[0].variable].kind, VariableKind::kSequence);
  bool left = false;
  for (const auto& v : ir.variables)
    if (v.default_value && v.default_value->kind == planner::ExprKind::kNextval) left = true;
  EXPECT_FALSE(left) << "no nextval() is evaluated in place";
  EXPECT_EQ(Q("SELECT f(1)"), "1");
  EXPECT_EQ(Q("SELECT f(2)"), "2");
}

TEST_F(BinderTest, InitProgramDeclaresEveryWriteAndDecidesInputConditions) {
  Q(R"(CREATE PROCEDURE p(n integer, flag boolean) LANGUAGE plpgsql AS $$
       DECLARE total bigint := 0;
       BEGIN
         SELECT count(*) INTO total FROM kv;
         IF flag THEN INSERT INTO kv VALUES (n, 1, 'a'); END IF;
         IF total > 3 THEN UPDATE kv SET v = v + 1 WHERE k = n; ELSE DELETE FROM kv WHERE k = n; END IF;
         FOR i IN 1..n LOOP UPDATE ev SET x = i WHERE g = i AND t > 0; END LOOP;
       END $$)");
  const ProcedureIr& ir = Ir("p");
  // The input-decided IF stays; the read-decided one is flattened into both declarations.
  EXPECT_EQ(Kinds(ir.init), "if,declare,declare,for");
  EXPECT_EQ(Kinds(ir.init[0]->blocks[0]), "declare");
  EXPECT_EQ(Kinds(ir.init[3]->body), "declare");
  EXPECT_EQ(ir.table_statements.size(), 5u);
  for (size_t i = 0; i < ir.table_statements.size(); ++i) EXPECT_EQ(ir.table_statements[i]->id, static_cast<int>(i) + 1);
}

TEST_F(BinderTest, DependentKeyRunsAReconnaissanceRead) {
  Q(R"(CREATE FUNCTION f(p text) RETURNS void LANGUAGE plpgsql AS $$
       DECLARE target integer;
       BEGIN
         SELECT k INTO target FROM kv WHERE note = p ORDER BY k LIMIT 1;
         DELETE FROM kv WHERE k = target;
       END $$)");
  const ProcedureIr& ir = Ir("f");
  EXPECT_EQ(Kinds(ir.init), "recon,declare");
  EXPECT_EQ(ir.table_statements[1]->access->key_class, planner::AccessInfo::KeyClass::kDependent);
  EXPECT_EQ(ir.table_statements[1]->access->depends_on, 1);
  Q("INSERT INTO kv VALUES (5, 1, 'x'), (6, 1, 'x'), (7, 1, 'y')");
  Q("SELECT f('x')");
  EXPECT_EQ(Q("SELECT k FROM kv ORDER BY k"), "6\n7");
}

TEST_F(BinderTest, PublishPointFollowsTheLastCheck) {
  Q(R"(CREATE PROCEDURE p(a integer, b integer) LANGUAGE plpgsql AS $$
       BEGIN
         IF a = b THEN RAISE EXCEPTION 'same'; END IF;
         UPDATE kv SET note = 'a' WHERE k = a;
         UPDATE ev SET x = NULL WHERE g = b AND t = 1;
       END $$)");
  EXPECT_EQ(Kinds(Ir("p").body), "if,publish,update,update");
  Q(R"(CREATE PROCEDURE q(a integer) LANGUAGE plpgsql AS $$
       BEGIN
         UPDATE kv SET note = 'a' WHERE k = a;
         UPDATE kv SET note = 'b' WHERE k = a + 1;
       END $$)");
  // Both write kv: a published row could be written again, so nothing is published early.
  EXPECT_EQ(Kinds(Ir("q").body), "update,update");
}

TEST_F(BinderTest, ARangeQueryKeepsItsRowsForTheRangeWriteAfterIt) {
  Q(R"(CREATE FUNCTION f(p integer) RETURNS text LANGUAGE plpgsql AS $$
       DECLARE before bigint; after bigint; one bigint;
       BEGIN
         SELECT sum(x) INTO before FROM ev WHERE g = p;
         UPDATE ev SET x = x + 1 WHERE g = p;
         SELECT sum(x) INTO after FROM ev WHERE g = p;
         UPDATE kv SET v = after WHERE k = p;
         SELECT sum(x) INTO one FROM ev WHERE g = p AND t = 1;
         DELETE FROM ev WHERE g = p AND t > 1;
         RETURN before || ' ' || after || ' ' || one;
       END $$)");
  const ProcedureIr& ir = Ir("f");
  ASSERT_EQ(ir.table_statements.size(), 6u);
  EXPECT_EQ(ir.table_statements[0]->feeds_range_write, 2) << "its rows are the UPDATE's";
  EXPECT_EQ(ir.table_statements[2]->feeds_range_write, -1) << "followed by a write of another table";
  EXPECT_EQ(ir.table_statements[4]->feeds_range_write, -1) << "a point read, not a range";
  Q("INSERT INTO ev VALUES (1, 1, 10), (1, 2, 20), (1, 3, NULL), (2, 1, 5)");
  Q("INSERT INTO kv VALUES (1, 0, 'a')");
  EXPECT_EQ(Q("SELECT f(1)"), "30 32 11");
  EXPECT_EQ(Q("SELECT g, t, x FROM ev ORDER BY g, t"), "1|1|11\n2|1|5");
  EXPECT_EQ(Q("SELECT v FROM kv"), "32");
}

TEST_F(BinderTest, IndexEntriesAWriteCannotNameAreListed) {
  Q("CREATE INDEX kv_note ON kv (note)");
  Q(R"(CREATE PROCEDURE p(a integer, n text) LANGUAGE plpgsql AS $$
       DECLARE r text;
       BEGIN
         INSERT INTO kv VALUES (a, 1, n);
         UPDATE kv SET note = n WHERE k = a + 1;
         UPDATE kv SET v = v + 1 WHERE k = a + 2;
         UPDATE kv SET note = upper(note) WHERE k = a + 3;
         SELECT note INTO r FROM kv WHERE k = a + 4;
         INSERT INTO kv VALUES (a + 5, 1, r);
         INSERT INTO kv VALUES (a + 6, 1, n) ON CONFLICT (k) DO UPDATE SET note = EXCLUDED.note;
         UPDATE kv SET note = n WHERE k > a + 7;
       END $$)");
  const ProcedureIr& ir = Ir("p");
  std::vector<std::vector<std::string>> unknown;
  for (const planner::Stmt* s : ir.table_statements) unknown.push_back(s->access->unknown_indexes);
  const std::vector<std::string> none, note = {"kv_note"};
  EXPECT_EQ(unknown, (std::vector<std::vector<std::string>>{none, none, none, note, none, note, note, note}));
  EXPECT_NE(ir.table_statements[3]->access->note.find("index kv_note: entries known only when written"),
            std::string::npos);
  Q("INSERT INTO kv VALUES (5, 0, 'x'), (4, 0, 'y'), (8, 0, 'z'), (30, 0, 'w')");
  Q("CALL p(1, 'q')");
  EXPECT_EQ(Q("SELECT k, note FROM kv ORDER BY k"), "1|q\n4|Y\n5|x\n6|x\n7|q\n8|z\n30|q");
  // Through the index, in a later epoch: the entries the writes made.
  EXPECT_EQ(Q("SELECT k FROM kv WHERE note = 'Y' ORDER BY k"), "4");
  EXPECT_EQ(Q("SELECT k FROM kv WHERE note = 'q' ORDER BY k"), "1\n7\n30");
}

TEST_F(BinderTest, BlocksAndLoopVariablesAreScoped) {
  Q(R"(CREATE FUNCTION f(n integer) RETURNS text LANGUAGE plpgsql AS $$
       <<top>>
       DECLARE i text := 'outer';
       BEGIN
         FOR i IN 1..n LOOP top.i := top.i || i; END LOOP;
         DECLARE i integer := 7; BEGIN RETURN i::text || ' ' || top.i || ' ' || f.n; END;
       END $$)");
  EXPECT_EQ(Q("SELECT f(2)"), "7 outer12 2");
  // The outermost block's variables are not qualified by the function name (only the
  // parameters and FOUND are). As in PostgreSQL, a PL/pgSQL body's expressions are
  // checked when they run: CREATE succeeds, the call fails.
  Q(R"(CREATE FUNCTION g() RETURNS text LANGUAGE plpgsql AS $$
       DECLARE i text; BEGIN RETURN g.i; END $$)");
  EXPECT_EQ(Err("SELECT g()"), "42P01: missing FROM-clause entry for table \"g\"");
}

TEST_F(BinderTest, RoutinesNamingWhatDoesNotExistYetBindOnceItDoes) {
  // pg_dump's order: functions first, then the tables, views and functions they use.
  Q(R"(CREATE FUNCTION total() RETURNS bigint LANGUAGE plpgsql AS $$
       BEGIN RETURN helper() + (SELECT count(*) FROM later); END $$)");
  Q(R"(CREATE FUNCTION helper() RETURNS bigint LANGUAGE plpgsql AS $$
       BEGIN RETURN (SELECT coalesce(sum(v), 0) FROM later); END $$)");
  EXPECT_EQ(Err("SELECT total()"), "42P01: relation \"later\" does not exist");
  EXPECT_EQ(Err("CREATE FUNCTION helper() RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$"),
            "42723: function \"helper\" already exists with same argument types");
  Q("CREATE TABLE later (k integer PRIMARY KEY, v bigint)");
  Q("INSERT INTO later VALUES (1, 10), (2, 20)");
  EXPECT_EQ(Q("SELECT total()"), "32");
  // A SQL function's body is checked at CREATE (check_function_bodies), unless that is off.
  EXPECT_EQ(Err("CREATE FUNCTION s() RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM missing'"),
            "42P01: relation \"missing\" does not exist");
  Q("SET check_function_bodies = off");
  Q("CREATE FUNCTION s() RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM missing'");
  Q("DROP FUNCTION s()");
  Q("CREATE FUNCTION s() RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM missing'");
  Q("CREATE TABLE missing (k integer PRIMARY KEY)");
  EXPECT_EQ(Q("SELECT s()"), "0");
  // A syntax error is one at CREATE, whatever the setting.
  EXPECT_EQ(Err("CREATE FUNCTION bad() RETURNS void LANGUAGE plpgsql AS $$ BEGIN IF true THEN END $$"),
            "42601: syntax error at end of input");
}

TEST_F(BinderTest, ConstantSubexpressionsAreFoldedOnceButErrorsWaitForTheCall) {
  Q(R"(CREATE FUNCTION f(p integer) RETURNS text LANGUAGE plpgsql AS $$
       DECLARE x text; y integer;
       BEGIN
         x := repeat('ab', 2) || upper('c');
         y := p + 2 * 3;
         IF p = 0 THEN y := 1 / 0; END IF;
         RETURN x || y;
       END $$)");
  std::vector<const planner::Expr*> assigned;
  ForEachStmt(Ir("f").body, [&](const planner::Stmt& s) {
    if (s.kind == StmtKind::kAssign) assigned.push_back(s.value.get());
  });
  ASSERT_EQ(assigned.size(), 3u);
  EXPECT_EQ(assigned[0]->kind, planner::ExprKind::kConst);
  EXPECT_EQ(assigned[0]->value.s, "ababC");
  ASSERT_EQ(assigned[1]->kind, planner::ExprKind::kArith);  // p + 6: p is a parameter
  ASSERT_EQ(assigned[1]->args.size(), 2u);
  EXPECT_EQ(assigned[1]->args[1]->kind, planner::ExprKind::kConst);
  EXPECT_EQ(assigned[1]->args[1]->value.i, 6);
  EXPECT_EQ(assigned[2]->kind, planner::ExprKind::kArith);  // 1 / 0 raises, so it is left for the call
  EXPECT_EQ(Q("SELECT f(1)"), "ababC7");
  EXPECT_EQ(Err("SELECT f(0)"), "22012: division by zero");
}

// CASE, COALESCE, GREATEST and LEAST keep the type modifier every input shares, as
// PostgreSQL's exprTypmod does: assigning the result to a variable of that type is then
// no cast at all (TPC-C's RETURNING CASE p_d_id WHEN 1 THEN s_dist_01 ... INTO a
// char(24)); inputs that differ, or an untyped NULL, leave no modifier.
TEST_F(BinderTest, ConditionalExpressionsKeepASharedTypeModifier) {
  Q("CREATE TABLE w (id integer PRIMARY KEY, a char(4), b char(4), c char(6), n numeric(5,2), m numeric(5,2))");
  Q(R"(CREATE FUNCTION f(p integer) RETURNS text LANGUAGE plpgsql AS $$
       DECLARE x text;
       BEGIN
         SELECT CASE p WHEN 1 THEN a ELSE b END, CASE p WHEN 1 THEN a ELSE c END,
                CASE p WHEN 1 THEN a END, coalesce(n, m), greatest(n, m), least(n, 1.5)
           INTO x, x, x, x, x, x FROM w WHERE id = p;
         RETURN x;
       END $$)");
  const planner::Stmt* select = nullptr;
  ForEachStmt(Ir("f").body, [&](const planner::Stmt& s) {
    if (s.kind == StmtKind::kSelectInto) select = &s;
  });
  ASSERT_NE(select, nullptr);
  const auto& outputs = select->select->outputs;
  ASSERT_EQ(outputs.size(), 6u);
  EXPECT_EQ(outputs[0]->type.Name(), "character(4)");
  EXPECT_EQ(outputs[1]->type.Name(), "character");
  EXPECT_EQ(outputs[2]->type.Name(), "character");
  EXPECT_EQ(outputs[3]->type.Name(), "numeric(5,2)");
  EXPECT_EQ(outputs[4]->type.Name(), "numeric(5,2)");
  EXPECT_EQ(outputs[5]->type.Name(), "numeric");
  Q("INSERT INTO w VALUES (1, 'ab', 'cd', 'ef', 1.25, NULL)");
  EXPECT_EQ(Q("SELECT f(1)"), "1.25");  // the last INTO wins: least(1.25, 1.5)
}

}  // namespace
}  // namespace caracal::frontend::testing
