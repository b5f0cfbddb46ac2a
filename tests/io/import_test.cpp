// Source specs (KIND:PATH), the table of import kinds, and JSON read through
// the YAML parser where the two differ (include/cidrcheck/io/import.hpp).
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include "../../lib/cidrcheck/io/import/read_import.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <optional>

namespace cidrcheck::test {
namespace {

// Source specs and kinds.
TEST(SourceSpec, SplitsKindAndPath) {
  struct row {
    std::string_view spec;
    std::optional<import_kind> kind;
    std::string_view path, unknown;
  };
  for (const auto& c : {
           row{"aws-vpcs:vpcs.json", import_kind::aws_vpcs, "vpcs.json", ""},
           row{"kubectl:-", import_kind::kubectl, "-", ""},               // standard input
           row{"fleet.yaml", std::nullopt, "fleet.yaml", ""},
           row{"./aws-vpcs:x", std::nullopt, "./aws-vpcs:x", ""},         // a path that only looks like a spec
           row{"aws-vpc:x.json", std::nullopt, "aws-vpc:x.json", "aws-vpc"},  // a mistyped kind
           row{"c:x.yaml", std::nullopt, "c:x.yaml", ""},                 // one letter is no kind word
           row{"terraform:dir/a:b.tfstate", import_kind::terraform, "dir/a:b.tfstate", ""},
       }) {
    auto s = parse_source_spec(c.spec);
    EXPECT_EQ(s.kind, c.kind) << c.spec;
    EXPECT_EQ(s.path, c.path) << c.spec;
    EXPECT_EQ(s.unknown_kind, c.unknown) << c.spec;
  }
}

TEST(ImportKinds, NamesAreUniqueAndFindable) {
  for (const auto& k : import_kinds()) {
    EXPECT_EQ(find_import_kind(k.name), k.kind);
    EXPECT_EQ(&info(k.kind), &k);
    EXPECT_FALSE(k.command.empty());
  }
  EXPECT_FALSE(find_import_kind("aws").has_value());
}

TEST(ImportKinds, EveryKindIsDocumented) {
  for (const auto& k : import_kinds()) {
    std::string path = CIDRCHECK_DOCS "/import/" + std::string(k.name) + ".md";
    EXPECT_TRUE(std::ifstream(path).good()) << path;
  }
}

TEST(LoadFleet, ReadsSourceSpecs) {
  std::vector<std::string> sources{"aws-vpcs:" + fixtures + "aws-vpcs/vpcs.json"};
  auto r = load_fleet(sources, builtin_catalog());
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(r.value.owners.size(), 3u);
}

TEST(LoadFleet, AMistypedKindIsNamed) {
  std::vector<std::string> sources{"aws-vpc:nothing-here.json"};
  auto r = load_fleet(sources, builtin_catalog());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().message,
            "cannot open: No such file or directory; and 'aws-vpc' is no source kind (did you mean 'aws-vpcs'?)");
}

// JSON through the YAML parser: the cases where the two differ.
TEST(ImportJson, EscapesUnicodeLargeNumbersAndTabs) {
  // "\/" and "\u002d" escapes; a surrogate pair (an emoji, as Python's json
  // writes it) that YAML has no escape for; a number too large for any integer;
  // tab-indented pretty JSON.
  auto r = load_text(import_kind::aws_vpcs,
                     "{\n\t\"Vpcs\": [\n\t\t{\n\t\t\t\"VpcId\": \"vpc\\u002d1\",\n"
                     "\t\t\t\"OwnerId\": 123456789012345678901234567890,\n"
                     "\t\t\t\"Tags\": [{\"Key\": \"Name\", \"Value\": \"edge\\/\\ud83d\\ude80\"}],\n"
                     "\t\t\t\"CidrBlock\": \"10.0.0.0/16\"\n\t\t}\n\t]\n}\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  ASSERT_EQ(names(r), (v{"vpc-1"}));
  EXPECT_EQ(owner_of(r, "vpc-1").description, "AWS VPC edge/\xEF\xBF\xBD\xEF\xBF\xBD, from aws ec2 describe-vpcs");
  EXPECT_EQ(r.value.ranges.front().where, (source_location{"x.json", 7, 17}));
}

TEST(ImportJson, LineBreaksOfYamlButNotOfJsonKeepLineNumbers) {
  // U+0085 and U+2028 inside strings: JSON text, YAML line breaks.
  auto r = load_text(import_kind::aws_vpcs,
                     "{\"Vpcs\": [{\"VpcId\": \"vpc-1\", \"Tags\": [{\"Key\": \"Name\", \"Value\": "
                     "\"a\xC2\x85" "b\xE2\x80\xA8" "c\"}],\n\"CidrBlock\": \"10.0.0.0/16\"}]}");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(r.value.ranges.front().where, (source_location{"x.json", 2, 14}));
  EXPECT_EQ(owner_of(r, "vpc-1").description, "AWS VPC a\xC2\x85" "b\xEF\xBF\xBD" "c, from aws ec2 describe-vpcs");
}

TEST(ImportJson, MinifiedJsonOnOneLineKeepsColumns) {
  auto r = load_text(import_kind::aws_eks,
                     R"({"cluster":{"name":"c","kubernetesNetworkConfig":{"serviceIpv4Cidr":"10.100.0.0/16"}}})");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(r.value.ranges.front().where, (source_location{"x.json", 1, 69}));
}

// A JSON export is parsed where it lies unless prepare_json() would change it:
// whatever it changes, may_need_mending() sees (it may also see what it leaves).
TEST(ImportJson, TextPrepareJsonWouldChangeIsSeenBeforeItIsCopied) {
  const std::string samples[] = {
      R"({"a": "plain", "b": [1, 2.5e3, true, null]})",
      "{\"a\": \"x\xC2\x85y\"}",
      "{\"a\": \"x\xE2\x80\xA8y\"}",
      "{\"a\": \"x\xE2\x80\xA9y\"}",
      R"({"a": "\ud83d\ude80"})",
      R"({"a": "\uD83D\uDE80"})",
      R"({"a": "\u00e9 \/ \n"})",
      "{\"a\": 1, // a comment\n}",
      "{\"a\": /* a comment */ 1}",
      R"({"a": "10.0.0.0/8"})",
  };
  for (bool hujson : {false, true}) {
    for (const auto& text : samples) {
      auto mended = text;
      detail::prepare_json(mended, hujson);
      if (mended != text) {
        EXPECT_TRUE(detail::may_need_mending(text, hujson)) << text << (hujson ? " (HuJSON)" : "");
      }
    }
  }
  EXPECT_FALSE(detail::may_need_mending(samples[0], true));
  EXPECT_FALSE(detail::may_need_mending(samples[6], false));
  EXPECT_FALSE(detail::may_need_mending(samples[9], false));  // a slash is a comment only in HuJSON
}

TEST(SourceSpec, TakesAClusterName) {
  auto s = parse_source_spec("kubectl=dc1:exports/dc1-ippools.yaml");
  ASSERT_TRUE(s.kind);
  EXPECT_EQ(*s.kind, import_kind::kubectl);
  EXPECT_EQ(s.cluster, "dc1");
  EXPECT_EQ(s.path, "exports/dc1-ippools.yaml");
  EXPECT_FALSE(parse_source_spec("kubectl=:x.yaml").kind);  // no name: a path
  EXPECT_EQ(parse_source_spec("kubectl:x.yaml").cluster, "");
}

}  // namespace
}  // namespace cidrcheck::test
