-- YCSB (the paper's §5.3): one table of 1000-byte rows, ten 100-byte fields.
-- Keys are 0 .. N-1; the native loader fills it (bench/ycsb/ycsb.cc), see README.md for
-- the field contents.

CREATE TABLE ycsb (
  ycsb_key bigint PRIMARY KEY,
  field0 char(100), field1 char(100), field2 char(100), field3 char(100), field4 char(100),
  field5 char(100), field6 char(100), field7 char(100), field8 char(100), field9 char(100));
