"""Issue 17: the registry of diagnostic codes, as Python sees it. Every code that
the CLI's JSON report and the Python package emit, over every fleet and import
the golden tests and examples read, is registered, with the registry's meaning."""

import json
import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

import cidrcheck
from cidrcheck import Fleet, FleetLoadError

ROOT = Path(__file__).resolve().parents[3]
CLI = os.environ.get("CIDRCHECK_CLI")
READABLE = (".yaml", ".yml", ".json", ".hujson")
OPTION_FILES = ("--config", "--baseline", "-o", "--output")  # options whose value is a file, not a source


def source_groups():
    """Returns the sources each golden CLI case reads (fleet files and KIND:FILE
    imports), and each example and fleet fixture alone."""
    groups = []
    for case in sorted((ROOT / "tests/cli/cases").glob("*.cmd")):
        args = shlex.split(case.read_text())
        sources = []
        for before, arg in zip([""] + args, args):
            if before in OPTION_FILES or arg.startswith("-"):
                continue
            path = arg.split(":", 1)[1] if re.match(r"^[a-z][a-z0-9-]*(=[^:]+)?:", arg) else arg
            if path.endswith(READABLE) and (ROOT / path).is_file():
                sources.append(arg)
        if sources:
            groups.append(tuple(sources))
    for pattern in ("data/examples/*.yaml", "tests/fixtures/fleets/**/*.yaml", "tests/fixtures/routes/*.yaml"):
        groups += [(str(p.relative_to(ROOT)),) for p in sorted(ROOT.glob(pattern))]
    return sorted(set(groups))


GROUPS = source_groups()


def codes_of(diagnostics):
    for d in diagnostics:
        yield d["code"]
        yield from codes_of(d.get("notes", []))


def python_diagnostics(sources):
    try:
        return Fleet.load(*[ROOT / s if ":" not in s else s for s in sources]).diagnostics
    except FleetLoadError as e:
        return e.diagnostics


def test_the_registry_is_the_documented_table():
    codes = cidrcheck.diagnostic_codes()
    lines = (ROOT / "docs/cli.md").read_text().splitlines()
    start = lines.index("### Diagnostic codes")
    documented = {}
    for line in lines[start + 1:]:
        if line.startswith("#"):
            break
        m = re.match(r"^\| `([a-z-]+)` \| (.*) \|$", line)
        if m:
            documented[m.group(1)] = m.group(2)
    assert len(codes) >= 30
    assert list(codes) == sorted(codes)
    assert set(codes) == set(documented)
    assert all(meaning for meaning in codes.values())


def test_every_code_python_emits_is_registered_with_its_meaning():
    registered = cidrcheck.diagnostic_codes()
    seen = set()
    for sources in GROUPS:
        for d in python_diagnostics(sources):
            seen.add(d["code"])
            assert d["code"] in registered, (sources, d)
            assert d["meaning"] == registered[d["code"]]
            for note in d["notes"]:
                assert note["code"] == "" or note["code"] in registered, (sources, note)
    # The inputs reach a fair share of the registry, so the test can fail.
    assert len(seen) >= 10, seen


def test_every_code_a_plan_reports_is_registered_with_its_meaning():
    registered = cidrcheck.diagnostic_codes()
    seen = set()
    for path in sorted((ROOT / "tests/fixtures/fleets/plan").glob("*.yaml")):
        try:
            fleet = Fleet.load(path)
        except cidrcheck.FleetLoadError as e:  # a fixture of bad settings: its load errors are codes too
            diagnostics = e.diagnostics
        else:
            diagnostics = fleet.plan(pin="nobody-at-all").diagnostics  # a pin that matches nothing
        for d in diagnostics:
            seen.add(d["code"])
            assert d["code"] in registered and d["meaning"] == registered[d["code"]], (path, d)
    assert "unused-pin" in seen


def test_every_code_the_json_report_emits_is_registered():
    if not CLI:
        pytest.skip("CIDRCHECK_CLI is not set (CTest sets it to the built cidrcheck)")
    registered = cidrcheck.diagnostic_codes()
    seen = set()
    for sources in GROUPS:
        run = subprocess.run([CLI, "check", "--format", "json", "--fail-on", "never", "--no-config", *sources],
                             capture_output=True, text=True, cwd=ROOT)
        assert run.returncode in (0, 2), (sources, run.stderr)
        # Input that cannot be loaded (exit 2) still gets a report, its errors in "diagnostics".
        for code in codes_of(json.loads(run.stdout).get("diagnostics", [])):
            seen.add(code)
            assert code == "" or code in registered, (sources, code)
    assert len(seen) >= 5, seen


def test_a_diagnostic_carries_its_meaning():
    with pytest.raises(FleetLoadError) as caught:
        Fleet.from_text("version: 1\nclusters:\n  - name: a\n    pods: 10.0.0.1/16\n")
    [d] = [d for d in caught.value.diagnostics if d["severity"] == "error"]
    assert d["code"] == "invalid-cidr"
    assert d["meaning"] == cidrcheck.diagnostic_codes()["invalid-cidr"]
