#!/usr/bin/python3
"""The rules every runbook follows (issue 14), checked mechanically through the
command line on every fleet the repository has (fixtures, examples) and on a
generated matrix of two conflicting clusters for every distribution, Kubernetes
version and CNI that changes a runbook's branch:

- ordering: a step needs only states that an earlier step of the same runbook
  makes (its "needs" and "makes" in `plan --format json`);
- facts: every step's facts carry an id, a source and a status;
- files: `plan --emit` writes one folder per runbook, each with runbook.md and
  every file its steps name, each of those starting with the comment that names
  the operation and the step; every YAML file parses, every Kubernetes object in
  it has apiVersion, kind and (unless it is component configuration, such as
  kubeadm's) metadata.name, and every value under a key that names a CIDR is one.

usage: runbook_rules_test.py CIDRCHECK REPO SCRATCH
"""

import ipaddress
import json
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

DISTRIBUTIONS = ["kubeadm", "kops", "eks", "gke", "aks", "openshift", "k3s", "rke2", "generic"]
VERSIONS = [None, "1.26", "1.28", "1.29", "1.31", "1.33"]
CNIS = [None, "calico", "cilium", "flannel", "vpc-cni"]
# What two clusters share, so that the plan must move it: each gives a different operation.
SHARED = {
    "services": {"routes": "[services]", "a": {"services": "10.96.0.0/16"}, "b": {"services": "10.96.0.0/16"}},
    "pods": {"routes": "[pods]", "a": {"pods": "10.200.0.0/16"}, "b": {"pods": "10.200.0.0/16"}},
    "network": {"routes": "[network]", "a": {"network": "10.50.0.0/16"}, "b": {"network": "10.50.0.0/16"}},
}


def matrix_fleets():
    for dist in DISTRIBUTIONS:
        for version in VERSIONS:
            for cni in CNIS:
                for what, shape in SHARED.items():
                    lines = ["clusters:"]
                    for name, network, pods, services in (("a", "10.1.0.0/16", "10.2.0.0/16", "10.3.0.0/16"),
                                                          ("b", "10.11.0.0/16", "10.12.0.0/16", "10.13.0.0/16")):
                        ranges = {"network": network, "pods": pods, "services": services}
                        ranges.update(shape[name])
                        fields = [f"name: {name}", f"distribution: {dist}"]
                        if version:
                            fields.append(f'kubernetes: "{version}"')
                        if cni:
                            fields.append(f"cni: {cni}")
                        fields += [f"{k}: {v}" for k, v in ranges.items()]
                        lines.append("  - {" + ", ".join(fields) + "}")
                    lines += ["connections:", "  - {between: [a, b], routes: " + shape["routes"] + "}"]
                    yield f"{dist}-{version or 'any'}-{cni or 'none'}-{what}.yaml", "\n".join(lines) + "\n"


def is_cidr_key(key):
    k = str(key).lower()
    return k in ("cidr", "cidrs", "subnet", "podcidr", "servicecidr") or k.endswith("cidr") or k.endswith("cidrs")


def check_cidrs(node, where, failures):
    if isinstance(node, dict):
        for key, value in node.items():
            if is_cidr_key(key) and isinstance(value, (str, list)):
                for v in value if isinstance(value, list) else [value]:
                    if not isinstance(v, str) or "/" not in v:
                        continue  # a name (an ENIConfig's subnet id), not a CIDR
                    try:
                        ipaddress.ip_network(v, strict=True)
                    except ValueError as e:
                        failures.append(f"{where}: {key}: {v!r} is not a CIDR ({e})")
            check_cidrs(value, where, failures)
    elif isinstance(node, list):
        for item in node:
            check_cidrs(item, where, failures)


def runbooks_of(plan):
    """(title, steps) of every runbook, in the order `plan --emit` writes folders."""
    out = [(op["kind"], op["steps"]) for op in plan["operations"]]
    out += [("change", c["steps"]) for c in plan["changes"] if c.get("operation") is None]
    return out


def check_fleet(cli, path, scratch, failures):
    run = subprocess.run([cli, "plan", "--format", "json", str(path)], capture_output=True, text=True)
    if run.returncode == 2:
        return False  # a fleet that does not load (a fixture of bad input)
    if run.returncode not in (0, 1):
        failures.append(f"{path}: plan exited {run.returncode}: {run.stderr.strip()}")
        return True
    books = runbooks_of(json.loads(run.stdout))
    for title, steps in books:
        made = set()
        for n, step in enumerate(steps, 1):
            for need in step["needs"]:
                if need not in made:
                    failures.append(f"{path}: {title} step {n} needs '{need}', which no earlier step makes")
            made.update(step["makes"])
            for fact in step["relies_on"]:
                if not fact["id"] or not fact["source"] or not fact["status"]:
                    failures.append(f"{path}: {title} step {n}: a fact without id, source or status: {fact}")
    out = scratch / (path.stem + "-runbooks")
    run = subprocess.run([cli, "plan", "--emit", str(out), str(path)], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        failures.append(f"{path}: plan --emit exited {run.returncode}: {run.stderr.strip()}")
        return True
    folders = sorted(p for p in out.iterdir()) if out.exists() else []
    if len(folders) != len(books):
        failures.append(f"{path}: {len(folders)} folders for {len(books)} runbooks")
        return True
    for folder, (title, steps) in zip(folders, books):
        if not (folder / "runbook.md").is_file():
            failures.append(f"{folder}: no runbook.md")
        named = {name for step in steps for name in step["files"]}
        present = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} - {"runbook.md"}
        if named != present:
            failures.append(f"{folder}: steps name {sorted(named)}, the folder holds {sorted(present)}")
        for name in present:
            text = (folder / name).read_text()
            if not text.startswith("# cidrcheck plan: "):
                failures.append(f"{folder / name}: does not start with the comment naming its operation and step")
            if name.endswith((".yaml", ".yml")):
                try:
                    documents = [d for d in yaml.safe_load_all(text) if d is not None]
                except yaml.YAMLError as e:
                    failures.append(f"{folder / name}: not YAML: {e}")
                    continue
                for d in documents:
                    if isinstance(d, dict) and "apiVersion" in d:
                        if not d.get("kind"):
                            failures.append(f"{folder / name}: a Kubernetes object without kind")
                        # Component configuration (kubeadm's, the kubelet's) is no API object: it has no metadata.
                        group = str(d["apiVersion"]).split("/")[0]
                        config = group == "kubeadm.k8s.io" or group.endswith(".config.k8s.io")
                        if not config and not (d.get("metadata") or {}).get("name"):
                            failures.append(f"{folder / name}: a Kubernetes object without metadata.name")
                    check_cidrs(d, folder / name, failures)
    return True


def main():
    cli, repo, scratch = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    shutil.rmtree(scratch, ignore_errors=True)
    (scratch / "matrix").mkdir(parents=True)
    failures = []
    fleets = sorted((repo / "tests/fixtures/fleets").rglob("*.yaml")) + sorted((repo / "data/examples").glob("*.yaml"))
    for name, text in matrix_fleets():
        path = scratch / "matrix" / name
        path.write_text(text)
        fleets.append(path)
    checked = sum(check_fleet(cli, path, scratch / "out", failures) for path in fleets)
    for f in failures:
        print("FAIL", f)
    print(f"runbook rules: {checked} fleets planned, {len(failures)} failures")
    if checked < 500:
        print("FAIL: fewer fleets planned than the matrix alone holds")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
