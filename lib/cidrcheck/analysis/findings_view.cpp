#include <cidrcheck/findings_view.hpp>
#include <cidrcheck/fleet/check.hpp>

namespace cidrcheck {

auto findings_view::operator[](std::size_t k) const -> finding {
  finding out = stored(k);
  if (describer_) describer_->describe(out);
  return out;
}

}  // namespace cidrcheck
