#include <cidrcheck/io/config_loader.hpp>
#include <cidrcheck/io/input_limits.hpp>

#include "../../lib/cidrcheck/io/yaml_document.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace cidrcheck {
namespace {

// The YAML layer's defaults are the input limits', not a second copy of the numbers.
TEST(InputLimits, TheYamlLayerDefaultsToThem) {
  const input_limits in;
  const detail::yaml_limits yaml;
  EXPECT_EQ(yaml.max_depth, in.max_depth);
  EXPECT_EQ(yaml.max_nodes, in.max_nodes);
  EXPECT_EQ(yaml.max_bytes, in.max_file_bytes);
  EXPECT_EQ(yaml.max_errors, in.max_errors);
  input_limits lowered;
  lowered.max_depth = 3;
  lowered.max_nodes = 4;
  lowered.max_file_bytes = 5;
  lowered.max_errors = 6;
  auto mapped = detail::yaml_limits_of(lowered);
  EXPECT_EQ(mapped.max_depth, 3u);
  EXPECT_EQ(mapped.max_nodes, 4u);
  EXPECT_EQ(mapped.max_bytes, 5u);
  EXPECT_EQ(mapped.max_errors, 6u);
}

// The configuration loader takes them too: a lowered max-depth refuses what the default reads.
TEST(InputLimits, TheConfigurationLoaderObeysThem) {
  const std::string text = "rules:\n  overlap: warning\n";  // two levels
  EXPECT_TRUE(parse_config(text, ".cidrcheck.yaml", ".").ok());
  input_limits shallow;
  shallow.max_depth = 1;
  auto refused = parse_config(text, ".cidrcheck.yaml", ".", shallow);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.diagnostics.front().code, "limit");
  EXPECT_NE(refused.diagnostics.front().message.find("max-depth"), std::string::npos)
      << refused.diagnostics.front().message;
}

TEST(InputLimits, CountsUpToTheDeclaredMaximum) { EXPECT_EQ(max_declared_count, 100'000'000); }

}  // namespace
}  // namespace cidrcheck
