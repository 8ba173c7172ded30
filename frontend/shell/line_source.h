// Where the shell's input lines come from: a file or a pipe (-f, \i, non-terminal
// stdin), or the terminal through the line editor (line_editor.h). Lines come without
// their newline; like psql, a line stops at a NUL byte.
#pragma once

#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace caracal::frontend {

class LineSource {
 public:
  virtual ~LineSource() = default;
  // The next line, or nullopt at the end of input. `prompt` is shown when interactive.
  // An interactive source returns nullopt with interrupted() set when Ctrl-C cancelled
  // the line being typed.
  virtual std::optional<std::string> ReadLine(const std::string& prompt) = 0;
  virtual bool interactive() const { return false; }
  virtual bool interrupted() const { return false; }
  // Whether a read failed (not just reached the end).
  virtual bool failed() const { return false; }
  // Records a complete statement or meta-command line in the history (interactive only).
  virtual void AddHistory(const std::string& entry) {}
  // The history, oldest first (\s).
  virtual std::vector<std::string> History() const { return {}; }
};

// Lines of a stream (a file, or stdin when it is not a terminal).
class StreamLineSource : public LineSource {
 public:
  explicit StreamLineSource(std::istream& in) : in_(in) {}
  std::optional<std::string> ReadLine(const std::string& prompt) override;
  bool failed() const override { return in_.bad(); }

 private:
  std::istream& in_;
};

}  // namespace caracal::frontend
