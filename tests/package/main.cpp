// Links the installed cidrcheck package: the header-only core and the compiled readers.
#include <cidrcheck/cidrcheck.hpp>
#include <cidrcheck/io/prefix_list.hpp>

#include <cstdio>

int main() {
  cidrcheck::address_set used{cidrcheck::prefix::parse("10.0.0.0/9")};
  cidrcheck::prefix_allocator free(cidrcheck::address_set{cidrcheck::prefix::parse("10.0.0.0/8")} - used);
  auto block = free.take(cidrcheck::ip_version::v4, 16);

  cidrcheck::prefix_list list;
  cidrcheck::parse_prefix_list("10.0.0.0/8\n", "inline", list);

  std::printf("cidrcheck %s: %s, %zu entry\n", cidrcheck::version_string, block->to_string().c_str(),
              list.size());
  return block && *block == cidrcheck::prefix::parse("10.128.0.0/16") && list.ok() ? 0 : 1;
}
