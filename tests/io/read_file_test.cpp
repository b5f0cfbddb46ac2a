#include <cidrcheck/io/read_file.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace cidrcheck {
namespace {

class ReadFile : public ::testing::Test {
 protected:
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("cidrcheck_read_file_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  void SetUp() override { std::filesystem::create_directories(dir); }
  void TearDown() override { std::filesystem::remove_all(dir); }
  auto write(const std::string& name, const std::string& text) -> std::string {
    auto path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
};

TEST_F(ReadFile, ReadsTheWholeFileByteForByte) {
  std::string text("a\r\nb\0c", 6);
  auto got = read_file(write("f.yaml", text), 100, "max-file-bytes");
  EXPECT_EQ(got.error, "");
  EXPECT_EQ(got.text, text);
}

TEST_F(ReadFile, AFileOverTheLimitIsAnErrorNamingTheLimit) {
  auto path = write("big.yaml", std::string(101, 'x'));
  EXPECT_EQ(read_file(path, 101, "max-file-bytes").error, "");  // at the limit: read
  auto got = read_file(path, 100, "max-file-bytes");
  EXPECT_TRUE(got.text.empty());
  EXPECT_NE(got.error.find("max-file-bytes"), std::string::npos) << got.error;
}

TEST_F(ReadFile, AMissingFileOrADirectoryIsAnErrorNotAnException) {
  EXPECT_FALSE(read_file((dir / "missing.yaml").string(), 100, "max-file-bytes").error.empty());
  EXPECT_FALSE(read_file(dir.string(), 100, "max-file-bytes").error.empty());
}

TEST(DisplayName, StandardInputIsNamedStdin) {
  EXPECT_EQ(display_name("-"), "<stdin>");
  EXPECT_EQ(display_name("fleet.yaml"), "fleet.yaml");
}

}  // namespace
}  // namespace cidrcheck
