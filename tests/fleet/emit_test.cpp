// The emitters of runbook files and commands (lib/cidrcheck/fleet/emit.hpp):
// every value from the input stays one inert value in YAML, a shell line and
// Terraform, whatever it holds; and the line check the fuzzer runs refuses
// what is not one simple command.

#include "../../lib/cidrcheck/fleet/emit.hpp"
#include "../../lib/cidrcheck/io/yaml_document.hpp"

#include <cidrcheck/error.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cidrcheck::detail {
namespace {

const std::vector<std::string> hostile = {
    "a;touch X;$(touch Y)", "it's", "`id`", "a b", "-rf", "$HOME", "new\nline", "tab\there", "\"quoted\"",
    "back\\slash", "#comment", "x|y", "a&&b", "${x}", "%{x}", "\xEF\xBF\xBE", "\xC2\x85", "\x7F", "ü-ñame", "",
};

// The scalars of a parsed document, in document order.
auto parse_scalars(const std::string& text) -> std::vector<std::string> {
  std::vector<diagnostic> d;
  auto doc = parse_yaml(text, "t.yaml", {}, d);
  EXPECT_TRUE(d.empty()) << text << (d.empty() ? "" : d[0].message);
  std::vector<std::string> out;
  for (std::uint32_t k = 0; k < doc.nodes.size(); ++k) {
    if (doc[k].kind == yaml_kind::scalar) out.emplace_back(doc.value(k));
  }
  return out;
}

TEST(EmitYaml, EveryStringReadsBackAsTheSameStringWhateverItHolds) {
  for (const auto& name : hostile) {
    doc_node doc{doc_map{{"name", doc_node{name}}, {"list", doc_node{doc_list{doc_node{name}}}}}};
    auto text = to_yaml(doc);
    auto scalars = parse_scalars(text);
    ASSERT_EQ(scalars.size(), 4u) << text;  // two keys, two values
    // Invalid UTF-8 and characters YAML may not hold raw come back escaped or replaced, never raw.
    if (name.find('\x7F') == std::string::npos && name.find("\xEF\xBF\xBE") == std::string::npos) {
      EXPECT_EQ(scalars[1], name) << text;
    }
    EXPECT_EQ(text.find('\x7F'), std::string::npos) << text;
  }
}

// yaml_quoted also quotes the JSON of `kubectl patch` lines: JSON reads every
// quoted string as YAML does (only escapes both languages share).
TEST(EmitYaml, AQuotedStringIsJsonToo) {
  for (const auto& name : hostile) {
    auto quoted = yaml_quoted(name);
    auto json = nlohmann::json::parse(quoted, nullptr, false);
    ASSERT_TRUE(json.is_string()) << quoted;
    auto scalars = parse_scalars("x: " + quoted + "\n");
    ASSERT_EQ(scalars.size(), 2u) << quoted;
    EXPECT_EQ(json.get<std::string>(), scalars[1]) << quoted;
  }
}

TEST(EmitYaml, StringsThatLookLikeOtherTypesStayStrings) {
  auto text = to_yaml(doc_node{doc_map{{"a", doc_node{std::string("true")}}, {"b", doc_node{std::string("10")}},
                                       {"c", doc_node{std::string("null")}}, {"d", doc_node{std::string("fd00::/112")}}}});
  EXPECT_NE(text.find("a: \"true\""), std::string::npos) << text;
  EXPECT_NE(text.find("d: \"fd00::/112\""), std::string::npos) << text;  // not YAML 1.1 sexagesimal
}

TEST(EmitYaml, KeysThatAreNotIdentifiersAreQuoted) {
  auto text = to_yaml(doc_node{doc_map{{"on", doc_node{true}}, {"a b", doc_node{true}}, {"spec.x", doc_node{true}}}});
  EXPECT_NE(text.find("\"on\": true"), std::string::npos) << text;
  EXPECT_NE(text.find("\"a b\": true"), std::string::npos) << text;
  EXPECT_NE(text.find("spec.x: true"), std::string::npos) << text;
}

TEST(EmitYaml, CommentsStayOnOneLine) {
  doc_node doc{doc_map{{"a", doc_node{true, "line one\nline two: ; $(x)"}}}};
  auto text = to_yaml(doc);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << text;
  EXPECT_EQ(parse_scalars(text).size(), 2u);
}

TEST(EmitShell, SafeWordsStayAsTheyAreAndEverythingElseIsOneQuotedWord) {
  EXPECT_EQ(shell_quoted("10.48.0.0/12"), "10.48.0.0/12");
  EXPECT_EQ(shell_quoted("--service-cidr=10.43.0.0/16"), "--service-cidr=10.43.0.0/16");
  EXPECT_EQ(shell_quoted("a;touch X;$(touch Y)"), "'a;touch X;$(touch Y)'");
  EXPECT_EQ(shell_quoted("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quoted(""), "''");
}

TEST(EmitShell, ACommandWithAnyInputIsOneSimpleCommand) {
  for (const auto& name : hostile) {
    shell_command cmd{{word("gcloud"), word("container"), word("clusters"), word("update"), input_word(name),
                       option_word("--name", name), placeholder("LOCATION", "the location", "--location=")}};
    auto line = to_shell(cmd);
    EXPECT_EQ(shell_line_problem(line), std::nullopt) << line;
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  }
}

TEST(EmitShell, ANameThatStartsWithADashIsNeverAnOptionWhenJoinedToOne) {
  EXPECT_EQ(to_shell({{word("az"), option_word("--name", "-rf")}}), "az --name=-rf");
}

TEST(EmitShell, WordsCidrcheckWritesMustBeSafeAndPlaceholdersNamed) {
  EXPECT_THROW(to_shell({{word("a;b")}}), error);
  EXPECT_THROW(to_shell({{placeholder("lower", "x")}}), error);
  EXPECT_EQ(to_shell({{word("kubectl"), placeholder("NODE", "a node")}}), "kubectl \"$NODE\"");
}

TEST(EmitShell, TheLineCheckRefusesWhatIsNotOneSimpleCommand) {
  for (std::string line : {"a; b", "a && b", "a | b", "a > f", "a $(b)", "a `b`", "a \"$(b)\"", "a 'b", "a $HOME",
                           "a *", "a\nb", "a {x,y}", "a ~", "a !x", "a # comment"}) {
    EXPECT_NE(shell_line_problem(line), std::nullopt) << line;
  }
  for (std::string line : {"kubectl get pods", "a 'b;c'", "a \"$NODE\"", "a --x=\"$NODE\"", "a 'it'\\''s'"}) {
    EXPECT_EQ(shell_line_problem(line), std::nullopt) << line;
  }
}

TEST(EmitHcl, StringsNeverInterpolate) {
  auto text = to_hcl({{"resource", {"aws_vpc", "n-a"}, {{"cidr_block", doc_node{std::string("${x} %{y} \"q\" \\")}}}}});
  EXPECT_NE(text.find(R"("$${x} %%{y} \"q\" \\")"), std::string::npos) << text;
}

TEST(EmitHcl, LabelsAndReferencesMustBeIdentifiers) {
  EXPECT_THROW(to_hcl({{"resource", {"aws_vpc", "a;b"}, {}}}), error);
  EXPECT_THROW(to_hcl({{"resource", {"aws_vpc", "a"}, {{"x", doc_node{doc_reference{"var.x; rm"}}}}}}), error);
  auto text = to_hcl({{"resource", {"aws_vpc", terraform_name("Prod EU;1")}, {{"x", doc_node{doc_reference{"var.x"}}}}}});
  EXPECT_NE(text.find("resource \"aws_vpc\" \"prod-eu-1\""), std::string::npos) << text;
  EXPECT_NE(text.find("x = var.x"), std::string::npos) << text;
  EXPECT_EQ(terraform_name("9lives"), "n-9lives");
}

}  // namespace
}  // namespace cidrcheck::detail
