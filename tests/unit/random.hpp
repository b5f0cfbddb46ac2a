#pragma once
// A seeded, deterministic source of unsigned ints for property tests
// (std::mt19937 yields unsigned long here, which -Wconversion rightly flags).

#include <random>

namespace cidrcheck::test {

class random_source {
 public:
  explicit random_source(unsigned seed) : engine_(seed) {}
  auto operator()() -> unsigned { return static_cast<unsigned>(engine_()); }

 private:
  std::mt19937 engine_;
};

}  // namespace cidrcheck::test
