#pragma once
// Everything cidrcheck takes from Boost.ICL, in one place. No ICL type appears
// in a public signature; public headers hold ICL containers only as private members.
//
// Intervals are closed ([first, last]) because the top of each address space has
// no "one past the end": 255.255.255.255/32 and ::/0 must be representable.

#include <cidrcheck/address.hpp>
#include <cidrcheck/address_range.hpp>
#include <cidrcheck/detail/u128.hpp>

#include <boost/icl/closed_interval.hpp>
#include <boost/icl/interval_map.hpp>
#include <boost/icl/interval_set.hpp>

#include <cstdint>
#include <functional>

namespace cidrcheck::detail {

static_assert(boost::icl::is_discrete<std::uint32_t>::value);
static_assert(boost::icl::is_discrete<uint128>::value, "ICL must treat uint128 as discrete to join touching ranges");

template <class Bits>
using interval = boost::icl::closed_interval<Bits>;

/// A joining interval set: touching and overlapping intervals merge on insertion.
template <class Bits>
using interval_set = boost::icl::interval_set<Bits, std::less, interval<Bits>>;

/// An interval map that aggregates values on overlap with +=, and drops
/// segments whose value becomes the identity (partial_absorber).
template <class Bits, class T>
using interval_map = boost::icl::interval_map<Bits, T, boost::icl::partial_absorber, std::less,
                                              boost::icl::inplace_plus, boost::icl::inter_section, interval<Bits>>;

/// Returns the bits of a range's ends as an ICL interval of the range's family.
template <class Bits>
auto to_interval(const address_range& r) -> interval<Bits> {
  return interval<Bits>(static_cast<Bits>(r.first().bits()), static_cast<Bits>(r.last().bits()));
}

/// Returns the range of version v that an ICL interval covers.
template <class Bits>
auto to_range(ip_version v, const interval<Bits>& i) -> address_range {
  return *address_range::try_make(address::from_bits(v, i.lower()), address::from_bits(v, i.upper()));
}

/// The ICL container of each family, side by side, so that families never mix.
template <template <class> class Container>
struct per_family {
  Container<std::uint32_t> v4;
  Container<uint128> v6;

  /// Calls f(container, version) for each family: IPv4 first.
  template <class F>
  void each(F&& f) {
    f(v4, ip_version::v4);
    f(v6, ip_version::v6);
  }
  template <class F>
  void each(F&& f) const {
    f(v4, ip_version::v4);
    f(v6, ip_version::v6);
  }
  /// Calls f(container) for the container of version v. Precondition: v is v4 or v6.
  template <class F>
  decltype(auto) of(ip_version v, F&& f) {
    return v == ip_version::v4 ? f(v4) : f(v6);
  }
  template <class F>
  decltype(auto) of(ip_version v, F&& f) const {
    return v == ip_version::v4 ? f(v4) : f(v6);
  }
  friend bool operator==(const per_family&, const per_family&) = default;
};

}  // namespace cidrcheck::detail
