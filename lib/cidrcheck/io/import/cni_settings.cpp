// The networking settings runbooks need, as exports write them, turned into
// the fleet's words (fleet.hpp: pool_encapsulation_words, routing_mode_words,
// kube_proxy_mode_words). A value a reader does not know is a note at it
// (unread-value) and left out; the rest of the export is read.

#include "importers.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>

#include <algorithm>
#include <iterator>

namespace cidrcheck::detail {

namespace {

void unread(source_reader& in, std::uint32_t k, std::string_view what, const std::string& value,
            std::string_view known) {
  in.yaml().report(severity::note, k, diag::unread_value,
                   std::string(what) + " \"" + printable(value) + "\" is not one cidrcheck knows (" + std::string(known) +
                       "): left out");
}

}  // namespace

auto calico_pool_encapsulation(source_reader& in, std::optional<std::uint32_t> ipip, std::optional<std::uint32_t> vxlan)
    -> std::optional<std::string> {
  // IPPool ipipMode and vxlanMode: Always, CrossSubnet or Never, Never when
  // absent; not both on (docs.tigera.io calico/latest/reference/resources/ippool).
  enum class on : std::uint8_t { never, always, cross_subnet, unknown };
  auto mode = [&](std::optional<std::uint32_t> k, std::string_view key) {
    auto text = in.text(k, key);
    if (!text || *text == "Never") return on::never;
    if (*text == "Always") return on::always;
    if (*text == "CrossSubnet") return on::cross_subnet;
    unread(in, *k, key, *text, "Always, CrossSubnet, Never");
    return on::unknown;
  };
  auto a = mode(ipip, "ipipMode");
  auto b = mode(vxlan, "vxlanMode");
  if (a == on::unknown || b == on::unknown) return std::nullopt;
  if (a != on::never && b != on::never) {
    in.yaml().report(severity::note, *vxlan, diag::unread_value,
                     "ipipMode and vxlanMode are both on, which Calico refuses: the encapsulation is left out");
    return std::nullopt;
  }
  if (a != on::never) return a == on::always ? "ipip" : "ipip-cross-subnet";
  if (b != on::never) return b == on::always ? "vxlan" : "vxlan-cross-subnet";
  return "none";
}

auto calico_operator_encapsulation(source_reader& in, std::optional<std::uint32_t> value)
    -> std::optional<std::string> {
  // The operator's IPPool encapsulation (docs.tigera.io calico/latest/reference/installation/api,
  // EncapsulationType): the same five modes, spelled its way.
  static constexpr std::pair<std::string_view, std::string_view> words[] = {
      {"IPIP", "ipip"}, {"IPIPCrossSubnet", "ipip-cross-subnet"}, {"VXLAN", "vxlan"},
      {"VXLANCrossSubnet", "vxlan-cross-subnet"}, {"None", "none"}};
  auto text = in.text(value, "encapsulation");
  if (!text) return std::nullopt;
  for (auto [operator_word, word] : words) {
    if (*text == operator_word) return std::string(word);
  }
  unread(in, *value, "encapsulation", *text, "IPIP, IPIPCrossSubnet, VXLAN, VXLANCrossSubnet, None");
  return std::nullopt;
}

auto cilium_routing_mode(source_reader& in, std::optional<std::uint32_t> routing_mode,
                         std::optional<std::uint32_t> tunnel) -> std::optional<std::string> {
  if (auto text = in.text(routing_mode, "routing-mode")) {
    if (std::find(std::begin(routing_mode_words), std::end(routing_mode_words), *text) != std::end(routing_mode_words)) {
      return *text;
    }
    unread(in, *routing_mode, "routing-mode", *text, "tunnel, native");
    return std::nullopt;
  }
  // Before Cilium 1.15, `tunnel` said both: disabled for native routing, else
  // the tunnel's protocol (deprecated in 1.14 for routing-mode and
  // tunnel-protocol, removed by cilium/cilium#29053).
  auto text = in.text(tunnel, "tunnel");
  if (!text) return std::nullopt;
  if (*text == "disabled") return "native";
  if (*text == "vxlan" || *text == "geneve") return "tunnel";
  unread(in, *tunnel, "tunnel", *text, "disabled, vxlan, geneve");
  return std::nullopt;
}

auto kube_proxy_mode(source_reader& in, std::optional<std::uint32_t> mode) -> std::optional<std::string> {
  auto text = in.text(mode, "mode");
  if (!text) return std::nullopt;
  if (std::find(std::begin(kube_proxy_mode_words), std::end(kube_proxy_mode_words), *text) !=
      std::end(kube_proxy_mode_words)) {
    return *text;
  }
  unread(in, *mode, "kube-proxy mode", *text, "iptables, ipvs, nftables, kernelspace");
  return std::nullopt;
}

void keep_setting(source_reader& in, std::string& kept, std::optional<source_location>& kept_at,
                  const std::optional<std::string>& value, std::uint32_t at, std::string_view what) {
  if (!value) return;
  if (!kept_at) {
    kept = *value;
    kept_at = in.where(at);
  } else if (kept != *value && !kept.empty()) {
    in.yaml().report(severity::note, at, diag::unread_value,
                     std::string(what) + " is " + *value + " here but " + kept + " at " + to_string(*kept_at) +
                         ": the cluster's is left out");
    kept.clear();
  }
}

}  // namespace cidrcheck::detail
