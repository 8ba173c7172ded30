#include "planner/types/enum_type.h"

#include <fmt/format.h>

#include <algorithm>

#include "planner/types/sql_error.h"

namespace caracal::planner {

const std::string& EnumType::Label(int64_t position) const {
  if (position < 0 || position >= size())
    throw SqlError(sqlstate::kInternalError, fmt::format("invalid internal value for enum: {}", position));
  return labels_[static_cast<size_t>(position)];
}

std::optional<int64_t> EnumType::Find(std::string_view label) const {
  auto it = std::ranges::find(labels_, label);
  if (it == labels_.end()) return std::nullopt;
  return static_cast<int64_t>(it - labels_.begin());
}

int64_t EnumType::Parse(std::string_view label) const {
  if (std::optional<int64_t> p = Find(label)) return *p;
  throw SqlError(sqlstate::kInvalidTextRepresentation,
                 fmt::format("invalid input value for enum {}: \"{}\"", name_, label));
}

}  // namespace caracal::planner
