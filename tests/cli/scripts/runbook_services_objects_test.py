#!/usr/bin/python3
"""The Kubernetes objects and configuration the service-range runbooks emit
(tests/cli/runbooks/services-*/, which cli.runbook_emit_services keeps equal to
what `plan --emit` writes), checked against the fields their APIs require.

Sources of the rules (read with the search tool; see docs/migration-facts.md):
- ServiceCIDR: kubernetes/kubernetes pkg/apis/networking/validation/validation.go
  (ValidateServiceCIDR: at least one CIDR, at most two, one per IP family) and
  kubernetes/api networking/v1alpha1/types.go (ServiceCIDRSpec.CIDRs); the
  apiVersion per Kubernetes version: v1alpha1 1.29-1.30, v1beta1 1.31-1.32,
  v1 from 1.33 (facts svc-alpha-1.29, svc-beta-1.31, svc-ga-1.33).
- Object names: DNS subdomains (RFC 1123), as metadata.name requires.
- kube-apiserver --service-cluster-ip-range: at most 20 host bits
  (cmd/kube-apiserver/app/options/validation.go, fact kas-flag-size); kubeadm's
  serviceSubnet also needs 10 addresses (fact kadm-svc-size).
- kubeadm configuration API: v1beta3 read by kubeadm 1.22 to at least 1.33,
  v1beta4 after (fact kadm-api-version).
- kops: kubeAPIServer.featureGates and runtimeConfig are map[string]string
  (pkg/apis/kops/componentconfig.go, facts kops-feature-gates, kops-runtime-config).
Exit 0 and "N passed, 0 failed" when every check holds.
"""
import ipaddress
import pathlib
import re
import sys

import yaml

ROOT = pathlib.Path(sys.argv[1])
DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def minor_of(folder):
    m = re.search(r"Kubernetes 1\.(\d+)", (folder / "runbook.md").read_text())
    return int(m.group(1)) if m else None


def servicecidr_api(minor):
    if minor >= 33:
        return "networking.k8s.io/v1"
    if minor >= 31:
        return "networking.k8s.io/v1beta1"
    return "networking.k8s.io/v1alpha1"


def kubeadm_api(minor):
    if minor is not None and minor < 22:
        return "kubeadm.k8s.io/v1beta2"
    if minor is None or minor < 34:
        return "kubeadm.k8s.io/v1beta3"
    return "kubeadm.k8s.io/v1beta4"


def network(text):
    # A YAML scalar that is not a string (an unquoted IPv6 address of digits
    # and colons reads as a YAML 1.1 sexagesimal number) is an error too.
    check(isinstance(text, str), f"{text!r} is not a YAML string")
    return ipaddress.ip_network(str(text), strict=True)


def service_range_ok(cidr, where):
    net = network(cidr)
    host_bits = net.max_prefixlen - net.prefixlen
    check(host_bits <= 20, f"{where}: {cidr} has more than 20 host bits")
    check(net.num_addresses >= 10, f"{where}: {cidr} has fewer than 10 addresses")


# Each operation's folder, and the fallback runbook folders inside them (the window of 1.27-1.28).
folders = sorted(p for p in ROOT.glob("services-*/*") if p.is_dir()) + sorted(ROOT.glob("services-*/*/fallback-window"))
check(folders, f"no runbook folders under {ROOT}/services-*")
for folder in folders:
    minor = minor_of(folder)
    book = (folder / "runbook.md").read_text()
    for name in re.findall(r"\]\(([^)#]+)\)", book):
        check((folder / name).is_file(), f"{folder}: runbook.md links {name}, which was not emitted")
    new_ranges = []
    if (folder / "servicecidr.yaml").exists():
        doc = yaml.safe_load((folder / "servicecidr.yaml").read_text())
        where = f"{folder.name}/servicecidr.yaml"
        check(doc.get("kind") == "ServiceCIDR", f"{where}: kind")
        check(minor is not None and doc.get("apiVersion") == servicecidr_api(minor),
              f"{where}: apiVersion {doc.get('apiVersion')} for 1.{minor}")
        check(bool(DNS_SUBDOMAIN.match(doc["metadata"]["name"])) and len(doc["metadata"]["name"]) <= 253,
              f"{where}: metadata.name is no DNS subdomain")
        cidrs = doc["spec"]["cidrs"]
        check(isinstance(cidrs, list) and 1 <= len(cidrs) <= 2, f"{where}: spec.cidrs must hold one or two")
        nets = [network(c) for c in cidrs]
        check(len({n.version for n in nets}) == len(nets), f"{where}: two CIDRs of one family")
        for c in cidrs:
            service_range_ok(c, where)
        new_ranges = nets
    for path in sorted(folder.glob("*.yaml")):
        where = f"{folder.name}/{path.name}"
        docs = list(yaml.safe_load_all(path.read_text()))
        check(len(docs) == 1 and isinstance(docs[0], dict), f"{where}: one YAML mapping")
        doc = docs[0]
        if path.name == "kube-dns-next.yaml":
            check(doc["apiVersion"] == "v1" and doc["kind"] == "Service", f"{where}: a v1 Service")
            check(doc["metadata"]["namespace"] == "kube-system", f"{where}: namespace")
            ip = ipaddress.ip_address(doc["spec"]["clusterIP"])
            check(any(ip in n for n in new_ranges), f"{where}: clusterIP {ip} outside the new ServiceCIDR")
            check(all(isinstance(p.get("port"), int) and p.get("protocol") in ("TCP", "UDP") for p in doc["spec"]["ports"]),
                  f"{where}: ports")
            check(len({p["name"] for p in doc["spec"]["ports"]}) == len(doc["spec"]["ports"]), f"{where}: port names unique")
        elif path.name == "kubelet-config.yaml":
            check(doc["apiVersion"] == "kubelet.config.k8s.io/v1beta1" and doc["kind"] == "KubeletConfiguration",
                  f"{where}: KubeletConfiguration")
            for ip in doc["clusterDNS"]:
                ipaddress.ip_address(ip)
        elif path.name.startswith("kubeadm-clusterconfiguration"):
            check(doc["kind"] == "ClusterConfiguration", f"{where}: kind")
            check(doc["apiVersion"] == kubeadm_api(minor), f"{where}: apiVersion {doc['apiVersion']} for 1.{minor}")
            subnets = doc["networking"]["serviceSubnet"].split(",")
            check(len(subnets) <= 2 and len({network(n).version for n in subnets}) == len(subnets),
                  f"{where}: serviceSubnet holds at most one CIDR per family")
            for n in subnets:
                service_range_ok(n, where)
            # kubernetes.default lives in the primary family (the first CIDR; fact svc-kubernetes-single-stack):
            # the certificate changes only when that family moves.
            moved = {network(r) for pair in re.findall(r"services (\S+) -> ([^\s,]+)", book) for r in pair}
            if network(subnets[0]) in moved:
                sans = [ipaddress.ip_address(s) for s in doc["apiServer"]["certSANs"]]
                check(len(sans) == 2, f"{where}: certSANs must hold the old and the new kubernetes.default address")
                check(all(a.version == network(subnets[0]).version for a in sans), f"{where}: certSANs of the primary family")
            else:
                check("apiServer" not in doc, f"{where}: the primary family stays, so the certificate does not change")
        elif path.name == "kops-cluster-sans.yaml":
            # kops-apiserver-sans: the old and the new kubernetes.default address, IPs as strings.
            # In kops.k8s.io/v1alpha2, what `kops edit cluster` shows, the field is spec.additionalSans.
            sans = doc["spec"]["additionalSans"]
            check(len(sans) == 2 and all(isinstance(a, str) for a in sans), f"{where}: two addresses as strings")
            for a in sans:
                ipaddress.ip_address(a)
        elif path.name.startswith("kops-cluster"):
            api = doc["spec"].get("kubeAPIServer")
            if api is not None:
                check(api["featureGates"] == {"MultiCIDRServiceAllocator": "true"}, f"{where}: featureGates")
                check(list(api["runtimeConfig"]) == [servicecidr_api(minor)], f"{where}: runtimeConfig key")
                check(all(isinstance(v, str) for v in api["runtimeConfig"].values()), f"{where}: map[string]string")
            else:
                service_range_ok(doc["spec"]["serviceClusterIPRange"], where)
    for path in sorted(folder.glob("*.flags")):
        where = f"{folder.name}/{path.name}"
        lines = [l for l in path.read_text().splitlines() if l and not l.startswith("#")]
        check(lines, f"{where}: no flag")
        for line in lines:
            check(re.match(r"^--[a-z][a-z0-9-]*=\S+$", line) is not None, f"{where}: {line!r} is no --flag=value")
            if line.startswith("--service-cluster-ip-range="):
                values = line.split("=", 1)[1].split(",")
                check(len(values) <= 2, f"{where}: more than two ranges")
                for v in values:
                    service_range_ok(v, where)
        comments = [l for l in path.read_text().splitlines()[1:] if l.startswith("#")]
        check(len(comments) >= len(lines), f"{where}: every flag needs a comment line")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
