// EnumType: a type made by CREATE TYPE name AS ENUM ('a', 'b', ...).
//
// A value of an enum type is the position of its label among the type's labels: a
// Datum kInt, stored in an engine integer column. So values compare, sort, hash and key
// in the order the labels were declared, as PostgreSQL's do, with no lookup; only text
// input and output (casts, COPY, the wire) go through the labels.
//
// Invariants: positions never change once given. ALTER TYPE ... ADD VALUE appends a
// label (one placed BEFORE / AFTER another would renumber stored values, and is
// refused); RENAME VALUE and RENAME TO only rename. The catalog owns every EnumType for
// its whole life, dropped ones too (bound plans and compiled procedures point at them),
// and changes one only between epochs, holding the session's catalog lock exclusively.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caracal::planner {

class EnumType {
 public:
  EnumType(std::string name, std::vector<std::string> labels) : name_(std::move(name)), labels_(std::move(labels)) {}

  const std::string& name() const { return name_; }
  const std::vector<std::string>& labels() const { return labels_; }
  int64_t size() const { return static_cast<int64_t>(labels_.size()); }
  // The label of value `position` (a value this type produced; throws SqlError XX000
  // for any other).
  const std::string& Label(int64_t position) const;
  // The value of `label`, or nullopt.
  std::optional<int64_t> Find(std::string_view label) const;
  // The value of `label`; 22P02 "invalid input value for enum <name>: "<label>"".
  int64_t Parse(std::string_view label) const;

  // Catalog mutations (see above).
  void set_name(std::string name) { name_ = std::move(name); }
  void AddLabel(std::string label) { labels_.push_back(std::move(label)); }
  void RenameLabel(int64_t position, std::string label) { labels_.at(static_cast<size_t>(position)) = std::move(label); }

 private:
  std::string name_;
  std::vector<std::string> labels_;
};

}  // namespace caracal::planner
