#pragma once
// Forward declarations of the public value types: a cheap include for headers
// that only name them.

#include <cstdint>

namespace cidrcheck {
enum class ip_version : std::uint8_t;
enum class host_bits : std::uint8_t;
enum class parse_errc : std::uint8_t;
struct parse_failure;
class parse_error;
template <class T>
class result;
class address;
class prefix;
class subnet_range;
class address_range;
class address_set;
class address_set_builder;
template <class T>
class address_map;
class prefix_allocator;
}  // namespace cidrcheck
