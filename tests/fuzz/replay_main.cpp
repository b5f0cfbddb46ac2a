// Runs a fuzz target on the given files and every file under the given directories, without
// libFuzzer: the seed corpus and every input that once crashed a target stay
// regression tests in the normal (and sanitizer) test runs.

#include "fuzz_target.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

namespace {

void replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t inputs = 0;
  for (int k = 1; k < argc; ++k) {
    std::filesystem::path path(argv[k]);
    if (std::filesystem::is_regular_file(path)) {
      replay(path);
      ++inputs;
      continue;
    }
    if (!std::filesystem::is_directory(path)) continue;  // an empty regressions/ folder is not in git
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
      if (!entry.is_regular_file()) continue;
      replay(entry.path());
      ++inputs;
    }
  }
  std::cout << "replayed " << inputs << " inputs\n";
  return inputs == 0 ? 1 : 0;
}
