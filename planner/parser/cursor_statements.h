// The cursor statements of a PL/pgSQL body, taken out of it before libpg_query parses it.
//
// Debian 12's libpg_query cannot parse them: its PL/pgSQL compiler has no catalog, so to
// it no variable is of type refcursor, and OPEN / FETCH / MOVE / CLOSE / FOR over a
// cursor all fail ("variable "c" must be of type cursor or refcursor"). Each is replaced
// by a statement it does parse, which carries its CursorStatement's number N in the
// marker call "$caracal_cursor"(N):
//   c [NO] SCROLL CURSOR [(params)] FOR q;  ->  c refcursor := "$caracal_cursor"(N);
//   OPEN ...;  MOVE ...;  CLOSE c;           ->  PERFORM "$caracal_cursor"(N);
//   FETCH ... c INTO target;                 ->  SELECT "$caracal_cursor"(N) INTO target;
//   [<<l>>] FOR r IN c [(args)] LOOP ... END LOOP [l];
//     -> DECLARE r record; BEGIN [<<l>>] FOR r IN SELECT "$caracal_cursor"(N) LOOP ... END LOOP [l]; END;
// (a cursor FOR loop's variable is a record of its own, as in PL/pgSQL). PL/pgSQL still
// parses the INTO target and the loop body, and checks the rest of the body. Every
// replacement keeps the newlines of what it replaces, so statements stay on their lines
// (CONTEXT's line numbers are the user's). The procedure binder lowers each statement
// (binder/cursor_binder.cc). Words are found by token, never inside strings or comments.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace caracal::planner {

struct CursorStatement {
  enum class Kind : uint8_t { kDeclare, kOpen, kFetch, kMove, kClose, kFor };
  // FETCH / MOVE directions, as PL/pgSQL reads them. kForward / kBackward with a count
  // (or ALL) move over several rows: MOVE only.
  enum class Direction : uint8_t { kNext, kPrior, kFirst, kLast, kAbsolute, kRelative, kForward, kBackward };
  enum class Scroll : uint8_t { kDefault, kScroll, kNoScroll };
  struct Argument {
    std::string name;  // named notation (`p := e`, `p => e`); "" when positional
    std::string value;
  };

  Kind kind = Kind::kOpen;
  std::string cursor;  // the cursor variable, folded
  int line = 0;        // 1-based line in the body
  // kDeclare: the cursor's parameters (name folded, type as written) and its query;
  // kOpen: the query of OPEN c FOR q (empty for a bound cursor's OPEN).
  std::vector<std::pair<std::string, std::string>> parameters;
  std::string query;
  bool execute = false;  // OPEN c FOR EXECUTE
  Scroll scroll = Scroll::kDefault;
  std::vector<Argument> arguments;  // kOpen / kFor of a bound cursor: OPEN c(args)
  bool has_arguments = false;       // an argument list was written, even `()`
  Direction direction = Direction::kNext;
  std::string count;  // kAbsolute / kRelative / kForward / kBackward: the count's expression
  bool all = false;   // FORWARD ALL / BACKWARD ALL / ALL
  bool multiple_rows = false;  // a count or ALL: not allowed in FETCH
  // kFor: the loop variable.
  std::string loop_variable;
};

// The marker call standing for statement `n`.
std::string CursorMarker(size_t n);
// The number of the statement that `text` (an expression or a statement, optionally
// beginning with SELECT) is the marker of; nullopt if it is not a marker.
std::optional<size_t> CursorMarkerNumber(std::string_view text);

// Rewrites the cursor statements of `body` in place (see above) and returns them, in
// the order of their numbers.
std::vector<CursorStatement> TakeCursorStatements(std::string& body);

}  // namespace caracal::planner
