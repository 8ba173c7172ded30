// Value: one typed SQL datum (or NULL), used for procedure arguments, keys, results and
// the logical contents of rows. Row storage itself is the compact RowValue blob.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/types/types.h"

namespace caracal::engine {

class Value {
 public:
  enum class Kind : uint8_t { kNull, kBool, kInt, kDouble, kNumeric, kString, kTimestamp, kArray };

  Value() = default;  // NULL
  static Value Null() { return Value(); }
  static Value Bool(bool b);
  static Value Int(int64_t i);
  static Value Double(double d);
  // A fixed-point number: mantissa * 10^-scale.
  static Value Numeric(int64_t mantissa, int scale);
  static Value String(std::string s);
  static Value Timestamp(int64_t micros);
  static Value Array(std::vector<Value> elements);

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool as_bool() const { return i_ != 0; }
  int64_t as_int() const { return i_; }
  double as_double() const { return d_; }
  int64_t numeric_mantissa() const { return i_; }
  int numeric_scale() const { return scale_; }
  int64_t as_timestamp() const { return i_; }
  const std::string& as_string() const { return s_; }
  const std::vector<Value>& as_array() const { return *array_; }

  // Numeric value rescaled to `scale` (rounding half away from zero, as PostgreSQL).
  int64_t NumericAtScale(int scale) const;
  // Numeric or integer or double as a double.
  double ToDouble() const;

  // PostgreSQL's text output for the value (NULL prints as the empty string).
  std::string ToText() const;

  bool operator==(const Value& other) const;

 private:
  Kind kind_ = Kind::kNull;
  int8_t scale_ = 0;
  union {
    int64_t i_ = 0;
    double d_;
  };
  std::string s_;
  std::shared_ptr<const std::vector<Value>> array_;
};

// 10^n for 0 <= n <= 18.
int64_t PowerOfTen(int n);

}  // namespace caracal::engine
