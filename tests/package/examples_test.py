#!/usr/bin/env python3
"""package.examples_configured: the C++ guide's programs give the CLI's results
where a configuration applies.

docs/examples/cpp/fleet_check.cpp and fleet_report.cpp, built against the
installed package (package.find_package builds them), run with no argument in
a scratch git repository whose .cidrcheck.yaml lists the fleet under `inputs:`
(a named KIND=NAME:FILE source among them), reserves a block and suppresses an
overlap; once found upward from a subdirectory, once named by
CIDRCHECK_CONFIG. Each must print what `cidrcheck check --format json` and
`cidrcheck plan --format json` report there: the same findings in the same
order, the same number suppressed, the same moves with the steps that carry
them out, and the same exit code.

Usage: examples_test.py ROOT CIDRCHECK EXAMPLES_BUILD SCRATCH
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT, CLI, EXAMPLES, SCRATCH = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])

CONFIG = """version: 1
inputs: [{fleet}, kubectl=edge:{nodes}]
reserved:
  - cidr: 10.21.0.0/16
    name: the transit network
suppressions:
  - rule: overlap
    entities: [prod-us/services, prod-ap/services]
    reason: filtered at the mesh gateway
"""


def run(args, cwd, env):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=cwd, env=env)


def main() -> int:
    shutil.rmtree(SCRATCH, ignore_errors=True)
    repo = SCRATCH / "repo"
    (repo / "fleets").mkdir(parents=True)
    (repo / ".git").mkdir()
    (repo / "sub" / "dir").mkdir(parents=True)
    shutil.copy(ROOT / "data/examples/mesh-shared-services.yaml", repo / "fleets" / "mesh.yaml")
    shutil.copy(ROOT / "tests/fixtures/import/kubectl/one-node.yaml", repo / "fleets" / "nodes.yaml")
    (repo / ".cidrcheck.yaml").write_text(CONFIG.format(fleet="fleets/mesh.yaml", nodes="fleets/nodes.yaml"))
    (repo / "ci").mkdir()
    (repo / "ci" / "checks.yaml").write_text(CONFIG.format(fleet="../fleets/mesh.yaml", nodes="../fleets/nodes.yaml"))
    plain = {k: v for k, v in os.environ.items() if k != "CIDRCHECK_CONFIG"}
    places = {
        "found upward": (repo / "sub" / "dir", plain),
        "CIDRCHECK_CONFIG": (repo / "sub", {**plain, "CIDRCHECK_CONFIG": str(repo / "ci" / "checks.yaml")}),
    }
    failures = []
    for name, (cwd, env) in places.items():
        check = run([CLI, "check", "--format", "json"], cwd, env)
        plan = run([CLI, "plan", "--format", "json"], cwd, env)
        fleet_check = run([EXAMPLES / "fleet-check"], cwd, env)
        fleet_report = run([EXAMPLES / "fleet-report"], cwd, env)
        report, planned = json.loads(check.stdout), json.loads(plan.stdout)
        if not report["suppressed"] or not planned["changes"]:
            failures.append(f"{name}: the configuration did not apply: {check.stderr} {plan.stderr}")
            continue
        expected = [f"{x['severity']}[{x['rule']}] {x['fingerprint'][:12]} {x['message']}" for x in report["findings"]]
        expected.append(f"{len(report['suppressed'])} suppressed")
        if fleet_check.stdout.splitlines() != expected or fleet_check.returncode != check.returncode:
            failures.append(f"{name}: fleet-check (exit {fleet_check.returncode}) differs from cidrcheck check "
                            f"(exit {check.returncode}):\n{fleet_check.stdout}{fleet_check.stderr}\nexpected:\n"
                            + "\n".join(expected))
        moves = []
        for c in planned["changes"]:
            steps = planned["operations"][c["operation"]]["steps"] if c["operation"] is not None else c["steps"]
            moves.append((c["owner"], c["from"] or "(new)", c["to"], len(steps)))
        got = []
        for line in fleet_report.stdout.splitlines():
            if line.startswith("move "):
                owner_role, _, rest = line[5:].partition(": ")
                old, _, rest = rest.partition(" -> ")
                new, _, rest = rest.partition(" (")
                got.append((owner_role.split(" ")[0], old if old != "<invalid>" else "(new)", new,
                            int(rest.rsplit(", ", 1)[1].split(" ")[0])))
        errors = sum(1 for x in report["findings"] if x["severity"] == "error")
        error_lines = [line for line in fleet_report.stdout.splitlines()
                       if not line.startswith("move ") and not line.endswith(" suppressed")]
        plan_exit = 0 if planned["summary"]["complete"] else 1
        if got != moves or fleet_report.returncode != plan_exit or len(error_lines) != errors:
            failures.append(f"{name}: fleet-report (exit {fleet_report.returncode}) differs from cidrcheck plan "
                            f"(exit {plan.returncode}): moves {got} against {moves}; {len(error_lines)} error lines "
                            f"against {errors} errors\n{fleet_report.stdout}{fleet_report.stderr}")
        if not any(n > 0 for *_, n in got):
            failures.append(f"{name}: no move has steps: {got}")
    for f in failures:
        print(f)
    print(f"{len(places)} places, {len(failures)} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
