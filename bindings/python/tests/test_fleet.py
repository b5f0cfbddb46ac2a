"""Fleets: loading from files, text and dicts; diagnostics as data; the check as the CLI runs it."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import cidrcheck
from cidrcheck import AddressRange, Finding, Fleet, FleetLoadError, Prefix, Report

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "data" / "examples").glob("*.yaml"))
MESH = ROOT / "data" / "examples" / "mesh-shared-services.yaml"
CLI = os.environ.get("CIDRCHECK_CLI")

MESH_DICT = {
    "version": 1,
    "clusters": [
        {"name": "prod-eu", "distribution": "kubeadm", "network": "10.10.0.0/16", "pods": "10.20.0.0/16"},
        {"name": "prod-us", "distribution": "kubeadm", "network": ["10.11.0.0/16"], "pods": [Prefix("10.21.0.0/16")]},
    ],
    "connections": [{"name": "mesh", "between": ["prod-eu", "prod-us"], "via": "mesh", "routes": ["pods", "services"]}],
}


def cli_json(*args):
    if not CLI:
        pytest.skip("CIDRCHECK_CLI is not set (CTest sets it to the built cidrcheck)")
    run = subprocess.run([CLI, "check", "--format", "json", "--fail-on", "never", *map(str, args)],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(run.stdout)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_findings_are_those_of_the_cli(path):
    report = Fleet.load(path).check()
    expected = cli_json(path.relative_to(ROOT))
    assert [f.message for f in report] == [x["message"] for x in expected["findings"]]
    assert [f.rule_id for f in report] == [x["rule_id"] for x in expected["findings"]]
    assert [f.hint for f in report] == [x["hint"] for x in expected["findings"]]
    assert (report.errors, report.warnings, report.notes) == (
        expected["summary"]["errors"], expected["summary"]["warnings"], expected["summary"]["notes"])
    for finding, x in zip(report, expected["findings"]):
        assert [r["cidr"] for r in finding.ranges] == [r["cidr"] for r in x["ranges"]]
        if x["overlap"]:
            assert str(finding.overlap) == f"{x['overlap']['first']}-{x['overlap']['last']}"


def test_a_finding_is_plain_data():
    report = Fleet.load(MESH).check()
    assert isinstance(report, Report) and len(report) == 6 and not report.ok
    first = report[0]
    assert isinstance(first, Finding)
    assert (first.rule, first.rule_id, first.severity) == ("overlap", "CIDR101", "error")
    assert first.overlap == AddressRange("10.96.0.0/12")
    assert first.routed_at == "prod-eu"
    assert first.via == ("connection mesh",)
    assert first.ranges[0]["owner"] == "prod-eu" and first.ranges[0]["origin"] == "distribution-default"
    assert repr(report) == "Report(3 errors, 0 warnings, 3 notes)"


def test_rows_have_the_same_keys_for_every_finding():
    rows = Fleet.load(ROOT / "data/examples/vpn-home-routers.yaml").check().rows()
    assert len({tuple(r) for r in rows}) == 1
    assert all(isinstance(v, (str, int, type(None))) for r in rows for v in r.values())


def test_a_findings_record_is_the_cli_reports_object():
    # One shape per result (issue 25): the JSON report's findings and suppressed findings, key for key.
    for path, config in ((MESH, None), (ROOT / "tests/fixtures/fleets/suppressions.yaml", None),
                         (MESH, ROOT / "tests/fixtures/config/settings.yaml")):
        args = ["--no-config"] if config is None else ["--config", config.relative_to(ROOT)]
        expected = cli_json(*args, path.relative_to(ROOT))
        report = Fleet.load(path.relative_to(ROOT)).check(config=config and config.relative_to(ROOT))
        assert report.records() == expected["findings"]
        assert [s.record() for s in report.suppressed] == expected["suppressed"]
        assert report.connections == expected["connections"]
        record = report.records()[0]
        record["ranges"].clear()  # a copy: the finding keeps its own
        assert report[0].record()["ranges"]


def test_rows_make_a_pandas_table():
    pandas = pytest.importorskip("pandas")
    fleet = Fleet.load(MESH)
    findings = pandas.DataFrame(fleet.check().rows())
    assert list(findings["severity"].value_counts().sort_index().items()) == [("error", 3), ("note", 3)]
    ranges = pandas.DataFrame(fleet.ranges())
    assert ranges.groupby("role")["num_addresses"].sum()["services"] == 3 * 2**20
    assert len(pandas.DataFrame(fleet.free_space())) > 0
    assert len(pandas.DataFrame(fleet.owners())) == 3


def test_fleet_contents():
    fleet = Fleet.load(MESH)
    assert fleet.files == [str(MESH)]
    assert [o["name"] for o in fleet.owners()] == ["prod-eu", "prod-us", "prod-ap"]
    ranges = fleet.ranges()
    assert len(ranges) == 9
    services = [r for r in ranges if r["role"] == "services"]
    assert {r["cidr"] for r in services} == {"10.96.0.0/12"}
    assert services[0]["origin"] == "distribution-default" and services[0]["num_addresses"] == 2**20
    [mesh] = fleet.connections()
    assert mesh["members"] == ["prod-eu", "prod-us", "prod-ap"] and mesh["routes"] == ["pods", "services"]
    assert repr(fleet).startswith("<Fleet of 3 owners, 9 ranges, 1 connection from ")


def test_several_files_are_one_fleet(tmp_path):
    a = tmp_path / "a.yaml"
    b = tmp_path / "b.yaml"
    a.write_text("clusters:\n  - {name: a, pods: 10.0.0.0/16, services: 10.96.0.0/16}\n")
    b.write_text("clusters:\n  - {name: b, pods: 10.0.0.0/16, services: 10.97.0.0/16}\nconnections:\n  - [a, b]\n")
    report = Fleet.load(a, b).check()
    assert [f.rule for f in report if f.rule == "overlap"] == ["overlap"]


def test_from_text_and_from_dict_give_the_same_fleet_as_the_file():
    from_file = Fleet.load(MESH).check()
    from_text = Fleet.from_text(MESH.read_text(), name="mesh").check()
    assert [f.message for f in from_text] == [f.message for f in from_file]
    from_dict = Fleet.from_dict(MESH_DICT).check()
    assert [f.message for f in from_dict if f.rule == "overlap"] == [
        "services 10.96.0.0/12 of cluster prod-eu (kubeadm default) overlaps services 10.96.0.0/12 of cluster "
        "prod-us (kubeadm default) in 10.96.0.0/12; prod-eu routes both, through connection mesh"]


def test_load_errors_raise_with_every_diagnostic_as_data():
    with pytest.raises(FleetLoadError) as caught:
        Fleet.load(ROOT / "tests/fixtures/fleets/many-problems.yaml")
    error = caught.value
    assert isinstance(error, ValueError)
    assert len(error.diagnostics) > 3
    first = error.diagnostics[0]
    assert set(first) >= {"severity", "code", "message", "file", "line", "column", "notes"}
    assert (first["line"], first["column"], first["code"]) == (6, 5, "unknown-key")
    assert "tests/fixtures/fleets/many-problems.yaml:6:5: error: unknown key 'cidr'" in str(error)


def test_dict_diagnostics_name_the_path_in_the_data():
    data = {"clusters": [{"name": "a", "pods": ["10.0.0.0/16", "10.1.0.1/16"], "nodes": "lots", "podz": 1}],
            "connections": [["a", "b"]]}
    with pytest.raises(FleetLoadError) as caught:
        Fleet.from_dict(data)
    paths = [(d["path"], d["code"]) for d in caught.value.diagnostics]
    assert ("clusters[0].pods[1]", "invalid-cidr") in paths
    assert ("clusters[0].nodes", "type") in paths
    assert ("clusters[0].podz", "unknown-key") in paths
    assert ("connections[0][1]", "unknown-owner") in paths
    assert "<dict>: clusters[0].pods[1]: error: pods of cluster a: invalid prefix \"10.1.0.1/16\"" in str(caught.value)


def test_dicts_take_only_plain_data():
    with pytest.raises(TypeError, match=r"clusters\[0\]\.nodes: cannot put a set"):
        Fleet.from_dict({"clusters": [{"name": "a", "nodes": {1}}]})
    with pytest.raises(TypeError, match="keys must be strings"):
        Fleet.from_dict({"clusters": [{1: "a"}]})


def test_dict_text_holds_whatever_characters_it_holds():
    # YAML takes NEL, LS and PS for line breaks and refuses DEL, C1 controls, U+FFFE and U+FFFF raw:
    # from_dict escapes them, so a description (an AWS Name tag, say) holding them is read.
    text = "a\u2028b\u2029c\x85d\x7fe\x9ff\ufffeg\uffffh"
    clusters = [{"name": "a", "pods": "10.0.0.0/16", "description": text}, {"name": "b", "pods": "10.1.0.0/16"}]
    fleet = Fleet.from_dict({"clusters": clusters,
                             "connections": [{"name": "link", "between": ["a", "b"], "description": text}]})
    assert [o["name"] for o in fleet.owners()] == ["a", "b"]
    # Escaped, a name is still judged by the name rules: a line separator in it is refused, at its path.
    with pytest.raises(FleetLoadError, match=r"clusters\[0\]\.name.*cannot hold a control character \(\\u\{2028\}"):
        Fleet.from_dict({"clusters": [{"name": "a\u2028b", "pods": "10.0.0.0/16"}]})


def test_bad_text_and_missing_files_raise_fleet_load_error():
    with pytest.raises(FleetLoadError, match=r"<string>:1:12: error: invalid YAML"):
        Fleet.from_text("clusters: [")
    with pytest.raises(FleetLoadError, match="cannot open"):
        Fleet.load(ROOT / "no-such-file.yaml")
    with pytest.raises(FleetLoadError, match="no clusters or networks"):
        Fleet.from_dict({})


def test_limits_are_keyword_arguments():
    with pytest.raises(FleetLoadError, match="max-owners"):
        Fleet.load(MESH, max_owners=2)
    with pytest.raises(TypeError, match="unknown option 'max_cats'"):
        Fleet.load(MESH, max_cats=2)
    bad = "clusters:\n" + "".join(f"  - {{name: c{i}, pods: 10.0.0.{i}/8}}\n" for i in range(1, 6))
    with pytest.raises(FleetLoadError, match="max-errors limit of 2") as raised:
        Fleet.from_text(bad, max_errors=2)
    assert str(raised.value).count("host bits") == 2


def test_warnings_are_kept_on_the_fleet():
    fleet = Fleet.from_dict({"clusters": [{"name": "a", "distribution": "kubeadmm", "pods": "10.0.0.0/16"}]})
    [warning] = fleet.diagnostics
    assert warning["code"] == "unknown-distribution" and "did you mean 'kubeadm'" in warning["message"]
    assert warning["path"] == "clusters[0].distribution"


def test_capacity_warning_is_an_option_of_the_check():
    fleet = Fleet.from_dict({"clusters": [{"name": "a", "pods": "10.0.0.0/20", "services": "10.96.0.0/16",
                                           "node_cidr_mask": 24, "nodes": 10}]})
    assert [f.rule for f in fleet.check() if f.rule == "pod-capacity"] == []  # 10 of 16 node blocks: 62%
    assert [f.severity for f in fleet.check(capacity_warning=0.5) if f.rule == "pod-capacity"] == ["warning"]


def test_rules_list_every_rule():
    rules = cidrcheck.rules()
    assert rules[0] == {"rule_id": "CIDR101", "rule": "overlap", "severity": "error",
                        "summary": "two owners' ranges overlap and some owner routes both"}
    assert len(rules) == 24


def test_rows_of_suppression_findings_point_at_the_suppression():
    # expired-suppression and unused-suppression findings have no ranges (issue 16, item 10).
    report = Fleet.load(ROOT / "tests/fixtures/fleets/suppressions.yaml").check()
    expired = [f for f in report if f.rule == "expired-suppression"]
    assert expired and expired[0].ranges == ()
    rows = report.rows()
    assert len({tuple(r) for r in rows}) == 1
    row = rows[report._findings.index(expired[0])]
    assert (row["owner"], row["role"], row["cidr"]) == (None, None, None)
    assert row["file"].endswith("suppressions.yaml") and row["line"] == expired[0].line > 0
    pandas = pytest.importorskip("pandas")
    assert len(pandas.DataFrame(report.rows())) == len(report)


def test_findings_carry_the_fingerprints_of_the_cli_report():
    path = ROOT / "tests/fixtures/fleets/suppressions.yaml"
    report = Fleet.load(path).check()
    expected = cli_json("--no-config", path.relative_to(ROOT))
    assert [f.fingerprint for f in report] == [x["fingerprint"] for x in expected["findings"]]
    assert [s.finding.fingerprint for s in report.suppressed] == [x["fingerprint"] for x in expected["suppressed"]]
    assert [(Path(f.file).resolve(), f.line, f.column) for f in report] == [
        (ROOT / x["ranges"][0]["file"], x["ranges"][0]["line"], x["ranges"][0]["column"]) if x["ranges"]
        else (ROOT / x["file"], x["line"], x["column"]) for x in expected["findings"]]


def test_a_nul_in_a_path_is_refused_not_cut_short():
    # The system would open the part before the NUL: the mesh example itself.
    with pytest.raises(FleetLoadError, match="NUL"):
        Fleet.load(str(MESH) + "\0.bak")
    with pytest.raises(cidrcheck.ConfigLoadError, match="NUL"):
        cidrcheck.Config.load(str(ROOT / "tests/fixtures/config/settings.yaml") + "\0x")


def test_config_exposes_its_inputs():
    config = cidrcheck.Config.load(ROOT / "tests/fixtures/config/settings.yaml")
    assert [Path(p).resolve() for p in config.inputs] == [MESH.resolve()]
    assert len(Fleet.load(*config.inputs).check(config=config).suppressed) == 1


def test_check_honours_min_severity_and_fail_on_and_says_whether_ci_fails():
    # Issue 25: check(config=) ignored min-severity and fail-on, and a Report could not say whether CI fails.
    if not CLI:
        pytest.skip("CIDRCHECK_CLI is not set (CTest sets it to the built cidrcheck)")
    settings = ROOT / "tests/fixtures/config/settings.yaml"
    fleet = Fleet.load(MESH)
    for extra, flags in (({}, []), ({"min_severity": "error"}, ["--min-severity", "error"]),
                         ({"fail_on": "never"}, ["--fail-on", "never"]),
                         ({"min_severity": "warning", "fail_on": "warning"}, ["--min-severity", "warning",
                                                                             "--fail-on", "warning"])):
        report = fleet.check(config=settings, **extra)
        done = subprocess.run([CLI, "check", "--format", "json", "--config", settings.relative_to(ROOT), *flags,
                               MESH.relative_to(ROOT)], capture_output=True, text=True, cwd=ROOT)
        expected = json.loads(done.stdout)
        assert [f.fingerprint for f in report] == [x["fingerprint"] for x in expected["findings"]], extra
        assert report.fails == (done.returncode == 1), extra
        assert report.below_minimum == expected["summary"]["below_minimum"], extra
    assert fleet.check(min_severity="error").notes == 0 < fleet.check().notes
    baseline = [f.fingerprint for f in fleet.check()]
    quiet = fleet.check(baseline=baseline)
    assert len(quiet) == 0 and not quiet.fails and quiet.baselined == len(baseline)
    with pytest.raises(ValueError, match="fail_on must be"):
        fleet.check(fail_on="sometimes")


def test_the_module_runs_check_as_the_cli_does(tmp_path, monkeypatch):
    # cidrcheck.check() reads what `cidrcheck check` reads: CIDRCHECK_CONFIG, else .cidrcheck.yaml upward.
    if not CLI:
        pytest.skip("CIDRCHECK_CLI is not set (CTest sets it to the built cidrcheck)")
    (tmp_path / ".git").mkdir()
    (tmp_path / "sub").mkdir()
    shutil.copy(MESH, tmp_path / "mesh.yaml")
    settings = (ROOT / "tests/fixtures/config/settings.yaml").read_text()
    (tmp_path / ".cidrcheck.yaml").write_text(settings.replace("../../../data/examples/mesh-shared-services.yaml",
                                                               "mesh.yaml"))
    monkeypatch.chdir(tmp_path / "sub")
    monkeypatch.delenv("CIDRCHECK_CONFIG", raising=False)
    found = cidrcheck.check()
    done = subprocess.run([CLI, "check", "--format", "json"], capture_output=True, text=True)
    assert found.records() == json.loads(done.stdout)["findings"] and len(found.suppressed) == 1
    assert found.fails == (done.returncode == 1)
    assert [o["name"] for o in found.fleet.owners()] == ["prod-eu", "prod-us", "prod-ap"]
    assert len(cidrcheck.check(str(tmp_path / "mesh.yaml"), config=False).suppressed) == 0
    monkeypatch.setenv("CIDRCHECK_CONFIG", str(tmp_path / "sub"))  # no regular file
    with pytest.raises(cidrcheck.ConfigLoadError, match="CIDRCHECK_CONFIG is"):
        cidrcheck.check()
    with pytest.raises(cidrcheck.ConfigLoadError, match="CIDRCHECK_CONFIG is"):
        cidrcheck.Config.find(".")
    monkeypatch.setenv("CIDRCHECK_CONFIG", str(tmp_path / ".cidrcheck.yaml"))
    assert cidrcheck.Config.find("/").file == str(tmp_path / ".cidrcheck.yaml")
    monkeypatch.delenv("CIDRCHECK_CONFIG")
    monkeypatch.chdir(tmp_path.parent)
    with pytest.raises(ValueError, match="no fleet sources"):
        cidrcheck.check(config=False)
