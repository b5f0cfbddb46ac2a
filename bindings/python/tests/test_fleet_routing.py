"""Issue 15 in Python: a cluster's CNI, IPAM mode, block sizes and IP family;
translated connections; the routes a network carries. All read-only records."""

from pathlib import Path

from cidrcheck import Fleet

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests/fixtures"


def by_name(records):
    return {r["name"]: r for r in records}


def test_calico_block_sizes_are_the_pools_or_the_clusters_own():
    owners = by_name(Fleet.load(FIXTURES / "fleets/cni/calico.yaml").owners())
    blocks = owners["blocks"]
    assert (blocks["cni"], blocks["ipam"], blocks["block_size"], blocks["block_size_v6"]) == ("calico", "calico-ipam", 26, 122)
    assert owners["big-blocks"]["block_size"] == 22  # declared


def test_cilium_ipam_modes():
    owners = by_name(Fleet.load(FIXTURES / "fleets/cni/cilium.yaml").owners())
    assert owners["pool"]["ipam"] == "cluster-pool"  # the CNI's default mode
    assert owners["pool"]["block_size"] == 24        # cluster-pool's mask size
    assert owners["host-scope"]["ipam"] == "kubernetes"
    assert owners["eni"]["ipam"] == "eni"


def test_without_a_cni_the_block_is_the_node_mask_and_a_network_has_none():
    fleet = Fleet.from_dict({
        "version": 1,
        "clusters": [
            {"name": "plain", "distribution": "kubeadm", "network": "10.0.0.0/16", "pods": "10.1.0.0/16",
             "node_cidr_mask": 25},
            {"name": "lab", "distribution": "kind"},
            {"name": "lab6", "distribution": "kind", "ip_family": "dual"},
            {"name": "custom", "distribution": "kubeadm", "cni": "somecni", "ipam": "own-mode",
             "network": "10.2.0.0/16", "pods": "10.3.0.0/16"},
        ],
        "networks": [{"name": "office", "cidrs": ["192.168.0.0/24"]}],
    })
    owners = by_name(fleet.owners())
    plain = owners["plain"]
    assert (plain["cni"], plain["ipam"], plain["block_size"], plain["block_size_v6"], plain["ip_family"]) == (
        None, None, 25, 64, None)
    assert owners["lab"]["ip_family"] == "ipv4"   # kind's default (data/catalog.yaml)
    assert owners["lab6"]["ip_family"] == "dual"  # the cluster's own
    assert (owners["custom"]["cni"], owners["custom"]["ipam"]) == ("somecni", "own-mode")  # a CNI the catalog does not know
    office = owners["office"]
    assert [office[k] for k in ("cni", "ipam", "block_size", "block_size_v6", "ip_family")] == [None] * 5


def test_a_translated_connection_lists_each_members_global_ranges():
    [clusterset] = Fleet.load(FIXTURES / "fleets/nat/globalnet.yaml").connections()
    assert clusterset["via"] == "globalnet"
    assert clusterset["translates"] is True
    assert clusterset["translated"] == [
        {"owner": "east", "cidr": "242.0.0.0/16"},
        {"owner": "west", "cidr": "242.1.0.0/16"},
        {"owner": "south", "cidr": "242.1.128.0/17"},
    ]
    [vpn] = Fleet.load(FIXTURES / "routes/vpn-routes.yaml").connections()
    assert (vpn["translates"], vpn["translated"]) == (False, [])


def test_routes_name_their_destination_and_advertiser():
    routes = Fleet.load(FIXTURES / "routes/vpn-routes.yaml").routes()
    assert [(r["network"], r["cidr"], r["to"], r["to_kind"], r["advertiser"], r["from"]) for r in routes] == [
        ("vpn", "10.40.0.0/16", "staging", "cluster", "vpn-gw-1", None),
        ("vpn", "10.48.0.0/13", "prod", "cluster", "vpn-gw-1", None),
        ("vpn", "10.8.0.128/25", "prod", "cluster", "vpn-gw-2", None),
        ("vpn", "10.40.0.0/16", "prod", "cluster", "vpn-gw-2", None),
    ]
    assert routes[0]["file"].endswith("vpn-routes.yaml") and routes[0]["line"] == 8


def test_imported_routes_say_where_they_were_read():
    fleet = Fleet.load(f"tailscale:{FIXTURES / 'routes/subnet-routers.hujson'}", FIXTURES / "routes/vpcs.yaml")
    routes = fleet.routes()
    assert routes and all(r["from"] for r in routes)
    assert {r["network"] for r in routes} == {o["name"] for o in fleet.owners() if o["type"] == "tailscale"}
    # A route's prefix is one of the network's ranges, role "route".
    ranges = {(r["owner"], r["cidr"]) for r in fleet.ranges() if r["role"] == "route"}
    assert {(r["network"], r["cidr"]) for r in routes} == ranges


def test_a_fleet_without_routes_or_translation():
    fleet = Fleet.from_dict({"version": 1, "clusters": [{"name": "a", "distribution": "kubeadm",
                                                         "network": "10.0.0.0/16", "pods": "10.1.0.0/16"}]})
    assert fleet.routes() == []
