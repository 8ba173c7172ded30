--! psql
-- \set, \unset, interpolation (:x, :'x', :"x", :{?x}), \echo, special variables.
\set x 42
\set name 'O''Brien'
\set path 'C:\\dir'
\set multi a b c
\echo :x :name :path :multi
select :x as x, :'name' as name, :"x" as "quoted", :{?x} as defined, :{?nope} as undefined;
select :'path' as escaped;
\echo :nope :'nope' :"nope"
\echo -n no newline
\echo
\echo '-n' is text here
\echo "double quotes stay" 'single\tquotes\nexpand'
\set ON_ERROR_STOP maybe
\echo :ON_ERROR_STOP
\set ECHO bad
\set HISTSIZE x
\set bad-name 1
\unset ON_ERROR_STOP
\echo :ON_ERROR_STOP
\unset IGNOREEOF
\set IGNOREEOF x
\echo :IGNOREEOF
\set VERBOSITY terse
select 1 +;
\unset VERBOSITY
\echo :VERBOSITY
\unset x
\echo :x
\set self 'x :self y'
select :self;
select 1 as "a::b", 2::text as cast, ':x' as "not :x";
\unset
\echo :ERROR :SQLSTATE :ROW_COUNT
select 1/0;
\echo :ERROR :SQLSTATE :LAST_ERROR_MESSAGE
