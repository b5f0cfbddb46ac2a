#pragma once
// Whether a block is private or global in the sense of Python's ipaddress: the
// blocks the IANA special-purpose address registries mark "not globally
// reachable" (https://www.iana.org/assignments/iana-ipv4-special-registry/,
// https://www.iana.org/assignments/iana-ipv6-special-registry/).
//
// The tables and rules are CPython's Lib/ipaddress.py (_IPv4Constants,
// _IPv6Constants, _BaseNetwork.is_private, IPv4Network.is_global) as fixed by
// python/cpython#113171 (CVE-2024-4032): CPython 3.12.4 and 3.13.0, backported
// to 3.11.10 and to Debian 12's 3.11.2-6+deb12u3. Pythons before the fix
// (3.11.2 upstream, 3.12.3) list 192.0.0.0/29 instead of /24 and lack
// 64:ff9b:1::/48, 2002::/16 and the exceptions, so they answer differently
// for those blocks; 3.10 and older also test a network's ends against any
// two blocks, not one (0.0.0.0/0 is private there).

#include <cidrcheck/address.hpp>
#include <cidrcheck/prefix.hpp>

#include <array>
#include <cstdint>
#include <string_view>

namespace cidrcheck {

namespace detail {
// Parses a table entry at compile time; a typo is a compile error (value() throws).
constexpr auto special_block(std::string_view text) -> prefix { return prefix::try_parse(text).value(); }
}  // namespace detail

/// The blocks CPython's ipaddress lists as not globally reachable (_private_networks), both versions.
inline constexpr std::array not_globally_reachable{
    // IPv4
    detail::special_block("0.0.0.0/8"), detail::special_block("10.0.0.0/8"), detail::special_block("127.0.0.0/8"),
    detail::special_block("169.254.0.0/16"), detail::special_block("172.16.0.0/12"),
    detail::special_block("192.0.0.0/24"), detail::special_block("192.0.0.170/31"),
    detail::special_block("192.0.2.0/24"), detail::special_block("192.168.0.0/16"),
    detail::special_block("198.18.0.0/15"), detail::special_block("198.51.100.0/24"),
    detail::special_block("203.0.113.0/24"), detail::special_block("240.0.0.0/4"),
    detail::special_block("255.255.255.255/32"),
    // IPv6; 2002::/16 (6to4) is "N/A" in the registry, which CPython counts as not global.
    detail::special_block("::1/128"), detail::special_block("::/128"), detail::special_block("::ffff:0:0/96"),
    detail::special_block("64:ff9b:1::/48"), detail::special_block("100::/64"), detail::special_block("2001::/23"),
    detail::special_block("2001:db8::/32"), detail::special_block("2002::/16"), detail::special_block("fc00::/7"),
    detail::special_block("fe80::/10"),
};

/// The globally reachable blocks inside those (_private_networks_exceptions).
inline constexpr std::array globally_reachable_exceptions{
    detail::special_block("192.0.0.9/32"),    detail::special_block("192.0.0.10/32"),
    detail::special_block("2001:1::1/128"),   detail::special_block("2001:1::2/128"),
    detail::special_block("2001:3::/32"),     detail::special_block("2001:4:112::/48"),
    detail::special_block("2001:20::/28"),    detail::special_block("2001:30::/28"),
};

/// RFC 6598's shared address space, which Python counts neither private nor global.
inline constexpr prefix shared_address_space = detail::special_block("100.64.0.0/10");

/// Reports whether p is private as Python's IPv4Network/IPv6Network.is_private
/// says (3.11 and later): p lies within one not_globally_reachable block, and
/// neither its first nor its last address lies in an exception. Only the ends
/// are tested, as Python does: 2001::/23 is private although it holds exceptions.
/// False for an invalid prefix. O(size of the tables).
constexpr auto is_private(const prefix& p) noexcept -> bool {
  if (!p.is_valid()) return false;
  bool inside = false;
  for (const auto& block : not_globally_reachable) inside = inside || p.subnet_of(block);
  if (!inside) return false;
  for (const auto& exception : globally_reachable_exceptions) {
    if (exception.contains(p.network()) || exception.contains(p.last())) return false;
  }
  return true;
}

/// Reports whether p is global as Python's IPv4Network/IPv6Network.is_global
/// says: not private, and (IPv4) not within 100.64.0.0/10. False for an invalid prefix.
constexpr auto is_global(const prefix& p) noexcept -> bool {
  return p.is_valid() && !is_private(p) && !p.subnet_of(shared_address_space);
}

/// The IPv4-mapped IPv6 block, ::ffff:0:0/96 (RFC 4291 section 2.5.5.2).
inline constexpr prefix ipv4_mapped_block = detail::special_block("::ffff:0:0/96");

namespace detail {
// The address ipaddress judges a by: for an IPv4-mapped IPv6 address the IPv4
// address it maps (IPv6Address.ipv4_mapped), else a itself.
constexpr auto judged_address(const address& a) noexcept -> address {
  return ipv4_mapped_block.contains(a) ? address::v4(static_cast<std::uint32_t>(a.bits())) : a;
}
}  // namespace detail

/// Reports whether a is private as Python's IPv4Address/IPv6Address.is_private
/// says: a lies in a not_globally_reachable block and in no exception, except
/// that an IPv4-mapped IPv6 address (::ffff:0:0/96) answers for the IPv4
/// address it maps, as ipaddress does (CPython's main branch and Debian 12's
/// 3.11.2-6+deb12u6, Lib/ipaddress.py): ::ffff:8.8.8.8 is not private although
/// the block ::ffff:0:0/96 is.
/// False for an invalid address. O(size of the tables).
constexpr auto is_private(const address& a) noexcept -> bool {
  auto b = detail::judged_address(a);
  return is_private(prefix::containing(b, b.width()));
}

/// Reports whether a is global as Python's IPv4Address/IPv6Address.is_global
/// says: not private and not within 100.64.0.0/10; an IPv4-mapped IPv6 address
/// answers for its IPv4 address (CPython's main branch; see docs/python.md for
/// the Debian 3.11 that does not). False for an invalid address.
constexpr auto is_global(const address& a) noexcept -> bool {
  auto b = detail::judged_address(a);
  return is_global(prefix::containing(b, b.width()));
}

}  // namespace cidrcheck
