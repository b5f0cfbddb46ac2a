#pragma once
// Stable identities of findings, for baselines, diffs, SARIF and GitLab: they
// depend on what a finding is about, never on where it is written.

#include <cidrcheck/fleet/finding.hpp>
#include <cidrcheck/fleet/fleet.hpp>

#include <span>
#include <string>
#include <vector>

namespace cidrcheck {

/// Returns the entity id of a range, the name suppressions use for it:
/// "OWNER/ROLE" for a cluster's range (ROLE is network, pods or services) and
/// "OWNER" for a network's, OWNER escaped by escape_entity_name (a '/' in a
/// name is "%2F", so ids are unambiguous). Owner names are unique in a fleet, so an entity id
/// needs no file: moving a cluster to another file keeps its findings' identity.
auto entity_id(const fleet& f, const fleet_range& r) -> std::string;

/// Returns a finding's fingerprint, 64 hex digits: the SHA-256 of its rule id,
/// its entity ids (sorted) and its CIDRs (the ranges' and the catalog block's,
/// sorted). No file, line or column takes part, so the fingerprint survives
/// edits that move the text. A finding without ranges (the suppression rules)
/// is identified by its rule and message.
auto fingerprint(const fleet& f, const finding& x) -> std::string;

/// Returns the fingerprints of findings, made unique within the list: a
/// fingerprint's second occurrence gets ":2" appended, its third ":3", and so
/// on, in list order. (Two findings share a fingerprint only when the fleet
/// repeats a range, as in `pods: [10.0.0.0/16, 10.0.0.0/16]`.)
auto fingerprints(const fleet& f, std::span<const finding> findings) -> std::vector<std::string>;

}  // namespace cidrcheck
