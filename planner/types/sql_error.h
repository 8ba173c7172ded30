// SqlError: every user-caused error of the SQL layers, worded and coded like
// PostgreSQL's (ERROR severity, SQLSTATE, message, optional DETAIL/HINT/CONTEXT and a
// character position into the statement text), so a client can print it as psql does.
#pragma once

#include <stdexcept>
#include <string>

namespace caracal::planner {

class SqlError : public std::runtime_error {
 public:
  SqlError(std::string sqlstate, const std::string& message, int location = -1)
      : std::runtime_error(message), sqlstate_(std::move(sqlstate)), location_(location) {}

  const std::string& sqlstate() const { return sqlstate_; }
  // Byte offset into the parsed text (as libpg_query reports locations), or -1.
  int location() const { return location_; }
  const std::string& hint() const { return hint_; }
  const std::string& detail() const { return detail_; }
  const std::string& context() const { return context_; }

  SqlError& WithHint(std::string hint) { hint_ = std::move(hint); return *this; }
  SqlError& WithDetail(std::string detail) { detail_ = std::move(detail); return *this; }
  SqlError& WithContext(std::string context) { context_ = std::move(context); return *this; }
  // Raised by PL/pgSQL's own handling of a statement (its INTO targets, STRICT) rather
  // than by the SQL the statement runs: PL/pgSQL's CONTEXT then names the statement
  // without quoting its SQL (codegen/runtime/error_context.h).
  bool plpgsql_level() const { return plpgsql_level_; }
  SqlError& AtPlpgsqlLevel() { plpgsql_level_ = true; return *this; }
  // The error leaves a user function called inside an expression: its CONTEXT so far is
  // the called functions' lines, and the caller's statement appends its own
  // (AppendContext), as PostgreSQL's error context stack prints them, innermost first.
  SqlError& LeaveCall() {
    left_call_ = !context_.empty();
    plpgsql_level_ = false;
    location_ = -1;  // a position in the called function's text, not the caller's
    return *this;
  }
  bool left_call() const { return left_call_; }
  SqlError& AppendContext(const std::string& more) {
    context_ = context_.empty() ? more : context_ + "\n" + more;
    left_call_ = false;
    return *this;
  }
  // Sets the location unless one is already known (the innermost node knows best).
  SqlError& AtLocation(int location) {
    if (location_ < 0) location_ = location;
    return *this;
  }
  // Moves a known location by `offset` (the text it refers to starts `offset` bytes into
  // a larger one); an offset < 0 means that place is unknown, and so is the location.
  SqlError& ShiftLocation(int offset) {
    if (location_ >= 0) location_ = offset < 0 ? -1 : location_ + offset;
    return *this;
  }
  // A location in a text built around a piece of another (a DO body inside a CREATE):
  // one at or after `from` (where the piece starts in the built text) moves to `to` (where
  // it starts in the other) plus the distance; one before `from`, or any when `to` < 0
  // (the piece was not found), becomes unknown.
  SqlError& Relocate(int from, int to) {
    if (location_ >= 0) location_ = location_ < from || to < 0 ? -1 : location_ - from + to;
    return *this;
  }

 private:
  std::string sqlstate_;
  int location_;
  std::string hint_, detail_, context_;
  bool plpgsql_level_ = false;
  bool left_call_ = false;
};

// SQLSTATEs used across the planner, named as PostgreSQL's errcodes.h names them.
namespace sqlstate {
inline constexpr const char* kSyntaxError = "42601";
inline constexpr const char* kUndefinedColumn = "42703";
inline constexpr const char* kUndefinedTable = "42P01";
inline constexpr const char* kUndefinedObject = "42704";
inline constexpr const char* kUndefinedFunction = "42883";
inline constexpr const char* kDuplicateTable = "42P07";
inline constexpr const char* kDuplicateColumn = "42701";
inline constexpr const char* kDuplicateObject = "42710";
inline constexpr const char* kDuplicateFunction = "42723";
inline constexpr const char* kDependentObjectsStillExist = "2BP01";
inline constexpr const char* kDatatypeMismatch = "42804";
inline constexpr const char* kCannotCoerce = "42846";
inline constexpr const char* kAmbiguousFunction = "42725";
inline constexpr const char* kGroupingError = "42803";
inline constexpr const char* kInvalidTableDefinition = "42P16";
inline constexpr const char* kInvalidColumnReference = "42P10";
inline constexpr const char* kFeatureNotSupported = "0A000";
inline constexpr const char* kNoActiveSqlTransaction = "25P01";
inline constexpr const char* kDivisionByZero = "22012";
inline constexpr const char* kNumericOutOfRange = "22003";
inline constexpr const char* kInvalidTextRepresentation = "22P02";
inline constexpr const char* kInvalidDatetimeFormat = "22007";
inline constexpr const char* kDatetimeFieldOverflow = "22008";
inline constexpr const char* kStringDataRightTruncation = "22001";
inline constexpr const char* kNotNullViolation = "23502";
inline constexpr const char* kUniqueViolation = "23505";
inline constexpr const char* kForeignKeyViolation = "23503";
inline constexpr const char* kInvalidForeignKey = "42830";
inline constexpr const char* kInvalidParameterValue = "22023";
inline constexpr const char* kNullValueNotAllowed = "22004";
inline constexpr const char* kProgramLimitExceeded = "54000";
inline constexpr const char* kInvalidRowCountInLimit = "2201W";
inline constexpr const char* kInvalidRowCountInOffset = "2201X";
inline constexpr const char* kBadCopyFileFormat = "22P04";
inline constexpr const char* kUndefinedFile = "58P01";
inline constexpr const char* kInvalidObjectDefinition = "42P17";
inline constexpr const char* kObjectNotInPrerequisiteState = "55000";
inline constexpr const char* kInternalError = "XX000";
inline constexpr const char* kInvalidFunctionDefinition = "42P13";
inline constexpr const char* kCardinalityViolation = "21000";
inline constexpr const char* kWindowingError = "42P20";
inline constexpr const char* kAmbiguousColumn = "42702";
}  // namespace sqlstate

// "X is not supported yet" / "Xs are not supported yet" (0A000).
inline SqlError NotSupported(const std::string& what, int location = -1) {
  bool plural = what.size() > 2 && what.back() == 's' && what[what.size() - 2] != 's';
  return SqlError(sqlstate::kFeatureNotSupported, what + (plural ? " are" : " is") + " not supported yet", location);
}

}  // namespace caracal::planner
