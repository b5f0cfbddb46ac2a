"""Planning from Python: the same plan as `cidrcheck plan`, its options, the planned
fleet and file; configurations and suppressions as `cidrcheck check` applies them."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from cidrcheck import (Change, Config, ConfigLoadError, Fleet, FleetLoadError, Plan, Prefix, Report, Step,
                       Suppressed, _core)
from cidrcheck import plan as run_plan

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "data" / "examples").glob("*.yaml"))
MESH = ROOT / "data" / "examples" / "mesh-shared-services.yaml"
KOPS = ROOT / "data" / "examples" / "kops-tailnet.yaml"
PEERED = ROOT / "data" / "examples" / "peered-vpc-pods.yaml"
SUPPRESSIONS = ROOT / "tests" / "fixtures" / "fleets" / "suppressions.yaml"
SETTINGS = ROOT / "tests" / "fixtures" / "config" / "settings.yaml"
BAD_CONFIG = ROOT / "tests" / "fixtures" / "config" / "bad.yaml"
CLI = os.environ.get("CIDRCHECK_CLI")


def cli(*args, expect=(0, 1)):
    if not CLI:
        pytest.skip("CIDRCHECK_CLI is not set (CTest sets it to the built cidrcheck)")
    run = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode in expect, run.stderr
    return run.stdout


def cli_plan(*args):
    return json.loads(cli("plan", "--no-config", "--format", "json", *args))


def moves(plan):
    return [(c.owner, c.role, None if c.old is None else str(c.old), str(c.new), c.cost) for c in plan.changes]


def cli_moves(doc):
    return [(c["owner"], c["role"], c["from"], c["to"], c["cost"]) for c in doc["changes"]]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_the_plan_is_the_cli_plan(path):
    plan = Fleet.load(path.relative_to(ROOT)).plan()  # the CLI's names of the file, in every record
    expected = cli_plan(path.relative_to(ROOT))
    assert moves(plan) == cli_moves(expected)
    summary = expected["summary"]
    assert (plan.complete, plan.optimal, plan.total_cost, plan.owners_changed) == (
        summary["complete"], summary["optimal"], summary["total_cost"], summary["owners_changed"])
    assert [p["message"] for p in plan.problems] == [p["message"] for p in expected["problems"]]
    # The operations are the CLI's: kind, owners, cost and what it counted, changes, steps.
    assert [(o["kind"], o["owners"], o["cost"], o["counted"], o["changes"]) for o in plan.operations] == [
        (o["kind"], o["owners"], o["cost"], o["counted"], o["changes"]) for o in expected["operations"]]
    assert [[s["step"] for s in o["steps"]] for o in plan.operations] == [
        [s["step"] for s in o["steps"]] for o in expected["operations"]]
    for change, data in zip(plan.changes, expected["changes"]):
        # Every change reaches the steps that carry it out: its operation's, else its own.
        steps = expected["operations"][data["operation"]]["steps"] if data["operation"] is not None else data["steps"]
        assert [s.text for s in change.steps] == [s["step"] for s in steps]
        assert change.operation == data["operation"]
        assert list(change.reasons) == data["reasons"]
        assert change.transition_safe == data["transition_safe"]
    # One shape per result (issue 25): the plan's record is the CLI's JSON, key for key.
    assert plan.record() == expected
    assert [c.record() for c in plan.changes] == expected["changes"]


@pytest.mark.parametrize("python_options, cli_options", [
    (dict(pools={"pods": "100.64.0.0/10", "services": ["172.20.0.0/14"]}),
     ["--pool", "pods=100.64.0.0/10", "--pool", "services=172.20.0.0/14"]),
    (dict(pools="172.16.0.0/12"), ["--pool", "all=172.16.0.0/12"]),
    (dict(cost={"services": 50}, avoid="10.0.0.0/9"), ["--cost", "services=50", "--avoid", "10.0.0.0/9"]),
    (dict(pin="prod-eu*", headroom=2.0, fix_latent=True), ["--pin", "prod-eu*", "--headroom", "2", "--fix-latent"]),
    (dict(connect=[["prod-eu", "prod-us", "prod-ap"]], routes="pods"),
     ["--connect", "prod-eu,prod-us,prod-ap", "--routes", "pods"]),
])
def test_options_mean_what_the_flags_mean(python_options, cli_options):
    plan = Fleet.load(MESH).plan(**python_options)
    expected = cli_plan(*cli_options, MESH.relative_to(ROOT))
    assert moves(plan) == cli_moves(expected)
    assert plan.complete == expected["summary"]["complete"]


def test_a_plan_is_data():
    plan = Fleet.load(KOPS).plan()
    total = sum(op["cost"] for op in plan.operations)
    assert isinstance(plan, Plan) and plan.ok and repr(plan).startswith(f"Plan(2 changes in 1 owner, total cost {total},")
    assert [op["kind"] for op in plan.operations] == ["kcm-node-ipam", "service-cidr-api"]
    change = plan.changes[0]
    assert isinstance(change, Change) and isinstance(change.new, Prefix) and isinstance(change.steps[0], Step)
    assert change.origin == "distribution-default" and change.file.endswith("kops-tailnet.yaml") and change.line > 0
    assert all(set(s.relies_on[0]) == {"id", "fact", "source", "status"} for s in change.steps if s.relies_on)
    rows = plan.rows()
    assert len({tuple(r) for r in rows}) == 1  # the same keys in every row: one table
    assert rows[0]["from"] == str(change.old) and rows[0]["to"] == str(change.new)
    assert plan.records()[0] == change.record() and change.record()["from"] == str(change.old)


def test_every_change_reaches_its_steps():
    # Issue 25: a replacement's steps sit on its operation, and its changes showed 0 steps.
    plan = Fleet.load(ROOT / "data/examples/platform-fleet.yaml").plan()
    replacement = [k for k, op in enumerate(plan.operations) if op["kind"] == "replacement-cluster"]
    assert replacement
    changes = [c for c in plan.changes if c.operation == replacement[0]]
    assert len(changes) > 1 and all(c.record()["steps"] == [] for c in changes[1:])
    assert all(len(c.steps) == len(plan.operations[replacement[0]]["steps"]) > 0 for c in changes)


def test_every_runbook_carries_the_simulations_verdict():
    plan = Fleet.load(MESH).plan()
    assert plan.runbooks_failed == 0 == plan.record()["summary"]["runbooks_failed"] and plan.ok
    for op in plan.operations:
        verdict = op["simulation"]
        assert verdict["passed"] and verdict["failures"] == [] and verdict["steps"] == len(op["steps"]) > 0
    assert plan.changes and all(c.simulation == plan.operations[c.operation]["simulation"] for c in plan.changes)
    books = [text for path, text in plan.runbooks() if path.endswith("/runbook.md")]
    assert len(books) == len(plan.operations)
    assert all(text.split("\n\n")[1].startswith("Simulation passed:") for text in books)


def test_runbooks_are_the_cli_emit_folders(tmp_path):
    plan = Fleet.load(KOPS).plan()
    files = dict(plan.runbooks())
    assert files and all(not Path(p).is_absolute() and ".." not in Path(p).parts for p in files)
    cli("plan", "--no-config", "--emit", tmp_path / "cli", KOPS.relative_to(ROOT))
    plan.write_runbooks(tmp_path / "python")
    written = {str(p.relative_to(tmp_path / "python")): p.read_text() for p in (tmp_path / "python").rglob("*")
               if p.is_file()}
    expected = {str(p.relative_to(tmp_path / "cli")): p.read_text() for p in (tmp_path / "cli").rglob("*")
                if p.is_file()}
    assert written == expected == files
    with pytest.raises(ValueError, match="not empty"):
        plan.write_runbooks(tmp_path / "python")
    plan.write_runbooks(tmp_path / "python", force=True)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".cidrcheck-")]  # no temporary folder left


def test_the_planned_fleet_is_clean_and_plannable_again():
    plan = Fleet.load(KOPS).plan()
    assert plan.remaining.ok and plan.fleet.check().ok
    again = plan.fleet.plan()
    assert again.changes == [] and again.complete
    assert again.to_yaml() == plan.to_yaml()


def test_to_yaml_is_the_cli_yaml():
    plan = Fleet.load(PEERED).plan()
    assert plan.to_yaml() == cli("plan", "--no-config", "--format", "yaml", PEERED.relative_to(ROOT))
    from_text = Fleet.from_text(PEERED.read_text(), name="peered.yaml").plan()
    assert from_text.to_yaml() == plan.to_yaml()
    assert Fleet.from_text(plan.to_yaml()).check().ok


def test_to_yaml_of_several_sources_is_the_cli_overlay():
    plan = Fleet.load(KOPS, PEERED).plan()
    assert plan.to_yaml() == cli("plan", "--no-config", "--format", "yaml", KOPS, PEERED)
    assert plan.to_yaml().count("renumber:") == 1


def test_to_yaml_needs_files_or_one_text():
    assert Fleet.from_dict({"clusters": [{"name": "a", "pods": "10.0.0.0/16"}]}).plan().to_yaml()  # one text: patched
    texts = [(b"clusters: [{name: a, pods: 10.0.0.0/16}]", "a"), (b"clusters: [{name: b, pods: 10.1.0.0/16}]", "b")]
    plan = Fleet(_core.load_fleet([], texts, _core.InputLimits())).plan()
    with pytest.raises(ValueError, match="files or from one text"):
        plan.to_yaml()


def test_what_if_connections_are_described_in_what_remains():
    apart = Fleet.from_dict({"version": 1, "clusters": [
        {"name": "a", "network": "10.1.0.0/16", "pods": "10.100.0.0/16", "services": "10.201.0.0/16"},
        {"name": "b", "network": "10.2.0.0/16", "pods": "10.100.0.0/16", "services": "10.202.0.0/16"}]})
    assert apart.check().ok  # latent only: nothing routes both
    plan = apart.plan(connect=[["a", "b"]], pin="*")
    assert not plan.complete and "both ranges are pinned" in plan.problems[0]["message"]
    [error] = [f for f in plan.remaining if f.severity == "error"]
    assert error.via == ("connection [a, b] (what-if)",)
    assert apart.plan(connect=[["a", "b"]]).complete


@pytest.mark.parametrize("options, error, message", [
    (dict(pools={"pod": "10.0.0.0/8"}), ValueError, "unknown role 'pod'.*did you mean 'pods'"),
    (dict(cost={"services": -1}), ValueError, "from 0 to 1000000"),
    (dict(headroom=0.5), ValueError, "headroom must be a number from 1 to 100, not 0.5"),
    (dict(headroom="2"), TypeError, "headroom must be a number"),
    (dict(cost={"pods": 1.5}), TypeError, "cost must be a number"),
    (dict(connect=[["prod-eu", "prod-uss"]]), ValueError, "'prod-uss', which is no cluster or network.*prod-us"),
    (dict(connect=[["prod-eu"]]), ValueError, "at least two owners"),
    (dict(connect=["prod-eu", "prod-us"]), TypeError, "groups of owner names"),
    (dict(routes="pods,service"), ValueError, "unknown role 'service'"),
    (dict(avoid="10.0.0.1/8"), ValueError, "host bits set"),
])
def test_bad_options_say_what_is_wrong(options, error, message):
    with pytest.raises(error, match=message):
        Fleet.load(MESH).plan(**options)


def test_suppressions_of_the_fleet_file_apply():
    report = Fleet.load(SUPPRESSIONS).check()
    expected = json.loads(cli("check", "--no-config", "--format", "json", "--fail-on", "never", SUPPRESSIONS.relative_to(ROOT)))
    assert [f.message for f in report] == [x["message"] for x in expected["findings"]]
    assert [(s.finding.message, s.reason, s.expires, s.line) for s in report.suppressed] == [
        (x["message"], x["suppression"]["reason"], x["suppression"]["expires"], x["suppression"]["line"])
        for x in expected["suppressed"]]
    assert isinstance(report.suppressed[0], Suppressed) and "suppressed" in repr(report)


def test_a_configuration_applies_as_in_the_cli():
    config = Config.load(SETTINGS)
    report = Fleet.load(MESH).check(config=config)
    expected = json.loads(cli("check", "--config", SETTINGS.relative_to(ROOT), "--format", "json", "--fail-on", "never",
                              MESH.relative_to(ROOT)))
    assert [(f.rule, f.severity, f.message) for f in report] == [
        (x["rule"], x["severity"], x["message"]) for x in expected["findings"]]
    assert len(report.suppressed) == len(expected["suppressed"]) > 0
    assert any(f.rule == "reserved-range" for f in report)  # the configuration's reserved block
    assert [f.message for f in Fleet.load(MESH).check(config=str(SETTINGS))] == [f.message for f in report]
    plan = Fleet.load(MESH).plan(config=config)
    assert moves(plan) == cli_moves(json.loads(cli("plan", "--config", SETTINGS.relative_to(ROOT), "--format", "json",
                                                   MESH.relative_to(ROOT))))


def test_a_bad_configuration_raises_with_positions():
    with pytest.raises(ConfigLoadError) as raised:
        Config.load(BAD_CONFIG)
    assert raised.value.diagnostics and all(d["file"].endswith("bad.yaml") for d in raised.value.diagnostics)
    assert "the configuration has" in str(raised.value) and isinstance(raised.value, ValueError)
    assert not isinstance(raised.value, FleetLoadError)
    with pytest.raises(ConfigLoadError, match="cannot open"):
        Config.load(ROOT / "no-such-config.yaml")


def test_find_looks_upward_like_the_cli(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".cidrcheck.yaml").write_text("version: 1\nrules:\n  latent-overlap: off\n")
    below = tmp_path / "fleets" / "prod"
    below.mkdir(parents=True)
    found = Config.find(below)
    assert found is not None and Path(found.file).resolve() == (tmp_path / ".cidrcheck.yaml").resolve()
    assert Config.find(tmp_path / ".git") is not None
    lonely = tmp_path / "elsewhere"
    lonely.mkdir()
    (lonely / ".git").mkdir()
    assert Config.find(lonely) is None


def test_imports_load_like_the_cli():
    vpcs = ROOT / "tests" / "fixtures" / "import" / "aws-vpcs" / "vpcs.json"
    fleet = Fleet.load(f"aws-vpcs:{vpcs}")
    assert any(r["cidr"] == "10.0.0.0/16" for r in fleet.ranges())
    assert isinstance(fleet.check(), Report)


def test_the_cost_ceiling_is_one_limit_with_one_message(tmp_path):
    """`cidrcheck plan --cost services=2000000`, Fleet.plan(cost=...) and the fleet file's
    `plan:` section refuse the same value with the same words (issue 17)."""
    message = "cost of services must be from 0 to 1000000, not 2000000"
    with pytest.raises(ValueError) as python:
        Fleet.load(MESH).plan(cost={"services": 2_000_000})
    assert str(python.value) == message
    with pytest.raises(FleetLoadError) as in_file:
        Fleet.from_text("plan:\n  cost: {services: 2000000}\nclusters: []\n", name="fleet.yaml")
    assert [d["message"] for d in in_file.value.diagnostics] == [message]
    if not CLI:
        pytest.skip("CIDRCHECK_CLI is not set (CTest sets it to the built cidrcheck)")
    run = subprocess.run([CLI, "plan", "--no-config", "--cost", "services=2000000", MESH], capture_output=True,
                         text=True)
    assert run.returncode == 2
    assert run.stderr.splitlines()[0] == "cidrcheck: error: " + message
    fleet = tmp_path / "fleet.yaml"
    fleet.write_text("plan:\n  cost: {services: 2000000}\nclusters: []\n")
    run = subprocess.run([CLI, "plan", "--no-config", fleet], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr == f"{fleet}:2:20: error: {message}\n"


EKS_KUBEADM = ROOT / "tests" / "fixtures" / "fleets" / "plan" / "eks-kubeadm-mesh.yaml"


@pytest.mark.parametrize("key, value, message", [
    ("replacment-cluster", 30, "cost of replacment-cluster: 'replacment-cluster' is no role or operation kind"),
    ("owner:ops-kubeadmm", 5, "cost of owner:ops-kubeadmm: no cluster or network is named 'ops-kubeadmm' "
                              "(did you mean 'ops-kubeadm'?)"),
    ("distribution:ekss/pods", 5, "cost of distribution:ekss/pods: unknown distribution 'ekss' (did you mean 'eks'?)"),
    ("region:eu", 5, "cost of region:eu: 'region:' is no scope (owner:NAME/ or distribution:NAME/)"),
    ("owner:ops-kubeadm/services", 2_000_000, "cost of owner:ops-kubeadm/services must be from 0 to 1000000, "
                                              "not 2000000"),
])
def test_cost_overrides_are_refused_with_one_message(tmp_path, key, value, message):
    """An unknown kind, owner, distribution or scope, and an out-of-range value, get the
    same words from Fleet.plan(cost=...), `cidrcheck plan --cost` and the fleet file."""
    with pytest.raises(ValueError) as python:
        Fleet.load(EKS_KUBEADM).plan(cost={key: value})
    assert str(python.value).startswith(message)
    text = EKS_KUBEADM.read_text() + f"plan:\n  cost:\n    {key}: {value}\n"
    with pytest.raises(FleetLoadError) as in_file:
        Fleet.from_text(text, name="fleet.yaml")
    [diagnostic] = in_file.value.diagnostics
    assert diagnostic["message"] == str(python.value)
    line = text.count("\n")
    assert (diagnostic["line"], diagnostic["column"]) == (line, 5 if value <= 1_000_000 else 7 + len(key))  # the key, or the value
    if not CLI:
        pytest.skip("CIDRCHECK_CLI is not set (CTest sets it to the built cidrcheck)")
    run = subprocess.run([CLI, "plan", "--no-config", "--cost", f"{key}={value}", EKS_KUBEADM], capture_output=True,
                         text=True)
    assert run.returncode == 2
    assert run.stderr.splitlines()[0] == "cidrcheck: error: " + str(python.value)
    fleet = tmp_path / "fleet.yaml"
    fleet.write_text(text)
    run = subprocess.run([CLI, "plan", "--no-config", fleet], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.splitlines()[0] == f"{fleet}:{diagnostic['line']}:{diagnostic['column']}: error: {python.value}"


def test_cost_overrides_plan_as_the_cli_does():
    """Fleet.plan(cost=...) takes the keys of --cost: the plan and what its cost counted are the CLI's."""
    cost = {"owner:ops-kubeadm": 50, "distribution:eks/replacement-cluster": 30}
    plan = Fleet.load(EKS_KUBEADM).plan(cost=cost)
    [op] = plan.operations
    assert (op["kind"], op["owners"], op["counted"][0]) == (
        "replacement-cluster", ["shop-eks"], "base 30 set by cost distribution:eks/replacement-cluster instead of the catalog's 20")
    expected = cli_plan(*[f"--cost={k}={v}" for k, v in cost.items()], EKS_KUBEADM)
    assert [(o["kind"], o["owners"], o["cost"], o["counted"]) for o in expected["operations"]] == [
        (op["kind"], op["owners"], op["cost"], op["counted"])]


def slow_fleet(clusters: int) -> dict:
    """Clusters with one pod and one service range each, all connected: every pair overlaps twice."""
    return {
        "clusters": [{"name": f"c{k}", "pods": "10.0.0.0/16", "services": "10.1.0.0/16"} for k in range(clusters)],
        "connections": [{"name": "mesh", "between": [f"c{k}" for k in range(clusters)]}],
    }


def test_ctrl_c_interrupts_a_long_plan():
    """Fleet.plan() returns to Python at Ctrl-C instead of when the plan is done (issue 16, item 10).
    Self-calibrating: an uninterrupted plan of the same fleet takes `whole` seconds (at least 1; the
    fleet doubles until it does); interrupted 0.1 s in, the call must end well before that. Before
    the fix it ended only with the plan."""
    import signal
    import threading
    import time

    clusters, whole = 100, 0.0
    while True:
        fleet = Fleet.from_dict(slow_fleet(clusters))
        start = time.monotonic()
        fleet.plan()
        whole = time.monotonic() - start
        if whole >= 1.0 or clusters >= 800:
            break
        clusters *= 2
    if whole < 1.0:
        pytest.skip(f"this machine plans {clusters} clusters in {whole:.2f} s: too fast to time an interrupt")
    timer = threading.Timer(0.1, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        fleet.plan()
    elapsed = time.monotonic() - start
    timer.cancel()
    assert elapsed < 0.1 + whole / 2, f"KeyboardInterrupt after {elapsed:.2f} s; the whole plan takes {whole:.2f} s"


def test_origins_are_spelled_as_the_check_spells_them():
    # One spelling of a range's origin in check reports, plan reports and Python (issue 17).
    fleet = Fleet.load(MESH)
    origins = {(r["owner"], r["role"], r["cidr"]): r["origin"] for r in fleet.ranges()}
    plan = fleet.plan()
    assert plan.changes and all(c.origin == origins[(c.owner, c.role, str(c.old))] for c in plan.changes)
    assert {c.origin for c in plan.changes} == {"distribution-default"}
    expected = cli_plan(MESH.relative_to(ROOT))
    assert [c["origin"] for c in expected["changes"]] == [c.origin for c in plan.changes]


SITE_POOLS = ROOT / "tests" / "fixtures" / "fleets" / "plan" / "site-pools.yaml"


def test_every_new_range_says_which_pool_it_came_from():
    # docs/planning.md "Pools by site": the source of each allocated range, as the CLI's JSON gives it.
    plan = Fleet.load(SITE_POOLS).plan()
    sources = {(c.owner, c.role): c.source for c in plan.changes}
    assert sources[("eu-new", "pods")] == "pool eu-aws"
    assert sources[("eu-new", "network")] == "pool eu-aws, adjacent to the cluster's new pods 10.66.0.0/19"
    assert sources[("eu-prod", "pods")] == "pool eu-aws, adjacent to the network it runs in, vpc-eu 10.64.0.0/16"
    assert sources[("us-prod", "services")] == "pool us-services"
    assert sources[("lab", "pods")] == "default pools (no named pool matches)"
    for c in plan.changes:
        assert c.source == c.record().get("source")
    # Without named pools there is no source.
    assert all(c.source is None for c in Fleet.load(MESH).plan().changes)


SHARED_VPC_POOLS = ROOT / "tests" / "fixtures" / "fleets" / "plan" / "shared-vpc-pools.yaml"


def test_named_pools_given_as_an_option_replace_the_files():
    # As `cidrcheck plan --named-pool`: the option's pools replace the file's named pools.
    fleet = Fleet.load(SHARED_VPC_POOLS)
    from_file = {(c.owner, c.role): c for c in fleet.plan().changes}
    assert from_file[("main-vpc", "vpc")].source == "pool eu"
    plan = fleet.plan(named_pools=[{"name": "lab", "cidrs": ["172.24.0.0/13", "fd00:24::/48"],
                                    "for": {"site": "eu", "role": ["network"]}}])
    changes = {(c.owner, c.role): c for c in plan.changes}
    vpc, network = changes[("main-vpc", "vpc")], changes[("api", "network")]
    assert vpc.source == "pool lab"
    assert Prefix("172.24.0.0/13").supernet_of(vpc.new)
    assert network.source == f"the same place in its VPC main-vpc's new range {vpc.new}"
    # The module-level run takes them too, and says the same.
    run = run_plan(SHARED_VPC_POOLS, named_pools=[{"name": "lab", "cidrs": "172.24.0.0/13", "for": {"site": "eu"}}])
    assert {(c.owner, c.role): c.source for c in run.changes}[("main-vpc", "vpc")] == "pool lab"


def test_a_bad_named_pool_is_refused_with_its_name():
    fleet = Fleet.load(SHARED_VPC_POOLS)
    with pytest.raises(ValueError, match="named_pools lab: a pool needs at least one CIDR"):
        fleet.plan(named_pools=[{"name": "lab", "cidrs": []}])
    with pytest.raises(ValueError, match=r"named_pools lab role: unknown role 'pod'"):
        fleet.plan(named_pools=[{"name": "lab", "cidrs": ["10.0.0.0/8"], "for": {"role": "pod"}}])
    with pytest.raises(ValueError, match="unknown key 'site'"):
        fleet.plan(named_pools=[{"name": "lab", "cidrs": ["10.0.0.0/8"], "site": "eu"}])
    with pytest.raises(TypeError, match="needs a name"):
        fleet.plan(named_pools=[{"cidrs": ["10.0.0.0/8"]}])
