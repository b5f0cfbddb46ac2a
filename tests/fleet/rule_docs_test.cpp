#include <cidrcheck/fleet/rule_docs.hpp>
#include <cidrcheck/fleet/rules.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace cidrcheck {
namespace {

TEST(Rules, TheCompiledDocumentationIsThePageInDocs) {
  for (const auto& r : rule_table()) {
    std::ifstream page(CIDRCHECK_DOCS "/rules/" + std::string(r.name) + ".md", std::ios::binary);
    std::stringstream text;
    text << page.rdbuf();
    EXPECT_EQ(rule_documentation(r.value), text.str()) << r.name;
    for (auto section : {"**What.**", "**How to fix.**", "**When suppressing is legitimate.**"}) {
      EXPECT_NE(rule_documentation(r.value).find(section), std::string_view::npos) << r.name << " lacks " << section;
    }
  }
}

}  // namespace
}  // namespace cidrcheck
