#pragma once
// Opt-in stream output (kept out of the core headers so they need no <ostream>).

#include <cidrcheck/address.hpp>
#include <cidrcheck/address_range.hpp>
#include <cidrcheck/address_set.hpp>
#include <cidrcheck/prefix.hpp>

#include <ostream>

namespace cidrcheck {

inline auto operator<<(std::ostream& os, const address& a) -> std::ostream& { return os << a.to_string(); }
inline auto operator<<(std::ostream& os, const prefix& p) -> std::ostream& { return os << p.to_string(); }
inline auto operator<<(std::ostream& os, const address_range& r) -> std::ostream& { return os << r.to_string(); }
/// Writes the set's minimal prefix cover: "{10.0.0.0/8, 192.168.0.0/16}".
inline auto operator<<(std::ostream& os, const address_set& s) -> std::ostream& {
  os << '{';
  const char* sep = "";
  for (const auto& p : s.prefixes()) {
    os << sep << p.to_string();
    sep = ", ";
  }
  return os << '}';
}

}  // namespace cidrcheck
