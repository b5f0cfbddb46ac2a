// Address, prefix and range parsing: never crashes, try_parse and parse agree,
// and whatever parses prints canonical text that parses back to the same value.

#include "fuzz_target.hpp"

#include <cidrcheck/address_range.hpp>
#include <cidrcheck/prefix.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void require(bool condition) {
  if (!condition) std::abort();
}

template <class T, class TryParse, class Parse>
void round_trip(std::string_view text, TryParse try_parse, Parse parse) {
  auto r = try_parse(text);
  bool threw = false;
  try {
    parse(text);
  } catch (const cidrcheck::parse_error& e) {
    threw = true;
    require(!r && e.code() == r.error().code && e.offset() == r.error().offset);
    require(e.offset() <= text.size());
  }
  require(threw == !r);
  if (r) {
    T value = *r;
    require(try_parse(value.to_string()).has_value());
    require(*try_parse(value.to_string()) == value);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace cidrcheck;
  round_trip<address>(text, [](std::string_view t) { return address::try_parse(t); },
                      [](std::string_view t) { return address::parse(t); });
  round_trip<prefix>(text, [](std::string_view t) { return prefix::try_parse(t); },
                     [](std::string_view t) { return prefix::parse(t); });
  round_trip<address_range>(text, [](std::string_view t) { return address_range::try_parse(t); },
                            [](std::string_view t) { return address_range::parse(t); });
  // The lenient mode accepts a superset and always yields a canonical prefix.
  auto lenient = prefix::try_parse(text, host_bits::mask);
  if (lenient) require(prefix::try_parse(lenient->to_string()).has_value());
  if (prefix::try_parse(text)) require(lenient.has_value());
  return 0;
}
