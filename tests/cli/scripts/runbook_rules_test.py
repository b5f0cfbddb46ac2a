#!/usr/bin/python3
"""The rules every runbook follows (issue 14), checked mechanically through the
command line on every fleet the repository has (fixtures, examples) and on a
generated matrix of two conflicting clusters for every distribution, Kubernetes
version and CNI that changes a runbook's branch:

- ordering: a step needs only states that an earlier step of the same runbook
  makes (its "needs" and "makes" in `plan --format json`);
- facts: every step's facts carry an id, a source and a status;
- files: `plan --emit` writes one folder per runbook, each with runbook.md and
  every file its steps name (a fallback runbook, FOLDER/runbook.md, with the
  files its own runbook.md links in its folder), each of those starting with the comment that names
  the operation and the step; every YAML file parses, every Kubernetes object in
  it has apiVersion, kind and (unless it is component configuration, such as
  kubeadm's) metadata.name, and every value under a key that names a CIDR is one.

The fleets are planned by a pool of os.cpu_count() processes; the report lists
failures in fleet order whatever the order the workers finish in. With
`--sample K` (the sanitizer build, where each plan is ~40 times slower) only the
matrix fleets whose dimension indexes sum to a multiple of K are planned: every
pair of values of two dimensions (distribution and version, version and CNI, ...)
still occurs, which the script checks, so no branch pair goes untested; the
full matrix runs in the other presets.

usage: runbook_rules_test.py [--sample K] CIDRCHECK REPO SCRATCH
"""

import argparse
import ipaddress
import itertools
import json
import multiprocessing
import os
import re
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


DIMENSIONS = (DISTRIBUTIONS, VERSIONS, CNIS, list(SHARED))


def matrix_points(sample=1):
    """The index tuples (distribution, version, CNI, shared range) of the matrix;
    with sample K only those whose indexes sum to 0 mod K."""
    return [p for p in itertools.product(*(range(len(d)) for d in DIMENSIONS)) if sum(p) % sample == 0]


def uncovered_pairs(points):
    """The pairs of values of two dimensions that no point holds, as text."""
    out = []
    for a, b in itertools.combinations(range(len(DIMENSIONS)), 2):
        seen = {(p[a], p[b]) for p in points}
        for i, j in itertools.product(range(len(DIMENSIONS[a])), range(len(DIMENSIONS[b]))):
            if (i, j) not in seen:
                out.append(f"{DIMENSIONS[a][i]} with {DIMENSIONS[b][j]}")
    return out


def matrix_fleet(point):
    """(file name, text) of the two-cluster fleet at a matrix point."""
    dist, version, cni = DISTRIBUTIONS[point[0]], VERSIONS[point[1]], CNIS[point[2]]
    what = list(SHARED)[point[3]]
    shape = SHARED[what]
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
    return f"{dist}-{version or 'any'}-{cni or 'none'}-{what}.yaml", "\n".join(lines) + "\n"


def is_cidr_key(key):
    k = str(key).lower()
    return k in ("cidr", "cidrs", "subnet", "podcidr", "servicecidr") or k.endswith("cidr") or k.endswith("cidrs")


def check_cidrs(node, where, failures):
    if isinstance(node, dict):
        for key, value in node.items():
            if is_cidr_key(key) and isinstance(value, (str, list)):
                for v in value if isinstance(value, list) else [value]:
                    if not isinstance(v, str) or "/" not in v or v.startswith("<"):
                        continue  # a name (an ENIConfig's subnet id) or a placeholder ("<id of the subnet ...>")
                    try:
                        ipaddress.ip_network(v, strict=True)
                    except ValueError as e:
                        failures.append(f"{where}: {key}: {v!r} is not a CIDR ({e})")
            check_cidrs(value, where, failures)
    elif isinstance(node, list):
        for item in node:
            check_cidrs(item, where, failures)


def runbooks_of(plan):
    """(title, steps) of every runbook, in the order `plan --emit` writes folders: operations that
    share one maintenance (`merged_with` an earlier operation) have the earlier one's runbook."""
    out = [(op["kind"], op["steps"]) for k, op in enumerate(plan["operations"])
           if not any(j < k for j in op["merged_with"])]
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
        # A fallback runbook (FOLDER/runbook.md, named by the step that sends the operator there) names
        # its own files in its "Applies:" lines; they sit in its folder.
        for fallback in [n for n in named if n.endswith("/runbook.md")]:
            sub = fallback[: -len("runbook.md")]
            text = (folder / fallback).read_text() if (folder / fallback).is_file() else ""
            linked = {sub + m for m in re.findall(r"\]\(([^)/]+)\)", "".join(
                line for line in text.splitlines(True) if line.strip().startswith("Applies:")))}
            held = {p for p in present if p.startswith(sub) and p != fallback}
            if linked != held:
                failures.append(f"{folder / sub}: its runbook names {sorted(linked)}, the folder holds {sorted(held)}")
            present -= held
        if named != present:
            failures.append(f"{folder}: steps name {sorted(named)}, the folder holds {sorted(present)}")
        # Every file but the runbooks, the fallbacks' too: the header comment, YAML, objects and CIDRs.
        for name in sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()):
            if name == "runbook.md" or name.endswith("/runbook.md"):
                continue
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


def check_one(job):
    """check_fleet in a worker: (planned, failures) of one fleet."""
    cli, path, scratch = job
    failures = []
    planned = check_fleet(cli, path, scratch, failures)
    return planned, failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=1)
    parser.add_argument("cli")
    parser.add_argument("repo", type=Path)
    parser.add_argument("scratch", type=Path)
    args = parser.parse_args()
    shutil.rmtree(args.scratch, ignore_errors=True)
    (args.scratch / "matrix").mkdir(parents=True)
    points = matrix_points(args.sample)
    gaps = uncovered_pairs(points)
    if gaps:
        print(f"FAIL: --sample {args.sample} leaves pairs of the matrix untested: {', '.join(gaps)}")
        return 1
    fleets = sorted((args.repo / "tests/fixtures/fleets").rglob("*.yaml")) + sorted((args.repo / "data/examples").glob("*.yaml"))
    matrix = []
    for point in points:
        name, text = matrix_fleet(point)
        path = args.scratch / "matrix" / name
        path.write_text(text)
        matrix.append(path)
    jobs = [(args.cli, path, args.scratch / "out") for path in fleets + matrix]
    # map() returns results in the order of jobs, so the report does not depend on scheduling.
    with multiprocessing.Pool(os.cpu_count()) as pool:
        results = pool.map(check_one, jobs, chunksize=4)
    failures = [f for _, fs in results for f in fs]
    checked = sum(planned for planned, _ in results)
    matrix_planned = sum(planned for planned, _ in results[len(fleets):])
    for f in failures:
        print("FAIL", f)
    print(f"runbook rules: {checked} fleets planned ({matrix_planned} of them from the matrix, sample 1/{args.sample}), "
          f"{len(failures)} failures")
    if matrix_planned != len(matrix):
        print(f"FAIL: only {matrix_planned} of the {len(matrix)} matrix fleets were planned")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
