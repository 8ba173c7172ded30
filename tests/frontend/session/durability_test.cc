// A session over a data directory: what one life commits, the next one finds (calls,
// ad-hoc DML, DDL, COPY, sequences, procedure versions), through checkpoints and log
// replay; a torn log tail is cut and reported; the directory is guarded (lock, marker).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/log/log_segment.h"
#include "engine/storage/store.h"
#include "frontend/session/session.h"
#include "tests/frontend/session/session_fixture.h"
#include "tests/engine/temp_dir.h"

namespace caracal::frontend {
namespace {

using caracal::engine::testing::TempDir;

SessionOptions Durable(const std::filesystem::path& dir) {
  SessionOptions o;
  o.engine.workers = 2;
  o.engine.epoch_interval_ms = 1;
  o.durability.emplace();
  o.durability->data_dir = dir;
  o.durability->checkpoint_interval_s = 0;  // checkpoints only when asked
  o.durability->checkpoint_log_bytes = 0;
  return o;
}

// Rows of the last statement as "a|b" lines, or its tag; "<error: ...>" if it failed.
std::string Q(Session& s, const std::string& sql) {
  std::vector<StatementResult> results = s.Execute(sql);
  if (results.empty()) return "<nothing>";
  for (const auto& r : results)
    if (r.error) return "<error: " + r.error->message + ">";
  const StatementResult& last = results.back();
  if (!last.rows) return last.tag;
  std::string out;
  for (size_t i = 0; i < last.rows->rows.size(); ++i) {
    if (i) out += "\n";
    for (size_t c = 0; c < last.rows->rows[i].size(); ++c) out += (c ? "|" : "") + last.rows->rows[i][c].value_or("");
  }
  return out;
}

std::string Stat(Session& s, const std::string& name) {
  for (const auto& [k, v] : s.durable()->Stats())
    if (k == name) return v;
  return "<no " + name + ">";
}

constexpr const char* kSchema = R"(
create table accounts (id int primary key, balance numeric(10,2) not null, note text);
create sequence txn_ids start 100;
create function deposit(p_id int, p_amount numeric) returns bigint language plpgsql as $$
declare n bigint;
begin
  n := nextval('txn_ids');
  update accounts set balance = balance + p_amount, note = 'deposit ' || n where id = p_id;
  return n;
end $$;
insert into accounts values (1, 10.00, null), (2, 20.50, null);
)";

TEST(Durability, WhatOneLifeCommitsTheNextFinds) {
  TempDir dir;
  uint64_t hash;
  {
    Session s(Durable(dir.path()));
    EXPECT_TRUE(s.durable()->recovery().created);
    ASSERT_EQ(Q(s, kSchema), "INSERT 0 2");
    EXPECT_EQ(Q(s, "select deposit(1, 5)"), "100");
    EXPECT_EQ(Q(s, "select deposit(2, 0.25)"), "101");
    EXPECT_EQ(Q(s, "update accounts set note = 'x' where id = 2"), "UPDATE 1");
    EXPECT_EQ(Q(s, "create index accounts_note on accounts (note)"), "CREATE INDEX");
    hash = StateHash(s.database());
  }
  Session s(Durable(dir.path()));
  EXPECT_FALSE(s.durable()->recovery().created);
  EXPECT_FALSE(s.durable()->recovery().cut.has_value());
  EXPECT_EQ(StateHash(s.database()), hash);
  EXPECT_EQ(Q(s, "select * from accounts order by id"), "1|15.00|deposit 100\n2|20.75|x");
  // The sequence goes on from where it was, and the procedure is there.
  EXPECT_EQ(Q(s, "select deposit(1, 1)"), "102");
  EXPECT_GT(s.durable()->recovery().replay.epochs, 0u);
  EXPECT_EQ(s.durable()->recovery().replay.ddl, 4u);  // table, sequence, function, index
}

TEST(Durability, SerialValuesAndDefaultNowReplayAsWritten) {
  // An ad-hoc INSERT draws its serial value and its now() when it is sequenced; replay
  // writes the logged ones (the times are not drawn again), and the sequence goes on.
  TempDir dir;
  uint64_t hash;
  std::string rows;
  {
    Session s(Durable(dir.path()));
    ASSERT_EQ(Q(s, "create table notes (id serial primary key, at timestamptz not null default now(), d date default current_date, body text)"),
              "CREATE TABLE");
    ASSERT_EQ(Q(s, "insert into notes (body) values ('a'), ('b')"), "INSERT 0 2");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_EQ(Q(s, "insert into notes (body) values ('c')"), "INSERT 0 1");
    rows = Q(s, "select id, at, d, body from notes order by id");
    EXPECT_EQ(Q(s, "select count(distinct at) from notes"), "2");  // one time per statement
    hash = StateHash(s.database());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  Session s(Durable(dir.path()));
  EXPECT_EQ(StateHash(s.database()), hash);
  EXPECT_EQ(Q(s, "select id, at, d, body from notes order by id"), rows);
  EXPECT_EQ(Q(s, "insert into notes (body) values ('d') returning id"), "4");
}

TEST(Durability, SetvalIsLoggedAndReplayedInItsPlace) {
  // pg_dump's setval: logged like DDL, between the epochs before and after it, so replay
  // restores the position the next life draws from, and the draws logged before it.
  TempDir dir;
  {
    Session s(Durable(dir.path()));
    ASSERT_EQ(Q(s, "create table t (id serial primary key, v text)"), "CREATE TABLE");
    ASSERT_EQ(Q(s, "insert into t (v) values ('a') returning id"), "1");
    ASSERT_EQ(Q(s, "select pg_catalog.setval('public.t_id_seq', 41, true)"), "41");
    ASSERT_EQ(Q(s, "insert into t (v) values ('b') returning id"), "42");
    ASSERT_EQ(Q(s, "select setval('t_id_seq', 100, false)"), "100");
  }
  Session s(Durable(dir.path()));
  EXPECT_EQ(Q(s, "select id, v from t order by id"), "1|a\n42|b");
  EXPECT_EQ(Q(s, "insert into t (v) values ('c') returning id"), "100");
}

TEST(Durability, RandomValuesReplayAsDrawnWhateverTheWorkersAndJit) {
  // random() is seeded per call at sequencing and the seed logged with the input: a
  // replay by another engine (one worker, compiled procedures where the first life
  // interpreted them) writes the same values, keys drawn from random() included.
  TempDir dir;
  uint64_t hash;
  std::string rows;
  constexpr const char* kRandomSchema = R"(
create table hits (k int primary key, n int not null);
create table draws (id int primary key, r float8 not null, d float8 default random());
create function pick(lo int, hi int) returns int strict language plpgsql as $$
begin
  return lo + floor(random() * (hi - lo + 1))::int;
end $$;
create function play(p int) returns int language plpgsql as $$
declare v_k int := pick(1, 50);
begin
  insert into hits values (v_k, 1) on conflict (k) do update set n = hits.n + 1;
  insert into draws (id, r) values (p, random());
  return v_k;
end $$;
)";
  {
    SessionOptions o = Durable(dir.path());
    o.engine.workers = 2;
    Session s(o);
    ASSERT_EQ(Q(s, "set caracal.jit = off"), "SET");
    ASSERT_EQ(Q(s, kRandomSchema), "CREATE FUNCTION");
    std::string calls;
    for (int i = 1; i <= 60; ++i) calls += "select play(" + std::to_string(i) + ");";
    ASSERT_EQ(Q(s, calls).find("<error"), std::string::npos);
    ASSERT_EQ(Q(s, "update draws set r = random() where id <= 10"), "UPDATE 10");
    ASSERT_EQ(Q(s, "insert into draws (id, r) values (100, random()), (101, random())"), "INSERT 0 2");
    EXPECT_EQ(Q(s, "select sum(n) from hits"), "60");
    EXPECT_EQ(Q(s, "select count(distinct r), count(distinct d), bool_and(r >= 0 and r < 1) from draws"), "62|62|t");
    rows = Q(s, "select * from draws order by id") + "\n" + Q(s, "select * from hits order by k");
    hash = StateHash(s.database());
  }
  SessionOptions o = Durable(dir.path());
  o.engine.workers = 1;
  Session s(o);
  EXPECT_EQ(StateHash(s.database()), hash);
  EXPECT_EQ(Q(s, "select * from draws order by id") + "\n" + Q(s, "select * from hits order by k"), rows);
}

TEST(Durability, CheckpointThenLogAfterItAndTheOldLogGoes) {
  TempDir dir;
  SessionOptions options = Durable(dir.path());
  options.durability->segment_bytes = 1024;  // many segments
  uint64_t hash;
  {
    Session s(options);
    ASSERT_EQ(Q(s, kSchema), "INSERT 0 2");
    for (int i = 0; i < 60; ++i) ASSERT_EQ(Q(s, "select deposit(1, 1)"), std::to_string(100 + i));
    const size_t segments_before = engine::ListSegments(dir.path() / "log").size();
    ASSERT_GT(segments_before, 2u);
    EXPECT_EQ(Q(s, "checkpoint"), "CHECKPOINT");
    EXPECT_LT(engine::ListSegments(dir.path() / "log").size(), segments_before);
    EXPECT_EQ(Stat(s, "checkpoints"), "1");
    // After the checkpoint: more of everything, including a new table and a replaced procedure.
    EXPECT_EQ(Q(s, "create table later (k int primary key)"), "CREATE TABLE");
    EXPECT_EQ(Q(s, "insert into later values (1), (2)"), "INSERT 0 2");
    EXPECT_EQ(Q(s, R"(create or replace function deposit(p_id int, p_amount numeric) returns bigint
                      language plpgsql as $$ begin
                        update accounts set balance = balance + 2 * p_amount where id = p_id; return -1; end $$)"),
              "CREATE FUNCTION");
    EXPECT_EQ(Q(s, "select deposit(2, 1)"), "-1");
    hash = StateHash(s.database());
  }
  Session s(options);
  const engine::RecoveryReport& r = s.durable()->recovery();
  ASSERT_TRUE(r.checkpoint.has_value());
  EXPECT_EQ(r.checkpoint_rows, 2u);
  EXPECT_EQ(r.replay.ddl, 2u);  // what came after the checkpoint only
  EXPECT_EQ(r.replay.epochs, 2u);
  EXPECT_EQ(StateHash(s.database()), hash);
  EXPECT_EQ(Q(s, "select balance from accounts order by id"), "70.00\n22.50");
  EXPECT_EQ(Q(s, "select deposit(2, 1)"), "-1");
  EXPECT_EQ(Q(s, "select count(*) from later"), "2");
}

TEST(Durability, CopyIsLoggedAsOneUnitAndAFailedCopyNotAtAll) {
  TempDir dir;
  const std::filesystem::path csv = dir.path() / "rows.csv", bad = dir.path() / "bad.csv", data = dir.path() / "data";
  {
    std::ofstream out(csv);
    for (int i = 0; i < 30000; ++i) out << i << ",row " << i << " " << std::string(i % 70, 'z') << "\n";
    std::ofstream(bad) << "1,a\nnot a number,b\n";
  }
  {
    Session s(Durable(data));
    ASSERT_EQ(Q(s, "create table t (k int primary key, v text)"), "CREATE TABLE");
    EXPECT_EQ(Q(s, "copy t from '" + csv.string() + "' (format csv)"), "COPY 30000");
    EXPECT_NE(Q(s, "copy t from '" + bad.string() + "' (format csv)").find("<error"), std::string::npos);
  }
  Session s(Durable(data));
  EXPECT_EQ(s.durable()->recovery().replay.loads, 1u);
  EXPECT_EQ(s.durable()->recovery().replay.rows_loaded, 30000u);
  EXPECT_EQ(Q(s, "select count(*), sum(k) from t"), "30000|449985000");
  EXPECT_EQ(Q(s, "select v from t where k = 29999"), "row 29999 " + std::string(29999 % 70, 'z'));
}

TEST(Durability, TornLogTailIsCutAndReported) {
  TempDir dir;
  {
    Session s(Durable(dir.path()));
    ASSERT_EQ(Q(s, "create table t (k int primary key)"), "CREATE TABLE");
    ASSERT_EQ(Q(s, "insert into t values (1)"), "INSERT 0 1");
  }
  // A record that was being written when the power went: half a frame of garbage.
  const std::filesystem::path segment = engine::ListSegments(dir.path() / "log").back().path;
  const uint64_t size = std::filesystem::file_size(segment);
  std::ofstream(segment, std::ios::binary | std::ios::app) << std::string("KCRL\x30\x00\x00\x00garbage", 15);
  {
    Session s(Durable(dir.path()));
    const engine::RecoveryReport& r = s.durable()->recovery();
    ASSERT_TRUE(r.cut.has_value());
    EXPECT_EQ(r.cut->offset, size);
    EXPECT_EQ(r.cut->bytes, 15u);
    EXPECT_NE(r.Describe().find("cut the log's torn tail"), std::string::npos) << r.Describe();
    EXPECT_EQ(Q(s, "select * from t"), "1");
    EXPECT_EQ(std::filesystem::file_size(segment), size);  // repaired
    EXPECT_EQ(Q(s, "insert into t values (2)"), "INSERT 0 1");
  }
  Session s(Durable(dir.path()));
  EXPECT_FALSE(s.durable()->recovery().cut.has_value());
  EXPECT_EQ(Q(s, "select * from t order by k"), "1\n2");
}

TEST(Durability, DroppedAndRecreatedTablesKeepTheirPlaceThroughACheckpoint) {
  TempDir dir;
  uint64_t hash;
  {
    Session s(Durable(dir.path()));
    ASSERT_EQ(Q(s, "create table a (k int primary key); create table b (k int primary key, v text)"), "CREATE TABLE");
    ASSERT_EQ(Q(s, "insert into b values (1, 'old')"), "INSERT 0 1");
    ASSERT_EQ(Q(s, "drop table b"), "DROP TABLE");
    ASSERT_EQ(Q(s, "create table b (k int primary key, w int)"), "CREATE TABLE");
    ASSERT_EQ(Q(s, "insert into b values (7, 70); insert into a values (3)"), "INSERT 0 1");
    ASSERT_EQ(Q(s, "checkpoint"), "CHECKPOINT");
    ASSERT_EQ(Q(s, "insert into b values (8, 80)"), "INSERT 0 1");
    hash = StateHash(s.database());
  }
  Session s(Durable(dir.path()));
  EXPECT_EQ(StateHash(s.database()), hash);
  EXPECT_EQ(Q(s, "select * from b order by k"), "7|70\n8|80");
}

// Enum types come back with their labels as ALTER TYPE left them, whether the DDL is in
// the checkpoint or in the log after it; stored values keep their labels (a value is its
// label's position, which ADD VALUE and RENAME VALUE never move).
TEST(Durability, EnumTypesAndTheirValuesComeBackAsAltered) {
  TempDir dir;
  uint64_t hash;
  {
    Session s(Durable(dir.path()));
    ASSERT_EQ(Q(s, "create type mood as enum ('sad', 'ok'); create table t (id int primary key, m mood)"), "CREATE TABLE");
    ASSERT_EQ(Q(s, "alter type mood add value 'happy'"), "ALTER TYPE");
    ASSERT_EQ(Q(s, "insert into t values (1, 'happy'), (2, 'sad')"), "INSERT 0 2");
    ASSERT_EQ(Q(s, "create function setm(p int, v mood) returns mood language plpgsql as "
                   "$$ begin update t set m = v where id = p; return v; end $$"),
              "CREATE FUNCTION");
    ASSERT_EQ(Q(s, "select setm(2, 'ok')"), "ok");
    ASSERT_EQ(Q(s, "checkpoint"), "CHECKPOINT");
    ASSERT_EQ(Q(s, "alter type mood rename value 'ok' to 'fine'; alter type mood add value 'ecstatic'"), "ALTER TYPE");
    ASSERT_EQ(Q(s, "select setm(1, 'ecstatic')"), "ecstatic");
    hash = StateHash(s.database());
  }
  Session s(Durable(dir.path()));
  EXPECT_EQ(StateHash(s.database()), hash);
  EXPECT_EQ(Q(s, "select id, m from t order by m"), "2|fine\n1|ecstatic");
  EXPECT_EQ(Q(s, "select enum_range(null::mood)"), "{sad,fine,happy,ecstatic}");
  EXPECT_EQ(Q(s, "select setm(2, 'ok')"), "<error: invalid input value for enum mood: \"ok\">");
}

// A domain comes back with its constraints: a recovered session still refuses what the
// domain refuses, in ad-hoc DML and in a procedure's parameter.
TEST(Durability, DomainsComeBackWithTheirConstraints) {
  TempDir dir;
  {
    Session s(Durable(dir.path()));
    ASSERT_EQ(Q(s, "create domain pos as int not null default 1 check (value > 0); "
                   "create table d (id int primary key, n pos)"),
              "CREATE TABLE");
    ASSERT_EQ(Q(s, "create function bump(p pos) returns int language plpgsql as "
                   "$$ begin update d set n = n + p where id = 1; return p; end $$"),
              "CREATE FUNCTION");
    ASSERT_EQ(Q(s, "insert into d (id) values (1)"), "INSERT 0 1");
    ASSERT_EQ(Q(s, "checkpoint"), "CHECKPOINT");
    ASSERT_EQ(Q(s, "select bump(4)"), "4");
  }
  Session s(Durable(dir.path()));
  EXPECT_EQ(Q(s, "select * from d"), "1|5");
  EXPECT_EQ(Q(s, "insert into d values (2, 0)"), "<error: value for domain pos violates check constraint \"pos_check\">");
  EXPECT_EQ(Q(s, "select bump(-1)"), "<error: value for domain pos violates check constraint \"pos_check\">");
  EXPECT_EQ(Q(s, "insert into d values (3, null)"), "<error: domain pos does not allow null values>");
}

// Triggers and trigger functions come back as they were last defined, from the
// checkpoint and from the log after it: the writes the log replays fire them again, and
// a recovered session's writes fire the replaced function, not the first one.
TEST(Durability, TriggersComeBackAndFireOnReplay) {
  TempDir dir;
  uint64_t hash;
  {
    Session s(Durable(dir.path()));
    ASSERT_EQ(Q(s, "create table t (id int primary key, n int, tag text); create table log (k serial primary key, what text)"),
              "CREATE TABLE");
    ASSERT_EQ(Q(s, "create function tag() returns trigger language plpgsql as $$ begin new.tag := 'v1'; return new; end $$"),
              "CREATE FUNCTION");
    ASSERT_EQ(Q(s, "create function logit() returns trigger language plpgsql as "
                   "$$ begin insert into log (what) values (tg_op || ' ' || new.id); return null; end $$"),
              "CREATE FUNCTION");
    ASSERT_EQ(Q(s, "create trigger t_tag before insert or update on t for each row execute function tag()"), "CREATE TRIGGER");
    ASSERT_EQ(Q(s, "insert into t values (1, 10, null)"), "INSERT 0 1");
    ASSERT_EQ(Q(s, "checkpoint"), "CHECKPOINT");
    ASSERT_EQ(Q(s, "create trigger t_log after insert or update on t for each row execute function logit()"), "CREATE TRIGGER");
    ASSERT_EQ(Q(s, "create or replace function tag() returns trigger language plpgsql as "
                   "$$ begin new.tag := 'v2'; return new; end $$"),
              "CREATE FUNCTION");
    ASSERT_EQ(Q(s, "insert into t values (2, 20, null); update t set n = n + 1 where id = 1"), "UPDATE 1");
    hash = StateHash(s.database());
  }
  Session s(Durable(dir.path()));
  EXPECT_EQ(StateHash(s.database()), hash);
  EXPECT_EQ(Q(s, "select * from t order by id"), "1|11|v2\n2|20|v2");
  EXPECT_EQ(Q(s, "select what from log order by k"), "INSERT 2\nUPDATE 1");
  EXPECT_EQ(Q(s, "insert into t values (3, 30, 'x') returning tag"), "v2");
  EXPECT_EQ(Q(s, "select count(*) from log"), "3");
}

// Rows keyed by their hidden row identity, ALTER TABLEs that rebuild a table (ADD
// PRIMARY KEY, ADD / DROP COLUMN, ALTER TYPE) and CREATE TABLE AS / SELECT INTO come back
// the same from the log and from a checkpoint with more log after it.
TEST(Durability, RowIdentitiesAndRebuiltTablesReplayAsWritten) {
  TempDir dir;
  uint64_t hash;
  {
    Session s(Durable(dir.path()));
    ASSERT_EQ(Q(s, "create table h (a int, b text); create table t (a int, b text, c int)"), "CREATE TABLE");
    ASSERT_EQ(Q(s, "insert into h values (1, 'x'), (1, 'x'); insert into t values (1, 'x', 10), (2, 'y', 20)"),
              "INSERT 0 2");
    ASSERT_EQ(Q(s, "alter table t add primary key (a)"), "ALTER TABLE");
    ASSERT_EQ(Q(s, "alter table t add column d int default 5, alter column c type bigint"), "ALTER TABLE");
    ASSERT_EQ(Q(s, "create table c1 as select a, b from t"), "SELECT 2");
    ASSERT_EQ(Q(s, "checkpoint"), "CHECKPOINT");
    ASSERT_EQ(Q(s, "alter table t drop column b; insert into h select a, 'y' from t"), "INSERT 0 2");
    ASSERT_EQ(Q(s, "select a * 2 as d into c2 from t"), "SELECT 2");
    ASSERT_EQ(Q(s, "update t set c = c + 1 where a = 2; delete from h where b = 'y' and a = 1"), "DELETE 1");
    hash = StateHash(s.database());
  }
  Session s(Durable(dir.path()));
  EXPECT_EQ(StateHash(s.database()), hash);
  EXPECT_EQ(Q(s, "select * from t order by a"), "1|10|5\n2|21|5");
  EXPECT_EQ(Q(s, "select a, b, count(*) from h group by a, b order by a, b"), "1|x|2\n2|y|1");
  EXPECT_EQ(Q(s, "select * from c1 order by a"), "1|x\n2|y");
  EXPECT_EQ(Q(s, "select * from c2 order by d"), "2\n4");
}

TEST(Durability, AsynchronousCommitStillRecoversAfterACleanShutdown) {
  TempDir dir;
  SessionOptions options = Durable(dir.path());
  options.durability->synchronous_commit = false;
  {
    Session s(options);
    EXPECT_EQ(Stat(s, "synchronous_commit"), "off");
    ASSERT_EQ(Q(s, "create table t (k int primary key)"), "CREATE TABLE");
    std::string sql;
    for (int i = 0; i < 500; ++i) sql += "insert into t values (" + std::to_string(i) + ");";
    for (PendingResult& r : s.Submit(sql)) ASSERT_FALSE(r.Get().error.has_value());
  }
  Session s(Durable(dir.path()));
  EXPECT_EQ(Q(s, "select count(*) from t"), "500");
}

TEST(Durability, TheDirectoryIsLockedAndOnlyAnEmptyOrCaracalOneIsUsed) {
  TempDir dir;
  {
    Session s(Durable(dir.path()));
    try {
      Session second(Durable(dir.path()));
      ADD_FAILURE() << "a second session opened the same directory";
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("in use by another caracal process"), std::string::npos) << e.what();
    }
  }
  TempDir other;
  std::ofstream(other.path() / "precious.txt") << "do not touch";
  try {
    Session s(Durable(other.path()));
    ADD_FAILURE() << "a non-empty directory was taken over";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("is not a caracal data directory"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(std::filesystem::exists(other.path() / "precious.txt"));
}

TEST(Durability, StatsShowTheLogAndCheckpoints) {
  TempDir dir;
  Session s(Durable(dir.path()));
  ASSERT_EQ(Q(s, kSchema), "INSERT 0 2");
  ASSERT_EQ(Q(s, "select deposit(1, 1)"), "100");
  EXPECT_EQ(Stat(s, "synchronous_commit"), "on");
  EXPECT_NE(Stat(s, "log_bytes_written"), "0");
  EXPECT_EQ(Stat(s, "log_epochs_written"), "2");
  EXPECT_EQ(Stat(s, "last_checkpoint_bytes"), "<no last_checkpoint_bytes>");
  ASSERT_EQ(Q(s, "checkpoint"), "CHECKPOINT");
  EXPECT_EQ(Stat(s, "last_checkpoint_rows"), "2");
  EXPECT_EQ(Stat(s, "checkpoints"), "1");
}

TEST(Durability, InMemoryCheckpointIsANoticeNotAnError) {
  Session s(testing::SmallOptions());
  std::vector<StatementResult> r = s.Execute("checkpoint");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_FALSE(r[0].error.has_value());
  EXPECT_EQ(r[0].tag, "CHECKPOINT");
  ASSERT_EQ(r[0].notices.size(), 1u);
  EXPECT_EQ(s.durable(), nullptr);
}

TEST(Durability, AnEngineCanBeSwappedUnderTheStore) {
  // What the session does when an engine setting changes: the log follows the new engine.
  TempDir dir;
  uint64_t hash;
  {
    Session s(Durable(dir.path()));
    ASSERT_EQ(Q(s, kSchema), "INSERT 0 2");
    s.engine().Drain();
    s.durable()->DetachEngine();
    engine::EngineOptions o;
    o.workers = 3;
    o.epoch_interval_ms = 1;
    engine::Engine replacement(s.database(), o);
    s.durable()->AttachEngine(replacement);
    engine::TxnResult result;
    engine::TxnRequest request;
    request.procedure = s.FindProcedure("deposit");
    request.input.args = {engine::Value::Int(2), engine::Value::Numeric(300, 2)};
    request.on_done = [&](engine::TxnResult&& r) { result = std::move(r); };
    replacement.Submit(std::move(request));
    replacement.Drain();
    EXPECT_EQ(result.status, engine::TxnResult::Status::kCommitted) << result.message;
    s.durable()->DetachEngine();
    s.durable()->AttachEngine(s.engine());
    hash = StateHash(s.database());
  }
  Session s(Durable(dir.path()));
  EXPECT_EQ(StateHash(s.database()), hash);
  EXPECT_EQ(Q(s, "select balance from accounts where id = 2"), "23.50");
}

TEST(Durability, SettingsActOnTheDataDirectory) {
  TempDir dir;
  uint64_t hash;
  {
    Session s(Durable(dir.path()));
    EXPECT_EQ(Q(s, "show caracal.data_directory"), dir.path().string());
    EXPECT_EQ(Q(s, "show caracal.synchronous_commit"), "on");
    EXPECT_NE(Q(s, "set caracal.data_directory = '/elsewhere'").find("cannot be changed"), std::string::npos);
    ASSERT_EQ(Q(s, kSchema), "INSERT 0 2");
    // A new engine (another worker count) keeps logging.
    EXPECT_EQ(Q(s, "set caracal.workers = 3"), "SET");
    EXPECT_EQ(Q(s, "select deposit(1, 2)"), "100");
    EXPECT_EQ(Q(s, "set caracal.synchronous_commit = off"), "SET");
    EXPECT_EQ(Stat(s, "synchronous_commit"), "off");
    EXPECT_EQ(Q(s, "select value from caracal_stat_durability where name = 'synchronous_commit'"), "off");
    EXPECT_EQ(Q(s, "reset caracal.synchronous_commit"), "RESET");
    EXPECT_EQ(Stat(s, "synchronous_commit"), "on");
    EXPECT_EQ(Q(s, "set caracal.checkpoint_interval_s = 1"), "SET");
    EXPECT_EQ(Stat(s, "checkpoint_interval_s"), "1");
    EXPECT_EQ(Q(s, "select deposit(2, 2)"), "101");
    // The timer takes a checkpoint within about a second (the checkpointer looks every 200 ms).
    for (int i = 0; i < 50 && Stat(s, "checkpoints") == "0"; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(Stat(s, "checkpoints"), "1");
    hash = StateHash(s.database());
  }
  Session s(Durable(dir.path()));
  EXPECT_EQ(StateHash(s.database()), hash);
  EXPECT_EQ(Q(s, "select balance from accounts order by id"), "12.00\n22.50");
}

TEST(Durability, InMemoryTheViewAndSettingsSaySo) {
  Session s(testing::SmallOptions());
  EXPECT_EQ(Q(s, "select * from caracal_stat_durability"), "data_directory|");
  EXPECT_EQ(Q(s, "show caracal.data_directory"), "");
  EXPECT_EQ(Q(s, "set caracal.synchronous_commit = off"), "SET");
}

}  // namespace
}  // namespace caracal::frontend
