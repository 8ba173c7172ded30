// Aggregate accumulators for count/sum/min/max/avg with PostgreSQL's result types:
// sum(int2/int4) -> bigint, sum(int8) -> numeric, avg(integer or numeric) -> numeric
// with PostgreSQL's division scale, avg(float) -> double precision; array_agg(x) -> x[]
// (NULL over no rows; DISTINCT and ORDER BY x as the Expr says). With DISTINCT the
// other aggregates keep their non-NULL values and aggregate the distinct ones at the end.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/types/datum.h"
#include "planner/expr/expr.h"

namespace caracal::planner {

class Accumulator {
 public:
  Accumulator(AggFunc func, SqlType arg_type, SqlType result_type, bool distinct = false, int8_t sort = 0)
      : func_(func), arg_type_(arg_type), result_type_(result_type), distinct_(distinct), sort_(sort) {}

  // count(*) passes a non-null placeholder. By value: array_agg, min and max keep it.
  void Add(Datum value);
  // Add(Datum::Int(v)) and Add(Datum::Num(v)) for a non-NULL value, without the Datum
  // where count, sum, avg and array_agg of integers need none (SelectRows reads a
  // column argument unboxed: stock_level's item ids, Delivery's amounts).
  void AddInt(int64_t v);
  void AddNumeric(const Numeric& v);
  // string_agg: the value, preceded (unless it is the first) by the delimiter.
  void AddDelimited(Datum value, Datum delimiter);
  // array_agg / string_agg ordered by keys other than the value (Expr::order): `order`
  // per key (Expr::kOrderDescending | kOrderNullsFirst), the keys' types. Before any Add.
  void OrderBy(std::vector<uint8_t> order, std::vector<SqlType> key_types);
  // A value with its ORDER BY keys (and string_agg's delimiter; NULL for array_agg).
  void AddOrdered(Datum value, Datum delimiter, std::vector<Datum> keys);
  Datum Result() const;

 private:
  // The elements' positions sorted by their ORDER BY keys (OrderBy); without keys, in
  // input order.
  std::vector<size_t> KeyOrder() const;

  AggFunc func_;
  SqlType arg_type_;
  SqlType result_type_;
  int64_t count_ = 0;
  Numeric sum_;     // integer and numeric sums
  double fsum_ = 0;  // float sums
  datetime::Interval isum_;  // sum / avg of intervals
  Datum best_;      // min / max
  bool distinct_;
  int8_t sort_;
  std::vector<Datum> elements_;  // array_agg (NULLs included, as PostgreSQL)
  // array_agg of an integer type while every value so far was a non-NULL integer: the
  // values, unboxed (stock_level aggregates hundreds of item ids per call). The first
  // other value moves them into elements_.
  std::vector<int64_t> ints_;
  bool ints_only_ = true;
  std::vector<Datum> distinct_values_;
  std::vector<Datum> delimiters_;  // string_agg: each element's delimiter
  std::vector<uint8_t> order_;              // OrderBy
  std::vector<SqlType> key_types_;
  std::vector<std::vector<Datum>> keys_;    // each element's ORDER BY keys
  bool bool_result_ = false;       // bool_and / bool_or over the non-NULL values so far  // DISTINCT count/sum/avg/min/max: the non-NULL values
};

}  // namespace caracal::planner
