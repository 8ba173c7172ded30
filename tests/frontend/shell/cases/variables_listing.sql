-- \set with no arguments lists the variables (caracal's own VERSION, DBNAME, ...).
\set x 'a value'
\set
