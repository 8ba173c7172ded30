-- The main job's demo (sql/tpcc/demo.sql), then the pipelined calls and a look around.
\i ../../../../sql/tpcc/demo.sql
\i ../../../../sql/tpcc/demo_calls.sql
select d_id, d_next_o_id, d_ytd from district order by d_id;
\d customer
\dw tpcc_new_order
