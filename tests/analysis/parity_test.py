#!/usr/bin/env python3
"""parity.fleets: one analysis, three front ends.

Runs every example fleet (data/examples) and every fleet source the golden CLI
tests read (tests/cli/cases/*.cmd: fleet files, and KIND:FILE exports), without
a configuration and with tests/fixtures/config/settings.yaml (rule settings,
reserved ranges, suppressions), through

  - the CLI's JSON reports (`cidrcheck check --format json`, `cidrcheck plan --format json`),
  - the Python package (Fleet.load(...).check(config=...), .plan(config=...)),
  - the C++ API (tests/analysis/parity_dump.cpp: analyse_run(), plan_options_for(), plan()),

and requires the same findings (rule, severity, message, fingerprint), the
same suppressed findings, and the same plan (owner, from, to, cost, origin;
complete, total cost). A source one front end cannot read, all must refuse.

Usage: parity_test.py ROOT CIDRCHECK PARITY_DUMP   (PYTHONPATH: the built package)
"""

import json
import shlex
import subprocess
import sys
from pathlib import Path

ROOT, CLI, DUMP = Path(sys.argv[1]), sys.argv[2], sys.argv[3]

from cidrcheck import Config, Fleet, FleetLoadError  # noqa: E402  (PYTHONPATH is the build tree's)

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


def run(args):
    return subprocess.run(args, capture_output=True, text=True, cwd=ROOT)


def key(rule, severity, message, fingerprint):
    return (rule, severity, message, fingerprint)


def cli_side(source, config):
    check = run([CLI, "check", "--format", "json", "--min-severity", "note", "--fail-on", "never",
                 *config_args(config), source])
    if check.returncode == 2:
        return None
    assert check.returncode == 0, check.stderr
    report = json.loads(check.stdout)
    plan = run([CLI, "plan", "--format", "json", *config_args(config), source])
    assert plan.returncode in (0, 1), plan.stderr
    planned = json.loads(plan.stdout)
    return {
        "findings": [key(x["rule"], x["severity"], x["message"], x["fingerprint"]) for x in report["findings"]],
        "suppressed": [key(x["rule"], x["severity"], x["message"], x["fingerprint"]) for x in report["suppressed"]],
        "plan": (planned["summary"]["complete"], planned["summary"]["total_cost"],
                 [(c["owner"], c["from"], c["to"], c["cost"], c.get("origin")) for c in planned["changes"]]),
    }


def python_side(source, config):
    try:
        fleet = Fleet.load(source)
    except FleetLoadError:
        return None
    cfg = None if config is None else Config.load(ROOT / config)
    report = fleet.check(config=cfg)
    plan = fleet.plan(config=cfg)
    return {
        "findings": [key(x.rule, x.severity, x.message, x.fingerprint) for x in report],
        "suppressed": [key(s.finding.rule, s.finding.severity, s.finding.message, s.finding.fingerprint)
                       for s in report.suppressed],
        "plan": (plan.complete, plan.total_cost,
                 [(c.owner, None if c.old is None else str(c.old), str(c.new), c.cost,
                   None if c.origin == "new" else c.origin) for c in plan.changes]),
    }


def cpp_side(source, config):
    dump = run([DUMP, *config_args(config), source])
    if dump.returncode == 2:
        return None
    assert dump.returncode == 0, dump.stderr
    data = json.loads(dump.stdout)
    return {
        "findings": [key(x["rule"], x["severity"], x["message"], x["fingerprint"]) for x in data["findings"]],
        "suppressed": [key(x["rule"], x["severity"], x["message"], x["fingerprint"]) for x in data["suppressed"]],
        "plan": (data["plan"]["complete"], data["plan"]["total_cost"],
                 [(c["owner"], c["from"], c["to"], c["cost"], c["origin"]) for c in data["plan"]["changes"]]),
    }


def main() -> int:
    failures, compared, refused = [], 0, 0
    findings = suppressed = changes = 0
    for source in sources():
        # Python resolves a relative path against its working directory: run from ROOT.
        for config in CONFIGS:
            sides = {"cli": cli_side(source, config), "python": python_side(source, config),
                     "c++": cpp_side(source, config)}
            name = f"{source} ({'no configuration' if config is None else config})"
            if all(v is None for v in sides.values()):
                refused += 1
                continue
            compared += 1
            if sides["cli"] is not None:
                findings += len(sides["cli"]["findings"])
                suppressed += len(sides["cli"]["suppressed"])
                changes += len(sides["cli"]["plan"][2])
            for other in ("python", "c++"):
                if sides[other] != sides["cli"]:
                    failures.append(f"{name}: {other} differs from the CLI:\n  cli:   {sides['cli']}\n"
                                    f"  {other}: {sides[other]}")
    print(f"{compared} runs compared ({findings} findings, {suppressed} suppressed, {changes} plan changes), "
          f"{refused} refused by all three front ends, {len(failures)} differ")
    for f in failures:
        print(f)
    if compared < 20 or findings < 100 or suppressed == 0 or changes == 0:
        print("too little compared: the fleet list is broken")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    import os
    os.chdir(ROOT)
    sys.exit(main())
