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
import tempfile
import threading
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

SKIP = 77

cli, repo, scratch = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
# Relative to the repository, where cidrcheck runs, so reports hold relative paths.
examples = sorted(p.relative_to(repo) for p in (repo / "data/examples").glob("*.yaml"))
fixtures = [Path("tests/fixtures/fleets/suppressions.yaml")]
# Fleets that cannot be loaded: exit 2, and the reports say why.
broken = [Path("tests/fixtures/fleets/many-problems.yaml"), Path("tests/fixtures/fleets/bad-yaml.yaml")]


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
    for fleet in broken:
        yield fleet.name, json.loads(run("check", fleet, "--format", "sarif", expect=2)[1])


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


def test_sarif_subdirectory():
    """Artifact uris are relative to %SRCROOT%, the working tree that holds the working directory, so a run
    from a subdirectory points at the right files; a file outside the root is an absolute file URI."""
    def resolved(report, location):
        artifact = location["physicalLocation"]["artifactLocation"]
        if "uriBaseId" not in artifact:
            check(artifact["uri"].startswith("file:///"), f"{artifact}: neither relative to a base nor absolute")
            return Path(unquote(urlparse(artifact["uri"]).path))
        base = report["runs"][0]["originalUriBaseIds"][artifact["uriBaseId"]]["uri"]
        check(base.startswith("file:///") and base.endswith("/"), f"base {base}")
        check(not artifact["uri"].startswith("/") and ".." not in artifact["uri"].split("/"), artifact["uri"])
        return Path(unquote(urlparse(base).path)) / unquote(artifact["uri"])

    fleet = repo / "data/examples/mesh-shared-services.yaml"
    d = fresh("sarif-subdirectory")
    outside = Path(tempfile.mkdtemp(prefix="cidrcheck-sarif-"))
    try:
        (outside / "sub").mkdir()
        shutil.copy(fleet, outside / "sub/fleet.yaml")
        runs = [  # (working directory, the fleet as given, the file it is, the uri expected)
            (repo, "data/examples/mesh-shared-services.yaml", fleet, "data/examples/mesh-shared-services.yaml"),
            (repo / "data", "examples/mesh-shared-services.yaml", fleet, "data/examples/mesh-shared-services.yaml"),
            (repo / "data/examples", "mesh-shared-services.yaml", fleet, "data/examples/mesh-shared-services.yaml"),
            (repo / "docs", "../data/examples/mesh-shared-services.yaml", fleet, "data/examples/mesh-shared-services.yaml"),
            # From the scratch directory: the repository's root when the scratch is in it (as under CTest).
            (d, str(fleet), fleet,
             "data/examples/mesh-shared-services.yaml" if d.resolve().is_relative_to(repo.resolve()) else None),
            # Outside any repository the working directory is the root.
            (outside, "sub/fleet.yaml", outside / "sub/fleet.yaml", "sub/fleet.yaml"),
            # A file outside the root: an absolute URI.
            (repo, str(outside / "sub/fleet.yaml"), outside / "sub/fleet.yaml", None),
        ]
        for cwd, given, real, expected in runs:
            report = json.loads(run("check", given, "--format", "sarif", cwd=cwd, expect=1)[1])
            results = report["runs"][0]["results"]
            check(results, f"{given} from {cwd}: no results")
            for result in results:
                for location in result["locations"] + result.get("relatedLocations", []):
                    path = resolved(report, location)
                    check(path.exists() and path.samefile(real), f"{given} from {cwd}: {path} is not {real}")
                artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
                if expected is None:
                    check("uriBaseId" not in artifact, f"{given} from {cwd}: {artifact}")
                else:
                    check(artifact == {"uri": expected, "uriBaseId": "%SRCROOT%"}, f"{given} from {cwd}: {artifact}")
    finally:
        shutil.rmtree(outside, ignore_errors=True)
    return 0


# --- Checkstyle --------------------------------------------------------------

CHECKSTYLE_SEVERITIES = {"error", "warning", "info", "ignore"}


def checkstyle_shape(root, name, source=r"cidrcheck\.CIDR\d{3}"):
    """The shape reviewdog and Jenkins warnings-ng read (checkstyle's own XML report, as ShellCheck writes it):
    checkstyle[version] > file[name] > error[line, column?, severity, message, source], nothing else."""
    check(root.tag == "checkstyle" and set(root.attrib) == {"version"}, f"{name}: root {root.tag} {root.attrib}")
    check(not (root.text or "").strip(), f"{name}: text in <checkstyle>")
    errors = []
    for file in root:
        check(file.tag == "file" and set(file.attrib) == {"name"} and file.get("name"), f"{name}: {file.tag}")
        for error in file:
            check(error.tag == "error", f"{name}: <{error.tag}> in <file>")
            check(set(error.attrib) <= {"line", "column", "severity", "message", "source"}, f"{name}: {error.attrib}")
            check({"line", "severity", "message", "source"} <= set(error.attrib), f"{name}: {error.attrib}")
            check(re.fullmatch(r"[1-9]\d*", error.get("line")), f"{name}: line {error.get('line')}")
            check(error.get("column") is None or re.fullmatch(r"[1-9]\d*", error.get("column")), f"{name}: column")
            check(error.get("severity") in CHECKSTYLE_SEVERITIES, f"{name}: severity {error.get('severity')}")
            check(re.fullmatch(source, error.get("source")), f"{name}: source {error.get('source')}")
            check(error.get("message").strip(), f"{name}: empty message")
            errors.append((file.get("name"), error))
    return errors


def test_checkstyle():
    """Checkstyle XML has checkstyle's shape, one <error> per finding at its file, line and column, and escapes names."""
    d = fresh("checkstyle")
    hostile = d / "hostile.yaml"
    hostile.write_text('clusters:\n  - {name: "a<b>&\'\\"c", pods: 10.7.0.0/16}\n  - {name: b, pods: 10.7.0.0/16}\n'
                       'connections: [["a<b>&\'\\"c", b]]\n')
    busy_fleet(d / "busy.yaml", 12, 3, 4)
    level = {"error": "error", "warning": "warning", "note": "info"}
    cases = [(f, repo) for f in examples + fixtures] + [(Path("hostile.yaml"), d), (Path("busy.yaml"), d)]
    for fleet, cwd in cases:
        _, text = run("check", fleet, "--format", "checkstyle", expect=(0, 1), cwd=cwd)
        check(text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n'), f"{fleet.name}: the XML declaration")
        errors = checkstyle_shape(ET.fromstring(text), fleet.name)
        findings = json.loads(run("check", fleet, "--format", "json", expect=(0, 1), cwd=cwd)[1])["findings"]
        check(len(errors) == len(findings), f"{fleet.name}: {len(errors)} errors for {len(findings)} findings")
        got = sorted((file, int(e.get("line")), e.get("severity"), e.get("source"), e.get("message")) for file, e in errors)
        want = []
        for x in findings:
            where = x["ranges"][0] if x["ranges"] else x
            want.append((where["file"], max(where["line"], 1), level[x["severity"]], "cidrcheck." + x["rule_id"],
                         x["message"]))
        want.sort()
        for g, w in zip(got, want):
            check(g[:4] == w[:4] and g[4].startswith(w[4]), f"{fleet.name}: {g} for {w}")
        if fleet.name == "hostile.yaml":
            check(any("a<b>&'\"c" in e.get("message") for _, e in errors), "the hostile name survives the XML round trip")
    return 0


def test_codeclimate():
    """codeclimate is the GitLab format under Code Climate's name: the same bytes."""
    for fleet in examples + fixtures:
        gitlab = run("check", fleet, "--format", "gitlab", expect=(0, 1))[1]
        check(run("check", fleet, "--format", "codeclimate", expect=(0, 1))[1] == gitlab, fleet.name)
    return 0


# --- HTML --------------------------------------------------------------------

class PageParser(HTMLParser):
    """Collects what the HTML test looks at: finding rows, resources the page would fetch, scripts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.fetches, self.csp, self.in_row, self.ids = [], [], None, False, set()
        self.depth_tbody = None
        self.section = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "table":
            self.section = a.get("id")
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp = a.get("content")
        if tag == "tr" and self.section == "findings" and "data-severity" in a:
            self.rows.append({"severity": a["data-severity"], "rule": a["data-rule"], "text": ""})
            self.in_row = True
        # Anything that loads when the page opens: scripts, styles, images, frames, objects, fonts.
        for key in ("src", "srcset", "data", "poster", "background"):
            if a.get(key):
                self.fetches.append(f"<{tag} {key}={a[key]}>")
        if tag == "link":
            self.fetches.append(f"<link href={a.get('href')}>")
        if tag in ("use", "image", "feimage") and (a.get("href") or a.get("xlink:href") or "").strip() and \
                not (a.get("href") or a.get("xlink:href")).startswith("#"):
            self.fetches.append(f"<{tag} href>")

    def handle_endtag(self, tag):
        if tag == "tr":
            self.in_row = False
        if tag == "table":
            self.section = None

    def handle_data(self, data):
        if self.in_row:
            self.rows[-1]["text"] += data


def test_html():
    """The HTML report is one file that fetches nothing, with the map, one table row per finding and the plan."""
    d = fresh("html")
    hostile = d / "hostile.yaml"
    hostile.write_text('clusters:\n  - {name: "<script>alert(1)</script>", pods: 10.7.0.0/16}\n'
                       '  - {name: b, pods: 10.7.0.0/16}\nconnections: [["<script>alert(1)</script>", b]]\n')
    busy_fleet(d / "busy.yaml", 30, 5, 5)
    cases = [(f, repo) for f in examples + fixtures] + [(Path("hostile.yaml"), d), (Path("busy.yaml"), d)]
    for fleet, cwd in cases:
        _, text = run("check", fleet, "--format", "html", expect=(0, 1), cwd=cwd)
        findings = json.loads(run("check", fleet, "--format", "json", expect=(0, 1), cwd=cwd)[1])["findings"]
        page = PageParser()
        page.feed(text)
        page.close()
        check(text.startswith("<!DOCTYPE html>"), f"{fleet.name}: doctype")
        check(page.csp and "default-src 'none'" in page.csp, f"{fleet.name}: no Content-Security-Policy")
        check(not page.fetches, f"{fleet.name}: the page would fetch {page.fetches}")
        check(not re.search(r"url\(|@import", text), f"{fleet.name}: a style that fetches")
        check(text.count("<script>") == 1, f"{fleet.name}: one inline script, ours")
        check({"map", "plan-title", "findings-title"} <= page.ids, f"{fleet.name}: sections {page.ids}")
        check(len(page.rows) == len(findings), f"{fleet.name}: {len(page.rows)} rows for {len(findings)} findings")
        for row, x in zip(page.rows, findings):
            check(row["severity"] == x["severity"] and row["rule"] == x["rule_id"], f"{fleet.name}: row {row}")
            check(x["message"] in row["text"], f"{fleet.name}: {x['message']!r} not in its row")
        if findings and any(x["severity"] == "error" for x in findings):
            check("<table id=\"plan\">" in text or "cannot fix" in text, f"{fleet.name}: no plan for its errors")
        if fleet.name == "hostile.yaml":
            check("<script>alert(1)" not in text and "&lt;script&gt;alert(1)" in text, "the hostile name is escaped")
        if fleet.name == "kops-tailscale-calico.yaml":  # two operations in one maintenance: one runbook, shown once
            check(text.count('<ol class="steps">') == 1 and "in one maintenance with the pods change of prod" in text,
                  f"{fleet.name}: the shared runbook is not shown once")
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
    reports = {f: d / f"report.{f}" for f in ("text", "json", "sarif", "github", "junit", "gitlab", "markdown",
                                              "checkstyle", "codeclimate", "html")}
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


# --- Input that cannot be loaded ---------------------------------------------

def test_load_failure():
    """When the fleet cannot be loaded (exit 2), json, sarif, checkstyle, gitlab, codeclimate and html still write a
    valid document that lists every load error at its place, with no findings; the other formats write nothing, and
    standard error is what it is without reports."""
    d = fresh("load-failure")
    for fleet in broken:
        p = subprocess.run([cli, "check", str(fleet)], cwd=repo, capture_output=True, text=True)
        check(p.returncode == 2 and not p.stdout, f"{fleet.name}: exit {p.returncode}, stdout {p.stdout!r}")
        # The errors as standard error gives them: FILE:LINE:COL: error: MESSAGE (notes follow their error).
        errors = [re.fullmatch(r"(.*?):(\d+):(\d+): error: (.*)", line) for line in p.stderr.splitlines()]
        errors = [(m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)) for m in errors if m]
        check(errors, f"{fleet.name}: no positioned error on standard error")

        report = json.loads(run("check", fleet, "--format", "json", expect=2)[1])
        check(report["findings"] == [] and report["summary"]["findings"] == 0, f"{fleet.name}: json findings")
        got = [(x["file"], x["line"], x["column"], x["message"]) for x in report["diagnostics"] if x["severity"] == "error"]
        check(got == errors, f"{fleet.name}: json diagnostics {got} for {errors}")
        check(all(x["code"] for x in report["diagnostics"]), f"{fleet.name}: a diagnostic without a code")

        sarif = json.loads(run("check", fleet, "--format", "sarif", expect=2)[1])
        run_ = sarif["runs"][0]
        check(run_["results"] == [], f"{fleet.name}: SARIF results")
        invocation, = run_["invocations"]
        check(invocation["executionSuccessful"] is False, f"{fleet.name}: executionSuccessful")
        got = []
        for n in invocation["toolExecutionNotifications"]:
            where = n["locations"][0]["physicalLocation"]
            check(where["artifactLocation"]["uriBaseId"] == "%SRCROOT%", f"{fleet.name}: {where}")
            if n["level"] == "error":
                got.append((where["artifactLocation"]["uri"], where["region"]["startLine"],
                            where["region"]["startColumn"], n["message"]["text"]))
        check([g[:3] for g in got] == [e[:3] for e in errors], f"{fleet.name}: SARIF notifications {got}")
        check(all(g[3].startswith(e[3]) for g, e in zip(got, errors)), f"{fleet.name}: SARIF messages")

        text = run("check", fleet, "--format", "checkstyle", expect=2)[1]
        got = checkstyle_shape(ET.fromstring(text), fleet.name, source=r"cidrcheck\.[a-z][a-z0-9-]*")
        got = [(f, int(e.get("line")), int(e.get("column")), e.get("message")) for f, e in got
               if e.get("severity") == "error"]
        check([g[:3] for g in got] == [e[:3] for e in errors], f"{fleet.name}: checkstyle {got}")

        gitlab = run("check", fleet, "--format", "gitlab", expect=2)[1]
        check(run("check", fleet, "--format", "codeclimate", expect=2)[1] == gitlab, f"{fleet.name}: codeclimate")
        issues = json.loads(gitlab)
        check(len({i["fingerprint"] for i in issues}) == len(issues) == len(report["diagnostics"]),
              f"{fleet.name}: one issue per diagnostic, each fingerprint unique")
        got = [(i["location"]["path"], i["location"]["lines"]["begin"]) for i in issues if i["severity"] == "critical"]
        check(got == [e[:2] for e in errors], f"{fleet.name}: gitlab {got}")

        page = run("check", fleet, "--format", "html", expect=2)[1]
        check(page.startswith("<!DOCTYPE html>") and "could not be loaded" in page, f"{fleet.name}: html")
        listed = re.search(r'<ul class="load-errors" id="load-errors">(.*?)</ul>', page, re.S)
        check(listed and listed.group(1).count("<li>") == len(report["diagnostics"]), f"{fleet.name}: html errors")

        # Several reports at once: the ones with a failure document are written, the others are not; standard
        # error is unchanged by the reports.
        out = d / fleet.stem
        out.mkdir()
        formats = ("text", "json", "sarif", "github", "junit", "gitlab", "markdown", "checkstyle", "codeclimate", "html")
        q = subprocess.run([cli, "check", str(fleet), *[x for f in formats for x in ("--format", f"{f}={out / f}")]],
                           cwd=repo, capture_output=True, text=True)
        check(q.returncode == 2 and q.stderr == p.stderr and not q.stdout, f"{fleet.name}: with reports")
        written = sorted(x.name for x in out.iterdir())
        check(written == ["checkstyle", "codeclimate", "gitlab", "html", "json", "sarif"], f"{fleet.name}: {written}")
        check(json.loads((out / "json").read_text()) == report, f"{fleet.name}: the json file is the json report")
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
    # The composite action: what GitHub requires of one, and the steps docs/ci.md describes.
    action = yaml.safe_load((repo / "action.yml").read_text())
    for key in ("name", "description", "inputs", "outputs", "runs"):
        check(action.get(key), f"action.yml lacks {key}")
    check(action["runs"]["using"] == "composite", "a composite action")
    steps = action["runs"]["steps"]
    for step in steps:
        check(("run" in step) != ("uses" in step), f"a step runs or uses: {step.get('name')}")
        check("run" not in step or step.get("shell"), f"a composite run step needs a shell: {step.get('name')}")
    for name, spec in action["outputs"].items():
        check(spec.get("value", "").startswith("${{"), f"a composite output needs a value: {name}")
    upload = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    check(len(upload) == 1 and upload[0]["with"]["sarif_file"], "one SARIF upload")
    check("always()" in upload[0]["if"], "the upload runs when the check step found something")
    check(any("--format \"sarif=" in s.get("run", "") for s in steps), "the check writes the SARIF it uploads")
    check("uses: cidrcheck/cidrcheck@" in text, "docs/ci.md shows the action in a workflow")
    # The Terraform plan gate's jobs: valid YAML, each running the diff the page's console block runs.
    page = (repo / "docs/cookbook/terraform-plan-gate.md").read_text()
    jobs = re.findall(r"```yaml\n(.*?)```", page, re.S)
    check(len(jobs) == 2, "the plan gate page has a GitHub and a GitLab job")
    for job in jobs:
        yaml.safe_load(job)
        check(re.search(r"cidrcheck diff --config \S+\s+terraform:main\.tfstate terraform-plan:plan\.json", job),
              "a plan gate job runs cidrcheck diff of main's state and the plan")
        check("terraform show -json plan.tfplan > plan.json" in job, "a plan gate job exports the plan as JSON")
    check("cidrcheck diff --config" in page.split("```yaml")[0], "the page's console block runs the same diff")
    return 0


if __name__ == "__main__":
    group = sys.argv[4]
    try:
        sys.exit(globals()["test_" + group]())
    except AssertionError as e:
        print(f"FAIL {group}: {e}", file=sys.stderr)
        sys.exit(1)
