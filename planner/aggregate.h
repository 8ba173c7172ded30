// Aggregate accumulators for count/sum/min/max/avg with PostgreSQL's result types:
// sum(int2/int4) -> bigint, sum(int8) -> numeric, avg(integer or numeric) -> numeric
// with PostgreSQL's division scale, avg(float) -> double precision.
#pragma once

#include "planner/datum.h"
#include "planner/expr.h"

namespace caracal::planner {

class Accumulator {
 public:
  Accumulator(AggFunc func, SqlType arg_type, SqlType result_type)
      : func_(func), arg_type_(arg_type), result_type_(result_type) {}

  // count(*) passes a non-null placeholder.
  void Add(const Datum& value);
  Datum Result() const;

 private:
  AggFunc func_;
  SqlType arg_type_;
  SqlType result_type_;
  int64_t count_ = 0;
  Numeric sum_;     // integer and numeric sums
  double fsum_ = 0;  // float sums
  Datum best_;      // min / max
};

}  // namespace caracal::planner
