// parity_dump [--config FILE | --no-config] [SOURCE...]: what the C++ API finds
// and plans for a fleet, as JSON, for tests/analysis/parity_test.py, which
// compares it with the CLI's JSON reports and the Python package. Uses only
// the public API: analyse_run() and plan_run() (cidrcheck/analysis.hpp), and
// the records of cidrcheck/records.hpp. Without --config or --no-config the
// run finds its configuration as the CLI does (CIDRCHECK_CONFIG, .cidrcheck.yaml).

#include <cidrcheck/analysis.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/records.hpp>

#include <nlohmann/json.hpp>

#include <iostream>
#include <string>
#include <vector>

namespace {

using json = nlohmann::ordered_json;

// Builds an nlohmann document from a record.
class json_sink final : public cidrcheck::record_sink {
 public:
  void begin_object() override { open(json::object()); }
  void end_object() override { stack_.pop_back(); }
  void begin_array() override { open(json::array()); }
  void end_array() override { stack_.pop_back(); }
  void key(std::string_view k) override { key_ = std::string(k); }
  void value(std::string_view v) override { put(std::string(v)); }
  void value(std::uint64_t v) override { put(v); }
  void value(std::int64_t v) override { put(v); }
  void value(bool v) override { put(v); }
  void null() override { put(nullptr); }
  using record_sink::value;
  auto result() -> json& { return result_; }

 private:
  void put(json v) {
    if (stack_.empty()) {
      result_ = std::move(v);
      return;
    }
    auto& top = *stack_.back();
    if (top.is_object()) {
      top[key_] = std::move(v);
    } else {
      top.push_back(std::move(v));
    }
  }
  void open(json container) {
    if (stack_.empty()) {
      result_ = std::move(container);
      stack_.push_back(&result_);
      return;
    }
    auto& top = *stack_.back();
    if (top.is_object()) {
      top[key_] = std::move(container);
      stack_.push_back(&top[key_]);
    } else {
      top.push_back(std::move(container));
      stack_.push_back(&top.back());
    }
  }
  std::vector<json*> stack_;
  std::string key_;
  json result_;
};

template <class Write>
auto record(Write write) -> json {
  json_sink sink;
  write(sink);
  return std::move(sink.result());
}

}  // namespace

int main(int argc, char** argv) {
  cidrcheck::run_request request;
  for (int k = 1; k < argc; ++k) {
    std::string arg = argv[k];
    if (arg == "--no-config") {
      request.configuration.none = true;
    } else if (arg == "--config" && k + 1 < argc) {
      request.configuration.file = argv[++k];
    } else {
      request.inputs.push_back(arg);
    }
  }
  const auto run = cidrcheck::analyse_run(request);
  json out;
  out["ok"] = run.ok();
  json diagnostics = json::array();
  for (const auto& d : run.diagnostics) diagnostics.push_back(cidrcheck::format_diagnostic(d));
  out["diagnostics"] = diagnostics;
  if (!run.ok()) {
    std::cout << out.dump() << "\n";
    return 2;
  }
  const auto& f = run.loaded.value;
  json owners = json::array(), findings = json::array(), suppressed = json::array();
  for (const auto& o : f.owners) owners.push_back(o.name);
  const auto shown = run.shown_findings();
  for (std::size_t k = 0; k < shown.size(); ++k) {
    findings.push_back(record([&](cidrcheck::record_sink& s) {
      cidrcheck::write_finding_record(s, f, shown[k], shown.fingerprint(k));
    }));
  }
  for (const auto& x : run.found.triaged.suppressed) {
    suppressed.push_back(record([&](cidrcheck::record_sink& s) {
      cidrcheck::write_suppressed_record(s, f, x, run.judged.suppressions, cidrcheck::fingerprint(f, x.value));
    }));
  }
  out["owners"] = owners;
  out["findings"] = findings;
  out["suppressed"] = suppressed;
  out["fails"] = run.shown.fails;

  cidrcheck::plan_run_request planning;
  planning.run = request;
  const auto planned = cidrcheck::plan_run(planning);
  out["plan"] = record([&](cidrcheck::record_sink& s) {
    cidrcheck::write_plan_record(s, planned.loaded.value, planned.plan->result, planned.loaded.files);
  });
  std::cout << out.dump() << "\n";
  return 0;
}
