#include "frontend/shell/line_source.h"

namespace caracal::frontend {

std::optional<std::string> StreamLineSource::ReadLine(const std::string&) {
  std::string line;
  // A last line without '\n' still counts; nothing at all is the end of input.
  if (!std::getline(in_, line)) return std::nullopt;
  // psql reads lines with fgets and uses them as C strings: a NUL ends the line.
  if (size_t nul = line.find('\0'); nul != std::string::npos) line.resize(nul);
  return line;
}

}  // namespace caracal::frontend
