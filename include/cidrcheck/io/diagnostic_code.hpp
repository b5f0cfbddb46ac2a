#pragma once
// The registry of diagnostic codes: every code that a reader, an importer or the
// planner puts in diagnostic::code, with what it means. Emitters name a code
// through diag:: only; docs/cli.md lists the same table. tests/io/diagnostic_code_test.cpp
// and tests/docs/diagnostic_codes_test.py keep the three in step.

#include <array>
#include <cstddef>
#include <string_view>

namespace cidrcheck {

/// The diagnostic codes, one constant each (char arrays, so that they convert to
/// the std::string of diagnostic::code). A code is stable: tests and users match on it.
namespace diag {
inline constexpr char bad_version[] = "bad-version";
inline constexpr char cannot_rewrite[] = "cannot-rewrite";
inline constexpr char connection_members[] = "connection-members";
inline constexpr char csv_syntax[] = "csv-syntax";
inline constexpr char duplicate[] = "duplicate";
inline constexpr char duplicate_key[] = "duplicate-key";
inline constexpr char duplicate_member[] = "duplicate-member";
inline constexpr char duplicate_name[] = "duplicate-name";
inline constexpr char duplicate_prefix[] = "duplicate-prefix";
inline constexpr char empty_input[] = "empty-input";
inline constexpr char import_empty[] = "import-empty";
inline constexpr char import_format[] = "import-format";
inline constexpr char import_implied[] = "import-implied";
inline constexpr char import_inactive[] = "import-inactive";
inline constexpr char import_skipped[] = "import-skipped";
inline constexpr char import_unknown[] = "import-unknown";
inline constexpr char incomplete_export[] = "incomplete-export";
inline constexpr char import_unplaced[] = "import-unplaced";
inline constexpr char inferred_name[] = "inferred-name";
inline constexpr char internal[] = "internal";
inline constexpr char invalid_address[] = "invalid-address";
inline constexpr char invalid_cidr[] = "invalid-cidr";
inline constexpr char invalid_date[] = "invalid-date";
inline constexpr char invalid_entity[] = "invalid-entity";
inline constexpr char invalid_name[] = "invalid-name";
inline constexpr char invalid_prefix[] = "invalid-prefix";
inline constexpr char invalid_role[] = "invalid-role";
inline constexpr char invalid_rule[] = "invalid-rule";
inline constexpr char invalid_size[] = "invalid-size";
inline constexpr char invalid_value[] = "invalid-value";
inline constexpr char json_syntax[] = "json-syntax";
inline constexpr char limit[] = "limit";
inline constexpr char line_break[] = "line-break";
inline constexpr char lookalike_name[] = "lookalike-name";
inline constexpr char membership[] = "membership";
inline constexpr char missing_key[] = "missing-key";
inline constexpr char outside_configuration[] = "outside-configuration";
inline constexpr char outside_service_range[] = "outside-service-range";
inline constexpr char range[] = "range";
inline constexpr char route_skipped[] = "route-skipped";
inline constexpr char route_to_itself[] = "route-to-itself";
inline constexpr char route_unplaced[] = "route-unplaced";
inline constexpr char skipped[] = "skipped";
inline constexpr char sources_disagree[] = "sources-disagree";
inline constexpr char stale_renumber[] = "stale-renumber";
inline constexpr char too_many_errors[] = "too-many-errors";
inline constexpr char type[] = "type";
inline constexpr char unchecked[] = "unchecked";
inline constexpr char unknown_distribution[] = "unknown-distribution";
inline constexpr char unknown_fact[] = "unknown-fact";
inline constexpr char unknown_key[] = "unknown-key";
inline constexpr char unknown_owner[] = "unknown-owner";
inline constexpr char unknown_role[] = "unknown-role";
inline constexpr char unknown_rule[] = "unknown-rule";
inline constexpr char unknown_value[] = "unknown-value";
inline constexpr char unread_value[] = "unread-value";
inline constexpr char unreadable[] = "unreadable";
inline constexpr char unresolved_link[] = "unresolved-link";
inline constexpr char unused_pin[] = "unused-pin";
inline constexpr char usage[] = "usage";
inline constexpr char version[] = "version";
inline constexpr char yaml_syntax[] = "yaml-syntax";
}  // namespace diag

/// One registered diagnostic code and what it means (one line, for docs and tools).
struct diagnostic_code_info {
  std::string_view code;
  std::string_view meaning;
};

/// Every diagnostic code, sorted by code. Severity is the emitter's: most codes
/// are errors; a meaning that starts with "warning:" or "note:" says otherwise.
inline constexpr std::array diagnostic_codes{
    diagnostic_code_info{diag::bad_version, "a catalog operation's Kubernetes version bound is not a version such as 1.29"},
    diagnostic_code_info{diag::cannot_rewrite, "`plan --format yaml` cannot rewrite a construct of the fleet file that the plan changes (a range key written as an explicit key, `? network`); nothing is written"},
    diagnostic_code_info{diag::connection_members, "a connection has fewer than two different members"},
    diagnostic_code_info{diag::csv_syntax, "an export in CSV is not well-formed: a quoted field that never ends, text after a closing quote, a row with more or fewer fields than the header"},
    diagnostic_code_info{diag::duplicate, "the catalog lists an operation twice"},
    diagnostic_code_info{diag::duplicate_key, "a mapping repeats a key"},
    diagnostic_code_info{diag::duplicate_member, "warning: a connection lists a member twice"},
    diagnostic_code_info{diag::duplicate_name, "two owners share a name (in one file, or a cluster in one source and a network in another)"},
    diagnostic_code_info{diag::duplicate_prefix, "warning: a NetBox export lists a prefix twice in one VRF (or the global table), or one prefix object twice; it is read once"},
    diagnostic_code_info{diag::empty_input, "the input holds nothing to read: no YAML document, no cluster or network, no CIDR, an empty export"},
    diagnostic_code_info{diag::import_empty, "warning: an export file lists nothing cidrcheck reads"},
    diagnostic_code_info{diag::import_format, "an export is not in the format its kind reads (for example `terraform show -json` instead of the state)"},
    diagnostic_code_info{diag::import_implied, "note: an export implies a range it does not list (a GCP auto-mode network's 10.128.0.0/9); the range is claimed, and the note names it and its source"},
    diagnostic_code_info{diag::import_inactive, "note: an export lists a block or link that is not in effect (an AWS VPC's or subnet's CIDR block association disassociated or failed, an Azure peering not Connected); it is named and left out"},
    diagnostic_code_info{diag::import_skipped, "note: a Terraform state or plan holds resource types cidrcheck does not read; one note counts them per file"},
    diagnostic_code_info{diag::import_unknown, "note: a Terraform plan leaves a range (or the VPC an EKS cluster runs in) unknown until apply; the resource is named and the range left out, not guessed"},
    diagnostic_code_info{diag::import_unplaced, "warning: an export lists something cidrcheck cannot place (a subnet without an address, a peering to a virtual network no source of the file describes and whose address space the peering omits); it is named and left out"},
    diagnostic_code_info{diag::incomplete_export, "warning: a paginated export (NetBox's /api/ipam/prefixes/) lists fewer objects than its count says: pages are missing"},
    diagnostic_code_info{diag::inferred_name, "note: an export names no cluster, so the cluster is named after the file"},
    diagnostic_code_info{diag::internal, "cidrcheck could not start its YAML parser (a bug or no memory)"},
    diagnostic_code_info{diag::invalid_address, "an address does not parse (a DNS address, a renumber target, a Tailscale host)"},
    diagnostic_code_info{diag::invalid_cidr, "a CIDR does not parse or has host bits set"},
    diagnostic_code_info{diag::invalid_date, "a date is not written YYYY-MM-DD"},
    diagnostic_code_info{diag::invalid_entity, "a suppression's entity is not OWNER or OWNER/ROLE"},
    diagnostic_code_info{diag::invalid_name, "a cluster or network name contains characters names may not"},
    diagnostic_code_info{diag::invalid_prefix, "a line of a CIDR list, or a renumber target, is not a prefix"},
    diagnostic_code_info{diag::invalid_role, "a renumber entry names a role that does not exist or that the owner does not have"},
    diagnostic_code_info{diag::invalid_rule, "a suppression names a rule that cannot be suppressed (the suppression rules themselves)"},
    diagnostic_code_info{diag::invalid_size, "a size is not /LENGTH, ipv6/LENGTH or auto"},
    diagnostic_code_info{diag::invalid_value, "a configuration value is not one of the words the key takes"},
    diagnostic_code_info{diag::json_syntax, "an export is not valid JSON or HuJSON"},
    diagnostic_code_info{diag::limit, "an input exceeds a limit (file size, nesting depth, owners, ranges, errors; docs/limits.md)"},
    diagnostic_code_info{diag::line_break, "a line ends with a character YAML counts as a line break but editors do not (a lone CR, NEL, LS, PS)"},
    diagnostic_code_info{diag::lookalike_name, "warning: two owners' names differ only by zero-width characters or the kind of blank (U+200B, U+00A0, ...), so reports print them alike"},
    diagnostic_code_info{diag::membership, "note or warning: where a cluster runs: a note names the network containment placed it in (no source said), or the networks that each hold its network range (it runs in none); a warning says its network lies outside the network a source says it runs in; a note says a fleet file's runs_in names no owner"},
    diagnostic_code_info{diag::missing_key, "a required key is missing"},
    diagnostic_code_info{diag::outside_configuration, "a configuration's `inputs` names a file outside the configuration's directory (an absolute path, `../`, or a link that leads out); name it on the command line to read it"},
    diagnostic_code_info{diag::outside_service_range, "warning: a Service's cluster IP (kubectl-services) lies outside every service range of its cluster, which keeps that range from being retired"},
    diagnostic_code_info{diag::range, "a number lies outside the range its key allows"},
    diagnostic_code_info{diag::route_skipped, "warning: a Tailscale route approves all addresses (an exit node's route), which cidrcheck does not check"},
    diagnostic_code_info{diag::route_to_itself, "a network's route leads to the network itself"},
    diagnostic_code_info{diag::route_unplaced, "warning: a Tailscale ACL names a prefix that no approved route covers"},
    diagnostic_code_info{diag::skipped, "note or warning: documents or groups of an export that cidrcheck does not read were skipped"},
    diagnostic_code_info{diag::sources_disagree, "warning: sources disagree on a value of an owner (distribution or type, Kubernetes version, DNS address, node mask, node count); the first is used. Disagreeing ranges are rule CIDR301 source-conflict instead"},
    diagnostic_code_info{diag::stale_renumber, "a renumber entry's `from` no longer matches the fleet"},
    diagnostic_code_info{diag::too_many_errors, "reading stopped after the maximum number of errors"},
    diagnostic_code_info{diag::type, "a value has the wrong YAML type (a mapping for a list, an empty string, a version that is not one)"},
    diagnostic_code_info{diag::unchecked, "note: cluster IPs of a kubectl-services export could not be checked, since no source gives the cluster's service range for that IP version"},
    diagnostic_code_info{diag::unknown_distribution, "warning: a cluster's distribution is not in the catalog"},
    diagnostic_code_info{diag::unknown_fact, "a catalog profile field names a fact that docs/migration-facts.md does not list"},
    diagnostic_code_info{diag::unknown_key, "a key is not part of the format"},
    diagnostic_code_info{diag::unknown_owner, "a connection, route or renumber entry names no cluster or network of the fleet"},
    diagnostic_code_info{diag::unknown_role, "a connection's `routes` names a role other than network, pods, services or all"},
    diagnostic_code_info{diag::unknown_rule, "a suppression or a catalog block names no rule"},
    diagnostic_code_info{diag::unknown_value, "a catalog key has a value outside the words it takes"},
    diagnostic_code_info{diag::unread_value, "note: an export holds a value cidrcheck does not understand (a placeholder version, an encapsulation or proxy mode it does not know); the value is named and left out, and the rest of the file is read"},
    diagnostic_code_info{diag::unreadable, "a file cannot be opened or read"},
    diagnostic_code_info{diag::unresolved_link, "note or warning: an export refers to a cluster or network (a VPC, a cluster tag) that no source describes"},
    diagnostic_code_info{diag::unused_pin, "warning: a plan pin matches no range of the fleet"},
    diagnostic_code_info{diag::usage, "a KIND=CLUSTER:FILE source names a cluster for an export kind that names its own"},
    diagnostic_code_info{diag::version, "a fleet file or configuration declares a version this cidrcheck does not read"},
    diagnostic_code_info{diag::yaml_syntax, "the input is not well-formed YAML"},
};

/// Returns the registry entry of a code, or nullptr when the code is not registered.
/// O(log n): the table is sorted.
constexpr auto find_diagnostic_code(std::string_view code) noexcept -> const diagnostic_code_info* {
  std::size_t lo = 0, hi = diagnostic_codes.size();
  while (lo < hi) {
    std::size_t mid = lo + (hi - lo) / 2;
    if (diagnostic_codes[mid].code < code) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < diagnostic_codes.size() && diagnostic_codes[lo].code == code ? &diagnostic_codes[lo] : nullptr;
}

}  // namespace cidrcheck
