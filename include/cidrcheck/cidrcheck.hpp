#pragma once
// The umbrella header: every public value type and algorithm of cidrcheck::core.

#include <cidrcheck/address.hpp>
#include <cidrcheck/address_map.hpp>
#include <cidrcheck/address_range.hpp>
#include <cidrcheck/address_set.hpp>
#include <cidrcheck/algorithms.hpp>
#include <cidrcheck/ip_version.hpp>
#include <cidrcheck/parse_error.hpp>
#include <cidrcheck/prefix.hpp>
#include <cidrcheck/prefix_allocator.hpp>
#include <cidrcheck/special_purpose.hpp>
#include <cidrcheck/version.hpp>
