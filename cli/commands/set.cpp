// cidrcheck set merge|overlaps|free|alloc: set algebra on plain CIDR lists.

#include "app.hpp"
#include "options.hpp"
#include "output.hpp"

#include <cidrcheck/address_set.hpp>
#include <cidrcheck/algorithms.hpp>
#include <cidrcheck/io/prefix_list.hpp>
#include <cidrcheck/limit_error.hpp>
#include <cidrcheck/prefix_allocator.hpp>
#include <cidrcheck/prefix_keys.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace po = boost::program_options;

namespace cidrcheck::cli {

namespace {

// The most blocks `set alloc` takes unless --max-blocks says more: each take
// is a step of best fit, so K is time (and, with -n, K lines of output); a
// pool as large as ::/0 never runs out to end the loop.
constexpr std::uint64_t max_alloc_blocks = 10'000'000;

constexpr std::string_view set_description =
    "Set algebra on plain CIDR lists: one CIDR a line, '#' comments and blank lines\n"
    "allowed, '-' for standard input; several files are read as one list.\n"
    "\n"
    "Subcommands:\n"
    "  merge      the minimal prefix cover of the union, sorted, one a line\n"
    "  overlaps   every overlapping pair of input lines, one pair a line (exit 1 if any)\n"
    "  free       the free prefixes of --within POOL minus the union\n"
    "  alloc      best-fit allocation of -n K blocks of --length L from --within POOL\n"
    "\n"
    "Run 'cidrcheck set SUBCOMMAND --help' for the options of each.";

// The options every set subcommand takes: the reading options and --count.
void add_common(po::options_description& d) {
  list_options defaults;
  d.add_options()
    ("help,h", "show this help and exit")
    ("lenient", po::bool_switch(), "accept CIDRs with host bits set (10.0.0.1/24 means 10.0.0.0/24)")
    ("allow-empty", po::bool_switch(), "accept input without a single CIDR")
    ("max-file-bytes", po::value<std::size_t>()->default_value(defaults.max_file_bytes)->value_name("N"),
     "refuse input files larger than N bytes")
    ("max-line-bytes", po::value<std::size_t>()->default_value(defaults.max_line_bytes)->value_name("N"),
     "refuse lines longer than N bytes")
    ("max-errors", po::value<std::size_t>()->default_value(defaults.max_errors)->value_name("N"),
     "stop reading after N errors");
}

auto subcommand(std::string name, std::string summary, std::string usage, std::string description)
    -> command_interface {
  command_interface c;
  c.name = "set " + name;
  c.summary = std::move(summary);
  c.usage = std::move(usage);
  c.description = std::move(description);
  c.operands = operand_kind::files;
  add_common(c.options);
  return c;
}

auto merge_interface() -> command_interface {
  auto c = subcommand("merge", "the minimal prefix cover of the union", "set merge [OPTIONS] FILE...",
                      "Prints the minimal prefix cover of the union of the lists, sorted (IPv4 first), one a line.");
  c.options.add_options()("count", po::bool_switch(), "print only 'merged N'");
  return c;
}

auto overlaps_interface() -> command_interface {
  auto c = subcommand("overlaps", "every overlapping pair of input lines", "set overlaps [OPTIONS] FILE...",
                      "Prints every pair of input lines whose CIDRs overlap (two equal lines are a pair),\n"
                      "one pair a line, earlier line first, in input order:\n"
                      "  FILE:LINE: CIDR overlaps FILE:LINE: CIDR\n"
                      "Exits 1 when there is at least one pair, 0 when there is none.");
  c.options.add_options()("count", po::bool_switch(), "print only 'pairs N'");
  return c;
}

auto free_interface() -> command_interface {
  auto c = subcommand("free", "the free prefixes of a pool", "set free --within POOL [OPTIONS] FILE...",
                      "Prints the minimal prefix cover of POOL minus the union of the lists, one a line.");
  c.options.add_options()
    ("within", po::value<std::vector<std::string>>()->required()->value_name("POOL"),
     "the pool (a CIDR; repeat for several)")
    ("count", po::bool_switch(), "print only 'free N'");
  return c;
}

auto alloc_interface() -> command_interface {
  auto c = subcommand("alloc", "best-fit allocation from a pool",
                      "set alloc --within POOL --length L [-n K | --count K] [OPTIONS] FILE...",
                      "Allocates K blocks of length L from POOL minus the union of the lists, by best fit:\n"
                      "each comes from the smallest free block that can hold it (lowest address among\n"
                      "equals), carved from its start, as netipx's RemoveFreePrefix chooses. Exits 1 if\n"
                      "the pool runs out before K blocks (the blocks found are still printed).");
  c.options.add_options()
    ("within", po::value<std::vector<std::string>>()->required()->value_name("POOL"),
     "the pool (a CIDR; repeat for several)")
    ("length", po::value<int>()->required()->value_name("L"), "the prefix length of each block")
    ("number,n", po::value<std::uint64_t>()->value_name("K"), "allocate K blocks and print them, one a line (default 1)")
    ("count", po::value<std::uint64_t>()->value_name("K"), "allocate K blocks and print only 'alloc K last PREFIX'")
    ("max-blocks", po::value<std::uint64_t>()->default_value(max_alloc_blocks)->value_name("N"),
     "refuse to allocate more than N blocks (each is a step of best fit: ::/0 holds 2^128 /128s)");
  return c;
}

// Parses a subcommand's arguments; returns nullopt after printing --help.
auto parse(std::span<const std::string> args, const command_interface& c) -> std::optional<po::variables_map> {
  auto vm = parse_command(args, c);
  if (vm.count("help")) {
    print_help(c);
    return std::nullopt;
  }
  return vm;
}

auto parse_pool(const std::vector<std::string>& texts, const std::string& help) -> address_set {
  address_set_builder b;
  for (const auto& t : texts) b.add(parse_prefix_option(t, "--within", help));
  return b.build();
}

// Reads the lists named by the operands; prints every diagnostic. Returns nullopt when the input has errors.
auto read_lists(const po::variables_map& vm, const std::string& help) -> std::optional<prefix_list> {
  auto files = operands(vm);
  if (files.empty()) throw usage_error("no input files (use '-' for standard input)", help);
  list_options options;
  options.allow_empty = vm["allow-empty"].as<bool>();
  options.max_file_bytes = vm["max-file-bytes"].as<std::size_t>();
  options.max_line_bytes = vm["max-line-bytes"].as<std::size_t>();
  options.max_errors = vm["max-errors"].as<std::size_t>();
  if (vm["lenient"].as<bool>()) options.mode = host_bits::mask;
  auto list = load_prefix_lists(files, options);
  for (const auto& d : list.diagnostics) std::cerr << format_diagnostic(d);
  if (!list.ok()) return std::nullopt;
  return list;
}

auto union_of(const prefix_list& list) -> address_set {
  address_set_builder b;
  for (auto key : list.keys().v4) b.add(prefix_keys::v4_prefix(key));
  for (const auto& key : list.keys().v6) b.add(prefix_keys::v6_prefix(key));
  return b.build();
}

auto run_merge(std::span<const std::string> args) -> int {
  const auto c = merge_interface();
  auto vm = parse(args, c);
  if (!vm) return exit_ok;
  auto list = read_lists(*vm, c.name);
  if (!list) return exit_trouble;
  // Streamed: the cover is counted or written as it comes, never held.
  output out;
  if ((*vm)["count"].as<bool>()) {
    std::uint64_t merged = 0;
    for_each_collapsed(std::move(*list).take_keys(), [&](const prefix&) { ++merged; });
    out.write(fmt::format("merged {}\n", merged));
  } else {
    for_each_collapsed(std::move(*list).take_keys(), [&](const prefix& p) { out.line(p); });
  }
  return out.flush() ? exit_ok : exit_trouble;
}

auto run_overlaps(std::span<const std::string> args) -> int {
  const auto c = overlaps_interface();
  auto vm = parse(args, c);
  if (!vm) return exit_ok;
  auto list = read_lists(*vm, c.name);
  if (!list) return exit_trouble;
  output out;
  std::uint64_t pairs = 0;
  if ((*vm)["count"].as<bool>()) {
    pairs = count_overlapping_pairs(std::move(*list).take_keys());
    out.write(fmt::format("pairs {}\n", pairs));
  } else {
    // Streamed in input order: memory stays O(lines) however many pairs there are.
    // A failed write (a closed pipe with SIGPIPE ignored, a full disk) stops the stream.
    struct stopped {};
    auto& buf = out.buffer();
    try {
      auto value_of = [](const list_entry& e) { return e.value; };
      for_each_overlapping_pair_in_order(*list, value_of, [&](std::size_t i, std::size_t j) {
        if (out.failed()) throw stopped{};
        ++pairs;
        for (auto k : {i, j}) {
          const auto e = (*list)[k];
          buf += list->sources[e.source];
          buf += ':';
          buf += std::to_string(e.line);
          buf += ": ";
          e.value.append_to(buf);
          buf += k == i ? " overlaps " : "\n";
        }
        out.maybe_flush();
      });
    } catch (const stopped&) {
      return exit_trouble;
    }
  }
  if (!out.flush()) return exit_trouble;
  return pairs == 0 ? exit_ok : exit_findings;
}

auto run_free(std::span<const std::string> args) -> int {
  const auto c = free_interface();
  auto vm = parse(args, c);
  if (!vm) return exit_ok;
  auto pool = parse_pool((*vm)["within"].as<std::vector<std::string>>(), c.name);
  auto list = read_lists(*vm, c.name);
  if (!list) return exit_trouble;
  auto free = (pool - union_of(*list)).prefixes();
  output out;
  if ((*vm)["count"].as<bool>()) {
    out.write(fmt::format("free {}\n", free.size()));
  } else {
    for (const auto& p : free) out.line(p);
  }
  return out.flush() ? exit_ok : exit_trouble;
}

auto run_alloc(std::span<const std::string> args) -> int {
  const auto c = alloc_interface();
  const auto& help = c.name;
  auto vm_parsed = parse(args, c);
  if (!vm_parsed) return exit_ok;
  const auto& vm = *vm_parsed;
  int length = vm["length"].as<int>();
  std::uint64_t number = vm.count("number") ? vm["number"].as<std::uint64_t>() : 1;
  std::optional<std::uint64_t> count;
  if (vm.count("count")) {
    if (vm.count("number")) throw usage_error("use either -n/--number or --count, not both", help);
    count = vm["count"].as<std::uint64_t>();
    number = *count;
  }
  if (auto most = vm["max-blocks"].as<std::uint64_t>(); number > most) {
    throw limit_error("max-blocks", most,
                      fmt::format("{} {} blocks is more than the max-blocks limit of {}", count ? "--count" : "-n",
                                  number, most));
  }
  auto pool = parse_pool(vm["within"].as<std::vector<std::string>>(), help);
  auto pool_version = pool.only(ip_version::v4).empty() ? ip_version::v6 : ip_version::v4;
  if (!pool.only(ip_version::v4).empty() && !pool.only(ip_version::v6).empty()) {
    throw usage_error("--within pools must all be of one IP version", help);
  }
  if (length < 0 || length > bit_width(pool_version)) {
    throw usage_error(fmt::format("--length {} is not a valid IPv{} prefix length", length,
                                  static_cast<int>(pool_version)),
                      help);
  }
  auto list = read_lists(vm, help);
  if (!list) return exit_trouble;
  prefix_allocator allocator(pool - union_of(*list));
  output out;
  std::uint64_t made = 0;
  std::optional<prefix> last;
  for (; made < number; ++made) {
    auto p = allocator.take(pool_version, length);
    if (!p) break;
    last = p;
    if (!count) out.line(*p);
  }
  if (count) out.write(fmt::format("alloc {} last {}\n", made, last ? last->to_string() : "None"));
  if (!out.flush()) return exit_trouble;
  if (made < number) {
    std::cerr << fmt::format("cidrcheck: error: the pool ran out after {} of {} /{} blocks\n", made, number, length);
    return exit_findings;
  }
  return exit_ok;
}

}  // namespace

auto set_interfaces() -> std::vector<command_interface> {
  std::vector<command_interface> out(1);
  out[0].name = "set";
  out[0].summary = "set algebra on plain CIDR lists: merge, overlaps, free, alloc";
  out[0].usage = "set SUBCOMMAND [OPTIONS] FILE...";
  out[0].description = set_description;
  out[0].options.add_options()("help,h", "show this help and exit");
  out[0].operands = operand_kind::words;
  for (auto* make : {merge_interface, overlaps_interface, free_interface, alloc_interface}) {
    out.push_back(make());
    out[0].operand_words.push_back(out.back().name.substr(4));
  }
  return out;
}

auto run_set(std::span<const std::string> args) -> int {
  struct subcommand_entry {
    std::string_view name;
    int (*run)(std::span<const std::string>);
  };
  static constexpr subcommand_entry subcommands[] = {
      {"merge", run_merge}, {"overlaps", run_overlaps}, {"free", run_free}, {"alloc", run_alloc}};
  if (args.empty()) throw usage_error("missing subcommand (merge, overlaps, free or alloc)", "set");
  if (args[0] == "--help" || args[0] == "-h") {
    std::cout << "Usage: cidrcheck set SUBCOMMAND [OPTIONS] FILE...\n\n" << set_description << "\n";
    return exit_ok;
  }
  for (const auto& s : subcommands) {
    if (args[0] == s.name) return s.run(args.subspan(1));
  }
  throw usage_error("unknown set subcommand '" + args[0] + "' (merge, overlaps, free or alloc)", "set");
}

}  // namespace cidrcheck::cli
