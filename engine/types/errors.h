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
