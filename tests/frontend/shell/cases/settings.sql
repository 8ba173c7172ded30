-- SET / SHOW / RESET of the caracal.* settings, validated with PostgreSQL's messages;
-- a changed engine setting takes effect at once (the engine restarts between epochs).
show caracal.workers;
set caracal.workers = 0;
set caracal.workers = 300;
set caracal.workers = 'many';
set caracal.workers = 1, 2;
set caracal.workers = 3;
show caracal.workers;
set caracal.epoch_max_txns to 7;
set caracal.epoch_interval_ms = 2.4;
show caracal.epoch_interval_ms;
set caracal.batch_append = off;
set caracal.split_on_demand = 'of';
set caracal.gc = maybe;
set caracal.split_threshold = 99999999999;
set caracal.nosuch = 1;
set nosuch = 1;
show nosuch;
set server_version = '16';
set local caracal.workers = 1;
set client_min_messages = warning;
set client_min_messages = bogus;
show client_min_messages;
set caracal.workers to default;
show caracal.workers;
reset caracal.epoch_max_txns;
show caracal.epoch_max_txns;
show all;
reset all;
show caracal.batch_append;
\dconfig caracal.*
-- The database survives reconfiguration: tables, rows and sequences stay.
create table kept (k int primary key, v text);
\copy kept from 'data/kept.csv' (format csv)
create sequence kept_seq;
set caracal.workers = 1;
select * from kept order by k;
\ds
