"""The capacity questions: free space per pool, largest free block, how many blocks fit, node capacity, utilisation."""

import json
import os
import subprocess
from pathlib import Path

import pytest

import cidrcheck
from cidrcheck import AddressSet, Fleet, Prefix

FLEET = {
    "networks": [{"name": "office", "type": "office", "cidrs": ["192.168.0.0/24"]}],
    "clusters": [
        {"name": "a", "network": "10.0.0.0/16", "pods": "10.1.0.0/16", "services": "10.2.0.0/20",
         "node_cidr_mask": 24, "nodes": 200},
        {"name": "b", "network": "10.3.0.0/16", "pods": "10.1.0.0/17", "services": "10.2.16.0/20", "nodes": 10},
        {"name": "v6", "network": "fd00::/64", "pods": "fd00:1::/56", "services": "fd00:2::/108",
         "node_cidr_mask_v6": 64, "nodes": 300},
    ],
}


# The same fleet without its IPv6 cluster, for comparisons with `cidrcheck capacity` (which reads it from standard input).
FLEET_V4 = {"clusters": [c for c in FLEET["clusters"] if c["name"] != "v6"]}


@pytest.fixture(scope="module")
def fleet():
    return Fleet.from_dict(FLEET)


def test_default_pools_are_the_private_blocks_in_use(fleet):
    assert fleet.default_pools() == [Prefix("10.0.0.0/8"), Prefix("192.168.0.0/16"), Prefix("fc00::/7")]


def test_default_pools_are_the_clis():
    # Issue 25: Python added fc00::/7 for a fleet that declares no IPv6 range; `cidrcheck capacity` does not.
    ipv4 = {"clusters": [{"name": "a", "distribution": "kind", "pods": "10.1.0.0/16"}]}
    assert fleet_pools(Fleet.from_dict(ipv4)) == cli_capacity(ipv4)["pools"]
    assert Prefix("fc00::/7") not in Fleet.from_dict(ipv4).default_pools()


def fleet_pools(fleet, **options):
    """The CLI's keys of pool_usage()'s records (version and used_percent are Python's own, for tables)."""
    return [{k: v for k, v in r.items() if k not in ("version", "used_percent")} for r in fleet.pool_usage(**options)]


def cli_capacity(data, *flags):
    """`cidrcheck capacity --format json` of the fleet data, given on standard input."""
    cli = os.environ.get("CIDRCHECK_CLI")
    if not cli:
        pytest.skip("CIDRCHECK_CLI is not set (CTest sets it to the built cidrcheck)")
    run = subprocess.run([cli, "capacity", "--no-config", "--format", "json", *flags, "-"], capture_output=True,
                         text=True, check=True, input=json.dumps(data))
    return json.loads(run.stdout)


def test_pool_usage_and_node_capacity_have_the_clis_fields():
    expected = cli_capacity(FLEET_V4, "--fit", "16,24", "--free")
    fleet = Fleet.from_dict(FLEET_V4)
    assert fleet_pools(fleet, fit=[16, 24], free=True) == expected["pools"]
    assert [{k: v for k, v in r.items() if k not in ("used_percent", "spare", "version")}
            for r in fleet.node_capacity()] == expected["clusters"]


def test_pool_usage_counts_each_address_once(fleet):
    usage = {r["pool"]: r for r in fleet.pool_usage(fit=[16, 24])}
    ten = usage["10.0.0.0/8"]
    used = 3 * 2**16 + 2 * 2**12  # the two /16 networks, the pods /16 (b's /17 inside it), two /20s
    assert (ten["addresses"], ten["used"], ten["free"]) == (2**24, used, 2**24 - used)
    assert ten["used_percent"] == pytest.approx(100 * used / 2**24)
    assert ten["largest_free"] == "10.128.0.0/9"
    assert ten["fits"] == {"/16": 256 - 4, "/24": 2**16 - 3 * 256 - 32}
    assert usage["192.168.0.0/16"]["used"] == 256
    assert usage["fc00::/7"]["fits"] == {"/16": 2**9 - 1, "/24": 2**17 - 1}
    assert set(usage["fc00::/7"]) == set(ten)  # the same columns for every pool


def test_free_space_lists_the_free_prefixes_of_each_pool(fleet):
    free = [r for r in fleet.free_space("10.0.0.0/8")]
    assert {r["pool"] for r in free} == {"10.0.0.0/8"}
    assert sum(r["num_addresses"] for r in free) == 2**24 - (3 * 2**16 + 2 * 2**12)
    assert AddressSet(r["cidr"] for r in free) == AddressSet(["10.0.0.0/8"]) - fleet.used_space()
    assert free[0] == {"pool": "10.0.0.0/8", "cidr": "10.2.32.0/19", "prefixlen": 19, "num_addresses": 2**13,
                       "first": "10.2.32.0", "last": "10.2.63.255"}


def test_blocks_that_fit_and_the_largest_free_block(fleet):
    assert fleet.count_fitting(16, "10.0.0.0/8") == 252
    assert fleet.count_fitting(16, ["10.0.0.0/8", "172.16.0.0/12"]) == 252 + 16
    assert fleet.largest_free("10.0.0.0/8") == Prefix("10.128.0.0/9")
    with pytest.raises(ValueError, match="version=4 or version=6"):
        fleet.count_fitting(16)  # the default pools hold both versions
    assert fleet.count_fitting(16, version=4) == 252  # 192.168.0.0/16 holds the office: no /16 left
    assert fleet.count_fitting(24, version=4) == 2**16 - 3 * 256 - 32 + 255


def test_the_allocator_plans_new_ranges_in_free_space(fleet):
    allocator = fleet.allocator("10.0.0.0/8")
    new = [allocator.take(16) for _ in range(3)]
    assert new == [Prefix("10.4.0.0/16"), Prefix("10.5.0.0/16"), Prefix("10.6.0.0/16")]
    assert not any(AddressSet([p]).overlaps(fleet.used_space()) for p in new)


def test_node_capacity_counts_as_the_pod_capacity_rule(fleet):
    rows = {r["cluster"]: r for r in fleet.node_capacity()}
    assert rows["a"] == {"cluster": "a", "pods": ["10.1.0.0/16"], "version": 4, "node_mask": 24, "capacity": 256,
                         "nodes": 200, "used_percent": pytest.approx(200 / 256 * 100), "spare": 56}
    assert rows["b"]["capacity"] == 128  # the default mask /24 in a /17
    assert (rows["v6"]["version"], rows["v6"]["capacity"], rows["v6"]["spare"]) == (6, 256, -44)
    assert [f.rule for f in fleet.check() if f.rule == "pod-capacity"] == ["pod-capacity"]  # v6: 300 > 256


def test_node_capacity_of_a_what_if():
    assert cidrcheck.node_capacity("10.0.0.0/16", 24) == 256
    assert cidrcheck.node_capacity("10.0.0.0/16", 16) == 1
    assert cidrcheck.node_capacity("10.0.0.0/16", 15) == 0  # the mask is shorter than the range
    assert cidrcheck.node_capacity("fd00::/48", 64) == 2**16
    assert cidrcheck.node_capacity("fd00::/47", 64) == 0  # 17 bits: kube-controller-manager refuses


def test_utilisation_by_role_and_by_owner(fleet):
    by_role = [r for r in fleet.utilisation(by="role", pools="10.0.0.0/8")]
    assert by_role == [
        {"pool": "10.0.0.0/8", "role": "network", "addresses": 2 * 2**16, "percent": pytest.approx(100 * 2 / 256)},
        {"pool": "10.0.0.0/8", "role": "pods", "addresses": 2**16, "percent": pytest.approx(100 / 256)},  # once
        {"pool": "10.0.0.0/8", "role": "services", "addresses": 2 * 2**12, "percent": pytest.approx(100 / 2048)},
    ]
    by_owner = {r["owner"]: r["addresses"] for r in fleet.utilisation(by="owner")}
    assert by_owner == {"a": 2 * 2**16 + 2**12, "b": 2**16 + 2**15 + 2**12, "office": 256,
                        "v6": 2**64 + 2**72 + 2**20}
    with pytest.raises(ValueError, match="by must be 'role' or 'owner'"):
        fleet.utilisation(by="colour")


def test_node_capacity_lists_the_clusters_the_cli_lists():
    # A VPC-CNI cluster has no pod range: no node blocks, so no row (and no negative spare).
    path = Path(__file__).resolve().parents[3] / "data/examples/peered-team-pods.yaml"
    rows = Fleet.load(path).node_capacity()
    assert [r["cluster"] for r in rows] == ["search"]
    assert all(r["spare"] is None or r["capacity"] > 0 for r in rows)
    cli = os.environ.get("CIDRCHECK_CLI")
    if not cli:
        pytest.skip("CIDRCHECK_CLI is not set (CTest sets it to the built cidrcheck)")
    run = subprocess.run([cli, "capacity", "--no-config", "--format", "json", str(path)], capture_output=True,
                         text=True, check=True)
    assert [c["cluster"] for c in json.loads(run.stdout)["clusters"]] == [r["cluster"] for r in rows]
