#include "baseline.hpp"

#include <nlohmann/json.hpp>

#include <cidrcheck/io/read_file.hpp>

#include <cstdio>
#include <iostream>

namespace cidrcheck::cli {

auto read_baseline(const std::string& path, std::size_t max_bytes)
    -> std::optional<std::unordered_set<std::string>> {
  auto fail = [&](const std::string& why) {
    std::cerr << display_name(path) << ": error: " << why << "\n";
    return std::nullopt;
  };
  auto file = read_file(path, max_bytes, "max-file-bytes");
  if (!file.error.empty()) return fail(file.error);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(file.text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann says "[json.exception.parse_error.101] parse error at line L, column C: WHY".
    std::string why = e.what();
    unsigned line = 0, column = 0;
    auto at = why.find(" at line ");
    auto colon = why.find(": ", at == std::string::npos ? 0 : at);
    if (at != std::string::npos && colon != std::string::npos &&
        std::sscanf(why.c_str() + at, " at line %u, column %u", &line, &column) == 2) {
      std::cerr << display_name(path) << ":" << line << ":" << column << ": error: not a JSON report: " << why.substr(colon + 2)
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
