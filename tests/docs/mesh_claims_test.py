#!/usr/bin/python3
"""Issue 14: the mesh cookbook claimed that Istio, Cilium Cluster Mesh and
Linkerd route ClusterIPs between clusters; none does (docs/migration-facts.md,
section 5, fact mesh-no-clusterip). Equal service ranges collide in a mesh only
through Istio's DNS proxy (mesh-istio-dns). Three checks keep that fixed:

1. Fleets: a `via: mesh` connection of a fleet in data/examples/ that carries
   `services` (listed, or `all` by default) must say why, by citing
   mesh-istio-dns in a comment inside the connection. The check reads the YAML
   node positions, so the comment must belong to that connection.
2. Prose: a sentence of README.md, docs/**/*.md (outside code blocks) or a
   fleet's comments in which a mesh routes or carries services or ClusterIPs
   (in that order, within one clause) is a routing claim; it must be negated
   or cite a mesh-* fact. The facts
   page itself is exempt: it is where those facts and the corrected claims live.
3. Every mesh-* fact id cited anywhere exists in docs/migration-facts.md.

The self-test first runs checks 1 and 2 on the text of the page and fleet as
they were before the fix, which must fail, and on corrected text, which must
pass: the test cannot pass by matching nothing.
usage: mesh_claims_test.py REPO
"""
import re
import sys
from pathlib import Path

import yaml

MESH = r"\b(?:istio|linkerd|cluster ?mesh|meshe?s?)\b"
ROUTING = r"\b(?:rout(?:e|es|ed|ing)|carr(?:y|ies|ied|ying)|forward(?:s|ed|ing)?)\b"
SERVICE_ADDRESS = r"\b(?:cluster ?ips?|clusterips?|services?)\b"
# A claim: a mesh, then (in the same clause) a routing verb, then service addresses.
CLAIM = re.compile(MESH + r"[^.;:]{0,80}?" + ROUTING + r"[^.;:]{0,60}?" + SERVICE_ADDRESS, re.I)
NEGATION = re.compile(r"\b(not|no|never|none|neither|nor)\b|n't\b", re.I)
# A cited mesh fact id; a wildcard such as mesh-istio-* names a family, not an id.
FACT_ID = re.compile(r"\bmesh-(?:istio|cilium|linkerd|no)(?:-[a-z0-9]+)*\b(?![*-])")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def sentences(text):
    """Splits prose into sentences: paragraphs, list items and table rows are
    separate blocks, then each block splits after . ! ? followed by a space."""
    blocks, current = [], []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("- ", "* ", "|", "#")):
            if current:
                blocks.append(" ".join(current))
            current = [stripped] if stripped else []
        else:
            current.append(stripped)
    if current:
        blocks.append(" ".join(current))
    return [s for b in blocks for s in re.split(r"(?<=[.!?])\s+", b) if s]


def routing_claims(text):
    """Sentences that claim a mesh routes service addresses, neither negated nor
    backed by a mesh-* fact."""
    return [s for s in sentences(text)
            if CLAIM.search(s) and not NEGATION.search(s) and not FACT_ID.search(s)]


def yaml_comments(text):
    return "\n".join(line.split("#", 1)[1] for line in text.splitlines() if "#" in line)


def unexplained_mesh_services(text):
    """Names of `via: mesh` connections that carry services with no comment
    citing mesh-istio-dns between the connection's first and last line."""
    lines = text.splitlines()
    root = yaml.compose(text)
    bad = []
    connections = next((v for k, v in (root.value if root else []) if k.value == "connections"), None)
    for item in connections.value if connections is not None else []:
        if not isinstance(item, yaml.MappingNode):
            continue
        fields = {k.value: v for k, v in item.value}
        via = fields.get("via")
        if via is None or via.value != "mesh":
            continue
        routes = fields.get("routes")
        carried = [r.value for r in routes.value] if routes is not None else ["all"]
        if not {"services", "all"} & set(carried):
            continue
        first, last = item.start_mark.line, item.end_mark.line
        comments = yaml_comments("\n".join(lines[first:last + 1]))
        if "mesh-istio-dns" not in comments:
            name = fields["name"].value if "name" in fields else "between " + yaml.serialize(fields["between"]).strip()
            bad.append(f"line {first + 1}: connection {name}")
    return bad


def self_test():
    before_page = ("A multi-cluster service mesh (Istio multi-primary, Cilium Cluster Mesh, Linkerd multicluster\n"
                   "with flat networking) routes pod and service traffic between the clusters,\n"
                   "and then 10.96.0.12 is three different Services at once.\n")
    after_page = ("None of Istio, Cilium Cluster Mesh and Linkerd sends traffic to another cluster's\n"
                  "ClusterIP (`mesh-no-clusterip`).\n\n- **Service ranges.** Istio's DNS proxy resolves remote\n"
                  "Services to their ClusterIPs, so equal ranges collide (`mesh-istio-dns`).\n")
    before_fleet = ("# Harmless while they stand alone; a service mesh across them routes services between\n"
                    "# clusters.\nconnections:\n  - name: mesh\n    between: [a, b]\n    via: mesh\n"
                    "    routes: [pods, services]\n")
    after_fleet = before_fleet.replace("# Harmless while they stand alone; a service mesh across them routes services between\n"
                                       "# clusters.\n", "# An Istio mesh routes no ClusterIP between clusters.\n") \
                              .replace("[pods, services]", "[pods, services]   # Istio DNS proxy (mesh-istio-dns)")
    problems = []
    if not routing_claims(before_page):
        problems.append("the sentence check misses the old mesh page's claim")
    if routing_claims(after_page):
        problems.append(f"the sentence check flags corrected text: {routing_claims(after_page)}")
    if not routing_claims(yaml_comments(before_fleet)) or not unexplained_mesh_services(before_fleet):
        problems.append("the fleet checks miss the old fleet's claim")
    if routing_claims(yaml_comments(after_fleet)) or unexplained_mesh_services(after_fleet):
        problems.append("the fleet checks flag a corrected fleet")
    return problems


def main():
    repo = Path(sys.argv[1])
    facts_page = repo / "docs" / "migration-facts.md"
    known = set(re.findall(r"^\| (mesh-[a-z0-9-]+) \|", facts_page.read_text(encoding="utf-8"), re.M))
    problems = self_test()
    if not known:
        problems.append("docs/migration-facts.md lists no mesh-* fact")
    pages = [repo / "README.md"] + sorted((repo / "docs").rglob("*.md"))
    fleets = sorted((repo / "data" / "examples").glob("*.yaml"))
    checked = 0
    for path in pages + fleets:
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(repo)
        if path.suffix == ".yaml":
            prose = yaml_comments(text)
            problems += [f"{where}: {c}: a mesh connection carries services without citing mesh-istio-dns"
                         for c in unexplained_mesh_services(text)]
        else:
            prose = FENCE.sub("", text)
        if path != facts_page:
            problems += [f"{where}: a mesh routing claim with no negation and no mesh-* fact: {s!r}"
                         for s in routing_claims(prose)]
        problems += [f"{where}: cites {i}, which docs/migration-facts.md does not list"
                     for i in sorted(set(FACT_ID.findall(text)) - known)]
        checked += 1
    for p in problems:
        print("FAIL: " + p)
    print(f"mesh_claims: {checked} files, {len(known)} mesh facts, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
