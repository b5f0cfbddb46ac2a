#include "runbook_render.hpp"

#include <cidrcheck/detail/text.hpp>

#include "emit.hpp"
#include "runbook_rows.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace cidrcheck::detail {

namespace {

auto two_digits(std::size_t n) -> std::string { return (n < 10 ? "0" : "") + std::to_string(n); }

template <class T>
auto joined(const std::vector<T>& items, std::string_view separator) -> std::string {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    if constexpr (std::is_same_v<T, std::string>) {
      out += item;
    } else {
      out += item.to_string();
    }
  }
  return out;
}

auto value_text(const setting_value& v) -> std::string {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) return x ? "true" : "false";
        if constexpr (std::is_same_v<T, std::int64_t>) return std::to_string(x);
        if constexpr (std::is_same_v<T, std::string>) return x;
        if constexpr (std::is_same_v<T, std::vector<std::string>>) return joined(x, ",");
        if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, std::int64_t> && !std::is_same_v<T, std::string> &&
                      !std::is_same_v<T, std::vector<std::string>>) {
          return joined(x, ",");
        }
      },
      v);
}

// A setting as a document value: lists stay lists, the rest strings (quoted by the emitters).
auto value_node(const setting_value& v) -> doc_node {
  return std::visit(
      [](const auto& x) -> doc_node {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) return doc_node{x};
        if constexpr (std::is_same_v<T, std::int64_t>) return doc_node{x};
        if constexpr (std::is_same_v<T, std::string>) return doc_node{x};
        if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          doc_list l;
          for (const auto& s : x) l.emplace_back(s);
          return doc_node{std::move(l)};
        }
        if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, std::int64_t> && !std::is_same_v<T, std::string> &&
                      !std::is_same_v<T, std::vector<std::string>>) {
          doc_list l;
          for (const auto& s : x) l.emplace_back(s.to_string());
          return doc_node{std::move(l)};
        }
      },
      v);
}

// {a: {b: {c: value}}} for path "a.b.c".
auto nested(std::string_view path, doc_node value) -> doc_node {
  auto dot = path.rfind('.');
  doc_node leaf{doc_map{{std::string(dot == std::string_view::npos ? path : path.substr(dot + 1)), std::move(value)}}};
  if (dot == std::string_view::npos) return leaf;
  return nested(path.substr(0, dot), std::move(leaf));
}

auto component_name(component c) -> std::string { return std::string(to_string(c)); }

auto lower(std::string_view text) -> std::string {
  std::string out(text);
  for (auto& ch : out) {
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  }
  return out;
}

// A name from the input as a command word: quoted, or a placeholder where it
// starts with '-' (a program would read it as an option).
auto name_word(const std::string& name, std::string variable, std::string meaning) -> shell_word {
  if (name.empty() || name[0] == '-') return placeholder(std::move(variable), std::move(meaning));
  return input_word(name);
}

// Words of a command the catalog writes ("kops update cluster --name={cluster} --yes"):
// "{cluster}" is the cluster's name, as one quoted word (joined to its option when written OPTION={cluster}).
auto catalog_command(std::string_view text, const owner& o) -> shell_command {
  shell_command cmd;
  for (std::size_t start = 0; start < text.size();) {
    auto end = std::min(text.find(' ', start), text.size());
    auto w = text.substr(start, end - start);
    if (auto at = w.find("{cluster}"); at != std::string_view::npos) {
      if (at == 0) {
        cmd.words.push_back(name_word(o.name, "CLUSTER", "the cluster's name"));
      } else {
        cmd.words.push_back(option_word(w.substr(0, at - 1), o.name));
      }
    } else if (!w.empty()) {
      cmd.words.push_back(word(std::string(w)));
    }
    start = end + 1;
  }
  return cmd;
}

class renderer {
 public:
  renderer(const fleet& planned, const catalog& c, const runbook& r, std::size_t k, bool with_files)
      : planned_(planned), cat_(c), book_(r), number_(k + 1), step_(r.steps[k]), owner_(planned.owners[step_.owner]),
        profile_(c.profile_of(owner_)), with_files_(with_files), many_owners_(r.owners.size() > 1) {
    out_.facts = step_.facts;
  }

  auto render() -> rendered_step {
    // A runbook acting on several owners says whose step each is.
    if (many_owners_) out_.text = "on " + printable(owner_.name) + ": ";
    std::visit(*this, step_.action);
    if (!step_.why.empty()) say_reason(step_.why);
    for (const auto& check : step_.checks) render_check(check);
    if (!placeholders_.empty()) {
      std::string text = "Set ";
      for (std::size_t k = 0; k < placeholders_.size(); ++k) {
        text += (k == 0 ? "" : k + 1 == placeholders_.size() ? " and " : ", ") + placeholders_[k].variable + " to " +
                placeholders_[k].meaning;
      }
      sentence(text + " before running the commands");
    }
    return std::move(out_);
  }

  // The YAML fragments of the step by file name, once render() ran; the whole
  // run's file of an edit merges its edits' fragments of one name (render_step).
  auto fragments() -> std::vector<std::pair<std::string, doc_node>>& { return fragments_; }
  static void merge_fragment(doc_node& into, doc_node from) { merge(into, std::move(from)); }

  // --- the kinds of step ------------------------------------------------------

  void operator()(const set_flag& a) { setting(a.target, a.flag, a.value, a.order); }

  void operator()(const set_feature_gate& a) {
    for (auto target : a.targets) {
      setting(target, "--feature-gates", std::string(a.gate + "=" + (a.enabled ? "true" : "false")), a.order);
    }
  }

  void operator()(const enable_api& a) {
    setting(component::kube_apiserver, "--runtime-config", std::string(a.group_version + "=true"), a.order);
  }

  void operator()(const edit_field& a) {
    const std::string value = value_text(a.value);
    const std::string how = a.how == edit_field::mode::add      ? "add " + value + " to "
                            : a.how == edit_field::mode::remove ? "remove " + value + " from "
                                                                : "set ";
    const std::string what = a.how == edit_field::mode::set ? "`" + a.path + "` to " + value : "`" + a.path + "`";
    if (a.store == config_store::cni_configuration) {
      const auto* ipam = profile_.ipam;
      std::string where = ipam && ipam->config_where.known ? ipam->config_where.value : "the CNI's configuration";
      if (ipam) fact(ipam->config_where.fact);
      sentence(how + what + " in " + where + ", keeping every other key");
      if (a.path.find(' ') == std::string::npos) fragment("cni-values.yaml", nested(a.path, value_node(a.value)));
      return;
    }
    if (a.store == config_store::control_plane && control_plane() == control_plane_config::cluster_spec) {
      sentence(how + what + " in the cluster spec");
      fragment("cluster-spec.yaml", nested(a.path, value_node(a.value)));
      apply_unless_separate();
      return;
    }
    sentence(how + what + " in the cluster's configuration");
  }

  void operator()(const apply_configuration&) {
    const auto* d = profile_.distribution;
    if (d == nullptr || !d->apply_control_plane.known) return apply_control_plane();
    fact(d->apply_control_plane.fact);
    // The edits this step applies: the run of waiting edits right before it (add_apply_steps).
    const bool after_edit = number_ >= 2 && book_.steps[number_ - 2].owner == step_.owner;
    const auto [first, end] = after_edit ? edit_run(book_, number_ - 2, profile_) : std::pair<std::size_t, std::size_t>{};
    const std::string edits = end - first == 1 ? "the edit of step " + std::to_string(first + 1)
                              : end - first > 1 ? "the edits of steps " + std::to_string(first + 1) + " to " +
                                                      std::to_string(end) + ", all at once"
                                                : "its edits";
    // How the roll goes (which instances, in what order) is the cited facts'.
    const std::string what = control_plane() == control_plane_config::cluster_spec ? "the cluster spec"
                                                                                    : "the control-plane configuration";
    sentence("apply " + what + " with " + edits + ", and roll the cluster with the distribution's commands");
    for (const auto& c : d->apply_control_plane.value) run(catalog_command(c, owner_));
  }

  void operator()(const apply_object& a) {
    const auto& o = a.object;
    const bool unnamed = o.name.empty();
    shell_word name = unnamed ? placeholder(variable_for(o.kind), o.name_hint) : word(o.name);
    std::string tool = a.tool == object_tool::calicoctl ? "calicoctl" : "kubectl";
    std::string what = o.kind + (unnamed ? " (" + o.name_hint + ")" : " " + o.name);
    if (!o.namespace_name.empty()) what += " in " + o.namespace_name;
    if (a.how == apply_object::mode::patch) {
      sentence("patch the " + what + " with `" + tool + "`, which keeps every field the patch does not name");
      doc_node patch{o.body};
      std::string json = to_json_line(patch);
      shell_command cmd{{word(tool)}};
      if (!o.namespace_name.empty()) cmd.words.push_back(word("--namespace=" + o.namespace_name));
      cmd.words.push_back(word("patch"));
      cmd.words.push_back(word(lower(o.kind)));
      cmd.words.push_back(name);
      if (a.tool == object_tool::kubectl) cmd.words.push_back(word("--type=merge"));
      cmd.words.push_back(input_word("--patch=" + json));
      run(std::move(cmd));
      return;
    }
    const std::string file = object_file(o);
    sentence(std::string(a.how == apply_object::mode::create ? "create" : "apply") + " the " + what + " with `" +
             tool + "`");
    run({{word(tool), word(a.how == apply_object::mode::create ? "create" : "apply"), word("--filename=" + file)}});
  }

  void operator()(const delete_object& a) {
    const bool unnamed = a.name.empty();
    std::string tool = a.tool == object_tool::calicoctl ? "calicoctl" : "kubectl";
    sentence("delete the " + a.kind + (unnamed ? " (" + a.name_hint + ")" : " " + a.name) +
             (a.wait ? std::string() : ", without waiting for it to go"));
    shell_command cmd{{word(tool)}};
    if (!a.namespace_name.empty()) cmd.words.push_back(word("--namespace=" + a.namespace_name));
    cmd.words.push_back(word("delete"));
    cmd.words.push_back(word(lower(a.kind)));
    cmd.words.push_back(unnamed ? placeholder(variable_for(a.kind), a.name_hint) : word(a.name));
    if (!a.wait) cmd.words.push_back(word("--wait=false"));
    run(std::move(cmd));
  }

  void operator()(const recreate_services& a) {
    const std::string into = joined(a.into, " and ");
    const std::string count = a.count ? " (" + std::to_string(*a.count) + ")" : std::string();
    switch (a.which) {
      case service_selection::cluster_ip:
        sentence("recreate the ClusterIP and NodePort Services" + count + " one by one, so that each takes an address "
                 "in " + into + ": export each, remove spec.clusterIP and spec.clusterIPs, and replace it in one "
                 "command; leave headless Services (clusterIP: None) alone");
        replace_commands();
        break;
      case service_selection::load_balancer:
        sentence("recreate the LoadBalancer Services" + count + " the same way; where the provider gives a recreated "
                 "LoadBalancer a new load balancer, move the DNS records that point at the old one");
        replace_commands();
        break;
      case service_selection::dns: render_dns_move(a); break;
      case service_selection::kubernetes_default:
        sentence("delete the `kubernetes` Service in `default`: kube-apiserver never updates it and recreates it at " +
                 (a.cluster_ip ? a.cluster_ip->to_string() : into));
        run({{word("kubectl"), word("--namespace=default"), word("delete"), word("service"), word("kubernetes")}});
        break;
      case service_selection::dual_stack_secondary:
        sentence("for each dual-stack Service with a secondary address in the old range: set spec.ipFamilyPolicy to "
                 "SingleStack, then back to its policy (PreferDualStack or RequireDualStack), and it takes a new "
                 "secondary address in " + into + "; recreate the Services whose only family is the moved one");
        run({{word("kubectl"), placeholder("NAMESPACE", "each Service's namespace", "--namespace="), word("patch"),
              word("service"), placeholder("SERVICE", "each Service's name"), word("--type=merge"),
              input_word(R"(--patch={"spec":{"ipFamilyPolicy":"SingleStack"}})")}});
        break;
    }
  }

  void operator()(const reissue_certificate& a) {
    const auto* d = profile_.distribution;
    const std::string sans = joined(a.sans, " and ");
    if (d == nullptr || !d->sans.known) {
      unknown("how this cluster's API server certificate gets more subject alternative names (to list " + sans + ")",
              d ? d->sans.fact : "prof-no-source");
      return;
    }
    fact(d->sans.fact);
    std::string drop = a.drop.empty() ? std::string() : ", without " + joined(a.drop, " and ");
    switch (d->sans.value) {
      case san_method::kubeadm_certs: {
        sentence("list " + sans + " in `" + d->sans_field.value + "`" + drop +
                 " (keep the other names it lists) in the stored ClusterConfiguration and in the file given to "
                 "kubeadm --config; then on each control-plane node, one at a time, move apiserver.crt and "
                 "apiserver.key away, reissue the certificate and restart kube-apiserver: kubeadm keeps an existing "
                 "certificate");
        run({{word("kubectl"), word("--namespace=kube-system"), word("edit"), word("configmap"), word("kubeadm-config")}});
        doc_list names;
        for (const auto& s : a.sans) names.emplace_back(s.to_string());
        fragment("kubeadm-clusterconfiguration.yaml", kubeadm_document(nested(d->sans_field.value, doc_node{names})));
        std::vector<shell_command> script = {
            {{word("mkdir"), word("-p"), word("/etc/kubernetes/pki/old")}},
            {{word("mv"), word("/etc/kubernetes/pki/apiserver.crt"), word("/etc/kubernetes/pki/apiserver.key"),
              word("/etc/kubernetes/pki/old/")}},
            {{word("kubeadm"), word("init"), word("phase"), word("certs"), word("apiserver"),
              word("--config=kubeadm.yaml")}},
            {{word("mv"), word("/etc/kubernetes/manifests/kube-apiserver.yaml"), word("/etc/kubernetes/")}},
            {{word("sleep"), word("20")}},
            {{word("mv"), word("/etc/kubernetes/kube-apiserver.yaml"), word("/etc/kubernetes/manifests/")}},
            {{word("openssl"), word("x509"), word("-noout"), word("-ext"), word("subjectAltName"), word("-in"),
              word("/etc/kubernetes/pki/apiserver.crt")}}};
        std::string text = "# On each control-plane node, one at a time. kubeadm.yaml is the cluster's kubeadm\n"
                           "# configuration with the fields of the ClusterConfiguration fragment of this step.\n"
                           "set -eu\n";
        for (const auto& c : script) text += to_shell(c) + "\n";
        add_file("reissue-certificate.sh", std::move(text));
        break;
      }
      case san_method::spec_field: {
        sentence("list " + sans + " in `" + d->sans_field.value + "`" + drop +
                 " of the cluster spec (keep the names it lists); the control-plane nodes get a certificate with them "
                 "when they roll");
        doc_list names;
        for (const auto& s : a.sans) names.emplace_back(s.to_string());
        fragment("cluster-spec.yaml", nested(d->sans_field.value, doc_node{names}));
        apply_unless_separate();
        break;
      }
      case san_method::server_flag: {
        sentence("give every server " + d->sans_field.value + " for " + sans + drop +
                 " (beside the names it already has) and restart the servers");
        break;
      }
      case san_method::provider:
        sentence("nothing to do: the provider issues the API server certificate");
        break;
      case san_method::unknown: break;
    }
  }

  void operator()(const drain_nodes& a) {
    sentence("cordon and drain " + nodes_text(a.nodes));
    run({{word("kubectl"), word("cordon"), placeholder("NODE", "each node's name in turn")}});
    run({{word("kubectl"), word("drain"), placeholder("NODE", "each node's name in turn"), word("--ignore-daemonsets"),
          word("--delete-emptydir-data")}});
  }

  void operator()(const remove_nodes& a) {
    if (a.keep_kubelets) {
      fact("kubelet-register-once");
      sentence("delete the Node object of " + nodes_text(a.nodes) + " and leave the node running, its kubelet and "
               "control plane with it: a running kubelet registers its node only when it starts, so the node comes "
               "back as a new Node at its next restart");
      run({{word("kubectl"), word("delete"), word("node"), placeholder("NODE", "each node's name in turn")}});
      return;
    }
    const auto* d = profile_.distribution;
    if (d && d->kubelet_in_server.known && d->kubelet_in_server.value) {
      fact(d->kubelet_in_server.fact);
      sentence("for " + nodes_text(a.nodes) + ": stop the process that runs its kubelet, then delete its Node object, "
               "until `kubectl get nodes` lists none of them");
      run({{word("kubectl"), word("delete"), word("node"), placeholder("NODE", "each node's name in turn")}});
      return;
    }
    sentence("for " + nodes_text(a.nodes) + ": stop its kubelet, then delete its Node object, until `kubectl get "
             "nodes` lists none of them");
    run({{word("systemctl"), word("stop"), word("kubelet")}});
    run({{word("kubectl"), word("delete"), word("node"), placeholder("NODE", "each node's name in turn")}});
  }

  void operator()(const register_nodes& a) {
    const auto* d = profile_.distribution;
    if (d && d->kubelet_in_server.known && d->kubelet_in_server.value) {
      fact(d->kubelet_in_server.fact);
      sentence("start the process that runs the kubelet of " + nodes_text(a.nodes) + " again (or bring up new "
               "nodes), one at a time; a node whose process restarted since its Node object was deleted has "
               "registered already");
    } else {
      // A kubelet that kept running (remove_nodes::keep_kubelets) registers only when it restarts.
      sentence("start the kubelet of " + nodes_text(a.nodes) + " again, or restart it where it kept running (or "
               "bring up new nodes), one at a time");
      run({{word("systemctl"), word("restart"), word("kubelet")}});
    }
    if (a.restore_control_plane && d) {
      fact(d->restore_control_plane.fact);
      if (!d->restore_control_plane.known) {
        sentence("a control-plane node that registers again may lose the label and taint the distribution gave it: "
                 "find out how to put them back");
      } else if (!d->restore_control_plane.value.empty()) {
        sentence("a control-plane node that registers again comes back without its control-plane label and taint: "
                 "put them back on each");
        auto cmd = catalog_command(d->restore_control_plane.value, owner_);
        cmd.words.push_back(placeholder("NODE", "each node's name in turn"));
        run(std::move(cmd));
      }
    }
    run({{word("kubectl"), word("uncordon"), placeholder("NODE", "each node's name in turn")}});
  }

  void operator()(const roll_nodes& a) {
    const auto* d = profile_.distribution;
    if (d == nullptr || !d->nodes.known) {
      unknown("how this cluster's nodes are replaced or restarted in turn (" + nodes_text(a.nodes) + ")",
              d ? d->nodes.fact : "prof-no-source");
      return;
    }
    fact(d->nodes.fact);
    switch (d->nodes.value) {
      case node_roll::cluster_tool:
        sentence("roll " + nodes_text(a.nodes) + " with the distribution's tool");
        if (d->nodes_command.known) {
          fact(d->nodes_command.fact);
          for (const auto& c : d->nodes_command.value) run(catalog_command(c, owner_));
        }
        break;
      case node_roll::node_pools:
        sentence("create new node groups (or node pools) beside the old ones, then cordon, drain and delete the old "
                 "ones, one group at a time");
        break;
      case node_roll::by_hand:
        sentence("node by node: drain it, restart it, uncordon it");
        run({{word("kubectl"), word("drain"), placeholder("NODE", "each node's name in turn"),
              word("--ignore-daemonsets"), word("--delete-emptydir-data")}});
        run({{word("kubectl"), word("uncordon"), placeholder("NODE", "each node's name in turn")}});
        break;
      case node_roll::unknown: break;
    }
  }

  void operator()(const restart_workloads& a) {
    for (const auto& d : a.scale_up_first) {
      auto slash = d.find('/');
      sentence("scale up the Deployment " + d + " (and admission webhooks) now, and back down once the migration is done");
      run({{word("kubectl"), word("--namespace=" + d.substr(0, slash)), word("scale"), word("deployment"),
            word(d.substr(slash + 1)), placeholder("REPLICAS", "more replicas than it runs now", "--replicas=")}});
    }
    switch (a.which) {
      case workload_selection::all_pods:
        sentence("restart every pod, namespace by namespace, a few at a time: roll each Deployment, StatefulSet and "
                 "DaemonSet and delete bare pods");
        break;
      case workload_selection::pods_in_ranges:
        sentence("restart the pods with an address in " + joined(a.ranges, " or ") + ", a few at a time: roll their "
                 "Deployments, StatefulSets and DaemonSets and delete bare pods");
        break;
      case workload_selection::component:
        sentence("restart the " + component_name(a.target) + "'s pods");
        return;
      case workload_selection::scale_up: return;
    }
    for (std::string kind : {"deployment", "statefulset", "daemonset"}) {
      run({{word("kubectl"), placeholder("NAMESPACE", "each namespace in turn", "--namespace="), word("rollout"),
            word("restart"), word(kind)}});
    }
  }

  void operator()(const advertise_route& a) {
    sentence("add the route " + a.cidr.to_string() + (a.beside ? " beside " + a.beside->to_string() : std::string()) +
             " on " + route_owner_text(a.connection, a.route) + ", approved wherever routes need approval");
  }

  void operator()(const withdraw_route& a) {
    sentence("withdraw the route " + a.cidr.to_string() + " from " + route_owner_text(a.connection, a.route) +
             ", and check that no client still routes it there");
  }

  void operator()(const change_resource& a) { render_resource(a); }

  void operator()(const take_backup&) {
    std::string what = "back up etcd (a snapshot) and the control plane's configuration";
    if (control_plane() == control_plane_config::static_pods) what += " (/etc/kubernetes on each control-plane node)";
    sentence(what + ", so that the change can be undone");
  }

  void operator()(const verify&) {
    sentence(step_.checks.empty() ? "check the state before going on"
                                  : "run this step's checks and go on only if they hold");
  }

  void operator()(const find_out& a) {
    sentence("find out " + a.question + " before going on (the catalog does not say: " + a.field + ")");
  }

  void operator()(const manual& a) { sentence(a.what); }

 private:
  // --- prose, commands, files -------------------------------------------------

  void sentence(const std::string& text) {
    if (!out_.text.empty() && !out_.text.ends_with(": ")) out_.text += ". ";
    out_.text += text;
  }

  void say_reason(const std::string& why) { out_.text += ": " + why; }

  void fact(std::string_view id) {
    if (id.empty() || std::find(out_.facts.begin(), out_.facts.end(), id) != out_.facts.end()) return;
    out_.facts.emplace_back(id);
  }

  void run(shell_command cmd) {
    for (const auto& w : cmd.words) {
      if (const auto* p = std::get_if<shell_placeholder>(&w.text)) {
        bool known = false;
        for (const auto& q : placeholders_) known = known || q.variable == p->variable;
        if (!known) placeholders_.push_back(*p);
      }
    }
    auto line = to_shell(cmd);
    if (std::find(out_.commands.begin(), out_.commands.end(), line) == out_.commands.end()) out_.commands.push_back(line);
  }

  void unknown(const std::string& what, std::string_view fact_id) {
    fact(fact_id);
    sentence("find out " + what + " before going on: the catalog has no source for it on this distribution");
  }

  // A file the step applies: named in the step's text either way, its text
  // kept only when the files are written (runbook_files).
  void add_file(const std::string& name, std::string text) {
    std::string numbered = two_digits(number_) + "-" + name;
    if (!with_files_) text.clear();
    for (auto& f : out_.files) {
      if (f.name == numbered) {
        f.text += text;  // one file per name per folder: a step's fragments merged
        return;
      }
    }
    out_.files.push_back({std::move(numbered), std::move(text)});
  }

  // A YAML fragment: merged with the step's earlier fragment of that name. An
  // edit that waits for an apply numbers it by the first edit of its run, so
  // that every edit one apply takes effect with writes one file (render_step).
  void fragment(const std::string& name, doc_node doc) {
    std::string numbered = two_digits(edit_run(book_, number_ - 1, profile_).first + 1) + "-" + name;
    if (!with_files_) {
      if (std::none_of(out_.files.begin(), out_.files.end(), [&](const emitted_file& f) { return f.name == numbered; })) {
        out_.files.push_back({numbered, ""});
      }
      return;
    }
    for (auto& f : fragments_) {
      if (f.first == numbered) {
        merge(f.second, std::move(doc));
        set_file(numbered, to_yaml(f.second));
        return;
      }
    }
    fragments_.emplace_back(numbered, doc);
    set_file(numbered, to_yaml(doc));
  }

  void set_file(const std::string& numbered, std::string text) {
    for (auto& f : out_.files) {
      if (f.name == numbered) {
        f.text = std::move(text);
        return;
      }
    }
    out_.files.push_back({numbered, std::move(text)});
  }

  static void merge(doc_node& into, doc_node from) {
    auto* a = std::get_if<doc_map>(&into.value);
    auto* b = std::get_if<doc_map>(&from.value);
    if (a == nullptr || b == nullptr) {
      into = std::move(from);
      return;
    }
    // Not a structured binding: clang before 16 refuses one captured by a lambda (C++20 allows it).
    for (auto& entry : *b) {
      const auto& key = entry.first;
      auto it = std::find_if(a->begin(), a->end(), [&](const auto& e) { return e.first == key; });
      if (it == a->end()) {
        a->emplace_back(key, std::move(entry.second));
      } else {
        merge(it->second, std::move(entry.second));
      }
    }
  }

  auto object_file(const kube_object& o) -> std::string {
    std::string name = lower(o.kind) + (o.name.empty() ? std::string() : "-" + o.name) + ".yaml";
    std::string numbered = two_digits(number_) + "-" + name;
    if (with_files_) {
      doc_map metadata{{"name", doc_node{o.name}}};
      if (!o.namespace_name.empty()) metadata.emplace_back("namespace", doc_node{o.namespace_name});
      doc_map doc{{"apiVersion", doc_node{o.api_version}}, {"kind", doc_node{o.kind}}, {"metadata", doc_node{metadata}}};
      for (const auto& e : o.body) doc.push_back(e);
      add_file(name, to_yaml(doc_node{doc}));
    } else {
      add_file(name, "");
    }
    return numbered;
  }

  static auto variable_for(std::string_view kind) -> std::string {
    std::string out = "OLD_";
    for (char c : kind) out += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    return out;
  }

  // A document on one line as JSON, for a patch argument (strings escaped as
  // YAML double quotes escape them, which JSON reads alike for what we write).
  static auto to_json_line(const doc_node& n) -> std::string {
    return std::visit(
        [](const auto& v) -> std::string {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::monostate>) return "null";
          if constexpr (std::is_same_v<T, bool>) return v ? "true" : "false";
          if constexpr (std::is_same_v<T, std::int64_t>) return std::to_string(v);
          if constexpr (std::is_same_v<T, std::string>) return yaml_quoted(v);
          if constexpr (std::is_same_v<T, doc_reference>) return yaml_quoted(v.text);
          if constexpr (std::is_same_v<T, doc_list>) {
            std::string out = "[";
            for (std::size_t k = 0; k < v.size(); ++k) out += (k == 0 ? "" : ",") + to_json_line(v[k]);
            return out + "]";
          }
          if constexpr (std::is_same_v<T, doc_map>) {
            std::string out = "{";
            for (std::size_t k = 0; k < v.size(); ++k) {
              out += (k == 0 ? "" : ",") + yaml_quoted(v[k].first) + ":" + to_json_line(v[k].second);
            }
            return out + "}";
          }
        },
        n.value);
  }

  // --- settings -------------------------------------------------------------------

  auto control_plane() const -> control_plane_config {
    const auto* d = profile_.distribution;
    return d && d->control_plane.known ? d->control_plane.value : control_plane_config::unknown;
  }

  // An edit of the cluster spec: applied here, unless an apply_configuration
  // step applies it with the edits beside it (config-apply-separate).
  void apply_unless_separate() {
    const auto* d = profile_.distribution;
    if (d == nullptr || !d->applies_separately()) apply_control_plane();
  }

  void apply_control_plane() {
    const auto* d = profile_.distribution;
    if (d == nullptr) return;
    fact(d->apply_control_plane.fact);
    if (!d->apply_control_plane.known) {
      sentence("then apply it the way this distribution applies configuration changes (the catalog does not say)");
      return;
    }
    if (d->apply_control_plane.value.empty()) return;
    sentence("then apply the spec and roll the control plane");
    for (const auto& c : d->apply_control_plane.value) run(catalog_command(c, owner_));
  }

  // A kubeadm configuration fragment: the ClusterConfiguration's apiVersion at the cluster's minor.
  auto kubeadm_document(doc_node fields) -> doc_node {
    const auto* d = profile_.distribution;
    const auto* api = d ? profile_.at_minor(d->config_api) : nullptr;
    doc_map doc;
    if (api != nullptr) {
      fact(api->fact);
      doc.emplace_back("apiVersion", doc_node{api->value});
    } else {
      doc.emplace_back("apiVersion", doc_node{std::string("kubeadm.k8s.io/<the version your kubeadm-config shows>"),
                                              "the catalog does not know the kubeadm.k8s.io version of this release"});
    }
    doc.emplace_back("kind", doc_node{std::string("ClusterConfiguration")});
    if (auto* m = std::get_if<doc_map>(&fields.value)) {
      for (auto& e : *m) doc.push_back(std::move(e));
    }
    doc_node out{doc};
    out.comment = "Fields to merge into the ClusterConfiguration (ConfigMap kube-system/kubeadm-config and the file "
                  "for kubeadm --config); keep every other field";
    return out;
  }

  // kubeadm's extraArgs: a map up to v1beta3, a list of {name, value} from v1beta4 (kadm-extra-args).
  auto extra_args(std::string_view flag, const std::string& value) -> doc_node {
    const auto* api = profile_.distribution ? profile_.at_minor(profile_.distribution->config_api) : nullptr;
    std::string name(flag.substr(2));
    if (api != nullptr && api->value.ends_with("v1beta4")) {
      return doc_node{doc_list{doc_node{doc_map{{"name", doc_node{name}}, {"value", doc_node{value}}}}}};
    }
    return doc_node{doc_map{{name, doc_node{value}}}};
  }

  void setting(component target, const std::string& flag, const setting_value& value, rollout order) {
    const auto* d = profile_.distribution;
    const setting_place* place = d ? d->place(target, flag) : nullptr;
    const std::string text = value_text(value);
    const bool key_value = flag == "--feature-gates" || flag == "--runtime-config";
    const std::string shown = flag.starts_with("--") ? flag + "=" + text : flag + ": " + text;
    if (place == nullptr) {
      fact(d ? d->control_plane.fact : "prof-no-source");
      sentence("run " + component_name(target) + " with `" + shown + "`" +
               (key_value ? " (beside the values it already has)" : std::string()) +
               " wherever this cluster configures it: the catalog does not say where this distribution sets it, so "
               "find out before this step" +
               (order == rollout::all_together ? "; every member takes it at the same time" : "; one member at a time"));
      return;
    }
    fact(place->fact);
    if (place->when == changeable::at_creation) {
      sentence(component_name(target) + "'s " + flag + " is `" + place->field +
               "`, which is set when the cluster is created and cannot change on it");
      return;
    }
    switch (place->store) {
      case config_store::kubeadm_configuration: {
        fact(d->control_plane.fact);
        sentence("set `" + shown + "` for " + component_name(target) + (key_value ? " (beside the values it has)" : "") +
                 " in /etc/kubernetes/manifests/" + component_name(target) +
                 ".yaml on each control-plane node, one node at a time (the kubelet restarts the static pod), and `" +
                 place->field + "` in the stored ClusterConfiguration, so that kubeadm upgrade keeps it");
        run({{word("kubectl"), word("--namespace=kube-system"), word("edit"), word("configmap"), word("kubeadm-config")}});
        add_file(component_name(target) + ".flags",
                 "# " + component_name(target) + "'s flag in /etc/kubernetes/manifests/" + component_name(target) +
                     ".yaml" + (key_value ? ", added to the values it has\n" : "\n") + shown + "\n");
        doc_node field = place->field.ends_with("extraArgs") ? extra_args(flag, text) : value_node(value);
        if (std::holds_alternative<std::vector<prefix>>(value)) field = doc_node{text};  // one "a,b" string
        fragment("kubeadm-clusterconfiguration.yaml", kubeadm_document(nested(place->field, std::move(field))));
        return;
      }
      case config_store::kubelet_configuration:
      case config_store::kube_proxy_configuration: {
        std::string where = place->where;
        if (auto at = where.find("{kubelet_config_map}"); at != std::string::npos) {
          const auto* map = profile_.at_minor(d->kubelet_config_map);
          std::string name = map ? map->value : "the kubelet ConfigMap of this release";
          if (map) fact(map->fact);
          if (auto m = name.find("{minor}"); m != std::string::npos && profile_.minor) {
            name.replace(m, 7, std::to_string(profile_.minor->minor));
          }
          where.replace(at, 20, name);
        }
        sentence("set `" + place->field + "` to " + text + " in " + where + (order == rollout::one_at_a_time && target == component::kubelet ? ", node by node" : ""));
        for (const auto& c : place->then) run(catalog_command(c, owner_));
        const bool kubelet = place->store == config_store::kubelet_configuration;
        doc_map doc{{"apiVersion", doc_node{std::string(kubelet ? "kubelet.config.k8s.io/v1beta1" : "kubeproxy.config.k8s.io/v1alpha1")}},
                    {"kind", doc_node{std::string(kubelet ? "KubeletConfiguration" : "KubeProxyConfiguration")}}};
        doc_node v = value_node(value);
        if (!kubelet) v = doc_node{text};  // kube-proxy's clusterCIDR is one "a,b" string
        doc.emplace_back(place->field, std::move(v));
        doc_node out{doc};
        out.comment = "The field to change; keep every other field as it is";
        fragment(kubelet ? "kubelet-config.yaml" : "kube-proxy-config.yaml", std::move(out));
        return;
      }
      case config_store::control_plane: {
        fact(d->control_plane.fact);
        switch (control_plane()) {
          case control_plane_config::cluster_spec: {
            sentence("set `" + place->field + "` to " + text + " in the cluster spec" +
                     (key_value ? " (beside the entries it has)" : ""));
            doc_node v = value_node(value);
            if (key_value) {
              auto eq = text.find('=');
              v = doc_node{doc_map{{text.substr(0, eq), doc_node{text.substr(eq + 1)}}}};
            } else if (std::holds_alternative<std::vector<prefix>>(value)) {
              v = doc_node{text};
            }
            fragment("cluster-spec.yaml", nested(place->field, std::move(v)));
            apply_unless_separate();
            return;
          }
          case control_plane_config::server_flags:
            sentence("set `" + place->field + "=" + text + "` on every server (in its flags or configuration file) and "
                     "restart all servers together: every server must hold the same value");
            add_file("server.flags", "# every server's flag\n" + place->field + "=" + text + "\n");
            apply_control_plane();
            return;
          case control_plane_config::installer:
            sentence("set `" + place->field + "` to " + text + " in the cluster's network configuration");
            return;
          default:
            sentence("set `" + place->field + "` to " + text);
            return;
        }
      }
      case config_store::cni_configuration:
      case config_store::cloud:
        sentence("set `" + place->field + "` to " + text);
        return;
    }
  }

  // --- DNS ----------------------------------------------------------------------

  void render_dns_move(const recreate_services& a) {
    const std::string at = a.cluster_ip ? a.cluster_ip->to_string() : joined(a.into, " or ");
    const auto* d = profile_.distribution;
    const auto owner = d && d->dns_addon.known ? d->dns_addon.value : dns_addon_owner::unknown;
    if (owner == dns_addon_owner::distribution) {
      sentence("delete the kube-dns Service in kube-system: the distribution renders it again at " + at +
               " from its settings");
      run({{word("kubectl"), word("--namespace=kube-system"), word("delete"), word("service"), word("kube-dns")}});
      return;
    }
    sentence("move kube-dns to " + at + ": export it, set spec.clusterIP and spec.clusterIPs to " + at +
             ", then delete kube-dns-next if it exists and replace kube-dns from the edited file in one command" +
             (owner == dns_addon_owner::unknown ? " (if the distribution renders kube-dns itself, it recreates it at " +
                                                      at + " from its settings instead: check it)"
                                                : std::string()));
    run({{word("kubectl"), word("--namespace=kube-system"), word("get"), word("service"), word("kube-dns"),
          word("--output=yaml")}});
    run({{word("kubectl"), word("--namespace=kube-system"), word("delete"), word("service"), word("kube-dns-next"),
          word("--ignore-not-found")}});
    run({{word("kubectl"), word("replace"), word("--force"), placeholder("FILE", "the edited file", "--filename=")}});
  }

  void replace_commands() {
    run({{word("kubectl"), placeholder("NAMESPACE", "each Service's namespace", "--namespace="), word("get"),
          word("service"), placeholder("SERVICE", "each Service's name"), word("--output=yaml")}});
    run({{word("kubectl"), word("replace"), word("--force"), placeholder("FILE", "the edited export", "--filename=")}});
  }

  // --- nodes, routes, resources ----------------------------------------------------

  static auto nodes_text(const node_selection& n) -> std::string {
    std::string out = n.which == node_selection::role::all            ? "every node"
                      : n.which == node_selection::role::control_plane ? "every control-plane node"
                                                                       : "every worker node";
    if (!n.pod_cidr_outside.empty()) out += " whose podCIDR lies outside " + joined(n.pod_cidr_outside, " and ");
    return out;
  }

  // A step names up to ten members of a connection: enough to find a transit
  // gateway's or a VPN's, one line for a mesh of any size.
  static constexpr std::size_t members_shown = 10;

  auto route_owner_text(std::optional<std::uint32_t> connection, std::optional<std::uint32_t> route) const -> std::string {
    if (connection) {
      const auto& c = planned_.connections[*connection];
      return "the " + (c.via.empty() ? std::string() : printable(c.via) + " ") + "connection" +
             (c.name.empty() ? "" : " " + printable(c.name)) + " (" +
             printable(planned_.describe_members(*connection, members_shown)) + ")";
    }
    if (route) {
      const auto& r = planned_.routes[*route];
      const auto& net = planned_.owners[planned_.ranges[r.range].owner];
      return "network " + printable(net.name) +
             (r.advertiser.empty() ? std::string() : " (advertised by " + printable(r.advertiser) + ")");
    }
    return "every connection that carries it";
  }

  auto cloud() const -> sourced<cloud_kind> { return cat_.cloud_of(owner_); }

  void render_resource(const change_resource& a) {
    const auto cl = cloud();
    fact(cl.fact);
    const std::string ranges = joined(a.ranges, ", ");
    const std::string network = cl.value == cloud_kind::aws     ? "VPC"
                                : cl.value == cloud_kind::gcp   ? "VPC network"
                                : cl.value == cloud_kind::azure ? "virtual network (VNet)"
                                : cl.value == cloud_kind::on_premises ? "subnet"
                                                                      : "network (VPC, VNet or subnet)";
    const std::string name = printable(owner_.name);
    switch (a.what) {
      case resource_kind::network:
        if (a.action == resource_action::create) {
          sentence("create the new " + network + " " + ranges + " with its subnets");
          network_terraform(cl.value, a.ranges);
        } else {
          sentence("delete the old " + network + " " + ranges + " and its peering");
        }
        return;
      case resource_kind::peering: {
        const std::string how = cl.value == cloud_kind::aws     ? "VPC peering (both route tables, both security groups)"
                                : cl.value == cloud_kind::gcp   ? "VPC Network Peering (not transitive)"
                                : cl.value == cloud_kind::azure ? "VNet peering"
                                : cl.value == cloud_kind::on_premises ? "routes between the two subnets on the routers"
                                                                      : "peering or routes between the two networks";
        sentence("join the old " + network + " and the new one " + ranges + " with " + how +
                 "; their ranges must not overlap, and shared resources (security groups, firewall rules, DNS) must "
                 "exist in both");
        return;
      }
      case resource_kind::secondary_range:
        if (cl.value != cloud_kind::aws) {
          sentence((a.action == resource_action::associate ? "add " : "remove ") + ranges + " as an address range of " +
                   name + "'s " + network);
          return;
        }
        if (a.action == resource_action::associate) {
          sentence("associate " + ranges + " with " + name + "'s VPC as a secondary IPv4 CIDR block");
          run({{word("aws"), word("ec2"), word("associate-vpc-cidr-block"), placeholder("VPC_ID", "the VPC's id", "--vpc-id="),
                word("--cidr-block=" + ranges)}});
          add_file("terraform-secondary-cidr.tf",
                   to_hcl({{"resource",
                            {"aws_vpc_ipv4_cidr_block_association", "pods"},
                            {{"vpc_id", doc_node{doc_reference{"var.vpc_id"}}}, {"cidr_block", doc_node{ranges}}}}}));
        } else {
          sentence("disassociate " + ranges + " from the VPC once its subnets are deleted");
          run({{word("aws"), word("ec2"), word("disassociate-vpc-cidr-block"),
                placeholder("ASSOCIATION_ID", "the association id of the old block", "--association-id=")}});
        }
        return;
      case resource_kind::subnets:
        sentence("create the subnets " + ranges + ", one in each zone of the node subnets");
        if (cl.value == cloud_kind::aws) {
          std::vector<hcl_block> blocks;
          for (std::size_t k = 0; k < a.ranges.size(); ++k) {
            auto n = std::to_string(k + 1);
            blocks.push_back({"resource",
                              {"aws_subnet", "pods_az" + n},
                              {{"vpc_id", doc_node{doc_reference{"aws_vpc_ipv4_cidr_block_association.pods.vpc_id"}}},
                               {"cidr_block", doc_node{a.ranges[k].to_string()}},
                               {"availability_zone", doc_node{doc_reference{"var.az" + n}}}}});
          }
          add_file("terraform-subnets.tf", to_hcl(blocks));
        }
        return;
      case resource_kind::pod_range: {
        if (a.action == resource_action::expand) {
          sentence("expand the cluster's pod CIDR to " + ranges + " (it must contain the old one)");
          run({{word("az"), word("aks"), word("update"), option_word("--name", owner_.name),
                placeholder("RESOURCE_GROUP", "the cluster's resource group", "--resource-group="),
                word("--pod-cidr=" + ranges)}});
          return;
        }
        for (const auto& r : a.ranges) {
          std::string range_name = "pods-";
          for (char ch : r.to_string()) range_name += (ch == '.' || ch == '/' || ch == ':') ? '-' : ch;
          sentence("add " + r.to_string() + " as the secondary range " + range_name +
                   " of the cluster's subnet, then to the cluster as an additional pod range");
          run({{word("gcloud"), word("compute"), word("networks"), word("subnets"), word("update"),
                placeholder("SUBNET", "the cluster's subnet"), placeholder("REGION", "its region", "--region="),
                word("--add-secondary-ranges=" + range_name + "=" + r.to_string())}});
          run({{word("gcloud"), word("container"), word("clusters"), word("update"),
                name_word(owner_.name, "CLUSTER", "the cluster's name"),
                placeholder("LOCATION", "the cluster's location", "--location="),
                word("--additional-pod-ipv4-ranges=" + range_name)}});
        }
        return;
      }
      case resource_kind::node_pool:
        if (a.role == range_role::pods) {
          sentence("create new node pools whose pods take addresses in " + ranges + " (a node pool's pod range is "
                   "set when it is created), then cordon, drain and delete the old ones, one pool at a time");
          return;
        }
        sentence("create new node groups in " + ranges + ", then drain and delete the old ones");
        return;
      case resource_kind::cluster:
        if (a.action == resource_action::remove) {
          sentence("delete the old cluster " + name + ", which frees its ranges");
          return;
        }
        if (a.role) {
          render_creation(*a.role, a.ranges);
          return;
        }
        sentence("build a replacement cluster beside " + name + " with " + ranges);
        replacement_spec();
        return;
    }
  }

  // A cluster created with a range: where the distribution takes it at creation.
  void render_creation(range_role role, const std::vector<prefix>& ranges) {
    const auto* d = profile_.distribution;
    const setting_place* place = nullptr;
    if (d) {
      place = role == range_role::services ? d->place(component::kube_apiserver, "--service-cluster-ip-range")
                                           : d->place(component::kube_controller_manager, "--cluster-cidr");
    }
    const std::string what = std::string(role == range_role::services ? "service" : "pod") + " range " + joined(ranges, ",");
    if (place == nullptr) {
      sentence("create " + printable(owner_.name) + " with its " + what +
               " (the catalog does not say where this distribution takes it: find out)");
      return;
    }
    fact(place->fact);
    sentence("create " + printable(owner_.name) + " with its " + what + ": `" + place->field + "`" +
             (place->when == changeable::at_creation ? ", which cannot change later" : std::string()));
    if (role == range_role::services && !ranges.empty()) {
      sentence("cluster DNS then takes " + address::from_bits(ranges.front().version(),
                                                              ranges.front().network().bits() + 10).to_string());
    }
  }

  // The replacement's spec where the distribution has one: its ranges at their fields.
  void replacement_spec() {
    const auto* d = profile_.distribution;
    if (d == nullptr || control_plane() != control_plane_config::cluster_spec) return;
    const auto& o = owner_;
    auto field_of = [&](component target, std::string_view setting) -> std::string {
      const auto* place = d->place(target, setting);
      return place ? place->field : std::string();
    };
    doc_node spec{doc_map{}};
    auto set = [&](const std::string& path, doc_node value) {
      if (!path.empty()) merge(spec, nested(path, std::move(value)));
    };
    std::vector<prefix> pods, services, networks;
    for (auto k : o.ranges) {
      const auto& r = planned_.ranges[k];
      if (!r.is_plain() || r.cidr.version() != ip_version::v4) continue;
      if (r.role == range_role::pods) pods.push_back(r.cidr);
      if (r.role == range_role::services) services.push_back(r.cidr);
      if (r.role == range_role::network) networks.push_back(r.cidr);
    }
    if (!services.empty()) set(field_of(component::kube_apiserver, "--service-cluster-ip-range"), doc_node{services.front().to_string()});
    if (!pods.empty()) set(field_of(component::kube_controller_manager, "--cluster-cidr"), doc_node{pods.front().to_string()});
    if (!d->pod_range_container.value.empty()) {
      fact(d->pod_range_container.fact);
      if (auto block = container_block(planned_, o, profile_)) set(d->pod_range_container.value, doc_node{block->to_string()});
    }
    if (d->network_fields.known && d->network_fields.value.size() == 2 && !networks.empty()) {
      fact(d->network_fields.fact);
      const auto& net = networks.front();
      set(d->network_fields.value[0], doc_node{net.to_string()});
      doc_list subnets;
      int n = 0;
      for (auto sub : net.subnets(std::min(net.length() + 2, 28))) {
        if (++n > 3) break;
        subnets.emplace_back(doc_map{{"name", doc_node{"subnet-" + std::to_string(n)}},
                                     {"zone", doc_node{"<zone " + std::to_string(n) + ">"}},
                                     {"cidr", doc_node{sub.to_string()}},
                                     {"type", doc_node{std::string("Private")}}});
      }
      set(d->network_fields.value[1], doc_node{std::move(subnets)});
      sentence("its spec names its network range and subnets inside it, one per zone: a spec without subnets is "
               "refused");
    }
    fragment("cluster-spec.yaml", std::move(spec));
  }

  void network_terraform(cloud_kind c, const std::vector<prefix>& ranges) {
    if (ranges.empty()) return;
    const std::string name = terraform_name(owner_.name) + "-new";
    const std::string cidr = ranges.front().to_string();
    std::vector<hcl_block> blocks;
    switch (c) {
      case cloud_kind::aws:
        blocks.push_back({"resource", {"aws_vpc", name}, {{"cidr_block", doc_node{cidr}}}});
        break;
      case cloud_kind::gcp:
        blocks.push_back({"resource", {"google_compute_network", name},
                          {{"name", doc_node{name}}, {"auto_create_subnetworks", doc_node{false}}}});
        blocks.push_back({"resource", {"google_compute_subnetwork", name},
                          {{"name", doc_node{name}},
                           {"network", doc_node{doc_reference{"google_compute_network." + name + ".id"}}},
                           {"region", doc_node{doc_reference{"var.region"}}},
                           {"ip_cidr_range", doc_node{cidr}}}});
        break;
      case cloud_kind::azure:
        blocks.push_back({"resource", {"azurerm_virtual_network", name},
                          {{"name", doc_node{name}},
                           {"location", doc_node{doc_reference{"var.location"}}},
                           {"resource_group_name", doc_node{doc_reference{"var.resource_group_name"}}},
                           {"address_space", doc_node{doc_list{doc_node{cidr}}}}}});
        break;
      case cloud_kind::on_premises:
      case cloud_kind::unknown: return;
    }
    add_file("terraform-network.tf", to_hcl(blocks));
  }

  void render_check(const step_check& c) {
    const std::string ranges = joined(c.ranges, " or ");
    const std::string addresses = joined(c.addresses, " and ");
    auto must = [&](const std::string& subject) -> std::string {
      switch (c.must) {
        case expectation::none_in: return subject + " lists none in " + ranges;
        case expectation::all_in: return subject + " lists only ones in " + ranges;
        case expectation::includes:
          return subject + (c.addresses.size() == 1 || c.ranges.size() == 1 ? " shows " : " includes ") +
                 (addresses.empty() ? ranges : addresses);
        case expectation::equals: return subject + " shows " + (addresses.empty() ? joined(c.ranges, ",") : addresses);
        case expectation::ready: return subject + " is Ready" + (ranges.empty() ? "" : ", holding " + joined(c.ranges, ","));
        case expectation::absent: return subject + " is gone";
      }
      return subject;
    };
    switch (c.what) {
      case observable::pod_addresses:
        sentence("Check: " + must("the pods' addresses"));
        run({{word("kubectl"), word("get"), word("pods"), word("--all-namespaces"), word("--output=wide")}});
        return;
      case observable::service_cluster_ips: {
        const auto* k = profile_.kubernetes;
        std::string field = k && k->service_ips_field.known ? k->service_ips_field.value : "clusterIP";
        if (k) fact(k->service_ips_field.fact);
        sentence("Check: " + must("the Services' ." + field));
        run({{word("kubectl"), word("get"), word("services"), word("--all-namespaces"),
              word("--output=custom-columns=NAMESPACE:.metadata.namespace,NAME:.metadata.name,IPS:.spec." + field)}});
        return;
      }
      case observable::ip_address_objects:
        sentence("Check: " + must("the IPAddress objects"));
        run({{word("kubectl"), word("get"), word("ipaddresses")}});
        return;
      case observable::service_cidr:
        sentence("Check: " + must("the ServiceCIDR " + c.name));
        run({{word("kubectl"), word("get"), word("servicecidr"), word(c.name), word("--output=wide")}});
        return;
      case observable::kubernetes_service_ip:
        sentence("Check: " + must("the `kubernetes` Service's cluster IP"));
        run({{word("kubectl"), word("--namespace=default"), word("get"), word("service"), word("kubernetes")}});
        return;
      case observable::dns_service_ip: {
        const std::string service = c.name.empty() ? "kube-dns" : c.name;
        sentence("Check: " + must("the " + service + " Service's cluster IP"));
        run({{word("kubectl"), word("--namespace=kube-system"), word("get"), word("service"), word(service)}});
        return;
      }
      case observable::node_pod_cidrs:
        sentence("Check: " + must("the Nodes' podCIDRs"));
        run({{word("kubectl"), word("get"), word("nodes"),
              word("--output=custom-columns=NAME:.metadata.name,PODCIDRS:.spec.podCIDRs")}});
        return;
      case observable::node_addresses:
        sentence("Check: " + must("the Nodes' InternalIPs"));
        run({{word("kubectl"), word("get"), word("nodes"), word("--output=wide")}});
        return;
      case observable::certificate_sans:
        sentence("Check: " + must("the API server certificate's subject alternative names"));
        if (profile_.distribution && profile_.distribution->sans.known &&
            profile_.distribution->sans.value == san_method::kubeadm_certs) {
          run({{word("openssl"), word("x509"), word("-noout"), word("-ext"), word("subjectAltName"), word("-in"),
                word("/etc/kubernetes/pki/apiserver.crt")}});
        }
        return;
      case observable::api_resources:
        sentence("Check: " + must("`kubectl api-resources`"));
        run({{word("kubectl"), word("api-resources"), word("--api-group=networking.k8s.io")}});
        return;
      case observable::ip_pools: {
        const auto* ipam = profile_.ipam;
        sentence("Check: " + must("the pools"));
        if (ipam && ipam->pool.value == pool_kind::calico_ippool) {
          run({{word(ipam->pool_tool.value == object_tool::calicoctl ? "calicoctl" : "kubectl"), word("get"),
                word("ippool"), word("--output=yaml")}});
        } else if (ipam && ipam->pool.value == pool_kind::cilium_pod_ip_pool) {
          run({{word("kubectl"), word("get"), word("ciliumpodippools"), word("--output=yaml")}});
        }
        return;
      }
      case observable::pool_expansion:
        sentence("Check: " + must("the nodes' NodeNetworkConfig address space"));
        run({{word("kubectl"), word("get"), word("nnc"), word("--all-namespaces"), word("--output=wide")}});
        return;
      case observable::network_interfaces:
        sentence("Check: " + must("the old network's interfaces"));
        return;
      case observable::routes:
        sentence("Check: " + must("the routes clients see"));
        return;
    }
  }

  const fleet& planned_;
  const catalog& cat_;
  const runbook& book_;
  std::size_t number_;
  const runbook_step& step_;
  const owner& owner_;
  cluster_profile profile_;
  bool with_files_;
  bool many_owners_;
  rendered_step out_;
  std::vector<shell_placeholder> placeholders_;
  std::vector<std::pair<std::string, doc_node>> fragments_;
};

}  // namespace

auto edit_run(const runbook& r, std::size_t k, const cluster_profile& p) -> std::pair<std::size_t, std::size_t> {
  const auto* d = p.distribution;
  auto waits = [&](std::size_t j) { return r.steps[j].owner == r.steps[k].owner && d->edit_waits_for_apply(r.steps[j].action); };
  if (d == nullptr || !waits(k)) return {k, k};
  std::size_t first = k, end = k + 1;
  while (first > 0 && waits(first - 1)) --first;
  while (end < r.steps.size() && waits(end)) ++end;
  return {first, end};
}

auto render_step(const fleet& planned, const catalog& c, const runbook& r, std::size_t k, bool with_files)
    -> rendered_step {
  renderer self(planned, c, r, k, with_files);
  auto out = self.render();
  if (!with_files) return out;
  // An edit of a run that one apply takes effect with writes the whole run's
  // file: every edit's fragments of one name merged, in step order.
  const auto [first, end] = edit_run(r, k, c.profile_of(planned.owners[r.steps[k].owner]));
  if (end - first < 2 || self.fragments().empty()) return out;
  std::vector<std::pair<std::string, doc_node>> whole;
  for (auto j = first; j < end; ++j) {
    renderer sibling(planned, c, r, j, true);
    sibling.render();
    for (auto& fragment : sibling.fragments()) {
      auto at = std::find_if(whole.begin(), whole.end(), [&](const auto& f) { return f.first == fragment.first; });
      if (at == whole.end()) {
        whole.push_back(std::move(fragment));
      } else {
        renderer::merge_fragment(at->second, std::move(fragment.second));
      }
    }
  }
  for (auto& file : out.files) {
    auto at = std::find_if(whole.begin(), whole.end(), [&](const auto& f) { return f.first == file.name; });
    if (at != whole.end()) file.text = to_yaml(at->second);
  }
  return out;
}

}  // namespace cidrcheck::detail
