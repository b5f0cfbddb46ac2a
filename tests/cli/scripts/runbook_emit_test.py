#!/usr/bin/python3
"""Golden test of `cidrcheck plan --emit` for one area's runbooks (services, pods or network).

For each fixture tests/fixtures/fleets/runbook/AREA-*.yaml, runs `plan FIXTURE
--emit SCRATCH/NAME` and compares the folder with tests/cli/runbooks/NAME/
(CIDRCHECK_UPDATE_GOLDEN=1 rewrites the expected folder). Every emitted file is
also checked for what its consumer requires:

- every .yaml parses;
- Calico IPPool (tigera/docs calico/reference/resources/ippool.mdx): apiVersion
  projectcalico.org/v3, kind IPPool, metadata.name, spec.cidr a CIDR,
  blockSize 20-32 (IPv4) or 116-128 (IPv6) and not shorter than the pool,
  disabled a boolean, nodeSelector a string;
- CiliumPodIPPool (cilium/cilium Documentation/network/concepts/ipam/multi-pool.rst):
  apiVersion cilium.io/v2alpha1, spec.ipv4|ipv6.cidrs CIDRs of one family,
  maskSize not shorter than any of them;
- ENIConfig (aws/amazon-vpc-cni-k8s config/master/aws-k8s-cni.yaml, CRD schema):
  apiVersion crd.k8s.amazonaws.com/v1alpha1, cluster-scoped (no namespace),
  spec.subnet a non-empty string (required), spec.securityGroups a list;
- the aws-node patch (aws/amazon-vpc-cni-k8s README.md): container aws-node with
  AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG "true" and ENI_CONFIG_LABEL_DEF;
- kubeadm ClusterConfiguration (kubernetes.io kubeadm-config.v1beta4 migration list):
  apiVersion kubeadm.k8s.io/v1beta2, v1beta3 or v1beta4, only networking, apiServer and
  controllerManager fields; networking.podSubnet and serviceSubnet (whichever it sets)
  with at most one CIDR per IP family (kubernetes/kubernetes cmd/kube-controller-manager/app/core.go);
  extraArgs a list of name/value pairs in v1beta4 and a map before;
- kops cluster spec (kubernetes/kops pkg/apis/kops/validation/validation.go):
  podCIDR inside nonMasqueradeCIDR, nonMasqueradeCIDR clear of networkCIDR;
- kube-controller-manager flags: --cluster-cidr with one CIDR per IP family;
- Terraform: balanced braces, and every cidr_block / ip_cidr_range / address_space value a CIDR.

Prints "N passed, N failed"; exits 1 on any failure.
"""

import filecmp
import glob
import ipaddress
import os
import re
import shutil
import subprocess
import sys

import yaml


def cidr(text):
    return ipaddress.ip_network(str(text), strict=True)


def one_per_family(values):
    nets = [cidr(v.strip()) for v in str(values).split(",")]
    assert len(nets) <= 2 and len({n.version for n in nets}) == len(nets), f"one CIDR per family: {values}"
    return nets


def body(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def check_yaml(path):
    doc = yaml.safe_load(body(path))
    name = os.path.basename(path)
    if not isinstance(doc, dict):
        return
    kind, api = doc.get("kind"), doc.get("apiVersion")
    spec = doc.get("spec") or {}
    if kind == "IPPool":
        assert api == "projectcalico.org/v3", api
        assert doc["metadata"]["name"]
        net = cidr(spec["cidr"])
        lo, hi = (20, 32) if net.version == 4 else (116, 128)
        assert lo <= spec["blockSize"] <= hi and spec["blockSize"] >= net.prefixlen, spec["blockSize"]
        assert isinstance(spec["disabled"], bool) and isinstance(spec["nodeSelector"], str)
    elif kind == "CiliumPodIPPool":
        assert api == "cilium.io/v2alpha1", api
        fam = "ipv4" if "ipv4" in spec else "ipv6"
        nets = [cidr(c) for c in spec[fam]["cidrs"]]
        assert nets and all(n.version == (4 if fam == "ipv4" else 6) for n in nets)
        assert all(spec[fam]["maskSize"] >= n.prefixlen for n in nets)
    elif kind == "ENIConfig":
        assert api == "crd.k8s.amazonaws.com/v1alpha1", api
        assert "namespace" not in doc["metadata"] and doc["metadata"]["name"]
        assert isinstance(spec["subnet"], str) and spec["subnet"]
        assert isinstance(spec["securityGroups"], list)
    elif kind == "ClusterConfiguration":
        assert api in ("kubeadm.k8s.io/v1beta2", "kubeadm.k8s.io/v1beta3", "kubeadm.k8s.io/v1beta4"), api
        fields = set(doc) - {"apiVersion", "kind"}
        assert fields and fields <= {"networking", "apiServer", "controllerManager"}, fields
        networking = doc.get("networking", {})
        subnets = [networking[k] for k in ("podSubnet", "serviceSubnet") if k in networking]
        assert subnets or "networking" not in doc, "networking sets neither podSubnet nor serviceSubnet"
        for value in subnets:
            one_per_family(value)
        # extraArgs: a list of {name, value} from v1beta4, a map before (kubeadm-config.v1beta4 migration list).
        for part in ("apiServer", "controllerManager"):
            args = doc.get(part, {}).get("extraArgs")
            if args is None:
                continue
            if api == "kubeadm.k8s.io/v1beta4":
                assert isinstance(args, list) and all(set(a) == {"name", "value"} for a in args), args
            else:
                assert isinstance(args, dict), args
    elif name == "aws-node-env.yaml":
        (container,) = spec["template"]["spec"]["containers"]
        env = {e["name"]: e["value"] for e in container["env"]}
        assert container["name"] == "aws-node"
        assert env["AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG"] == "true" and env["ENI_CONFIG_LABEL_DEF"]
    elif name.endswith("cluster-spec.yaml"):
        s = doc["spec"]
        # The cluster spec's CIDR fields are strings (kubernetes/kops pkg/apis/kops/v1alpha2, ClusterSpec:
        # NonMasqueradeCIDR, PodCIDR, ServiceClusterIPRange, NetworkCIDR string), never lists.
        for key in ("nonMasqueradeCIDR", "podCIDR", "serviceClusterIPRange", "networkCIDR"):
            if key in s:
                assert isinstance(s[key], str), f"{key} is {type(s[key]).__name__}, not a string"
                cidr(s[key])
        if "nonMasqueradeCIDR" in s and "podCIDR" in s:
            mask = cidr(s["nonMasqueradeCIDR"])
            assert cidr(s["podCIDR"]).subnet_of(mask), "podCIDR outside nonMasqueradeCIDR"
            if "networkCIDR" in s:
                assert not cidr(s["networkCIDR"]).overlaps(mask), "nonMasqueradeCIDR overlaps networkCIDR"
    elif name.startswith("cilium-values"):
        pool = (doc.get("ipam") or {}).get("operator", {}).get("clusterPoolIPv4PodCIDRList")
        if pool is not None:
            [cidr(c) for c in pool]


def check_file(path):
    text = body(path)
    name = os.path.basename(path)
    assert text.startswith("# cidrcheck plan: ") or name == "runbook.md", "no header comment"
    if name.endswith(".yaml"):
        check_yaml(path)
    elif name.endswith(".flags"):
        for m in re.finditer(r"^--cluster-cidr=(\S+)$", text, re.M):
            one_per_family(m.group(1))
    elif name.endswith(".tf"):
        assert text.count("{") == text.count("}"), "unbalanced braces"
        for m in re.finditer(r'(?:cidr_block|ip_cidr_range)\s*=\s*"([^"]+)"', text):
            cidr(m.group(1))
        for m in re.finditer(r"address_space\s*=\s*\[([^\]]*)\]", text):
            [cidr(v.strip().strip('"')) for v in m.group(1).split(",")]


def main():
    cli, root, scratch, area = sys.argv[1:5]
    update = os.environ.get("CIDRCHECK_UPDATE_GOLDEN") == "1"
    passed = failed = 0
    fixtures = sorted(glob.glob(os.path.join(root, "tests/fixtures/fleets/runbook", area + "-*.yaml")))
    if not fixtures:
        print(f"no fixtures for area {area}")
        return 1
    for fixture in fixtures:
        name = os.path.splitext(os.path.basename(fixture))[0]
        out = os.path.join(scratch, name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(scratch, exist_ok=True)
        rel = os.path.relpath(fixture, root)
        run = subprocess.run([cli, "plan", rel, "--emit", out], cwd=root, capture_output=True, text=True)
        expected = os.path.join(root, "tests/cli/runbooks", name)
        problems = []
        if run.returncode != 0:
            problems.append(f"exit {run.returncode}: {run.stderr.strip()}")
        else:
            for path in sorted(glob.glob(os.path.join(out, "**", "*"), recursive=True)):
                if os.path.isfile(path):
                    try:
                        check_file(path)
                    except Exception as e:  # noqa: BLE001 - every failed check is reported
                        problems.append(f"{os.path.relpath(path, out)}: {type(e).__name__}: {e}")
            if update:
                shutil.rmtree(expected, ignore_errors=True)
                shutil.copytree(out, expected)
            else:
                problems += compare(out, expected)
        if problems:
            failed += 1
            print(f"FAIL {name}")
            for p in problems:
                print(f"  {p}")
        else:
            passed += 1
            print(f"ok   {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def compare(out, expected):
    if not os.path.isdir(expected):
        return [f"no expected folder {expected} (run with CIDRCHECK_UPDATE_GOLDEN=1)"]
    got = {os.path.relpath(p, out) for p in glob.glob(os.path.join(out, "**", "*"), recursive=True) if os.path.isfile(p)}
    want = {os.path.relpath(p, expected) for p in glob.glob(os.path.join(expected, "**", "*"), recursive=True)
            if os.path.isfile(p)}
    problems = [f"missing {p}" for p in sorted(want - got)] + [f"unexpected {p}" for p in sorted(got - want)]
    for p in sorted(got & want):
        if not filecmp.cmp(os.path.join(out, p), os.path.join(expected, p), shallow=False):
            problems.append(f"differs: {p}")
    return problems


if __name__ == "__main__":
    sys.exit(main())
