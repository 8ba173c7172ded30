// PlanText: the lines of an EXPLAIN plan tree, indented as PostgreSQL indents it: each node
// one level deeper than its parent ("->  " six columns right of the parent's text), its
// details under it.
#pragma once

#include <string>
#include <vector>

namespace caracal::planner {

class PlanText {
 public:
  void Node(const std::string& text) {
    lines_.push_back(depth_ == 0 ? text : std::string(Indent(depth_) - 4, ' ') + "->  " + text);
    ++depth_;
  }
  void Detail(const std::string& text) { lines_.push_back(std::string(Indent(depth_ - 1) + 2, ' ') + text); }
  // Back to the parent of the last Node (for a sibling that follows).
  void Up() { --depth_; }
  int depth() const { return depth_; }
  void set_depth(int depth) { depth_ = depth; }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  static size_t Indent(int depth) { return depth == 0 ? 0 : static_cast<size_t>(depth) * 6; }
  std::vector<std::string> lines_;
  int depth_ = 0;
};

// `s` in parentheses unless it already starts with one (PostgreSQL's conditions).
inline std::string Parenthesized(std::string s) { return s.starts_with('(') ? s : "(" + s + ")"; }

}  // namespace caracal::planner
