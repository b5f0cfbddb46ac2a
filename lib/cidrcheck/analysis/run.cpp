#include <cidrcheck/run.hpp>

#include <cidrcheck/analysis.hpp>
#include <cidrcheck/records.hpp>

#include <atomic>
#include <stdexcept>

namespace cidrcheck {

namespace detail {

struct shared_body {
  std::atomic<std::size_t> handles{1};
  virtual ~shared_body() = default;
};

shared_handle::shared_handle(const shared_handle& other) noexcept : body_(other.body_) {
  if (body_ != nullptr) body_->handles.fetch_add(1, std::memory_order_relaxed);
}

shared_handle::~shared_handle() {
  if (body_ != nullptr && body_->handles.fetch_sub(1, std::memory_order_acq_rel) == 1) delete body_;
}

}  // namespace detail

namespace {

auto name_of(const fleet& f, std::uint32_t k) -> range_name {
  const auto& r = f.ranges[k];
  return {f.owners[r.owner].name, f.role_name(r)};
}

auto finding_views(const run_result& run) -> std::vector<finding_view> {
  const auto& f = run.loaded.value;
  std::vector<finding_view> out;
  const auto shown = run.shown_findings();
  out.reserve(shown.size());
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const auto& x = shown[k];
    finding_view v{x.level, std::string(info(x.id).name), shown.fingerprint(k), x.message, {}, {}};
    for (auto r : x.ranges) v.ranges.push_back(name_of(f, r));
    if (x.overlap) v.overlap = x.overlap->to_prefix() ? x.overlap->to_prefix()->to_string() : x.overlap->to_string();
    out.push_back(std::move(v));
  }
  return out;
}

auto operation_views(const fleet& f, const plan_result& p) -> std::vector<operation_view> {
  std::vector<operation_view> out;
  out.reserve(p.operations.size());
  for (const auto& op : p.operations) {
    operation_view v{op.kind, {}, op.cost, {op.changes.begin(), op.changes.end()}, op.steps.size()};
    for (auto o : op.owners) v.owners.push_back(f.owners[o].name);
    out.push_back(std::move(v));
  }
  return out;
}

auto change_views(const fleet& f, const plan_result& p) -> std::vector<change_view> {
  std::vector<change_view> out;
  out.reserve(p.changes.size());
  for (const auto& c : p.changes) {
    out.push_back({{f.owners[c.owner].name, change_role(f, c)}, c.range ? c.from.to_string() : std::string(),
                   c.to.to_string(), to_decimal(c.to.size()), steps_of(p, c).size()});
  }
  return out;
}

}  // namespace

struct checked_run::state : detail::shared_body {
  state(run_request q, run_result r) : request(std::move(q)), result(std::move(r)), findings(finding_views(result)) {}
  run_request request;
  run_result result;
  std::vector<finding_view> findings;
};

// A plan and the run whose fleet it plans (the fleet names its owners).
struct planned_run::state : detail::shared_body {
  state(checked_run r, planned p)
      : run(std::move(r)),
        plan(std::move(p)),
        operations(operation_views(run.result().loaded.value, plan.result)),
        changes(change_views(run.result().loaded.value, plan.result)) {
    for (const auto& x : plan.result.problems) problems.push_back(x.message);
  }
  checked_run run;
  planned plan;
  std::vector<operation_view> operations;
  std::vector<change_view> changes;
  std::vector<std::string> problems;
};

auto checked_run::body() const -> const state& { return static_cast<const state&>(*state_.get()); }

auto planned_run::body() const -> const state& { return static_cast<const state&>(*state_.get()); }

auto checked_run::status() const -> run_status { return body().result.status; }

auto checked_run::ok() const -> bool { return body().result.ok(); }

auto checked_run::failed() const -> bool { return body().result.failed(); }

auto checked_run::diagnostics() const -> std::span<const diagnostic> { return body().result.diagnostics; }

auto checked_run::findings() const -> std::span<const finding_view> { return body().findings; }

auto checked_run::suppressed() const -> std::size_t { return body().result.found.triaged.suppressed.size(); }

auto checked_run::fails() const -> bool { return body().result.shown.fails; }

auto checked_run::result() const -> const run_result& { return body().result; }

auto checked_run::request() const -> const run_request& { return body().request; }

auto run_check(const run_request& request) -> checked_run {
  auto result = analyse_run(request);
  return checked_run(detail::shared_handle(new checked_run::state(request, std::move(result))));
}

auto planned_run::complete() const -> bool { return body().plan.result.complete(); }

auto planned_run::total_cost() const -> int { return body().plan.result.total_cost; }

auto planned_run::operations() const -> std::span<const operation_view> { return body().operations; }

auto planned_run::changes() const -> std::span<const change_view> { return body().changes; }

auto planned_run::problems() const -> std::span<const std::string> { return body().problems; }

auto planned_run::diagnostics() const -> std::span<const diagnostic> { return body().plan.result.diagnostics; }

auto planned_run::result() const -> const planned& { return body().plan; }

auto plan_of(const checked_run& run) -> planned_run {
  if (!run.ok()) throw std::invalid_argument("plan_of: the run read no fleet to plan (its status is not done)");
  const auto& r = run.result();
  plan_run_request request;
  request.run = run.request();
  auto plan = plan_fleet(r.cfg, r.loaded, r.source, request);
  return planned_run(detail::shared_handle(new planned_run::state(run, std::move(plan))));
}

}  // namespace cidrcheck
