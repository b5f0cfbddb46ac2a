#!/usr/bin/python3
"""docs/planning.md's operation table is generated from data/catalog.yaml.

The table between the markers `<!-- operations: begin -->` and
`<!-- operations: end -->` of docs/planning.md is rendered from the catalog's
`operations:` (kind, what it changes, when it applies, cost and why, source),
so the page cannot say what the catalog does not. The test fails when the two
differ; CIDRCHECK_UPDATE_DOCS=1 rewrites the table from the catalog.

usage: planning_operations_test.py SOURCE_DIR
       planning_operations_test.py --self-test
"""

import os
import pathlib
import sys
import tempfile

import yaml

BEGIN = "<!-- operations: begin (generated from data/catalog.yaml by tests/docs/planning_operations_test.py) -->"
END = "<!-- operations: end -->"

CHANGES = {
    "services": "one service range, in place",
    "pods": "one pod range, in place",
    "pod-space": "pod space, added beside the old range",
    "pod-expand": "pod space, the pod range grown in place to a prefix that contains it",
    "pod-withdraw": "one pod range's pods, moved to a new range; the old range stays, withdrawn from its connections",
    "network": "a network: a VPC and every cluster in it",
    "cluster": "every range of one cluster",
}


FAMILIES = {"ipv4": "IPv4", "ipv6": "IPv6"}

# An operation's pod_addresses words, as the table says them.
POD_ADDRESSES = {"node-pod-cidr": "Node podCIDRs", "cni-pool": "the CNI's pools", "network": "the network",
                 "unknown": "a source the catalog does not know"}


def cell(text) -> str:
    """Catalog text as one Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def words(items) -> str:
    return ", ".join(f"`{x}`" if x else "the CNI's default" for x in items)


def when(op: dict) -> str:
    parts = []
    if op.get("owners") == "network":
        parts.append("a network owner (not a cluster) marked `movable: true`")
    if op.get("distributions"):
        parts.append("distribution " + words(op["distributions"]))
    if op.get("not_distributions"):
        parts.append("not " + words(op["not_distributions"]))
    if op.get("cni"):
        parts.append("CNI " + words(op["cni"]))
    if op.get("ipam"):
        parts.append("IPAM " + words(op["ipam"]))
    if op.get("families"):
        parts.append("ranges of " + " and ".join(FAMILIES[x] for x in op["families"]) + " only")
    if op.get("pod_addresses"):
        sources = [POD_ADDRESSES[x] for x in op["pod_addresses"]["value"]]
        parts.append("pods that take their addresses from " + " or ".join(sources) +
                     f" (fact `{op['pod_addresses']['fact']}`)")
    k = op.get("kubernetes") or {}
    if "from" in k and "to" in k:
        parts.append(f"Kubernetes {k['from']} to {k['to']}")
    elif "from" in k:
        parts.append(f"Kubernetes {k['from']} or later")
    elif "to" in k:
        parts.append(f"Kubernetes up to {k['to']}")
    return "; ".join(parts) if parts else "any cluster"


def cost(op: dict) -> str:
    text = str(op.get("cost", 1))
    for key, what in (("per_nodes", "nodes"), ("per_services", "Services"), ("per_load_balancers", "LoadBalancers")):
        if op.get(key):
            text += f", +1 per {op[key]} {what}"
    return text + ": " + cell(op["why"])


def table(catalog: dict) -> str:
    rows = ["| kind | changes | when it applies | what it does | default cost and why | source of the facts |",
            "|---|---|---|---|---|---|"]
    for op in catalog["operations"]:
        rows.append(f"| `{op['name']}` | {CHANGES[op['changes']]} | {when(op)} | {cell(op['what'])} | {cost(op)} | "
                    f"{cell(op['source'])} |")
    return "\n".join(rows) + "\n"


def check(page: str, catalog: dict, update: bool) -> tuple[str, list[str]]:
    """Returns the page (rewritten when update) and the problems."""
    if BEGIN not in page or END not in page:
        return page, ["docs/planning.md has no generated operation table (markers missing)"]
    head, rest = page.split(BEGIN, 1)
    current, tail = rest.split(END, 1)
    want = "\n" + table(catalog)
    if current == want:
        return page, []
    if update:
        return head + BEGIN + want + END + tail, []
    return page, ["docs/planning.md's operation table differs from data/catalog.yaml "
                  "(CIDRCHECK_UPDATE_DOCS=1 rewrites it)"]


def self_test() -> int:
    catalog = {"operations": [{"name": "a", "changes": "pods", "cni": ["calico"], "ipam": ["", "calico-ipam"],
                               "pod_addresses": {"value": ["node-pod-cidr", "unknown"], "fact": "f"}, "cost": 3, "per_nodes": 50, "what": "x", "why": "y | z", "source": "s"}]}
    page = f"intro\n{BEGIN}\n{table(catalog)}{END}\nrest\n"
    failed = 0
    if check(page, catalog, False)[1]:
        print("self-test: an agreeing table was refused")
        failed += 1
    changed = dict(catalog, operations=[dict(catalog["operations"][0], cost=4)])
    if not check(page, changed, False)[1]:
        print("self-test: a table that no longer agrees passed")
        failed += 1
    missing = {"operations": catalog["operations"] + [dict(catalog["operations"][0], name="b")]}
    if not check(page, missing, False)[1]:
        print("self-test: a table missing an operation passed")
        failed += 1
    if not check("no markers\n", catalog, False)[1]:
        print("self-test: a page without the table passed")
        failed += 1
    rewritten, problems = check(page, changed, True)
    if problems or check(rewritten, changed, False)[1]:
        print("self-test: the update did not make the page agree")
        failed += 1
    if ("the CNI's default" not in table(catalog) or "y \\| z" not in table(catalog) or
            "from Node podCIDRs or a source the catalog does not know (fact `f`)" not in table(catalog)):
        print("self-test: cells are not rendered as expected")
        failed += 1
    print(f"{6 - failed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1])
    path = root / "docs" / "planning.md"
    catalog = yaml.safe_load((root / "data" / "catalog.yaml").read_text(encoding="utf-8"))
    update = os.environ.get("CIDRCHECK_UPDATE_DOCS") == "1"
    page, problems = check(path.read_text(encoding="utf-8"), catalog, update)
    if update:
        path.write_text(page, encoding="utf-8")
    for p in problems:
        print(p)
    print("ok" if not problems else f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
