#include "baseline.hpp"

#include <nlohmann/json.hpp>

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/io/read_file.hpp>

#include <cstdio>
#include <iostream>
#include <vector>

namespace cidrcheck::cli {

namespace {

// Reads a report's findings[].fingerprint as nlohmann's parser meets them
// (its SAX interface): no document is built, so the work and memory are linear
// in the file, where the DOM parser with a callback rescanned an array at each
// value (400,000 values took 40 s). Later keys of a name win, as in the DOM.
class fingerprint_reader final : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit fingerprint_reader(const input_limits& limits) : limits_(limits) {}

  // Why the report is refused, or "" (then fingerprints() holds them);
  // positioned: why starts with "LINE:COLUMN: error: " (a syntax error).
  std::string why;
  bool positioned = false;

  auto fingerprints() -> std::unordered_set<std::string>& { return fingerprints_; }
  // After the document: a top-level object with a "findings" list, else why not.
  auto finish() -> bool {
    if (!why.empty()) return false;
    if (!findings_list_) {
      why = "not a cidrcheck JSON report: it has no \"findings\" list (write one with --write-baseline)";
      return false;
    }
    return true;
  }

  auto null() -> bool override { return scalar(); }
  auto boolean(bool) -> bool override { return scalar(); }
  auto number_integer(number_integer_t) -> bool override { return scalar(); }
  auto number_unsigned(number_unsigned_t) -> bool override { return scalar(); }
  auto number_float(number_float_t, const string_t&) -> bool override { return scalar(); }
  auto binary(binary_t&) -> bool override { return scalar(); }
  auto string(string_t& value) -> bool override {
    if (in_finding() && key_ == "fingerprint") {
      fingerprint_ = std::move(value);
      has_fingerprint_ = true;
    }
    return scalar();
  }
  auto key(string_t& name) -> bool override {
    key_ = std::move(name);
    if (in_finding() && key_ == "fingerprint") has_fingerprint_ = false;  // until its value says it is a string
    return true;
  }
  auto start_object(std::size_t) -> bool override { return open(container::object); }
  auto start_array(std::size_t) -> bool override { return open(container::array); }
  auto end_object() -> bool override {
    if (in_finding()) {
      if (!has_fingerprint_) return refuse_finding();
      fingerprints_.insert(std::move(fingerprint_));
    }
    return close();
  }
  auto end_array() -> bool override { return close(); }
  auto parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) -> bool override {
    // nlohmann says "[json.exception.parse_error.101] parse error at line L, column C: WHY".
    std::string what = e.what();
    unsigned line = 0, column = 0;
    auto at = what.find(" at line ");
    auto colon = what.find(": ", at == std::string::npos ? 0 : at);
    if (at != std::string::npos && colon != std::string::npos &&
        std::sscanf(what.c_str() + at, " at line %u, column %u", &line, &column) == 2) {
      why = std::to_string(line) + ":" + std::to_string(column) + ": error: not a JSON report: " + what.substr(colon + 2);
      positioned = true;
    } else {
      why = "not a JSON report: " + what;
    }
    return false;
  }

 private:
  enum class container : std::uint8_t { object, array };
  struct level {
    container kind;
    std::string key;  // the key this container is the value of, in its parent object
  };

  // The stack: [report object], [findings list], [a finding].
  auto in_finding() const -> bool {
    return stack_.size() == 3 && stack_[2].kind == container::object && stack_[1].key == "findings";
  }
  auto refuse_finding() -> bool {
    why = "finding " + std::to_string(findings_seen_) +
          " has no fingerprint; this report is from an older cidrcheck (write a new one with --write-baseline)";
    return false;
  }
  // A value counts as a node (max-nodes); inside the findings list it must be a finding.
  auto count() -> bool {
    if (++nodes_ > limits_.max_nodes) {
      why = "the report has more than the max-nodes limit of " + std::to_string(limits_.max_nodes) +
            " values (--max-nodes raises it)";
      return false;
    }
    return true;
  }
  auto in_findings_list() const -> bool {
    return stack_.size() == 2 && stack_[1].kind == container::array && stack_[1].key == "findings";
  }
  // A value of the report's "findings" key: the last one says whether there is a list.
  void note_findings_value(bool list) {
    if (stack_.size() != 1 || stack_[0].kind != container::object || key_ != "findings") return;
    findings_list_ = list;
    fingerprints_.clear();
    findings_seen_ = 0;
  }
  auto scalar() -> bool {
    if (!count()) return false;
    note_findings_value(false);
    if (in_findings_list()) {
      ++findings_seen_;
      return refuse_finding();
    }
    return true;
  }
  auto open(container kind) -> bool {
    if (!count()) return false;
    if (stack_.size() + 1 > limits_.max_depth) {
      why = "the report nests deeper than the max-depth limit of " + std::to_string(limits_.max_depth) +
            " levels (--max-depth raises it)";
      return false;
    }
    note_findings_value(kind == container::array);
    if (in_findings_list()) {
      ++findings_seen_;
      if (kind != container::object) return refuse_finding();
      has_fingerprint_ = false;
    }
    stack_.push_back({kind, stack_.size() == 1 && stack_[0].kind == container::object ? key_ : std::string()});
    return true;
  }
  auto close() -> bool {
    stack_.pop_back();
    return true;
  }

  const input_limits& limits_;
  std::vector<level> stack_;
  string_t key_;  // the last key read
  std::size_t nodes_ = 0;
  bool findings_list_ = false;  // the report has a "findings" list (its last "findings" is one)
  std::size_t findings_seen_ = 0;
  std::string fingerprint_;
  bool has_fingerprint_ = false;
  std::unordered_set<std::string> fingerprints_;
};

}  // namespace

auto read_baseline(const std::string& path, const input_limits& limits)
    -> std::optional<std::unordered_set<std::string>> {
  auto fail = [&](const std::string& why, bool positioned = false) {
    std::cerr << detail::printable(display_name(path)) << (positioned ? ":" : ": error: ") << why << "\n";
    return std::nullopt;
  };
  auto file = read_file(path, limits.max_file_bytes, "max-file-bytes");
  if (!file.error.empty()) return fail(file.error);
  // The limits of fleet files bound a baseline too: nesting and values.
  fingerprint_reader reader(limits);
  bool parsed = nlohmann::json::sax_parse(file.text, &reader);
  if (!parsed || !reader.finish()) return fail(reader.why, reader.positioned);
  return std::move(reader.fingerprints());
}

}  // namespace cidrcheck::cli
