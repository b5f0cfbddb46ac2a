#pragma once
// Writing YAML text that reads back as written: scalars and comments, for the
// writers of fleet files (fleet_writer.cpp, plan_writer.cpp).

#include <string>
#include <string_view>

namespace cidrcheck::detail {

/// Reports whether YAML allows character c raw in a document: YAML 1.2's
/// printable set (tab, line ends, U+0020-U+007E, NEL, U+00A0-U+D7FF,
/// U+E000-U+FFFD, U+10000-U+10FFFF), without U+FEFF, which libyaml reads as a
/// byte-order mark wherever it stands. Not DEL, C1 controls, U+FFFE or U+FFFF.
auto yaml_printable(char32_t c) -> bool;

/// Returns text as a YAML scalar that reads back as text itself, in block and
/// flow context: plain when it starts with a letter, a digit, '_' or '/' (never
/// an indicator such as '-', '@' or '`'), holds only letters, digits and
/// "._/@+-", and is no number, time, bool or null; else double-quoted, with
/// '"' and '\\' escaped, every character YAML does not allow raw (yaml_printable)
/// and every control character escaped (\\xNN, \\uNNNN), and the characters YAML
/// reads as line breaks written \\N, \\L and \\P. A byte that is not UTF-8 is
/// written U+FFFD.
auto yaml_scalar(std::string_view text) -> std::string;

/// Returns text fit for a YAML comment: line breaks (which would end the
/// comment or forge a line), tabs, what YAML does not allow raw and bytes that
/// are not UTF-8 become '?'.
auto yaml_comment_text(std::string_view text) -> std::string;

}  // namespace cidrcheck::detail
