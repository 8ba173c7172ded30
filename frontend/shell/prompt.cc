#include "frontend/shell/prompt.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace caracal::frontend {

namespace {

char StatusChar(const PromptContext& c, const ShellVariables& v) {
  switch (c.status) {
    case PromptStatus::kReady: return c.inactive_branch ? '@' : v.singleline() ? '^' : '=';
    case PromptStatus::kContinue: return '-';
    case PromptStatus::kSingleQuote: return '\'';
    case PromptStatus::kDoubleQuote: return '"';
    case PromptStatus::kDollarQuote: return '$';
    case PromptStatus::kComment: return '*';
    case PromptStatus::kParen: return '(';
  }
  return '=';
}

std::string CommandOutput(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::string out;
  char buf[256];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe.get())) > 0) out.append(buf, n);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

}  // namespace

std::string ExpandPrompt(const std::string& format, const PromptContext& c, const ShellVariables& v) {
  std::string out;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%' || i + 1 >= format.size()) {
      out += format[i];
      continue;
    }
    char e = format[++i];
    switch (e) {
      case '/':
      case '~': out += v.Get("DBNAME").value_or(""); break;
      case 'M':
      case 'm': out += "[local]"; break;
      case '>': out += v.Get("PORT").value_or(""); break;
      case 'n': out += v.Get("USER").value_or(""); break;
      case '#': out += '>'; break;
      case 'p': out += std::to_string(getpid()); break;
      case 'R': out += StatusChar(c, v); break;
      case 'x': out += c.transaction == 'T' ? "*" : c.transaction == 'E' ? "!" : ""; break;
      case 'P': out += c.in_pipeline ? "on" : "off"; break;  // psql 18's pipeline status
      case 'l': out += std::to_string(c.line_number); break;
      case '%': out += '%'; break;
      case '[':
      case ']': break;
      case ':': {
        size_t end = format.find(':', i + 1);
        if (end == std::string::npos) break;
        out += v.Get(format.substr(i + 1, end - i - 1)).value_or("");
        i = end;
        break;
      }
      case '`': {
        size_t end = format.find('`', i + 1);
        if (end == std::string::npos) break;
        out += CommandOutput(format.substr(i + 1, end - i - 1));
        i = end;
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          int value = 0, n = 0;
          while (n < 4 && i < format.size() && format[i] >= '0' && format[i] <= '7') {
            value = value * 8 + (format[i] - '0');
            ++i;
            ++n;
          }
          --i;
          out += static_cast<char>(value);
        } else {
          out += e;
        }
    }
  }
  return out;
}

}  // namespace caracal::frontend
