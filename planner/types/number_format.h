// to_char(number, format): PostgreSQL's numeric template patterns (formatting.c) -
// 9 and 0 digit positions, . and D, , and G (the C locale's '.' and ','), FM, S, MI,
// SG, PL, PR, TH / th, and quoted or literal text. A value with more integer digits
// than the format has positions prints '#' in every digit position.
#pragma once

#include <string>
#include <string_view>

#include "planner/types/numeric.h"

namespace caracal::planner {

// `digits`: the value's absolute digits with a '.' (as Numeric::ToString or printf
// print them, already rounded to the format's fractional positions by the caller via
// FractionDigits); `negative`: its sign.
std::string FormatNumber(std::string_view digits, bool negative, std::string_view format);

// How many fractional positions `format` has (the value is rounded to them first).
int FractionDigits(std::string_view format);

}  // namespace caracal::planner
