// The JSON parser and jsonb's canonical form (planner/types/json.h): what the
// differential case json_types cannot reach through psql (deep nesting, a document
// that is nothing but nesting), and the canonical-text contract that jsonb equality and
// keys rely on.
#include <gtest/gtest.h>

#include <string>

#include "planner/types/json.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {
namespace {

std::string Canonical(const std::string& text) { return JsonbText(ToJsonb(ParseJson(text))); }

TEST(JsonTest, EqualDocumentsHaveOneCanonicalText) {
  EXPECT_EQ(Canonical(R"({"b": [1, 2.50], "a": {"y": null, "x": true}})"),
            Canonical(R"(  {"a":{"x":true,"y":null},"b":[1,2.50]}  )"));
  EXPECT_EQ(Canonical(R"({"a":1,"a":2})"), R"({"a": 2})");  // the last duplicate wins
  EXPECT_EQ(Canonical(R"({"bb":1,"a":2,"c":3})"), R"({"a": 2, "c": 3, "bb": 1})");  // by length, then bytes
  EXPECT_EQ(Canonical("[1e2, 0.10, -0]"), "[100, 0.10, 0]");
  EXPECT_EQ(Canonical(R"("\u00e9\n")"), "\"\xc3\xa9\\n\"");
}

TEST(JsonTest, JsonKeepsTheSubTextsAsWritten) {
  const JsonNode doc = ParseJson(R"({"a": [1,  2], "a": {"k" :"v"}})");
  ASSERT_NE(doc.Member("a"), nullptr);
  EXPECT_EQ(doc.Member("a")->raw, R"({"k" :"v"})");  // the last "a", verbatim
  EXPECT_EQ(doc.keys.size(), 2u);
}

TEST(JsonTest, NestingIsBoundedInsteadOfExhaustingTheStack) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  try {
    ParseJson(deep);
    FAIL() << "a 100000-deep document parsed";
  } catch (const SqlError& e) {
    EXPECT_EQ(e.sqlstate(), "54001");
  }
  const std::string ok = std::string(900, '[') + std::string(900, ']');
  EXPECT_NO_THROW(ParseJson(ok));
}

TEST(JsonTest, ContainmentFollowsPostgres) {
  auto contains = [](const char* a, const char* b) { return JsonbContains(ParseJson(a), ParseJson(b)); };
  EXPECT_TRUE(contains(R"({"a":{"b":1,"c":2}})", R"({"a":{"c":2}})"));
  EXPECT_TRUE(contains("[1, [2, 3]]", "[[3]]"));
  EXPECT_TRUE(contains("[1, 2]", "1"));            // a top-level array holds a scalar
  EXPECT_FALSE(contains(R"({"a":[1,2]})", R"({"a":1})"));  // but not below the top
  EXPECT_TRUE(contains("[1.0]", "[1]"));           // numbers compare as numbers
  EXPECT_FALSE(contains("{}", "[]"));
}

}  // namespace
}  // namespace caracal::planner
