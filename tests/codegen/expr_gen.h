// A seeded generator of SQL expression text over the types of DESIGN §3 (integers of every
// width, numeric(p,s), real/double, text/char/varchar, boolean, timestamp, NULLs), built
// to be mostly well-typed; what the binder rejects is skipped by the caller.
#pragma once

#include <random>
#include <string>
#include <vector>

namespace caracal::codegen::testing {

enum class Cat { kInt, kNum, kFloat, kText, kBool, kTs };

class ExprGen {
 public:
  ExprGen(uint64_t seed, std::vector<std::pair<std::string, Cat>> names) : rng_(seed), names_(std::move(names)) {}

  std::string Any(int depth) { return Gen(static_cast<Cat>(Pick(6)), depth); }

  std::string Gen(Cat c, int depth) {
    if (depth <= 0 || Pick(4) == 0) return Leaf(c);
    switch (c) {
      case Cat::kInt: return Int(depth - 1);
      case Cat::kNum: return Num(depth - 1);
      case Cat::kFloat: return Float(depth - 1);
      case Cat::kText: return Text(depth - 1);
      case Cat::kBool: return Bool(depth - 1);
      case Cat::kTs: return Leaf(c);
    }
    return Leaf(c);
  }

 private:
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  template <typename T>
  const T& One(const std::vector<T>& v) { return v[Pick(static_cast<int>(v.size()))]; }

  std::string Var(Cat c) {
    std::vector<std::string> fit;
    for (const auto& [n, cat] : names_)
      if (cat == c) fit.push_back(n);
    return fit.empty() ? Literal(c) : One(fit);
  }

  std::string Literal(Cat c) {
    switch (c) {
      case Cat::kInt:
        return One<std::string>({"0", "1", "-1", "7", "42", "-3", "100", "32767", "-32768", "2147483647", "-2147483648",
                                 "9223372036854775807", "(-9223372036854775807 - 1)", "3::smallint", "null::int",
                                 "5::bigint", "65536"});
      case Cat::kNum:
        return One<std::string>({"1.5", "0.001", "-2.25", "123.456", "1.0", "0.0", "99999999.99", "3::numeric",
                                 "1e10::numeric", "null::numeric", "7.125::numeric(6,3)", "-0.5"});
      case Cat::kFloat:
        return One<std::string>({"1.5::float8", "0::float8", "-2.5::float8", "1e308::float8", "1e-300::float8",
                                 "'NaN'::float8", "'Infinity'::float8", "3.25::real", "1e38::real", "null::float8",
                                 "0.1::float8"});
      case Cat::kText:
        return One<std::string>({"'abc'", "''", "'Hello World'", "'a%'", "'_b%'", "'  pad  '", "'123'", "'12.5'",
                                 "'x'", "null::text", "'ab'::char(4)", "'xyz'::varchar(5)", "'t'", "'2024-02-29 12:00:00'",
                                 "'héllo'"});
      case Cat::kBool: return One<std::string>({"true", "false", "null::boolean"});
      case Cat::kTs:
        return One<std::string>({"'2024-01-01 10:00:00'::timestamp", "'1999-12-31 23:59:59.5'::timestamp",
                                 "null::timestamp"});
    }
    return "null";
  }

  std::string Leaf(Cat c) { return Pick(2) == 0 ? Var(c) : Literal(c); }

  std::string Int(int d) {
    switch (Pick(16)) {
      case 0: case 1: case 2:
        return "(" + Gen(Cat::kInt, d) + " " + One<std::string>({"+", "-", "*", "/", "%"}) + " " + Gen(Cat::kInt, d) + ")";
      case 3: return "(-" + Gen(Cat::kInt, d) + ")";
      case 4: return One<std::string>({"abs", "sign"}) == "abs" ? "abs(" + Gen(Cat::kInt, d) + ")" : "mod(" + Gen(Cat::kInt, d) + ", " + Gen(Cat::kInt, d) + ")";
      case 5: return One<std::string>({"length(", "char_length("}) + Gen(Cat::kText, d) + ")";
      case 6: return "strpos(" + Gen(Cat::kText, d) + ", " + Gen(Cat::kText, d) + ")";
      case 7: return "CASE WHEN " + Gen(Cat::kBool, d) + " THEN " + Gen(Cat::kInt, d) + " ELSE " + Gen(Cat::kInt, d) + " END";
      case 8: return "coalesce(" + Gen(Cat::kInt, d) + ", " + Gen(Cat::kInt, d) + ")";
      case 9: return "nullif(" + Gen(Cat::kInt, d) + ", " + Gen(Cat::kInt, d) + ")";
      case 10: return One<std::string>({"greatest(", "least("}) + Gen(Cat::kInt, d) + ", " + Gen(Cat::kInt, d) + ", " + Gen(Cat::kInt, d) + ")";
      case 11: return "CAST(" + Gen(Cat::kFloat, d) + " AS " + One<std::string>({"int", "smallint", "bigint"}) + ")";
      case 12: return "CAST(" + Gen(Cat::kNum, d) + " AS " + One<std::string>({"int", "smallint", "bigint"}) + ")";
      case 13: return "CAST(" + Gen(Cat::kText, d) + " AS " + One<std::string>({"int", "smallint", "bigint"}) + ")";
      case 14: return "(" + Gen(Cat::kInt, d) + ")::" + One<std::string>({"smallint", "int", "bigint"});
      default: return "CASE " + Gen(Cat::kInt, d) + " WHEN 1 THEN " + Gen(Cat::kInt, d) + " WHEN 2 THEN 2 END";
    }
  }

  std::string Num(int d) {
    switch (Pick(11)) {
      case 0: case 1: case 2: {
        Cat other = Pick(3) == 0 ? Cat::kInt : Cat::kNum;
        return "(" + Gen(Cat::kNum, d) + " " + One<std::string>({"+", "-", "*", "/", "%"}) + " " + Gen(other, d) + ")";
      }
      case 3: return "(-" + Gen(Cat::kNum, d) + ")";
      case 4: return One<std::string>({"round(", "trunc("}) + Gen(Cat::kNum, d) + ", " + One<std::string>({"0", "1", "2", "-1", "5"}) + ")";
      case 5: return One<std::string>({"abs(", "floor(", "ceil(", "sign(", "round(", "trunc("}) + Gen(Cat::kNum, d) + ")";
      case 6: return "CAST(" + Gen(Pick(2) ? Cat::kNum : Cat::kInt, d) + " AS " + One<std::string>({"numeric(5,2)", "numeric(10,3)", "numeric(3,0)", "numeric"}) + ")";
      case 7: return "CAST(" + Gen(Cat::kFloat, d) + " AS numeric)";
      case 8: return "CAST(" + Gen(Cat::kText, d) + " AS numeric)";
      case 9: return "coalesce(" + Gen(Cat::kNum, d) + ", " + Gen(Cat::kNum, d) + ")";
      default: return "CASE WHEN " + Gen(Cat::kBool, d) + " THEN " + Gen(Cat::kNum, d) + " ELSE " + Gen(Cat::kInt, d) + " END";
    }
  }

  std::string Float(int d) {
    switch (Pick(8)) {
      case 0: case 1: case 2: {
        Cat other = Pick(3) == 0 ? Cat::kInt : Cat::kFloat;
        return "(" + Gen(Cat::kFloat, d) + " " + One<std::string>({"+", "-", "*", "/"}) + " " + Gen(other, d) + ")";
      }
      case 3: return "(-" + Gen(Cat::kFloat, d) + ")";
      case 4: return One<std::string>({"sqrt(", "abs(", "floor(", "ceil(", "round(", "trunc(", "sign("}) + Gen(Cat::kFloat, d) + ")";
      case 5: return "power(" + Gen(Cat::kFloat, d) + ", " + Gen(Cat::kFloat, d) + ")";
      case 6: return "CAST(" + Gen(One<Cat>({Cat::kInt, Cat::kNum, Cat::kText, Cat::kFloat}), d) + " AS " + One<std::string>({"real", "float8"}) + ")";
      default: return "greatest(" + Gen(Cat::kFloat, d) + ", " + Gen(Cat::kFloat, d) + ")";
    }
  }

  std::string Text(int d) {
    switch (Pick(12)) {
      case 0: case 1: return "(" + Gen(Cat::kText, d) + " || " + Gen(One<Cat>({Cat::kText, Cat::kInt, Cat::kNum, Cat::kFloat, Cat::kBool}), d) + ")";
      case 2: return One<std::string>({"lower(", "upper(", "btrim(", "ltrim(", "rtrim("}) + Gen(Cat::kText, d) + ")";
      case 3: return "substr(" + Gen(Cat::kText, d) + ", " + Gen(Cat::kInt, d) + (Pick(2) ? ", " + Gen(Cat::kInt, d) : "") + ")";
      case 4: return "replace(" + Gen(Cat::kText, d) + ", " + Gen(Cat::kText, d) + ", " + Gen(Cat::kText, d) + ")";
      case 5: return One<std::string>({"left(", "right("}) + Gen(Cat::kText, d) + ", " + Gen(Cat::kInt, d) + ")";
      case 6: return "concat(" + Gen(Cat::kText, d) + ", " + Gen(Cat::kInt, d) + ", " + Gen(Cat::kText, d) + ")";
      case 7: return "CAST(" + Gen(One<Cat>({Cat::kInt, Cat::kNum, Cat::kFloat, Cat::kBool, Cat::kTs}), d) + " AS " + One<std::string>({"text", "varchar(3)", "char(6)", "varchar"}) + ")";
      case 8: return "coalesce(" + Gen(Cat::kText, d) + ", " + Gen(Cat::kText, d) + ")";
      case 9: return "CASE WHEN " + Gen(Cat::kBool, d) + " THEN " + Gen(Cat::kText, d) + " ELSE " + Gen(Cat::kText, d) + " END";
      case 10: return One<std::string>({"greatest(", "least("}) + Gen(Cat::kText, d) + ", " + Gen(Cat::kText, d) + ")";
      default: return "nullif(" + Gen(Cat::kText, d) + ", " + Gen(Cat::kText, d) + ")";
    }
  }

  std::string Bool(int d) {
    switch (Pick(12)) {
      case 0: case 1: case 2: {
        Cat c = static_cast<Cat>(Pick(6));
        return "(" + Gen(c, d) + " " + One<std::string>({"=", "<>", "<", "<=", ">", ">="}) + " " + Gen(c, d) + ")";
      }
      case 3: return "(" + Gen(Cat::kBool, d) + " AND " + Gen(Cat::kBool, d) + (Pick(2) ? " AND " + Gen(Cat::kBool, d) : "") + ")";
      case 4: return "(" + Gen(Cat::kBool, d) + " OR " + Gen(Cat::kBool, d) + ")";
      case 5: return "(NOT " + Gen(Cat::kBool, d) + ")";
      case 6: return "(" + Gen(static_cast<Cat>(Pick(6)), d) + One<std::string>({" IS NULL)", " IS NOT NULL)"});
      case 7: return "(" + Gen(Cat::kBool, d) + One<std::string>({" IS TRUE)", " IS NOT TRUE)", " IS FALSE)", " IS NOT FALSE)", " IS UNKNOWN)", " IS NOT UNKNOWN)"});
      case 8: {
        Cat c = One<Cat>({Cat::kInt, Cat::kText, Cat::kNum, Cat::kFloat});
        return "(" + Gen(c, d) + (Pick(2) ? " NOT IN (" : " IN (") + Gen(c, d) + ", " + Gen(c, d) + ", " + Gen(c, d) + "))";
      }
      case 9: return "(" + Gen(Cat::kText, d) + One<std::string>({" LIKE ", " NOT LIKE ", " ILIKE ", " NOT ILIKE "}) + Gen(Cat::kText, d) + ")";
      case 10: return "(" + Gen(Cat::kInt, d) + " BETWEEN " + Gen(Cat::kInt, d) + " AND " + Gen(Cat::kInt, d) + ")";
      default: return "CAST(" + Gen(One<Cat>({Cat::kText, Cat::kInt}), d) + " AS boolean)";
    }
  }

  std::mt19937_64 rng_;
  std::vector<std::pair<std::string, Cat>> names_;
};

}  // namespace caracal::codegen::testing
