#!/usr/bin/python3
"""Checks that no runbook code names a distribution, CNI or IPAM mode (issue 24).

The runbook wing (lib/cidrcheck/fleet/runbook*.{hpp,cpp}, operation_*.cpp,
emit.{hpp,cpp}) reads a cluster's resolved profile (fleet/profile.hpp) and the
operation the planner chose; what a distribution, CNI or IPAM mode does is data
in data/catalog.yaml. This test fails on
- a string literal that is exactly a name the catalog lists under
  `distributions`, `cnis` or their `ipam` modes ("kops", "calico", "host-local");
- a comparison of an owner's `type`, `cni` or `ipam` member (`o.type ==`,
  `.cni !=`, `ipam ==`), whatever it is compared with.
Words inside longer literals (prose, commands the catalog also names) are not
names compared with anything and are not refused; nor are a shell command's
words (`word("kubeadm")`, written by the renderer for a profile's method) and
a document's keys (`{"kind", doc_node...}`). A line whose comment says
`names-ok: REASON` is not refused either: an object or value that happens to
share a catalog name (the ServiceCIDR kube-apiserver calls "kubernetes"); the
reason is for the reviewer.

usage: runbook_names_test.py SOURCE_DIR    check the tree; exit 1 listing each finding
       runbook_names_test.py --self-test   check the checker on made-up files
"""

import pathlib
import re
import sys
import tempfile

import yaml

LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
# Literals that cannot be a name compared with anything: a shell word, a document key.
NOT_A_NAME = re.compile(r'\bword\("(?:[^"\\\n]|\\.)*"\)|(?:\{|emplace_back\()"(?:[^"\\\n]|\\.)*",\s*doc_node')
COMPARISON = re.compile(r"\b(?:type|cni|ipam)\s*(?:==|!=)|(?:==|!=)\s*[\w.>-]*\b(?:type|cni|ipam)\b")


def catalog_names(catalog: dict) -> set[str]:
    names = {d["name"] for d in catalog.get("distributions", [])}
    for cni in catalog.get("cnis", []):
        names.add(cni["name"])
        names.update(m["name"] for m in cni.get("ipam", []))
    return names


def runbook_sources(root: pathlib.Path) -> list[pathlib.Path]:
    fleet = root / "lib" / "cidrcheck" / "fleet"
    out = []
    for pattern in ("runbook*.hpp", "runbook*.cpp", "operation_*.cpp", "emit.hpp", "emit.cpp"):
        out.extend(sorted(fleet.glob(pattern)))
    return [p for p in out if p.name not in ("operation_cover.cpp", "operation_cover.hpp")]


def problems(root: pathlib.Path) -> list[str]:
    catalog = yaml.safe_load((root / "data" / "catalog.yaml").read_text(encoding="utf-8"))
    names = catalog_names(catalog)
    out = []
    files = runbook_sources(root)
    if not files:
        out.append("no runbook sources found under lib/cidrcheck/fleet: the check would pass on nothing")
    for path in files:
        rel = path.relative_to(root).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code, _, comment = line.partition("//")
            if "names-ok:" in comment:
                continue
            for literal in LITERAL.findall(NOT_A_NAME.sub("", code)):
                if literal in names:
                    out.append(f"{rel}:{n}: names \"{literal}\": read it from the cluster's profile instead")
            if COMPARISON.search(code):
                out.append(f"{rel}:{n}: compares a distribution, CNI or IPAM name: {code.strip()}")
    return out


def self_test() -> int:
    """The checker must pass clean code and fail each kind of naming."""
    def tree(d: pathlib.Path, source: str) -> pathlib.Path:
        (d / "data").mkdir(parents=True)
        (d / "data" / "catalog.yaml").write_text(
            "distributions: [{name: kops}]\ncnis: [{name: calico, ipam: [{name: host-local}]}]\n", encoding="utf-8")
        fleet = d / "lib" / "cidrcheck" / "fleet"
        fleet.mkdir(parents=True)
        (fleet / "operation_pods.cpp").write_text(source, encoding="utf-8")
        (fleet / "operation_cover.cpp").write_text('auto x = o.type == "kops";\n', encoding="utf-8")  # not runbook code
        return d

    cases = {
        "clean": ('auto s = "kops update cluster --yes";  // prose with a name is no comparison\n'
                  'if (p.pool.value == pool_kind::calico_ippool) {}\n', 0),
        "literal": ('if (x == "calico") {}\n', 1),
        "ipam literal": ('auto mode = "host-local";\n', 1),
        "comparison": ('if (o.type == name) {}\n', 1),
        "reversed comparison": ('if (name != owner.cni) {}\n', 1),
        "comment only": ('// o.type == "kops" was the old way\n', 0),
        "shell word": ('run({{word("kops"), word("update")}});\n', 0),
        "document key": ('doc_map d{{"kops", doc_node{1}}};\n', 0),
        "document key added": ('d.emplace_back("kops", doc_node{1});\n', 0),
        "document value": ('doc_map d{{"x", doc_node{std::string("kops")}}};\n', 1),
        "marked": ('auto n = "kops";  // names-ok: a made-up object called kops\n', 0),
    }
    failed = 0
    for name, (source, expected) in cases.items():
        with tempfile.TemporaryDirectory() as d:
            found = problems(tree(pathlib.Path(d), source))
            if len(found) != expected:
                print(f"self-test {name}: expected {expected} findings, got {found}")
                failed += 1
    with tempfile.TemporaryDirectory() as d:
        root = pathlib.Path(d)
        (root / "data").mkdir()
        (root / "data" / "catalog.yaml").write_text("distributions: []\n", encoding="utf-8")
        if not problems(root):
            print("self-test empty tree: expected a finding that no sources were found")
            failed += 1
    print(f"{len(cases) + 1 - failed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    found = problems(pathlib.Path(argv[1]))
    for line in found:
        print(line)
    print(f"{len(found)} findings")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
