// The registry of diagnostic codes (include/cidrcheck/io/diagnostic_code.hpp):
// well formed, and every code that the readers emit on the test fixtures (fleet
// files, configurations, lists, every importer's exports) is registered.
// tests/docs/diagnostic_codes_test.py checks the docs table and that no emitter
// writes a code as a literal.

#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/config_loader.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/prefix_list.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace cidrcheck {
namespace {

namespace fs = std::filesystem;

constexpr auto sorted_and_unique() -> bool {
  for (std::size_t k = 1; k < diagnostic_codes.size(); ++k) {
    if (!(diagnostic_codes[k - 1].code < diagnostic_codes[k].code)) return false;
  }
  return true;
}
static_assert(sorted_and_unique(), "find_diagnostic_code searches a sorted table");

// At run time: GCC with UBSan (the asan preset) cannot compare the pointer in a constant expression.
TEST(DiagnosticCode, FindsRegisteredCodesOnly) {
  ASSERT_NE(find_diagnostic_code("yaml-syntax"), nullptr);
  EXPECT_EQ(find_diagnostic_code("yaml-syntax")->code, "yaml-syntax");
  EXPECT_EQ(find_diagnostic_code("no-such-code"), nullptr);
}

TEST(DiagnosticCode, EveryCodeIsLowercaseWordsWithHyphensAndHasAMeaning) {
  for (const auto& c : diagnostic_codes) {
    EXPECT_FALSE(c.code.empty());
    EXPECT_TRUE(std::all_of(c.code.begin(), c.code.end(), [](char ch) { return (ch >= 'a' && ch <= 'z') || ch == '-'; }))
        << c.code;
    EXPECT_NE(c.code.front(), '-') << c.code;
    EXPECT_NE(c.code.back(), '-') << c.code;
    EXPECT_FALSE(c.meaning.empty()) << c.code;
  }
}

TEST(DiagnosticCode, FindsEachRegisteredCodeAndNothingElse) {
  for (const auto& c : diagnostic_codes) {
    ASSERT_NE(find_diagnostic_code(c.code), nullptr) << c.code;
    EXPECT_EQ(find_diagnostic_code(c.code)->code, c.code);
  }
  EXPECT_EQ(find_diagnostic_code(""), nullptr);
  EXPECT_EQ(find_diagnostic_code("zzz"), nullptr);
  EXPECT_EQ(find_diagnostic_code("aaa"), nullptr);
  // CIDR301's name belongs to the rule; the load warning about disagreeing values is sources-disagree.
  EXPECT_EQ(find_diagnostic_code("source-conflict"), nullptr);
  EXPECT_NE(find_diagnostic_code(diag::sources_disagree), nullptr);
}

void collect(const std::vector<diagnostic>& diagnostics, std::set<std::string>& codes) {
  for (const auto& d : diagnostics) {
    codes.insert(d.code);
    for (const auto& n : d.notes) {
      if (!n.code.empty()) codes.insert(n.code);
    }
  }
}

TEST(DiagnosticCode, EveryCodeTheFixturesProduceIsRegistered) {
  const fs::path fixtures = CIDRCHECK_FIXTURES;
  std::set<std::string> codes;
  const auto& cat = builtin_catalog();
  for (const auto& e : fs::recursive_directory_iterator(fixtures)) {
    if (!e.is_regular_file()) continue;
    auto path = e.path().string();
    auto relative = fs::relative(e.path(), fixtures);
    auto top = relative.begin()->string();
    if (top == "import") {
      auto kind = find_import_kind((++relative.begin())->string());
      if (!kind) continue;  // fleet.yaml and the other files beside the kinds' folders
      fleet_loader loader(cat);
      loader.add_import(*kind, path);
      collect(loader.finish().diagnostics, codes);
    } else if (top == "config") {
      collect(load_config(path).diagnostics, codes);
    } else if (top == "lists") {
      std::vector<std::string> paths{path};
      collect(load_prefix_lists(paths).diagnostics, codes);
    } else if (e.path().extension() == ".yaml") {
      std::vector<std::string> sources{path};
      collect(load_fleet(sources, cat).diagnostics, codes);
    }
  }
  // The fixtures are made to fail in many ways: the test sees a good share of the codes.
  EXPECT_GE(codes.size(), 15u);
  for (const auto& c : codes) EXPECT_NE(find_diagnostic_code(c), nullptr) << "unregistered code '" << c << "'";
}

}  // namespace
}  // namespace cidrcheck
