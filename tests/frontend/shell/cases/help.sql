-- \? and \h: the meta-commands and the SQL statements caracal runs.
\?
\? options
\? variables
\h
\h create table
\h CREATE
\h select * from t
\h nosuch
\conninfo
\encoding
\encoding latin1
\copyright
\dx
\l
\dn
\dn nosuch
\c other
