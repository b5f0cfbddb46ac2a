#pragma once
// The options of one plan, as a front end receives them (words and text), and
// their validation, done once: `cidrcheck plan` and cidrcheck.Fleet.plan()
// pass what they were given, and get plan_options or a plan_option_error
// with the message to show. Value limits are in fleet/plan_limits.hpp, which
// the fleet file's `plan:` section uses too.

#include <cidrcheck/error.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/plan_limits.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cidrcheck {

struct judgement;  // how a run judges findings (analysis.hpp)

/// A plan option that cannot be used; what() is the message to show. A
/// cidrcheck::error and a std::invalid_argument.
class plan_option_error : public basic_error<std::invalid_argument> {
 public:
  using basic_error::basic_error;
};

/// How a front end names the options in messages: the CLI's flags
/// ("--pool") by default; Python passes its argument names.
struct plan_option_names {
  std::string pool = "--pool";
  std::string named_pool = "--named-pool";
  std::string avoid = "--avoid";
  std::string pin = "--pin";
  std::string cost = "--cost";
  std::string connect = "--connect";
  std::string routes = "--routes";
};

/// A named pool as a front end receives it (`--named-pool`, Python's
/// `named_pools`), as the fleet file writes one under `plan: pools:`: its
/// name, its CIDRs, and its `for:` as (KEY, VALUE) pairs, KEY a label, `owner`
/// (a name pattern, '*' matches any text) or `role` (a role word; repeatable).
struct named_pool_request {
  std::string name;
  std::vector<std::string> cidrs;
  std::vector<std::pair<std::string, std::string>> selector;
};

/// The options of a plan, unvalidated. Roles are words of cluster_role_words
/// ("all" is every role); CIDRs and numbers are text.
struct plan_request {
  std::vector<std::pair<std::string, std::string>> pools;  ///< (ROLE, CIDR)
  /// Named pools; given any, they replace the fleet file's named pools.
  std::vector<named_pool_request> named_pools;
  std::vector<std::string> avoid;                          ///< CIDRs
  std::vector<std::string> pins;                           ///< owner or owner/role, '*' matches any text
  /// (KEY, N): KEY a role, an operation kind, or `owner:NAME/WHAT`, `distribution:NAME/WHAT` (plan_limits.hpp)
  std::vector<std::pair<std::string, std::string>> costs;
  std::optional<std::string> headroom;                     ///< a number, min_plan_headroom to max_plan_headroom (fleet/plan_limits.hpp)
  std::vector<std::vector<std::string>> connect;           ///< what-if groups of owner names
  std::vector<std::string> routes{"all"};                  ///< what the what-if links carry
  bool fix_latent = false;
  check_options checking;
  plan_option_names names;
};

/// Validates the options that need no fleet (roles, CIDRs, costs and the
/// syntax of their keys, headroom, routes) and returns them as plan options,
/// without what-if connections or triage. Throws plan_option_error with the
/// message to show.
auto plan_options_for(const plan_request& request) -> plan_options;

/// Returns the what-if connections of request.connect in fleet f. Throws
/// plan_option_error for a name that is no owner of f, or a group of one.
auto what_if_connections(const fleet& f, const plan_request& request) -> std::vector<connection>;

/// All of it: the plan options for fleet f, judged by j (which must outlive
/// them) as `cidrcheck plan` judges; cost keys must name an operation kind of
/// j's catalog, a distribution of it, an owner of f. Throws plan_option_error.
auto plan_options_for(const fleet& f, const plan_request& request, const judgement& j) -> plan_options;

}  // namespace cidrcheck
