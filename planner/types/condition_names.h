// PL/pgSQL's exception condition names (`WHEN unique_violation THEN`): the SQLSTATE each
// stands for, as PostgreSQL 15 defines them.
#pragma once

#include <string_view>
#include <vector>

namespace caracal::planner {

// The SQLSTATEs condition `name` (lower case) stands for; none if it is no condition. A
// class's name (`integrity_constraint_violation`) gives the class code ("23000"), which
// catches every code of the class.
std::vector<std::string_view> SqlstatesOfCondition(std::string_view name);

}  // namespace caracal::planner
