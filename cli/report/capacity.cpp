#include "json_writer.hpp"
#include "report.hpp"
#include "words.hpp"

#include <cidrcheck/version.hpp>

#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace cidrcheck::cli {

namespace {

// "26.6%", "<0.1%", "0%": the share of a pool in use.
auto percent(uint128 part, uint128 whole) -> std::string {
  if (part == 0 || whole == 0) return "0%";
  double share = 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  if (share < 0.1) return "<0.1%";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", share);
  return buf;
}

// The pod ranges a cluster's capacity counts.
auto pods_of(const fleet& f, const cluster_capacity& c) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (auto k : f.owners[c.owner].ranges) {
    const auto& r = f.ranges[k];
    if (r.role == range_role::pods && r.cidr.version() == c.version) out.push_back(r.cidr.to_string());
  }
  return out;
}

auto addresses_in(const prefix& p) -> uint128 { return address_range(p).size(); }

// A pool's address counts as decimal text. uint128 holds every count but one:
// all of IPv6, 2^128 (the addresses of ::/0, its free space while nothing is
// used, its used space once all is), where address_range::size() and
// address_set::size() saturate at 2^128 - 1.
// The blocks that fit of the family's full length (/32, /128) are the free
// addresses, so that count is exact too (pool_summary::fits saturates).
struct pool_counts {
  std::string addresses, used, free;
  std::vector<std::string> fits;  // per length asked for
};
auto counts_of(const pool_summary& p, std::span<const int> lengths) -> pool_counts {
  constexpr std::string_view two_to_128 = "340282366920938463463374607431768211456";
  bool all_of_ipv6 = p.pool.version() == ip_version::v6 && p.pool.length() == 0;
  auto count = [&](uint128 n, bool everything) {
    return all_of_ipv6 && everything ? std::string(two_to_128) : to_decimal(n);
  };
  pool_counts out{count(addresses_in(p.pool), true), count(p.used, p.free == 0), count(p.free, p.used == 0), {}};
  for (std::size_t k = 0; k < p.fits.size() && k < lengths.size(); ++k) {
    out.fits.push_back(lengths[k] == bit_width(p.pool.version()) ? out.free : to_decimal(p.fits[k]));
  }
  return out;
}

}  // namespace

void write_capacity_text(output& out, const capacity_report& r) {
  auto& buf = out.buffer();
  buf += "Pools\n";
  std::vector<std::vector<std::string>> rows{{"pool", "addresses", "used", "free", "used %", "largest free", "free blocks"}};
  for (int length : r.lengths) rows[0].push_back("fits /" + std::to_string(length));
  for (const auto& p : r.pools) {
    auto counts = counts_of(p, r.lengths);
    rows.push_back({p.pool.to_string(), counts.addresses, counts.used, counts.free, percent(p.used, addresses_in(p.pool)),
                    p.largest_free ? p.largest_free->to_string() : "(none)", std::to_string(p.free_blocks)});
    for (const auto& n : counts.fits) rows.back().push_back(n);
  }
  append_table(buf, rows);
  for (std::size_t k = 0; k < r.free.size(); ++k) {
    buf += "\nFree in " + r.pools[k].pool.to_string() + " (" + plural(r.free[k].size(), "block") + ")\n";
    for (const auto& p : r.free[k]) buf += "  " + p.to_string() + "\n";
    out.maybe_flush();
  }
  if (!r.clusters.empty()) {
    buf += "\nNode capacity\n";
    std::vector<std::vector<std::string>> nodes{{"cluster", "pods", "node mask", "nodes", "capacity", "used %"}};
    for (const auto& c : r.clusters) {
      std::string pods;
      for (const auto& p : pods_of(r.model, c)) pods += (pods.empty() ? "" : ", ") + p;
      nodes.push_back({r.model.owners[c.owner].name, pods, "/" + std::to_string(c.node_mask),
                       c.nodes ? std::to_string(*c.nodes) : "?", std::to_string(c.node_blocks),
                       c.nodes ? percent(*c.nodes, c.node_blocks) : "?"});
      if (c.nodes && *c.nodes > c.node_blocks) nodes.back().back() = "over";
    }
    append_table(buf, nodes);
  }
  out.maybe_flush();
}

void write_capacity_json(output& out, const capacity_report& r) {
  auto& buf = out.buffer();
  json_writer w(buf, 2);
  w.begin_object();
  w.member("version", std::uint64_t{1});
  w.key("tool");
  w.begin_object();
  w.member("name", "cidrcheck");
  w.member("version", version_string);
  w.end_object();
  w.key("files");
  w.begin_array();
  for (const auto& f : r.files) w.value(f);
  w.end_array();
  w.key("pools");
  w.begin_array();
  for (std::size_t k = 0; k < r.pools.size(); ++k) {
    const auto& p = r.pools[k];
    w.begin_object();
    w.member("pool", p.pool.to_string());
    auto counts = counts_of(p, r.lengths);
    w.key("addresses");
    w.number(counts.addresses);
    w.key("used");
    w.number(counts.used);
    w.key("free");
    w.number(counts.free);
    w.key("largest_free");
    if (p.largest_free) w.value(p.largest_free->to_string());
    else w.null();
    w.member("free_blocks", std::uint64_t{p.free_blocks});
    w.key("fits");
    w.begin_object();
    for (std::size_t j = 0; j < counts.fits.size(); ++j) {
      w.key("/" + std::to_string(r.lengths[j]));
      w.number(counts.fits[j]);
    }
    w.end_object();
    if (k < r.free.size()) {
      w.key("free_list");
      w.begin_array();
      for (const auto& b : r.free[k]) w.value(b.to_string());
      w.end_array();
    }
    w.end_object();
  }
  w.end_array();
  w.key("clusters");
  w.begin_array();
  for (const auto& c : r.clusters) {
    w.begin_object();
    w.member("cluster", r.model.owners[c.owner].name);
    w.key("pods");
    w.begin_array();
    for (const auto& p : pods_of(r.model, c)) w.value(p);
    w.end_array();
    w.member("node_mask", static_cast<std::uint64_t>(c.node_mask));
    w.member("capacity", c.node_blocks);
    w.key("nodes");
    if (c.nodes) w.value(*c.nodes);
    else w.null();
    w.end_object();
  }
  w.end_array();
  w.end_object();
  buf += "\n";
  out.maybe_flush();
}

}  // namespace cidrcheck::cli
