#include <cidrcheck/io/read_file.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

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

// The set tools' reader: the same bytes and errors, into a huge-page aligned buffer it replaces.
TEST_F(ReadFile, ReadsIntoAHugeVectorAsReadFileDoes) {
  std::string text("a\r\nb\0c", 6);
  auto path = write("f.txt", text);
  detail::huge_vector<char> got(3, 'x');
  EXPECT_EQ(read_file_into(path, 100, "max-file-bytes", got), "");
  EXPECT_EQ(std::string(got.data(), got.size()), text);
  EXPECT_EQ(read_file_into(path, 5, "max-file-bytes", got), read_file(path, 5, "max-file-bytes").error);
  EXPECT_TRUE(got.empty());
  EXPECT_EQ(read_file_into((dir / "missing.txt").string(), 100, "max-file-bytes", got),
            read_file((dir / "missing.txt").string(), 100, "max-file-bytes").error);
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

TEST_F(ReadFile, ANamedPipeNoProgramWritesToIsAnErrorNotAWait) {
  auto path = (dir / "pipe.yaml").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  auto got = read_file(path, 100, "max-file-bytes");
  EXPECT_EQ(got.error, "is a named pipe (FIFO) that no program writes to: reading it would wait for ever");
  // A writer that has it open already: what it writes is read, to its end (when the writer closes
  // it, once the reader has taken every byte, which FIONREAD on the writer's end shows).
  int writer = ::open(path.c_str(), O_RDWR);  // O_RDWR: opens without waiting for a reader
  ASSERT_GE(writer, 0);
  ASSERT_EQ(::write(writer, "version: 1\n", 11), 11);
  std::thread reader([&] { got = read_file(path, 100, "max-file-bytes"); });
  for (int waiting = 1; waiting > 0 && ::ioctl(writer, FIONREAD, &waiting) == 0;) std::this_thread::yield();
  ::close(writer);
  reader.join();
  EXPECT_EQ(got.error, "");
  EXPECT_EQ(got.text, "version: 1\n");
}

TEST(DescriptorAlias, NamesOfTheProcessesStreams) {
  struct {
    const char* path;
    std::optional<int> want;
  } cases[] = {
      {"/dev/stdin", 0},      {"/dev/stdout", 1},       {"/dev/stderr", 2},
      {"/dev/fd/0", 0},       {"/dev/fd/7", 7},         {"/proc/self/fd/1", 1},
      {"//dev/./stdout", 1},  // lexically normal first
      {"/dev/fd/../stdout", 1},
      {"-", std::nullopt},    // its stream depends on the direction
      {"/dev/fd/", std::nullopt},  {"/dev/fd/x", std::nullopt}, {"/dev/fd/1x", std::nullopt},
      {"/dev/null", std::nullopt}, {"dev/stdout", std::nullopt}, {"fleet.yaml", std::nullopt},
  };
  for (const auto& c : cases) EXPECT_EQ(descriptor_alias(c.path), c.want) << c.path;
}

TEST(DisplayName, StandardInputIsNamedStdin) {
  EXPECT_EQ(display_name("-"), "<stdin>");
  EXPECT_EQ(display_name("fleet.yaml"), "fleet.yaml");
}

}  // namespace
}  // namespace cidrcheck
