#include "frontend/shell/help.h"

#include <fmt/format.h>
#include <strings.h>

#include <vector>

namespace caracal::frontend {

std::string MetaCommandHelp() {
  return R"(General
  \errverbose            show most recent error message at maximum verbosity
  \g [FILE]              execute query (and send result to file or |pipe);
                         \g with no arguments is equivalent to a semicolon
  \gexec                 execute query, then execute each value in its result
  \gset [PREFIX]         execute query and store result in variables
  \gx [FILE]             as \g, but forces expanded output mode
  \q                     quit caracal
  \watch [[i=]SEC] [c=N] execute query every SEC seconds, N times (Ctrl-C stops)

Help
  \? [commands]          show help on backslash commands
  \? options             show help on caracal command-line options
  \? variables           show help on special variables
  \h [NAME]              help on syntax of SQL commands, * for all commands

Query Buffer
  \e [FILE] [LINE]       edit the query buffer (or file) with external editor
  \ef [FUNCNAME [LINE]]  edit function definition with external editor
  \p                     show the contents of the query buffer
  \r                     reset (clear) the query buffer
  \s [FILE]              display history or save it to file
  \w FILE                write query buffer to file

Input/Output
  \copy ...              perform SQL COPY with data stream to the client host
  \echo [-n] [STRING]    write string to standard output (-n for no newline)
  \i FILE                execute commands from file
  \ir FILE               as \i, but relative to location of current script
  \o [FILE]              send all query results to file or |pipe
  \qecho [-n] [STRING]   write string to \o output stream (-n for no newline)
  \warn [-n] [STRING]    write string to standard error (-n for no newline)

Pipelines
  \startpipeline         submit the following statements without waiting, so
                         calls share epochs
  \endpipeline           print their results in submission order, end pipeline
  \getresults [N]        print the results of the first N (all) pending statements

Conditional
  \if EXPR               begin conditional block
  \elif EXPR             alternative within current conditional block
  \else                  final alternative within current conditional block
  \endif                 end conditional block

Informational
  \d                     list tables and sequences
  \d      NAME           describe table, sequence, or index
  \df     [PATTERN]      list functions and procedures
  \di     [PATTERN]      list indexes
  \ds     [PATTERN]      list sequences
  \dt     [PATTERN]      list tables
  \dn     [PATTERN]      list schemas
  \dD     [PATTERN]      list domains
  \dT[+]  [PATTERN]      list data types (the enum types; + with their labels)
  \dv     [PATTERN]      list (system) views: caracal_write_sets, caracal_stat_durability
  \dw     NAME           show the inferred write set of a procedure
  \l                     list databases (the one embedded database)
  \sf[+]  FUNCNAME       show a function's definition (+: with body line numbers)

Formatting
  \a                     toggle between unaligned and aligned output mode
  \C [STRING]            set table title, or unset if none
  \f [STRING]            show or set field separator for unaligned query output
  \pset [NAME [VALUE]]   set table output option
                         (border|columns|csv_fieldsep|expanded|fieldsep|
                         fieldsep_zero|footer|format|linestyle|null|
                         pager|pager_min_lines|recordsep|recordsep_zero|
                         title|tuples_only)
  \t [on|off]            show only rows
  \x [on|off|auto]       toggle expanded output

Connection
  \conninfo              display information about the database
  \encoding [ENCODING]   show client encoding (always UTF8)

Operating System
  \cd [DIR]              change the current working directory
  \getenv VAR ENVVAR     fetch environment variable
  \setenv NAME [VALUE]   set or unset environment variable
  \timing [on|off]       toggle timing of commands
  \! [COMMAND]           execute command in shell or start interactive shell

Variables
  \prompt [TEXT] NAME    prompt user to set internal variable
  \set [NAME [VALUE]]    set internal variable, or list all if no parameters
  \unset NAME            unset (delete) internal variable
)";
}

std::string OptionsHelp() {
  return R"(caracal is the shell of the caracal database: a deterministic, main-memory
OLTP database with a PostgreSQL-flavoured SQL front end.

Usage:
  caracal [OPTION]... [DATADIR]

With DATADIR the database is durable: created there if missing, recovered on start.
With no DATADIR the database is embedded and in memory: nothing is saved on exit.

General options:
  -c, --command=COMMAND    run only single command (SQL or internal) and exit
  -f, --file=FILENAME      execute commands from file, then exit
  -v, --set=, --variable=NAME=VALUE
                           set variable NAME to VALUE
                           (e.g., -v ON_ERROR_STOP=1)
  -V, --version            output version information, then exit
  -X, --no-psqlrc          do not read startup file (~/.caracalrc)
  -1 ("one"), --single-transaction
                           run the commands and files as one pipeline
  -?, --help[=options]     show this help, then exit
      --help=commands      list backslash commands, then exit
      --help=variables     list special variables, then exit

Input and output options:
  -a, --echo-all           echo all input from script
  -b, --echo-errors        echo failed commands
  -e, --echo-queries       echo commands sent to the database
  -n, --no-readline        disable enhanced command line editing (libedit)
  -o, --output=FILENAME    send query results to file (or |pipe)
  -q, --quiet              run quietly (no messages, only query output)
  -S, --single-line        single-line mode (end of line terminates SQL command)

Output format options:
  -A, --no-align           unaligned table output mode
      --csv                CSV (Comma-Separated Values) table output mode
  -F, --field-separator=STRING
                           field separator for unaligned output (default: "|")
  -P, --pset=VAR[=ARG]     set printing option VAR to ARG (see \pset command)
  -R, --record-separator=STRING
                           record separator for unaligned output (default: newline)
  -t, --tuples-only        print rows only
  -x, --expanded           turn on expanded table output
  -z, --field-separator-zero
                           set field separator for unaligned output to zero byte
  -0, --record-separator-zero
                           set record separator for unaligned output to zero byte

Engine options:
      --workers=N          worker threads (default: 2; also SET caracal.workers)

Server options (serve PostgreSQL clients instead of the shell):
      --listen=[HOST:]PORT serve the PostgreSQL wire protocol (default host 127.0.0.1)
      --password-file=FILE SCRAM-SHA-256 password (or $CARACAL_PASSWORD); else trust
      --trust-remote       without a password, trust non-loopback clients too
      --max-connections=N  clients served at once (default: 200)
      --max-message-bytes=N  largest message accepted (default: 64 MB)
      --idle-timeout=S     close connections idle this long (default: 0, never)
      --startup-timeout=S  time allowed to connect and authenticate (default: 10)

For more information, type "\?" (for internal commands) or "\help" (for SQL
commands) from within caracal.
)";
}

std::string VariablesHelp() {
  return R"(List of specially treated variables

caracal variables:
Usage:
  caracal --set=NAME=VALUE
  or \set NAME VALUE inside caracal

  COMP_KEYWORD_CASE
    determines the case used to complete SQL key words
    [lower, upper, preserve-lower, preserve-upper]
  DBNAME
    the database name ("caracal")
  ECHO
    controls what input is written to standard output
    [all, errors, none, queries]
  ERROR
    true if last query failed, else false
  HISTCONTROL
    controls command history [ignorespace, ignoredups, ignoreboth]
  HISTFILE
    file name used to store the command history
  HISTSIZE
    maximum number of commands to store in the command history
  IGNOREEOF
    number of EOFs needed to terminate an interactive session
  LAST_ERROR_MESSAGE
  LAST_ERROR_SQLSTATE
    message and SQLSTATE of last error, or empty string and "00000" if none
  ON_ERROR_STOP
    stop batch execution after error
  PROMPT1
    specifies the standard caracal prompt
  PROMPT2
    specifies the prompt used when a statement continues from a previous line
  QUIET
    run quietly (same as -q option)
  ROW_COUNT
    number of rows returned or affected by last query, or 0
  SHOW_CONTEXT
    controls display of message context fields [never, errors, always]
  SINGLELINE
    if set, end of line terminates SQL commands (same as -S option)
  SQLSTATE
    SQLSTATE of last query, or "00000" if no error
  VERBOSITY
    controls verbosity of error reports [default, verbose, terse, sqlstate]

Display settings:
Usage:
  caracal --pset=NAME[=VALUE]
  or \pset NAME [VALUE] inside caracal

  border     border style (number)
  columns    target width for the auto expanded format
  csv_fieldsep
             field separator for CSV output format (default ",")
  expanded (or x)
             expanded output [on, off, auto]
  fieldsep   field separator for unaligned output (default "|")
  fieldsep_zero
             set field separator for unaligned output to a zero byte
  footer     enable or disable display of the table footer [on, off]
  format     set output format [unaligned, aligned, csv]
  linestyle  set the border line drawing style [ascii, unicode]
  null       set the string to be printed in place of a null value
  pager      control when an external pager is used [yes, no, always]
  recordsep  record (line) separator for unaligned output
  recordsep_zero
             set record separator for unaligned output to a zero byte
  title      set the table title for subsequently printed tables
  tuples_only
             if set, only actual table data is shown

Environment variables:
  COLUMNS    number of columns for expanded=auto
  CARACALRC  alternative location for the user's .caracalrc file
  PSQL_PAGER, PAGER
             name of external pager program
)";
}

namespace {

struct SqlCommand {
  const char* name;
  const char* description;
  const char* syntax;
};

const std::vector<SqlCommand>& SqlCommands() {
  static const std::vector<SqlCommand> commands = {
      {"CALL", "invoke a procedure (as one transaction)", "CALL name ( [ argument ] [, ...] )"},
      {"COPY", "copy data between a file and a table",
       "COPY table_name [ ( column_name [, ...] ) ]\n    FROM { 'filename' | STDIN }\n    [ [ WITH ] ( option [, ...] ) ]\n\n"
       "COPY { table_name [ ( column_name [, ...] ) ] | ( query ) }\n    TO { 'filename' | STDOUT }\n"
       "    [ [ WITH ] ( option [, ...] ) ]\n\n"
       "where option can be one of:\n\n    FORMAT format_name\n    HEADER [ boolean ]\n    DELIMITER 'delimiter_character'\n"
       "    NULL 'null_string'\n    QUOTE 'quote_character'\n    ESCAPE 'escape_character'"},
      {"CREATE FUNCTION", "define a new function (LANGUAGE plpgsql)",
       "CREATE [ OR REPLACE ] FUNCTION\n    name ( [ [ argmode ] [ argname ] argtype [, ...] ] )\n"
       "    [ RETURNS rettype\n      | RETURNS TABLE ( column_name column_type [, ...] ) ]\n"
       "    LANGUAGE plpgsql\n    AS $$ definition $$"},
      {"CREATE INDEX", "define a new (non-unique, ordered) index",
       "CREATE INDEX [ [ IF NOT EXISTS ] name ] ON table_name ( column_name [, ...] )"},
      {"CREATE PROCEDURE", "define a new procedure (LANGUAGE plpgsql)",
       "CREATE [ OR REPLACE ] PROCEDURE\n    name ( [ [ argmode ] [ argname ] argtype [, ...] ] )\n"
       "    LANGUAGE plpgsql\n    AS $$ definition $$"},
      {"CREATE SEQUENCE", "define a new sequence generator",
       "CREATE SEQUENCE [ IF NOT EXISTS ] name\n    [ INCREMENT [ BY ] increment ]\n    [ START [ WITH ] start ]"},
      {"CREATE TABLE", "define a new table",
       "CREATE TABLE [ IF NOT EXISTS ] table_name ( [\n  { column_name data_type [ NOT NULL | NULL ] [ DEFAULT expr ]"
       " [ PRIMARY KEY ]\n    | PRIMARY KEY ( column_name [, ... ] ) }\n    [, ... ]\n] )\n\n"
       "where data_type is one of: smallint, integer, bigint, real, double precision,\n"
       "numeric(p,s), boolean, char(n), varchar(n), text, timestamp"},
      {"DELETE", "delete rows of a table (one transaction)",
       "DELETE FROM table_name\n    [ WHERE condition ]\n    [ RETURNING output_expression [, ...] ]"},
      {"DROP FUNCTION", "remove a function", "DROP FUNCTION [ IF EXISTS ] name [ ( [ argtype [, ...] ] ) ]"},
      {"DROP INDEX", "remove an index", "DROP INDEX [ IF EXISTS ] name [, ...]"},
      {"DROP PROCEDURE", "remove a procedure", "DROP PROCEDURE [ IF EXISTS ] name [ ( [ argtype [, ...] ] ) ]"},
      {"DROP SEQUENCE", "remove a sequence", "DROP SEQUENCE [ IF EXISTS ] name [, ...]"},
      {"DROP TABLE", "remove a table", "DROP TABLE [ IF EXISTS ] name [, ...]"},
      {"EXPLAIN", "show the plan of a query, or the write set of a write, a procedure or a call",
       "EXPLAIN [ ( option [, ...] ) ] { SELECT | INSERT | UPDATE | DELETE } ...\nEXPLAIN PROCEDURE name\nEXPLAIN CALL name ( [ argument ] [, ...] )\n\n"
       "where option can be COSTS, VERBOSE, ... [ boolean ] (accepted, no effect) or FORMAT TEXT"},
      {"INSERT", "create new rows in a table (one transaction)",
       "INSERT INTO table_name [ ( column_name [, ...] ) ]\n    VALUES ( expression [, ...] ) [, ...]\n"
       "    [ ON CONFLICT ( column_name [, ...] ) DO NOTHING | DO UPDATE SET column_name = expression [, ...] ]\n"
       "    [ RETURNING output_expression [, ...] ]"},
      {"RESET", "restore the value of a run-time parameter to the default value",
       "RESET configuration_parameter\nRESET ALL"},
      {"SELECT", "retrieve rows from a table (the last committed epoch), or call a function",
       "SELECT [ DISTINCT ] expression [ [ AS ] output_name ] [, ...]\n    [ FROM table_name ]\n"
       "    [ WHERE condition ]\n    [ GROUP BY expression [, ...] ]\n    [ HAVING condition ]\n"
       "    [ ORDER BY expression [ ASC | DESC ] [, ...] ]\n    [ LIMIT count ] [ OFFSET start ]\n\n"
       "SELECT function_name ( [ argument ] [, ...] )\nSELECT * FROM function_name ( [ argument ] [, ...] )"},
      {"SET", "change a run-time parameter",
       "SET configuration_parameter { TO | = } { value | 'value' | DEFAULT }\n\n"
       "SHOW ALL lists the parameters (caracal.workers, caracal.epoch_max_txns, ...)."},
      {"SHOW", "show the value of a run-time parameter", "SHOW name\nSHOW ALL"},
      {"UPDATE", "update rows of a table (one transaction)",
       "UPDATE table_name\n    SET column_name = expression [, ...]\n    [ WHERE condition ]\n"
       "    [ RETURNING output_expression [, ...] ]"},
  };
  return commands;
}

std::string Describe(const SqlCommand& c) {
  return fmt::format("Command:     {}\nDescription: {}\nSyntax:\n{}\n\n", c.name, c.description, c.syntax);
}

}  // namespace

std::string SqlHelp(const std::string& raw) {
  std::string topic;
  bool space = false;
  for (char c : raw) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !topic.empty();
      continue;
    }
    if (space) topic += ' ';
    space = false;
    topic += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  while (!topic.empty() && topic.back() == ';') topic.pop_back();
  const auto& commands = SqlCommands();
  if (topic.empty()) {
    // Two columns, as psql lays them out.
    std::string out = "Available help:\n";
    size_t half = (commands.size() + 1) / 2;
    for (size_t i = 0; i < half; ++i) {
      std::string left = commands[i].name;
      out += "  " + left;
      if (i + half < commands.size()) out += std::string(33 - left.size(), ' ') + commands[i + half].name;
      out += "\n";
    }
    return out + "\n";
  }
  std::string out;
  if (topic == "*") {
    for (const SqlCommand& c : commands) out += Describe(c);
    return out;
  }
  // A topic names every command that starts with it (\h create), or the one whose name
  // starts the topic (\h select * from t).
  for (const SqlCommand& c : commands)
    if (std::string(c.name).rfind(topic, 0) == 0) out += Describe(c);
  if (out.empty())
    for (const SqlCommand& c : commands)
      if (topic.rfind(c.name, 0) == 0) out += Describe(c);
  if (out.empty())
    return fmt::format("No help available for \"{}\".\nTry \\h with no arguments to see available help.\n", raw);
  return out;
}

}  // namespace caracal::frontend
