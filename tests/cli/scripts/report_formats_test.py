#!/usr/bin/python3
"""Checks every report format against its schema or the shape its consumer
reads (docs/ci.md; ci-conventions section 9), on the example fleets and on
fleets generated here.

Usage: report_formats_test.py CIDRCHECK REPO SCRATCH GROUP
GROUP is one of the functions named test_* below, without the prefix. Exit 0
on success, 77 when the group cannot run here (CTest shows it as skipped).
"""

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

SKIP = 77

cli, repo, scratch = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
# Relative to the repository, where cidrcheck runs, so reports hold relative paths.
examples = sorted(p.relative_to(repo) for p in (repo / "data/examples").glob("*.yaml"))
fixtures = [Path("tests/fixtures/fleets/suppressions.yaml")]


def run(*args, cwd=None, expect=None):
    """Runs cidrcheck; returns (exit code, stdout). Fails on an unexpected code."""
    p = subprocess.run([cli, *map(str, args)], cwd=cwd or repo, capture_output=True, text=True)
    if expect is not None and p.returncode not in (expect if isinstance(expect, tuple) else (expect,)):
        raise AssertionError(f"cidrcheck {' '.join(map(str, args))}: exit {p.returncode}\n{p.stderr}")
    return p.returncode, p.stdout


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def fresh(name):
    d = scratch / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d


def busy_fleet(path, errors, warnings, notes):
    """A fleet with the given numbers of findings per level: meshed pairs of
    clusters that share pods (errors), clusters with pods in Docker's bridge
    (warnings), and latent overlaps between unconnected clusters (notes)."""
    lines = ["version: 1", "clusters:"]
    connections = []
    # /24s in 10.20/16 and up, and 10.230/16 and up: clear of every well-known default.
    for k in range(errors):
        cidr = f"10.{20 + k // 200}.{k % 200}.0/24"
        lines += [f"  - {{name: e{k}a, pods: {cidr}}}", f"  - {{name: e{k}b, pods: {cidr}}}"]
        connections.append(f"  - [e{k}a, e{k}b]")
    for k in range(warnings):
        lines.append(f"  - {{name: w{k}, pods: 172.17.{k}.0/24}}")
    for k in range(notes):
        cidr = f"10.{230 + k // 200}.{k % 200}.0/24"
        lines += [f"  - {{name: n{k}a, pods: {cidr}}}", f"  - {{name: n{k}b, pods: {cidr}}}"]
    path.write_text("\n".join(lines + ["connections:"] + connections) + "\n")
    return path


# --- SARIF -------------------------------------------------------------------

def sarif_reports():
    for fleet in examples + fixtures:
        yield fleet.name, json.loads(run("check", fleet, "--format", "sarif", expect=(0, 1))[1])
    diff = ("diff", "tests/fixtures/diff/old.yaml", "tests/fixtures/diff/new.yaml", "--format", "sarif")
    yield "diff", json.loads(run(*diff, expect=1)[1])


def test_sarif_schema():
    """Every SARIF report validates against the official SARIF 2.1.0 schema."""
    schema_path = repo.parent / "shared/reference/sarif/sarif-schema-2.1.0.json"
    if not schema_path.exists():
        print(f"SKIP: the SARIF 2.1.0 schema is not at {schema_path} (it lives outside the repository, in "
              "../shared/reference/sarif/); nothing was validated")
        return SKIP
    import jsonschema  # Debian's python3-jsonschema

    schema = json.loads(schema_path.read_text())
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
    for name, report in sarif_reports():
        errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
        check(not errors, f"{name}: " + "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5]))
    return 0


def test_sarif_github():
    """What GitHub code scanning requires beyond the schema (ci-conventions 9.1)."""
    for name, report in sarif_reports():
        check(report["version"] == "2.1.0" and report["$schema"], name)
        run_ = report["runs"][0]
        rules = run_["tool"]["driver"]["rules"]
        ids = [r["id"] for r in rules]
        check(len(set(ids)) == len(ids), f"{name}: duplicate rule ids")
        for r in rules:
            for field in ("shortDescription", "fullDescription", "help"):
                text = r[field]["text"]
                check(text and (field == "help" or len(text) <= 1024), f"{name}: rule {r['id']} {field}")
            check("**When suppressing is legitimate.**" in r["help"]["markdown"], f"{name}: rule {r['id']} help")
            check(r["defaultConfiguration"]["level"] in ("error", "warning", "note"), r["id"])
            check("security-severity" not in r.get("properties", {}), "cidrcheck findings are not security alerts")
        for result in run_["results"]:
            check(ids[result["ruleIndex"]] == result["ruleId"], f"{name}: ruleIndex does not match ruleId")
            check(result["message"]["text"], f"{name}: empty message")
            check(len(result["locations"]) == 1, f"{name}: one location")
            region = result["locations"][0]["physicalLocation"]["region"]
            for field in ("startLine", "startColumn", "endLine", "endColumn"):
                check(region.get(field, 0) >= 1, f"{name}: region lacks {field}")
            check(region["endColumn"] > region["startColumn"], f"{name}: empty region")
            fingerprint = result["partialFingerprints"]["cidrcheckFingerprint/v1"]
            check(re.fullmatch(r"[0-9a-f]{64}(:\d+)?", fingerprint), f"{name}: fingerprint {fingerprint}")
            for related in result.get("relatedLocations", []):
                check(f"]({related['id']})" in result["message"]["text"],
                      f"{name}: related location {related['id']} is not linked from the message")
    return 0


# --- JUnit -------------------------------------------------------------------

def test_junit():
    """JUnit parses as XML with the structure GitLab and the GitHub reporters read (ci-conventions 9.2)."""
    for fleet in examples + fixtures:
        _, text = run("check", fleet, "--format", "junit", expect=(0, 1))
        root = ET.fromstring(text)
        check(root.tag == "testsuites", f"{fleet.name}: root is {root.tag}")
        _, data = run("check", fleet, "--format", "json", expect=(0, 1))
        report = json.loads(data)
        total = failures = skipped = 0
        for suite in root:
            check(suite.tag == "testsuite" and suite.get("name"), f"{fleet.name}: testsuite without a name")
            names = set()
            cases = list(suite)
            check(int(suite.get("tests")) == len(cases), f"{fleet.name}: tests count of {suite.get('name')}")
            for case in cases:
                check(case.tag == "testcase", fleet.name)
                for attribute in ("classname", "name", "file", "time"):
                    check(case.get(attribute), f"{fleet.name}: testcase without {attribute}")
                check(re.fullmatch(r"CIDR\d{3} [a-z-]+", case.get("classname")), case.get("classname"))
                key = (case.get("classname"), case.get("name"))
                check(key not in names, f"{fleet.name}: duplicate test case {key} (GitLab keeps only the first)")
                names.add(key)
                failure = case.find("failure")
                if failure is not None:
                    failures += 1
                    check(failure.text and "hint:" in failure.text and "docs:" in failure.text,
                          f"{fleet.name}: the failure body must carry the full text")
                    check(failure.get("type") in ("error", "warning"), fleet.name)
                if case.find("skipped") is not None:
                    skipped += 1
                total += 1
        check(int(root.get("tests")) == total and int(root.get("failures")) == failures, f"{fleet.name}: counts")
        check(int(root.get("skipped")) == skipped, f"{fleet.name}: skipped count")
        # One failing case per rule and owner with an error or a warning.
        failing = {(f["rule_id"], (f["ranges"] or [{"owner": f["message"]}])[0]["owner"])
                   for f in report["findings"] if f["severity"] != "note"}
        check(failures == len(failing), f"{fleet.name}: {failures} failing cases for {len(failing)} rule/owner pairs")
        # Every owner has a case for every fleet rule, so a fixed finding shows as passing.
        check(total >= report["summary"]["owners"] * 17, f"{fleet.name}: passing cases are missing")
    return 0


# --- GitHub workflow commands ------------------------------------------------

PROPERTY = r"(?:[^%:,\r\n]|%25|%0D|%0A|%3A|%2C)*"
DATA = r"(?:[^%\r\n]|%25|%0D|%0A)*"
ANNOTATION = re.compile(
    rf"::(error|warning|notice) file={PROPERTY}(?:,line=[1-9]\d*,endLine=[1-9]\d*(?:,col=[1-9]\d*(?:,endColumn=[1-9]\d*)?)?)?"
    rf",title={PROPERTY}::{DATA}")
SUMMARY = re.compile(rf"::notice title=cidrcheck::(\d+) more findings? not annotated: {DATA}")


def annotations(*args, expect=(0, 1), cwd=None):
    _, out = run(*args, "--format", "github", expect=expect, cwd=cwd)
    lines = out.splitlines()
    for line in lines:
        check(ANNOTATION.fullmatch(line) or SUMMARY.fullmatch(line), f"not a workflow command: {line!r}")
    return lines


def test_github():
    """Annotations match the workflow-command grammar, are escaped, and are capped as GitHub caps them."""
    for fleet in examples + fixtures:
        annotations("check", fleet)
    # The caps: 10 per level per step, then one summary notice (which takes a notice slot).
    d = fresh("github")
    busy = busy_fleet(d / "busy.yaml", errors=25, warnings=15, notes=12)
    _, data = run("check", busy, "--format", "json", expect=1)
    counts = json.loads(data)["summary"]
    lines = annotations("check", busy)
    per_level = {level: sum(line.startswith(f"::{level} file=") for line in lines)
                 for level in ("error", "warning", "notice")}
    check(per_level == {"error": 10, "warning": 10, "notice": 9}, f"per level: {per_level}")
    summary = [SUMMARY.fullmatch(line) for line in lines if SUMMARY.fullmatch(line)]
    check(len(summary) == 1, "one summary notice past the cap")
    left_out = counts["errors"] + counts["warnings"] + counts["notes"] - sum(per_level.values())
    check(int(summary[0].group(1)) == left_out, f"the summary says {summary[0].group(1)}, {left_out} were left out")
    # Under the caps, no summary.
    small = annotations("check", busy_fleet(d / "small.yaml", errors=10, warnings=10, notes=10))
    check(len(small) == 30 and not any(SUMMARY.fullmatch(line) for line in small), "no summary under the cap")
    # Escaping: a file name with ',', ':' and '%' and a message with newlines.
    odd = d / "odd,na:me%.yaml"
    odd.write_text("clusters:\n  - {name: a, pods: 10.5.0.0/16}\n  - {name: b, pods: 10.5.0.0/16}\n"
                   "connections: [[a, b]]\n")
    lines = annotations("check", odd.name, cwd=d)
    check(lines[0].startswith("::error file=odd%2Cna%3Ame%25.yaml,line=2,"), lines[0])
    check("%0Ahint: " in lines[0], "notes and hint are on escaped new lines")
    return 0


# --- GitLab Code Quality -----------------------------------------------------

def test_gitlab():
    """Code Quality reports have GitLab's fields, and every fingerprint is unique."""
    d = fresh("gitlab")
    repeated = d / "repeated.yaml"
    repeated.write_text("clusters:\n  - {name: a, pods: [10.7.0.0/16, 10.7.0.0/16]}\n  - {name: b, pods: 10.7.0.0/16}\n"
                        "connections: [[a, b]]\n")
    busy_fleet(d / "busy.yaml", 12, 3, 4)
    for fleet, cwd in [(f, repo) for f in examples + fixtures] + [(Path("repeated.yaml"), d), (Path("busy.yaml"), d)]:
        _, out = run("check", fleet, "--format", "gitlab", expect=(0, 1), cwd=cwd)
        check(not out.startswith("\ufeff"), "no byte-order mark")
        issues = json.loads(out)
        check(isinstance(issues, list), "an array")
        fingerprints = [i["fingerprint"] for i in issues]
        check(len(set(fingerprints)) == len(fingerprints), f"{fleet.name}: duplicate fingerprints")
        for i in issues:
            check(i["description"] and i["check_name"], fleet.name)
            check(i["severity"] in ("info", "minor", "major", "critical", "blocker"), i["severity"])
            check(i["location"]["path"] and not i["location"]["path"].startswith("/"), "a relative path")
            check(isinstance(i["location"]["lines"]["begin"], int) and i["location"]["lines"]["begin"] >= 1, "a line")
    return 0


# --- Markdown ----------------------------------------------------------------

def test_markdown():
    """The summary table has one row per finding and stays under a comment's 65,536 characters."""
    d = fresh("markdown")
    for fleet in examples + [busy_fleet(d / "busy.yaml", 120, 40, 40)]:
        _, out = run("check", fleet, "--format", "markdown", expect=(0, 1))
        _, data = run("check", fleet, "--format", "json", expect=(0, 1))
        findings = len(json.loads(data)["findings"])
        rows = [line for line in out.splitlines() if re.match(r"\| (error|warning|note) \|", line)]
        check(len(rows) == min(findings, 100), f"{fleet.name}: {len(rows)} rows for {findings} findings")
        check(all(line.count(" | ") == 3 for line in rows), f"{fleet.name}: a row with a stray column")
        check(len(out) < 65536, f"{fleet.name}: {len(out)} characters")
        if findings > 100:
            check(f"and {findings - 100} more findings" in out, "says how many rows were left out")
    return 0


# --- Baselines ---------------------------------------------------------------

def test_baseline():
    """A baseline hides the findings it has, survives edits that move lines, and fails on new ones."""
    d = fresh("baseline")
    fleet = d / "fleet.yaml"
    shutil.copy(repo / "data/examples/mesh-shared-services.yaml", fleet)
    baseline = d / "baseline.json"
    run("check", fleet, "--write-baseline", baseline, "--format", "json=" + str(d / "report.json"), expect=1)
    check(len(json.loads(baseline.read_text())["findings"]) == 6, "the baseline has every finding")
    code, out = run("check", fleet, "--baseline", baseline, expect=0)
    check(out.endswith("; 6 in the baseline\n"), out)
    # Move every line: comments on top, the clusters in another order.
    text = fleet.read_text()
    fleet.write_text("# moved\n# around\n" + text.replace("  - name: prod-eu", "  - name: prod-eu\n    # edited"))
    run("check", fleet, "--baseline", baseline, expect=0)
    # A new cluster in the mesh on the same default services: only its findings are reported.
    fleet.write_text(fleet.read_text().replace("connections:", "  - name: prod-sa\n    distribution: kubeadm\n"
                                               "    network: 10.13.0.0/16\n    pods: 10.23.0.0/16\nconnections:")
                     .replace("[prod-eu, prod-us, prod-ap]", "[prod-eu, prod-us, prod-ap, prod-sa]"))
    _, data = run("check", fleet, "--baseline", baseline, "--format", "json", expect=1)
    new = json.loads(data)["findings"]
    check(new and all("prod-sa" in f["message"] for f in new), [f["message"] for f in new])
    # --write-baseline with --baseline keeps the old entries and adds the new ones.
    run("check", fleet, "--baseline", baseline, "--write-baseline", baseline, expect=1)
    run("check", fleet, "--baseline", baseline, expect=0)
    check(len(json.loads(baseline.read_text())["findings"]) == 6 + len(new), "old and new entries")
    return 0


# --- Output files ------------------------------------------------------------

def test_output_files():
    """Reports are written whole before the exit, with a new file's permissions, never replacing a device or pipe."""
    d = fresh("output")
    reports = {f: d / f"report.{f}" for f in ("text", "json", "sarif", "github", "junit", "gitlab", "markdown")}
    old_umask = os.umask(0o022)
    try:
        code, out = run("check", "data/examples/kops-tailnet.yaml", "--format", "text",
                        *[x for f, p in reports.items() for x in ("--format", f"{f}={p}")])
    finally:
        os.umask(old_umask)
    check(code == 1, "the exit code does not depend on the formats")
    for f, p in reports.items():
        check(p.stat().st_size > 0, f"{f} is empty")
        check(stat.S_IMODE(p.stat().st_mode) == 0o644, f"{f}: mode {oct(p.stat().st_mode)}")
    check(reports["text"].read_text() == out, "the text file is what standard output shows")
    check(sorted(x.name for x in d.iterdir()) == sorted(p.name for p in reports.values()), "no temporary file is left")
    # A named pipe is written in place (as /dev/stdout or /dev/null would be), not replaced by a file.
    pipe = d / "pipe"
    os.mkfifo(pipe)
    received = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_text()))
    reader.start()
    run("check", "data/examples/kops-tailnet.yaml", "--format", f"json={pipe}", expect=1)
    reader.join(timeout=30)
    check(stat.S_ISFIFO(pipe.stat().st_mode), "the pipe was replaced")
    check(received and json.loads(received[0])["summary"]["findings"] == 7, "the report went through the pipe")
    # A link is followed: the file it names is replaced and the link stays.
    (d / "target.json").write_text("old")
    (d / "link.json").symlink_to("target.json")
    run("check", "data/examples/kops-tailnet.yaml", "--format", f"json={d / 'link.json'}", expect=1)
    check((d / "link.json").is_symlink() and json.loads((d / "target.json").read_text())["version"] == 1, "the link")
    return 0


# --- Documentation examples --------------------------------------------------

def test_docs_examples():
    """The CI examples in docs/ci.md and .pre-commit-hooks.yaml are valid YAML with the keys their tools need."""
    import yaml  # Debian's python3-yaml

    text = (repo / "docs/ci.md").read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    check(len(blocks) >= 3, "docs/ci.md has the GitHub, GitLab and pre-commit examples")
    for block in blocks:
        yaml.safe_load(block)
    hooks = yaml.safe_load((repo / ".pre-commit-hooks.yaml").read_text())
    check(isinstance(hooks, list) and hooks, "a list of hooks")
    for hook in hooks:
        for key in ("id", "name", "entry", "language"):
            check(hook.get(key), f"hook lacks {key}")
        check(hook.get("pass_filenames") is False, "cidrcheck reads the whole fleet: pass_filenames must be false")
    return 0


if __name__ == "__main__":
    group = sys.argv[4]
    try:
        sys.exit(globals()["test_" + group]())
    except AssertionError as e:
        print(f"FAIL {group}: {e}", file=sys.stderr)
        sys.exit(1)
