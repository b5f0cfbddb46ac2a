#include <cidrcheck/io/diagnostic.hpp>

#include <cidrcheck/detail/text.hpp>

namespace cidrcheck {

auto format_diagnostic(const diagnostic& d) -> std::string {
  std::string out;
  auto line = [&](const diagnostic& x) {
    detail::append_printable(out, x.where.file.empty() ? std::string("cidrcheck") : to_string(x.where));
    out += ": ";
    out += to_string(x.level);
    out += ": ";
    detail::append_printable(out, x.message);
    out += '\n';
  };
  line(d);
  for (const auto& n : d.notes) line(n);
  return out;
}

}  // namespace cidrcheck
