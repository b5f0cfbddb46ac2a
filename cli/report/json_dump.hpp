#pragma once
// nlohmann documents as text, with every string made valid UTF-8 first by the
// replacement every writer uses (detail::append_utf8_replaced), so that a file
// name that is not UTF-8 neither throws (type_error.316) nor differs from what
// json_writer writes for the same name.

#include <cidrcheck/detail/text.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <utility>

namespace cidrcheck::cli {

/// Replaces the invalid UTF-8 in every string and key of j.
inline void replace_invalid_utf8(nlohmann::ordered_json& j) {
  if (j.is_string()) {
    auto& s = j.get_ref<std::string&>();
    if (!detail::valid_utf8(s)) s = detail::utf8_replaced(s);
  } else if (j.is_array()) {
    for (auto& item : j) replace_invalid_utf8(item);
  } else if (j.is_object()) {
    bool keys_valid = true;
    for (auto& [key, value] : j.items()) {
      keys_valid = keys_valid && detail::valid_utf8(key);
      replace_invalid_utf8(value);
    }
    if (!keys_valid) {
      nlohmann::ordered_json fixed = nlohmann::ordered_json::object();
      for (auto& [key, value] : j.items()) fixed[detail::utf8_replaced(key)] = std::move(value);
      j = std::move(fixed);
    }
  }
}

/// Returns j as JSON text (indent as nlohmann's dump()), invalid UTF-8 replaced.
inline auto dump_json(nlohmann::ordered_json j, int indent = -1) -> std::string {
  replace_invalid_utf8(j);
  return j.dump(indent);
}

}  // namespace cidrcheck::cli
