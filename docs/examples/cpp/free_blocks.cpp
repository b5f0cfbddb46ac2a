// free-blocks POOL CIDR...: the free space of POOL once the CIDRs are taken,
// as minimal prefixes, and the /24s a best-fit allocator hands out next.
#include <cidrcheck/cidrcheck.hpp>

#include <cstdio>
#include <exception>

int main(int argc, char** argv) try {
  if (argc < 2) {
    std::fputs("usage: free-blocks POOL [CIDR...]\n", stderr);
    return 2;
  }
  const auto pool = cidrcheck::prefix::parse(argv[1]);  // throws cidrcheck::parse_error, saying where
  cidrcheck::address_set_builder used;                 // build, then freeze
  for (int k = 2; k < argc; ++k) used.add(cidrcheck::prefix::parse(argv[k]));
  const cidrcheck::address_set free = cidrcheck::address_set{pool} - used.build();

  for (const auto& block : free.prefixes()) std::printf("free %s\n", block.to_string().c_str());
  cidrcheck::prefix_allocator allocator(free);
  for (int k = 0; k < 3; ++k) {
    if (auto next = allocator.take(pool.version(), 24)) std::printf("take %s\n", next->to_string().c_str());
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "free-blocks: %s\n", e.what());
  return 2;
}
