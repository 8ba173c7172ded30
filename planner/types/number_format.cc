#include "planner/types/number_format.h"

#include <fmt/format.h>

#include <cctype>
#include <vector>

#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

struct Token {
  enum Kind { kDigit9, kDigit0, kPoint, kGroup, kS, kMI, kSG, kPL, kPR, kTH, kLiteral } kind;
  std::string text;  // kLiteral; kTH: "TH" or "th"
};

bool StartsWithCI(std::string_view s, std::string_view p) {
  if (s.size() < p.size()) return false;
  for (size_t i = 0; i < p.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(s[i])) != std::toupper(static_cast<unsigned char>(p[i]))) return false;
  return true;
}

struct Parsed {
  std::vector<Token> tokens;
  bool fill = false;  // FM
  int int_positions = 0, frac_positions = 0;
  int zero_from = -1;   // the first int position that is a 0
  int frac_zero_to = -1;  // the last fractional position that is a 0
  bool point = false;
  bool explicit_sign = false;  // S, MI or SG: no sign slot of its own
  bool brackets = false;       // PR
};

Parsed Parse(std::string_view f) {
  Parsed p;
  for (size_t i = 0; i < f.size();) {
    std::string_view r = f.substr(i);
    auto take = [&](Token::Kind k, size_t n, std::string text = {}) {
      p.tokens.push_back({k, std::move(text)});
      i += n;
    };
    if (StartsWithCI(r, "FM")) {
      p.fill = true;
      i += 2;
    } else if (r[0] == '9' || r[0] == '0') {
      const bool zero = r[0] == '0';
      if (p.point) {
        if (zero) p.frac_zero_to = p.frac_positions;
        ++p.frac_positions;
      } else {
        if (zero && p.zero_from < 0) p.zero_from = p.int_positions;
        ++p.int_positions;
      }
      take(zero ? Token::kDigit0 : Token::kDigit9, 1);
    } else if (r[0] == '.' || r[0] == 'D' || r[0] == 'd') {
      if (p.point) throw SqlError(sqlstate::kSyntaxError, "multiple decimal points");
      p.point = true;
      take(Token::kPoint, 1);
    } else if (r[0] == ',' || r[0] == 'G' || r[0] == 'g') {
      take(Token::kGroup, 1);
    } else if (StartsWithCI(r, "MI")) {
      p.explicit_sign = true;
      take(Token::kMI, 2);
    } else if (StartsWithCI(r, "SG")) {
      p.explicit_sign = true;
      take(Token::kSG, 2);
    } else if (StartsWithCI(r, "PL")) {
      take(Token::kPL, 2);
    } else if (StartsWithCI(r, "PR")) {
      p.brackets = true;
      take(Token::kPR, 2);
    } else if (r[0] == 'S' || r[0] == 's') {
      p.explicit_sign = true;
      take(Token::kS, 1);
    } else if (StartsWithCI(r, "TH")) {
      take(Token::kTH, 2, std::string(r.substr(0, 2)));
    } else if (StartsWithCI(r, "EEEE") || StartsWithCI(r, "RN") || r[0] == 'V' || r[0] == 'v' || r[0] == 'L' ||
               r[0] == 'l') {
      throw SqlError(sqlstate::kFeatureNotSupported,
                     fmt::format("the number format pattern \"{}\" is not supported yet", r.substr(0, StartsWithCI(r, "EEEE") ? 4 : StartsWithCI(r, "RN") ? 2 : 1)));
    } else if (r[0] == '"') {
      size_t end = 1;
      std::string text;
      while (end < r.size() && r[end] != '"') {
        if (r[end] == '\\' && end + 1 < r.size()) ++end;
        text += r[end++];
      }
      take(Token::kLiteral, std::min(end + 1, r.size()), std::move(text));
    } else {
      take(Token::kLiteral, 1, std::string(1, r[0]));
    }
  }
  return p;
}

std::string Ordinal(std::string_view int_digits, bool upper) {
  int last2 = 0;
  for (char c : int_digits) last2 = (last2 * 10 + (c - '0')) % 100;
  int last = last2 % 10;
  const char* s = (last2 >= 11 && last2 <= 13) ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
  std::string out = s;
  if (upper)
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

int FractionDigits(std::string_view format) { return Parse(format).frac_positions; }

std::string FormatNumber(std::string_view digits, bool negative, std::string_view format) {
  const Parsed p = Parse(format);
  size_t dot = digits.find('.');
  std::string int_digits(digits.substr(0, dot));
  std::string frac_digits(dot == std::string_view::npos ? "" : digits.substr(dot + 1));
  while (int_digits.size() > 1 && int_digits[0] == '0') int_digits.erase(0, 1);
  if (int_digits == "0") int_digits.clear();
  frac_digits.resize(static_cast<size_t>(p.frac_positions), '0');
  const bool overflow = static_cast<int>(int_digits.size()) > p.int_positions;
  // A zero with no fraction to show prints one 0 (to_char(0, '999') is "   0").
  if (int_digits.empty() && !p.point && p.int_positions > 0) int_digits = "0";
  // The number: every token from the first digit position to the last, the sign
  // placed right before its first character that is not a blank.
  std::string out, number;
  bool in_number = false, printed = false, after_point = false;
  int int_pos = 0, frac_pos = 0;
  size_t first_digit_token = 0, last_digit_token = 0;
  for (size_t t = 0; t < p.tokens.size(); ++t)
    if (p.tokens[t].kind == Token::kDigit9 || p.tokens[t].kind == Token::kDigit0 || p.tokens[t].kind == Token::kPoint) {
      if (!in_number) first_digit_token = t;
      in_number = true;
      last_digit_token = t;
    }
  const char sign_char = negative ? '-' : '+';
  auto flush_number = [&](bool sign_slot, char slot_char) {
    // Leading blanks, the sign (or its slot), then the rest.
    size_t lead = 0;
    while (lead < number.size() && number[lead] == ' ') ++lead;
    std::string body = number.substr(lead);
    if (p.fill) {
      // FM: no blanks, no zeros after the point beyond the last 0 position.
      size_t point = body.find('.');
      if (point != std::string::npos && !overflow) {
        size_t keep = point + 1 + static_cast<size_t>(p.frac_zero_to + 1);
        while (body.size() > keep && body.back() == '0') body.pop_back();
      }
      if (sign_slot && slot_char != ' ') out += slot_char;
      out += body;
    } else {
      out += std::string(lead, ' ');
      if (sign_slot) out += slot_char;
      out += body;
    }
    number.clear();
  };
  const bool default_slot = !p.explicit_sign;
  bool s_before = false;
  for (size_t t = 0; t < p.tokens.size(); ++t) {
    const Token& tok = p.tokens[t];
    const bool inside = in_number && t >= first_digit_token && t <= last_digit_token;
    std::string& dst = inside ? number : out;
    switch (tok.kind) {
      case Token::kDigit9:
      case Token::kDigit0: {
        if (!after_point) {
          // An integer position.
          const int d = int_pos - (p.int_positions - static_cast<int>(int_digits.size()));
          char c = ' ';
          if (overflow) c = '#';
          else if (d >= 0) c = int_digits[static_cast<size_t>(d)];
          else if (p.zero_from >= 0 && int_pos >= p.zero_from) c = '0';
          printed = printed || c != ' ';
          dst += c;
          ++int_pos;
        } else {
          dst += overflow ? '#' : frac_digits[static_cast<size_t>(frac_pos)];
          ++frac_pos;
        }
        break;
      }
      case Token::kPoint:
        dst += '.';
        printed = true;
        after_point = true;
        break;
      case Token::kGroup: dst += printed ? ',' : ' '; break;
      case Token::kS:
        if (t < first_digit_token || !in_number) s_before = true;
        else dst += sign_char;
        break;
      case Token::kMI: dst += negative ? '-' : ' '; break;
      case Token::kSG: dst += sign_char; break;
      case Token::kPL: dst += negative ? ' ' : '+'; break;
      case Token::kPR:
        if (!negative) dst += ' ';
        break;
      case Token::kTH:
        if (!negative) dst += Ordinal(int_digits.empty() ? "0" : int_digits, tok.text[0] == 'T');
        break;
      case Token::kLiteral: dst += tok.text; break;
    }
    if (inside && t == last_digit_token) {
      if (p.brackets && negative) {
        number += '>';
        flush_number(true, '<');  // <12> where the sign would be
      } else if (s_before) {
        flush_number(true, sign_char);
      } else if (default_slot) {
        flush_number(true, negative ? '-' : ' ');
      } else {
        flush_number(false, ' ');
      }
    }
  }
  if (p.fill)
    while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace caracal::planner
