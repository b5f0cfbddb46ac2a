#include "options.hpp"

#include <cstdint>
#include <iostream>

namespace po = boost::program_options;

namespace cidrcheck::cli {

namespace {

// Counts and sizes are unsigned, and boost's lexical_cast reads "-1" into one
// as 2^64-1 ("--count -1" would run for ever, "--max-findings -1" be
// unlimited): a negative number for any unsigned option is a usage error.
void refuse_negative_counts(const po::parsed_options& parsed, const po::options_description& options,
                            const std::string& command_path) {
  for (const auto& o : parsed.options) {
    if (o.string_key.empty() || o.unregistered) continue;
    const auto* d = options.find_nothrow(o.string_key, false);
    if (d == nullptr) continue;
    const auto* semantic = d->semantic().get();
    bool is_unsigned = dynamic_cast<const po::typed_value<std::size_t>*>(semantic) != nullptr ||
                       dynamic_cast<const po::typed_value<std::uint64_t>*>(semantic) != nullptr ||
                       dynamic_cast<const po::typed_value<unsigned>*>(semantic) != nullptr;
    if (!is_unsigned) continue;
    for (const auto& token : o.value) {
      auto first = token.find_first_not_of(" \t");
      if (first != std::string::npos && token[first] == '-') {
        throw usage_error("--" + o.string_key + " must be a whole number, 0 or more, not " + token, command_path);
      }
    }
  }
}

}  // namespace

auto parse_options(std::span<const std::string> args, const po::options_description& options,
                   const po::positional_options_description& positional, const std::string& command_path)
    -> po::variables_map {
  po::variables_map vm;
  try {
    std::vector<std::string> argv(args.begin(), args.end());
    auto parsed = po::command_line_parser(argv)
                      .options(options)
                      .positional(positional)
                      .style(po::command_line_style::default_style ^ po::command_line_style::allow_guessing)
                      .run();
    refuse_negative_counts(parsed, options, command_path);
    po::store(parsed, vm);
    if (vm.count("help") == 0) po::notify(vm);
  } catch (const po::error& e) {
    throw usage_error(e.what(), command_path);
  }
  return vm;
}

auto parse_command(std::span<const std::string> args, const command_interface& c) -> po::variables_map {
  po::options_description all;
  all.add(c.options);
  po::positional_options_description positional;
  if (c.operands != operand_kind::none) {
    all.add_options()("operand", po::value<std::vector<std::string>>());
    positional.add("operand", -1);
  }
  return parse_options(args, all, positional, c.name);
}

auto parse_prefix_option(const std::string& text, const std::string& option, const std::string& help) -> prefix {
  try {
    return prefix::parse(text);
  } catch (const parse_error& e) {
    throw usage_error(option + ": " + e.what(), help);
  }
}

auto operands(const po::variables_map& vm) -> std::vector<std::string> {
  return vm.count("operand") ? vm["operand"].as<std::vector<std::string>>() : std::vector<std::string>{};
}

auto option_entries(const po::options_description& options) -> std::vector<option_entry> {
  std::vector<option_entry> out;
  for (const auto& o : options.options()) {
    option_entry e;
    e.long_name = o->long_name();
    auto short_form = o->canonical_display_name(po::command_line_style::allow_dash_for_short);
    if (short_form.size() == 2 && short_form[0] == '-') e.short_name = short_form.substr(1);
    if (o->semantic()->max_tokens() > 0) e.parameter = o->format_parameter();
    e.description = o->description();
    out.push_back(std::move(e));
  }
  return out;
}

void print_help(std::string_view usage, std::string_view description, const po::options_description& options) {
  std::cout << "Usage: cidrcheck " << usage << "\n\n" << description << "\n\n" << options;
}

void print_help(const command_interface& c) { print_help(c.usage, c.description, c.options); }

}  // namespace cidrcheck::cli
