#include "baseline.hpp"

#include <nlohmann/json.hpp>

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/io/read_file.hpp>

#include <cstdio>
#include <iostream>

namespace cidrcheck::cli {

namespace {

// Thrown by the parser callback when the document passes max-depth or max-nodes.
struct limit_hit {
  std::string why;
};

}  // namespace

auto read_baseline(const std::string& path, const input_limits& limits)
    -> std::optional<std::unordered_set<std::string>> {
  auto fail = [&](const std::string& why) {
    std::cerr << detail::printable(display_name(path)) << ": error: " << why << "\n";
    return std::nullopt;
  };
  auto file = read_file(path, limits.max_file_bytes, "max-file-bytes");
  if (!file.error.empty()) return fail(file.error);
  nlohmann::json doc;
  // The limits of fleet files bound a baseline too: nesting (a callback at each
  // opening bracket stops a deep document before it is built) and nodes.
  std::size_t nodes = 0;
  auto bounded = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    using event_t = nlohmann::json::parse_event_t;
    if (event == event_t::object_start || event == event_t::array_start || event == event_t::value) {
      if (++nodes > limits.max_nodes) {
        throw limit_hit{"the report has more than the max-nodes limit of " + std::to_string(limits.max_nodes) +
                        " values (--max-nodes raises it)"};
      }
    }
    if ((event == event_t::object_start || event == event_t::array_start) &&
        static_cast<std::size_t>(depth) + 1 > limits.max_depth) {
      throw limit_hit{"the report nests deeper than the max-depth limit of " + std::to_string(limits.max_depth) +
                      " levels (--max-depth raises it)"};
    }
    return true;
  };
  try {
    doc = nlohmann::json::parse(file.text, bounded);
  } catch (const limit_hit& e) {
    return fail(e.why);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann says "[json.exception.parse_error.101] parse error at line L, column C: WHY".
    std::string why = e.what();
    unsigned line = 0, column = 0;
    auto at = why.find(" at line ");
    auto colon = why.find(": ", at == std::string::npos ? 0 : at);
    if (at != std::string::npos && colon != std::string::npos &&
        std::sscanf(why.c_str() + at, " at line %u, column %u", &line, &column) == 2) {
      std::cerr << detail::printable(display_name(path)) << ":" << line << ":" << column << ": error: not a JSON report: " << why.substr(colon + 2)
                << "\n";
      return std::nullopt;
    }
    return fail("not a JSON report: " + why);
  }
  const auto* findings = doc.is_object() && doc.contains("findings") ? &doc["findings"] : nullptr;
  if (findings == nullptr || !findings->is_array()) {
    return fail("not a cidrcheck JSON report: it has no \"findings\" list (write one with --write-baseline)");
  }
  std::unordered_set<std::string> out;
  for (std::size_t k = 0; k < findings->size(); ++k) {
    const auto& x = (*findings)[k];
    if (!x.is_object() || !x.contains("fingerprint") || !x["fingerprint"].is_string()) {
      return fail("finding " + std::to_string(k + 1) +
                  " has no fingerprint; this report is from an older cidrcheck (write a new one with --write-baseline)");
    }
    out.insert(x["fingerprint"].get<std::string>());
  }
  return out;
}

}  // namespace cidrcheck::cli
