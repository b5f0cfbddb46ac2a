#!/usr/bin/env python3
"""parity.fleets (and parity.configured, parity.diff_rev): one run, three front ends.

fleets: every example fleet (data/examples) and every fleet source the golden
CLI tests read (tests/cli/cases/*.cmd: fleet files, and KIND:FILE exports),
without a configuration and with tests/fixtures/config/settings.yaml (rule
settings, reserved ranges, suppressions, fail-on), through

  - the CLI's JSON reports (`cidrcheck check --format json`, `cidrcheck plan --format json`),
  - the Python package (Fleet.load(...).check(config=...), .plan(config=...)),
  - the C++ API (tests/analysis/parity_dump.cpp: analyse_run(), plan_run()),

requires the same records: every finding and suppressed finding (Finding.record(),
Suppressed.record() against the report's objects), whether CI fails, and the
whole plan (Plan.record() against `plan --format json`, each runbook's
simulation verdict included, which every runbook must carry). A source one front end
cannot read, all must refuse.

configured: in a scratch git repository whose .cidrcheck.yaml lists named
sources (KIND=NAME:FILE) under `inputs:`, with no flag at all, once as found
upward from a subdirectory and once named by CIDRCHECK_CONFIG: the CLI, Python's
cidrcheck.check() and cidrcheck.plan(), and the C++ run find the same fleet
(owners named as the sources name them) and the same records.

diff_rev: in that repository, `cidrcheck diff --rev HEAD` after a commit of
the named sources and an edit reports exactly the findings the edit adds and
removes: the fingerprints check finds after the edit and not before, and the
other way round (no spurious removal of clusters renamed after their files).

Usage: parity_test.py ROOT CIDRCHECK PARITY_DUMP SCRATCH [GROUP]   (PYTHONPATH: the built package)
"""

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT, CLI, DUMP, SCRATCH = Path(sys.argv[1]), sys.argv[2], sys.argv[3], Path(sys.argv[4])
GROUP = sys.argv[5] if len(sys.argv) > 5 else "fleets"

import cidrcheck  # noqa: E402  (PYTHONPATH is the build tree's)
from cidrcheck import Config, Fleet, FleetLoadError  # noqa: E402

CONFIGS = [None, "tests/fixtures/config/settings.yaml"]
KINDS = ("aks", "aws-eks", "aws-vpc", "aws-vpcs", "gcp-subnets", "gke", "kops", "kubeadm", "kubectl", "tailscale",
         "terraform")


def sources() -> list[str]:
    found = {str(p.relative_to(ROOT)) for p in (ROOT / "data" / "examples").glob("*.yaml")}
    for cmd in sorted((ROOT / "tests" / "cli" / "cases").glob("*.cmd")):
        for word in shlex.split(cmd.read_text()):
            kind, _, path = word.partition(":")
            if path and kind in KINDS and (ROOT / path).is_file():
                found.add(word)
            elif (word.startswith("tests/fixtures/fleets/") or word.startswith("tests/fixtures/diff/")
                  or word.startswith("tests/fixtures/import/") or word.startswith("data/examples/")) \
                    and word.endswith((".yaml", ".yml", ".json")) and (ROOT / word).is_file():
                found.add(word)
    return sorted(found)


def config_args(config):
    return ["--no-config"] if config is None else ["--config", config]


def run(args, cwd=ROOT, env=None):
    return subprocess.run(args, capture_output=True, text=True, cwd=cwd, env=env)


def cli_side(args, cwd=ROOT, env=None):
    check = run([CLI, "check", "--format", "json", *args], cwd, env)
    if check.returncode == 2:
        return None
    assert check.returncode in (0, 1), check.stderr
    report = json.loads(check.stdout)
    plan = run([CLI, "plan", "--format", "json", *args], cwd, env)
    assert plan.returncode in (0, 1), plan.stderr
    return {
        "owners": None,
        "findings": report["findings"],
        "suppressed": report["suppressed"],
        "fails": check.returncode == 1,
        "plan": json.loads(plan.stdout),
    }


def python_report(report, plan, fleet):
    return {
        "owners": [o["name"] for o in fleet.owners()] if fleet is not None else None,
        "findings": report.records(),
        "suppressed": [s.record() for s in report.suppressed],
        "fails": report.fails,
        "plan": plan.record(),
    }


def python_side(source, config):
    try:
        fleet = Fleet.load(source)
    except FleetLoadError:
        return None
    cfg = None if config is None else Config.load(config)  # relative, as the CLI is given it: the same file names
    return python_report(fleet.check(config=cfg), fleet.plan(config=cfg), None)


def cpp_side(args, cwd=ROOT, env=None, owners=False):
    dump = run([DUMP, *args], cwd, env)
    if dump.returncode == 2:
        return None
    assert dump.returncode == 0, dump.stderr
    data = json.loads(dump.stdout)
    return {"owners": data["owners"] if owners else None, "findings": data["findings"],
            "suppressed": data["suppressed"], "fails": data["fails"], "plan": data["plan"]}


def differences(name, sides, reference="cli"):
    out = []
    for other, value in sides.items():
        if other == reference or value == sides[reference]:
            continue
        if value is None or sides[reference] is None:
            out.append(f"{name}: {other} and {reference} disagree on whether the input can be read")
            continue
        for key in value:
            if value[key] != sides[reference][key] and value[key] is not None and sides[reference][key] is not None:
                out.append(f"{name}: {other} differs from {reference} in {key}:\n  {reference}: "
                           f"{json.dumps(sides[reference][key])[:600]}\n  {other}: {json.dumps(value[key])[:600]}")
    return out


def test_fleets() -> int:
    failures, compared, refused = [], 0, 0
    findings = suppressed = changes = simulated = 0
    for source in sources():
        for config in CONFIGS:
            args = [*config_args(config), source]
            sides = {"cli": cli_side(args), "python": python_side(source, config), "c++": cpp_side(args)}
            name = f"{source} ({'no configuration' if config is None else config})"
            if all(v is None for v in sides.values()):
                refused += 1
                continue
            compared += 1
            if sides["cli"] is not None:
                findings += len(sides["cli"]["findings"])
                suppressed += len(sides["cli"]["suppressed"])
                changes += len(sides["cli"]["plan"]["changes"])
                # Every runbook of the plan carries the simulation's verdict, which the sides compare too.
                plan = sides["cli"]["plan"]
                runbooks = plan["operations"] + [c for c in plan["changes"] if c["operation"] is None]
                simulated += sum(r["simulation"] is not None for r in runbooks)
                if unsimulated := [r for r in runbooks if r["simulation"] is None]:
                    failures.append(f"{name}: {len(unsimulated)} runbooks of the plan carry no simulation")
            failures += differences(name, sides)
    print(f"{compared} runs compared ({findings} findings, {suppressed} suppressed, {changes} plan changes, "
          f"{simulated} runbook simulations), {refused} refused by all three front ends, {len(failures)} differ")
    for f in failures:
        print(f)
    if compared < 20 or findings < 100 or suppressed == 0 or changes == 0 or simulated == 0:
        print("too little compared: the fleet list is broken")
        return 1
    return 1 if failures else 0


# --- a repository with a configuration and named sources ------------------------------

FLEET = """clusters:
  - name: prod-eu
    distribution: kubeadm
    pods: 10.244.0.0/16
  - name: prod-us
    distribution: kubeadm
    pods: 10.42.0.0/16
connections:
  - name: mesh
    between: [prod-eu, prod-us, edge]
    via: mesh
    routes: [pods, services]
"""

CONFIG = """version: 1
inputs: [fleets/fleet.yaml, kubectl=edge:exports/nodes.yaml]
fail-on: warning
rules:
  well-known-default: off
suppressions:
  - rule: overlap
    entities: [prod-eu/services, prod-us/services]
    reason: filtered at the mesh gateway
"""


def git(repo, *args):
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=repo,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def make_repository() -> Path:
    repo = SCRATCH / "repo"
    shutil.rmtree(SCRATCH, ignore_errors=True)
    (repo / "fleets").mkdir(parents=True)
    (repo / "exports").mkdir()
    (repo / "sub" / "dir").mkdir(parents=True)
    (repo / "fleets" / "fleet.yaml").write_text(FLEET)
    shutil.copy(ROOT / "tests/fixtures/import/kubectl/one-node.yaml", repo / "exports" / "nodes.yaml")
    (repo / ".cidrcheck.yaml").write_text(CONFIG)
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "fleet")
    return repo


def python_run(cwd, env):
    """cidrcheck.check() and cidrcheck.plan() as a program in cwd with env sees them."""
    saved_cwd, saved_env = os.getcwd(), dict(os.environ)
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    try:
        report, plan = cidrcheck.check(), cidrcheck.plan()
        return python_report(report, plan, report.fleet)
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def test_configured() -> int:
    repo = make_repository()
    failures = []
    # The configuration moves out of the repository's root and CIDRCHECK_CONFIG names it; its inputs stay
    # relative to it, so it sits beside them.
    plain = {k: v for k, v in os.environ.items() if k != "CIDRCHECK_CONFIG"}
    named_dir = repo / "ci"
    named_dir.mkdir()
    (named_dir / "checks.yaml").write_text(CONFIG.replace("fleets/", "../fleets/").replace("exports/", "../exports/"))
    runs = {
        "found upward": (repo / "sub" / "dir", plain),
        "CIDRCHECK_CONFIG": (repo / "sub", {**plain, "CIDRCHECK_CONFIG": str(named_dir / "checks.yaml")}),
    }
    for name, (cwd, env) in runs.items():
        sides = {"cli": cli_side([], cwd, env), "python": python_run(cwd, env), "c++": cpp_side([], cwd, env, True)}
        if any(v is None for v in sides.values()):
            failures.append(f"{name}: a front end could not run: {[k for k, v in sides.items() if v is None]}")
            continue
        owners = sides["c++"]["owners"]
        if "edge" not in owners or "nodes" in owners:
            failures.append(f"{name}: the named source lost its name: owners {owners}")
        if not sides["cli"]["suppressed"] or not sides["cli"]["findings"]:
            failures.append(f"{name}: the configuration was not applied: {sides['cli']}")
        sides["cli"]["owners"] = owners  # the CLI's fleet is the one its findings name
        failures += differences(name, sides, reference="c++")
    print(f"{len(runs)} configured runs compared, {len(failures)} differences")
    for f in failures:
        print(f)
    return 1 if failures else 0


def fingerprints(cwd, env):
    check = run([CLI, "check", "--format", "json", "--min-severity", "note"], cwd, env)
    assert check.returncode in (0, 1), check.stderr
    return {x["fingerprint"] for x in json.loads(check.stdout)["findings"]}


def test_diff_rev() -> int:
    repo = make_repository()
    env = {k: v for k, v in os.environ.items() if k != "CIDRCHECK_CONFIG"}
    before = fingerprints(repo, env)
    # The edit: the named export's node leaves prod-us's pods for prod-eu's.
    nodes = repo / "exports" / "nodes.yaml"
    nodes.write_text(nodes.read_text().replace("10.42.0.0/24", "10.244.7.0/24"))
    after = fingerprints(repo, env)
    diff = run([CLI, "diff", "--rev", "HEAD", "--format", "json", "--min-severity", "note"], repo, env)
    failures = []
    if diff.returncode not in (0, 1):
        failures.append(f"diff --rev exited {diff.returncode}: {diff.stderr}")
    else:
        report = json.loads(diff.stdout)
        added = {x["fingerprint"] for x in report["findings"]}
        removed = {x["fingerprint"] for x in report["removed"]}
        if added != after - before:
            failures.append(f"diff --rev adds {sorted(added)}, the edit adds {sorted(after - before)}")
        if removed != before - after:
            failures.append(f"diff --rev removes {sorted(removed)}, the edit removes {sorted(before - after)}")
        if not added or not removed:
            failures.append(f"the edit should add and remove findings: +{len(added)} -{len(removed)}")
    print(f"diff --rev: {len(after - before)} added, {len(before - after)} removed; {len(failures)} problems")
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    os.chdir(ROOT)  # Python resolves a relative path against its working directory
    sys.exit({"fleets": test_fleets, "configured": test_configured, "diff_rev": test_diff_rev}[GROUP]())
