// Errors a caller of the engine can cause. They carry a PostgreSQL SQLSTATE so the SQL
// layer can report them unchanged.
#pragma once

#include <stdexcept>
#include <string>

namespace caracal::engine {

class EngineError : public std::runtime_error {
 public:
  EngineError(std::string sqlstate, const std::string& message)
      : std::runtime_error(message), sqlstate_(std::move(sqlstate)) {}
  const std::string& sqlstate() const { return sqlstate_; }

 private:
  std::string sqlstate_;
};

// An error with PostgreSQL's DETAIL / HINT / CONTEXT fields, for a procedure's Sequence
// step (a nextval() past its bound, in the statement that called it).
class DetailedError : public EngineError {
 public:
  DetailedError(std::string sqlstate, const std::string& message, std::string detail, std::string hint,
                std::string context)
      : EngineError(std::move(sqlstate), message),
        detail_(std::move(detail)),
        hint_(std::move(hint)),
        context_(std::move(context)) {}
  const std::string& detail() const { return detail_; }
  const std::string& hint() const { return hint_; }
  const std::string& context() const { return context_; }

 private:
  std::string detail_, hint_, context_;
};

// A malformed key: wrong arity, wrong type, NULL in a key column.
class KeyError : public EngineError {
 public:
  explicit KeyError(const std::string& message) : EngineError("22000", message) {}
};

// Procedure API misuse: writing an undeclared row, a duplicate declaration, ...
class ApiMisuse : public EngineError {
 public:
  explicit ApiMisuse(const std::string& message) : EngineError("XX000", message) {}
};

}  // namespace caracal::engine
