// The shell's input scanner, line by line as psql's MainLoop feeds it: where statements
// end, which continuation prompt a user sees, variable expansion, meta-command arguments.
// (Whole scripts against psql itself: tests/frontend/shell/cases/scanner.sql.)
#include "frontend/shell/input_scanner.h"

#include <gtest/gtest.h>

#include <map>

namespace caracal::frontend {
namespace {

class ScannerTest : public ::testing::Test {
 protected:
  ScannerTest()
      : scanner_([this](const std::string& name) -> std::optional<std::string> {
                   auto it = vars_.find(name);
                   if (it == vars_.end()) return std::nullopt;
                   return it->second;
                 },
                 [this](const std::string& w) { warnings_.push_back(w); }) {}

  // Feeds `lines` as MainLoop does (a newline between lines of one statement) and
  // returns the statements completed, then the prompt status after the last line.
  std::vector<std::string> Feed(const std::vector<std::string>& lines) {
    std::vector<std::string> done;
    for (const std::string& line : lines) {
      if (!query_.empty()) query_ += '\n';
      scanner_.SetLine(line);
      for (;;) {
        ScanResult r = scanner_.Scan(query_, prompt_);
        if (r == ScanResult::kSemicolon) {
          done.push_back(query_);
          query_.clear();
          continue;
        }
        if (r == ScanResult::kBackslash) {
          done.push_back("\\" + scanner_.ReadCommandName());
          while (std::optional<std::string> a = scanner_.ReadArgument(ArgMode::kNormal)) done.back() += " [" + *a + "]";
          scanner_.EndCommand();
          continue;
        }
        break;
      }
    }
    return done;
  }

  std::map<std::string, std::string> vars_;
  std::vector<std::string> warnings_;
  InputScanner scanner_;
  std::string query_;
  PromptStatus prompt_ = PromptStatus::kReady;
};

TEST_F(ScannerTest, SemicolonsInsideQuotesCommentsAndParenthesesDoNotEnd) {
  EXPECT_EQ(Feed({"select 'a;b', \"c;d\", $$e;f$$, $t$g;$$;h$t$ /* i; /* j; */ k; */ from t;"}),
            std::vector<std::string>{"select 'a;b', \"c;d\", $$e;f$$, $t$g;$$;h$t$ /* i; /* j; */ k; */ from t;"});
  EXPECT_EQ(Feed({"select (1;", "2);"}), std::vector<std::string>{"select (1;\n2);"});
  EXPECT_EQ(Feed({"select E'it\\'s;' as x; select 2;"}),
            (std::vector<std::string>{"select E'it\\'s;' as x;", "select 2;"}));
  // A '$1' parameter is not a dollar quote; "a$b" is an identifier.
  EXPECT_EQ(Feed({"select $1, a$b$ from t;"}), std::vector<std::string>{"select $1, a$b$ from t;"});
}

TEST_F(ScannerTest, PromptsFollowTheOpenConstruct) {
  Feed({"select 'abc"});
  EXPECT_EQ(prompt_, PromptStatus::kSingleQuote);
  Feed({"def' || $$"});
  EXPECT_EQ(prompt_, PromptStatus::kDollarQuote);
  Feed({"$$ || (\"x"});
  EXPECT_EQ(prompt_, PromptStatus::kDoubleQuote);
  Feed({"\" /* c"});
  EXPECT_EQ(prompt_, PromptStatus::kComment);
  Feed({"*/"});
  EXPECT_EQ(prompt_, PromptStatus::kParen);
  Feed({")"});
  EXPECT_EQ(prompt_, PromptStatus::kContinue);
  EXPECT_EQ(Feed({";"}).size(), 1u);
  EXPECT_TRUE(query_.empty());
}

TEST_F(ScannerTest, BeginAtomicBodiesKeepTheirSemicolons) {
  std::vector<std::string> done = Feed({"create function f() returns int language sql", "begin atomic",
                                        "  select 1;", "  select case when true then 2 end;", "end;", "select 3;"});
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0],
            "create function f() returns int language sql\nbegin atomic\n  select 1;\n  select case when true then 2 "
            "end;\nend;");
  EXPECT_EQ(done[1], "select 3;");
  // Outside CREATE FUNCTION, BEGIN is just a word.
  EXPECT_EQ(Feed({"begin; select 1;"}), (std::vector<std::string>{"begin;", "select 1;"}));
}

TEST_F(ScannerTest, LeadingWhitespaceAndCommentsAreDropped) {
  EXPECT_EQ(Feed({"   -- a comment; still a comment", "  select 1; -- trailing"}),
            std::vector<std::string>{"select 1;"});
  EXPECT_TRUE(query_.empty());
  EXPECT_EQ(prompt_, PromptStatus::kReady);
}

TEST_F(ScannerTest, VariablesExpandOutsideQuotes) {
  vars_ = {{"x", "42"}, {"name", "O'Brien"}, {"path", "C:\\dir"}, {"stmt", "select 7; select 8"}, {"loop", "a :loop b"}};
  EXPECT_EQ(Feed({"select :x, :'name', :\"name\", :'path', ':x', :{?x}, :{?y}, :y, a::int, b := 1;"}),
            std::vector<std::string>{
                "select 42, 'O''Brien', \"O'Brien\",  E'C:\\\\dir', ':x', TRUE, FALSE, :y, a::int, b := 1;"});
  // A value is scanned as if typed: its ';' ends a statement.
  EXPECT_EQ(Feed({":stmt;"}), (std::vector<std::string>{"select 7;", "select 8;"}));
  EXPECT_EQ(Feed({"select :loop;"}), std::vector<std::string>{"select a :loop b;"});
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0], "skipping recursive expansion of variable \"loop\"");
}

TEST_F(ScannerTest, MetaCommandsAndTheirArguments) {
  vars_ = {{"v", "value"}};
  EXPECT_EQ(Feed({"\\echo a 'b c' 'it''s' 'tab\\there' \"dq x\" :v :'v' \\\\ select 1;"}),
            (std::vector<std::string>{"\\echo [a] [b c] [it's] [tab\there] [\"dq x\"] [value] ['value']", "select 1;"}));
  // A backslash inside a statement starts a command; the statement goes on after it.
  EXPECT_EQ(Feed({"select 1 \\x \\t", "as a;"}), (std::vector<std::string>{"\\x", "\\t", "select 1 \nas a;"}));
  // "\;" puts a semicolon in the statement without ending it.
  EXPECT_EQ(Feed({"select 1 \\; select 2;"}), std::vector<std::string>{"select 1 ; select 2;"});
}

TEST_F(ScannerTest, IdentifierArgumentsFoldCase) {
  scanner_.SetLine("Foo \"Bar\"\"Baz\" MiXed\"Quoted\"");
  EXPECT_EQ(scanner_.ReadArgument(ArgMode::kIdentifier), "foo");
  EXPECT_EQ(scanner_.ReadArgument(ArgMode::kIdentifier), "Bar\"Baz");
  EXPECT_EQ(scanner_.ReadArgument(ArgMode::kIdentifier), "mixedQuoted");
  EXPECT_EQ(scanner_.ReadArgument(ArgMode::kIdentifier), std::nullopt);
}

TEST(QuoteTest, LiteralsAndIdentifiers) {
  EXPECT_EQ(QuoteLiteral("plain"), "'plain'");
  EXPECT_EQ(QuoteLiteral("it's"), "'it''s'");
  EXPECT_EQ(QuoteLiteral("a\\b"), " E'a\\\\b'");
  EXPECT_EQ(QuoteIdentifier("we\"ird"), "\"we\"\"ird\"");
}

}  // namespace
}  // namespace caracal::frontend
