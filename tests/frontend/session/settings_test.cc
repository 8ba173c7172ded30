// SET / SHOW / RESET of the caracal.* settings: validation with PostgreSQL's messages and
// SQLSTATEs, and the effect a user relies on: the engine restarts with the new options
// between epochs, over the same data (tables, rows, sequences, procedures, epoch numbers).
#include <gtest/gtest.h>

#include "tests/frontend/session/session_fixture.h"

namespace caracal::frontend::testing {
namespace {

class SettingsTest : public SessionTest {
 protected:
  // The error of the last statement of `sql` ("SQLSTATE: message"), or "" if none.
  std::string Error(const std::string& sql) {
    std::vector<StatementResult> results = session_.Execute(sql);
    if (results.empty() || !results.back().error) return "";
    return results.back().error->sqlstate + ": " + results.back().error->message;
  }
};

// What drivers and pg_dump's preamble set: the values this database has are accepted,
// any other is 0A000 with a HINT (never ignored), and a read-only parameter may be set to
// the value it has.
TEST_F(SettingsTest, PostgresSessionParametersTakeTheValuesThisDatabaseHas) {
  for (const char* ok : {"SET statement_timeout = 0", "SET lock_timeout = '0s'", "SET idle_in_transaction_session_timeout = 0",
                         "SET client_encoding = 'UTF8'", "SET standard_conforming_strings = on", "SET search_path = public",
                         "SET search_path = \"$user\", public", "SELECT 1", "SET default_tablespace = ''",
                         "SET check_function_bodies = false", "SET xmloption = content", "SET row_security = off",
                         "SET TIME ZONE 'UTC'", "SET DateStyle = ISO, MDY", "SET extra_float_digits = 3"})
    EXPECT_NE(Q(ok), "") << ok;
  EXPECT_EQ(Q("SHOW search_path"), "\"$user\", public");
  EXPECT_EQ(Err("SET statement_timeout = '5s'"), "0A000: statement_timeout = '5s' is not supported");
  EXPECT_EQ(Err("SET search_path = app, public"), "0A000: search_path = 'app, public' is not supported");
  EXPECT_EQ(Err("SET extra_float_digits = 0"), "0A000: extra_float_digits = '0' is not supported");
  EXPECT_EQ(Err("SET timezone = 'Europe/Paris'"), "0A000: timezone = 'Europe/Paris' is not supported");
  EXPECT_EQ(Err("SET client_encoding = 'LATIN1'"), "55P02: parameter \"client_encoding\" cannot be changed");
}

TEST_F(SettingsTest, EngineSettingsTakeEffect) {
  EXPECT_EQ(session_.engine().options().workers, 1);
  EXPECT_EQ(Q("SET caracal.workers = 3"), "SET");
  EXPECT_EQ(session_.engine().options().workers, 3);
  EXPECT_EQ(Q("SHOW caracal.workers"), "3");
  EXPECT_EQ(Header("SHOW caracal.workers"), "caracal.workers");
  Q("SET caracal.epoch_max_txns TO 7");
  Q("SET caracal.batch_append = off");
  Q("SET caracal.split_on_demand = 'false'");
  Q("SET caracal.split_threshold = 3");
  Q("SET caracal.gc_k = 2");
  const engine::EngineOptions& o = session_.engine().options();
  EXPECT_EQ(o.epoch_max_txns, 7u);
  EXPECT_FALSE(o.batch_append);
  EXPECT_FALSE(o.split_on_demand);
  EXPECT_EQ(o.split_threshold, 3u);
  EXPECT_EQ(o.gc_k, 2u);
  Q("RESET caracal.workers");
  EXPECT_EQ(session_.engine().options().workers, 1);
  Q("RESET ALL");
  EXPECT_TRUE(session_.engine().options().batch_append);
  EXPECT_EQ(session_.engine().options().epoch_max_txns, SmallOptions().engine.epoch_max_txns);
}

TEST_F(SettingsTest, InvalidValuesAreErrorsAndChangeNothing) {
  EXPECT_EQ(Error("SET caracal.workers = 0"),
            "22023: 0 is outside the valid range for parameter \"caracal.workers\" (1 .. 256)");
  EXPECT_EQ(Error("SET caracal.workers = 'two'"), "22023: invalid value for parameter \"caracal.workers\": \"two\"");
  EXPECT_EQ(Error("SET caracal.workers = 1, 2"), "42601: SET caracal.workers takes only one argument");
  EXPECT_EQ(Error("SET caracal.batch_append = 'perhaps'"),
            "22023: parameter \"caracal.batch_append\" requires a Boolean value");
  EXPECT_EQ(Error("SET caracal.epoch_max_txns = 0"),
            "22023: 0 is outside the valid range for parameter \"caracal.epoch_max_txns\" (1 .. 2147483647)");
  EXPECT_EQ(Error("SET caracal.nosuch = 1"), "42602: invalid configuration parameter name \"caracal.nosuch\"");
  EXPECT_EQ(Error("SHOW nosuch"), "42704: unrecognized configuration parameter \"nosuch\"");
  EXPECT_EQ(Error("SET server_version = '16'"), "55P02: parameter \"server_version\" cannot be changed");
  EXPECT_EQ(session_.engine().options().workers, 1);
  EXPECT_TRUE(session_.engine().options().batch_append);
  // PostgreSQL rounds a fractional value of an integer parameter.
  Q("SET caracal.epoch_interval_ms = 2.5");
  EXPECT_EQ(Q("SHOW caracal.epoch_interval_ms"), "2");
}

TEST_F(SettingsTest, DataAndProceduresSurviveAReconfiguration) {
  Q("CREATE TABLE kv (k integer PRIMARY KEY, v integer NOT NULL)");
  Q("CREATE SEQUENCE ids");
  Q(R"(CREATE FUNCTION add(p_v integer) RETURNS bigint LANGUAGE plpgsql AS $$
       DECLARE v_id bigint := nextval('ids');
       BEGIN
         INSERT INTO kv VALUES (v_id, p_v);
         RETURN v_id;
       END $$)");
  EXPECT_EQ(Q("SELECT add(10)"), "1");
  EXPECT_EQ(Q("SELECT add(20)"), "2");
  uint32_t epoch = session_.database().committed_epoch();
  Q("SET caracal.workers = 2");
  Q("SET caracal.epoch_max_txns = 3");
  EXPECT_EQ(Q("SELECT add(30)"), "3");  // the sequence goes on
  EXPECT_GT(session_.database().committed_epoch(), epoch);  // epoch numbers keep increasing
  // A pipeline of calls on the new engine shares epochs and keeps submission order.
  std::vector<PendingResult> pending = session_.Submit("SELECT add(1); SELECT add(2); SELECT add(3); SELECT add(4)");
  std::string ids;
  for (PendingResult& p : pending) {
    StatementResult r = p.Get();
    ASSERT_FALSE(r.error) << r.error->message;
    ids += (*r.rows->rows[0][0]) + " ";
  }
  EXPECT_EQ(ids, "4 5 6 7 ");
  EXPECT_EQ(Q("SELECT count(*), sum(v) FROM kv"), "7|70");
}

TEST_F(SettingsTest, ShowAllAndPostgresParameters) {
  std::vector<StatementResult> all = session_.Execute("SHOW ALL");
  ASSERT_TRUE(all.back().rows);
  EXPECT_EQ(Header("SHOW ALL"), "name|setting|description");
  bool found = false;
  for (const auto& row : all.back().rows->rows)
    if (*row[0] == "caracal.split_threshold") found = true;
  EXPECT_TRUE(found);
  EXPECT_EQ(Q("SHOW client_min_messages"), "notice");
  Q("SET client_min_messages = WARNING");
  EXPECT_EQ(Q("SHOW client_min_messages"), "warning");
  EXPECT_EQ(Q("SHOW standard_conforming_strings"), "on");
  // SET LOCAL outside a transaction block warns and does nothing, as in PostgreSQL.
  std::vector<StatementResult> local = session_.Execute("SET LOCAL caracal.workers = 4");
  ASSERT_EQ(local.size(), 1u);
  EXPECT_FALSE(local[0].error);
  ASSERT_EQ(local[0].notices.size(), 1u);
  EXPECT_EQ(local[0].notices[0], "WARNING:SET LOCAL can only be used in transaction blocks");
  EXPECT_EQ(session_.engine().options().workers, 1);
}

}  // namespace
}  // namespace caracal::frontend::testing
