#include "planner/expr/aggregate.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "planner/types/cast.h"
#include "planner/expr/expr_eval.h"

namespace caracal::planner {

void Accumulator::AddInt(int64_t v) {
  if (distinct_ && func_ != AggFunc::kArrayAgg) return Add(Datum::Int(v));
  switch (func_) {
    case AggFunc::kArrayAgg:
      if (!ints_only_ || !arg_type_.is_integer()) break;
      ints_.push_back(v);
      return;
    case AggFunc::kCountStar:
    case AggFunc::kCount: ++count_; return;
    case AggFunc::kSum:
    case AggFunc::kAvg:
      if (!arg_type_.is_integer()) break;
      ++count_;
      sum_ = sum_ + Numeric::FromInt(v);
      return;
    default: break;
  }
  Add(Datum::Int(v));
}

void Accumulator::AddNumeric(const Numeric& v) {
  if (!distinct_ && (func_ == AggFunc::kSum || func_ == AggFunc::kAvg) && arg_type_.id == TypeId::kNumeric) {
    ++count_;
    sum_ = sum_ + v;
    return;
  }
  Add(Datum::Num(v));
}

void Accumulator::AddDelimited(Datum value, Datum delimiter) {
  if (value.is_null()) return;
  elements_.push_back(std::move(value));
  delimiters_.push_back(std::move(delimiter));
}

void Accumulator::OrderBy(std::vector<uint8_t> order, std::vector<SqlType> key_types) {
  order_ = std::move(order);
  key_types_ = std::move(key_types);
  ints_only_ = false;  // elements_ and keys_ stay aligned
}

void Accumulator::AddOrdered(Datum value, Datum delimiter, std::vector<Datum> keys) {
  if (func_ == AggFunc::kStringAgg) {
    if (value.is_null()) return;
    delimiters_.push_back(std::move(delimiter));
  }
  elements_.push_back(std::move(value));
  keys_.push_back(std::move(keys));
}

std::vector<size_t> Accumulator::KeyOrder() const {
  std::vector<size_t> order(elements_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (order_.empty()) return order;
  // PostgreSQL sorts the rows by the keys; equal keys keep their input order here.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    for (size_t k = 0; k < order_.size(); ++k) {
      const Datum& x = keys_[a][k];
      const Datum& y = keys_[b][k];
      const bool nulls_first = (order_[k] & Expr::kOrderNullsFirst) != 0;
      if (x.is_null() || y.is_null()) {
        if (x.is_null() && y.is_null()) continue;
        return x.is_null() == nulls_first;
      }
      int c = CompareForType(x, y, key_types_[k]);
      if (c == 0) continue;
      return (order_[k] & Expr::kOrderDescending) != 0 ? c > 0 : c < 0;
    }
    return false;
  });
  return order;
}

void Accumulator::Add(Datum v) {
  if (func_ == AggFunc::kArrayAgg) {
    if (ints_only_) {
      if (v.kind == Datum::Kind::kInt && arg_type_.is_integer()) {
        ints_.push_back(v.i);
        return;
      }
      ints_only_ = false;
      elements_.reserve(ints_.size() + 1);
      for (int64_t i : ints_) elements_.push_back(Datum::Int(i));
      ints_.clear();
    }
    elements_.push_back(std::move(v));
    return;
  }
  if (v.is_null()) return;
  if (distinct_) {
    distinct_values_.push_back(std::move(v));
    return;
  }
  ++count_;
  switch (func_) {
    case AggFunc::kCountStar:
    case AggFunc::kCount: return;
    case AggFunc::kSum:
    case AggFunc::kAvg:
      if (v.kind == Datum::Kind::kInt) sum_ = sum_ + Numeric::FromInt(v.i);
      else if (v.kind == Datum::Kind::kNumeric) sum_ = sum_ + v.n;
      else if (v.kind == Datum::Kind::kInterval) isum_ = datetime::AddIntervals(isum_, v.as_interval());
      else fsum_ += v.f;
      return;
    case AggFunc::kArrayAgg:
    case AggFunc::kStringAgg: return;
    case AggFunc::kBoolAnd: bool_result_ = count_ == 1 ? v.as_bool() : bool_result_ && v.as_bool(); return;
    case AggFunc::kBoolOr: bool_result_ = count_ == 1 ? v.as_bool() : bool_result_ || v.as_bool(); return;
    case AggFunc::kMin:
    case AggFunc::kMax: {
      if (best_.is_null()) {
        best_ = std::move(v);
        return;
      }
      int c = CompareForType(v, best_, arg_type_);
      if (func_ == AggFunc::kMin ? c < 0 : c > 0) best_ = std::move(v);
      return;
    }
  }
}

Datum Accumulator::Result() const {
  if (distinct_ && func_ != AggFunc::kArrayAgg) {
    std::vector<Datum> values = distinct_values_;
    std::sort(values.begin(), values.end(),
              [&](const Datum& a, const Datum& b) { return CompareForType(a, b, arg_type_) < 0; });
    Accumulator plain(func_, arg_type_, result_type_);
    for (size_t i = 0; i < values.size(); ++i)
      if (i == 0 || CompareForType(values[i - 1], values[i], arg_type_) != 0) plain.Add(values[i]);
    return plain.Result();
  }
  switch (func_) {
    case AggFunc::kCountStar:
    case AggFunc::kCount: return Datum::Int(count_);
    case AggFunc::kSum:
      if (count_ == 0) return Datum::Null();
      if (arg_type_.id == TypeId::kInterval) return Datum::Interval(isum_);
      if (arg_type_.is_float()) return Datum::Float(result_type_.id == TypeId::kFloat4 ? static_cast<float>(fsum_) : fsum_);
      // sum(int2/int4) is bigint: the integer sum (scale 0) must fit.
      if (result_type_.id == TypeId::kInt8) return Datum::Int(CheckIntRange(sum_.mantissa(), TypeId::kInt8));
      return Datum::Num(sum_);
    case AggFunc::kAvg: {
      if (count_ == 0) return Datum::Null();
      if (arg_type_.id == TypeId::kInterval) return Datum::Interval(datetime::DivideInterval(isum_, static_cast<double>(count_)));
      if (arg_type_.is_float()) return Datum::Float(fsum_ / static_cast<double>(count_));
      return Datum::Num(sum_ / Numeric::FromInt(count_));
    }
    case AggFunc::kMin:
    case AggFunc::kMax:
      return best_;
    case AggFunc::kBoolAnd:
    case AggFunc::kBoolOr: return count_ == 0 ? Datum::Null() : Datum::Bool(bool_result_);
    case AggFunc::kStringAgg: {
      if (elements_.empty()) return Datum::Null();
      std::vector<size_t> order = KeyOrder();  // input order when there are no keys
      if (order_.empty() && sort_ != 0)
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
          int c = CompareForType(elements_[a], elements_[b], arg_type_);
          return sort_ > 0 ? c < 0 : c > 0;
        });
      std::string out;
      for (size_t k = 0; k < order.size(); ++k) {
        if (k > 0 && !delimiters_[order[k]].is_null()) out += delimiters_[order[k]].s;
        out += elements_[order[k]].s;
      }
      return Datum::String(std::move(out));
    }
    case AggFunc::kArrayAgg: {
      if (ints_only_) {
        if (ints_.empty()) return Datum::Null();
        // Integers sort as int64s (equal ones are indistinguishable, so stability is moot).
        std::vector<int64_t> values = ints_;
        if (sort_ > 0) std::sort(values.begin(), values.end());
        else if (sort_ < 0) std::sort(values.begin(), values.end(), std::greater<>());
        // (The binder gives DISTINCT an ORDER BY: equal values are adjacent.)
        if (distinct_) values.erase(std::unique(values.begin(), values.end()), values.end());
        // Set in place: no Datum built and moved per element (stock_level's ~200 ids).
        std::vector<Datum> out(values.size());
        for (size_t k = 0; k < values.size(); ++k) SetScalarDatum(out[k], Datum::Kind::kInt, values[k]);
        return Datum::Array(std::move(out));
      }
      // Here some value was NULL or not an integer (integers alone stay in ints_), or the
      // elements are ordered by other keys.
      if (elements_.empty()) return Datum::Null();
      if (!order_.empty()) {
        std::vector<Datum> out;
        out.reserve(elements_.size());
        for (size_t i : KeyOrder()) out.push_back(elements_[i]);
        return Datum::Array(std::move(out));
      }
      std::vector<Datum> out = elements_;
      auto less = [&](const Datum& a, const Datum& b) {
        if (a.is_null() || b.is_null()) return !a.is_null() && b.is_null() ? sort_ > 0 : (a.is_null() && !b.is_null() && sort_ < 0);
        int c = CompareForType(a, b, arg_type_);
        return sort_ > 0 ? c < 0 : c > 0;
      };
      if (sort_ != 0) std::stable_sort(out.begin(), out.end(), less);
      if (distinct_) {
        auto same = [&](const Datum& a, const Datum& b) {
          if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
          return CompareForType(a, b, arg_type_) == 0;
        };
        out.erase(std::unique(out.begin(), out.end(), same), out.end());
      }
      return Datum::Array(std::move(out));
    }
  }
  return Datum::Null();
}

}  // namespace caracal::planner
