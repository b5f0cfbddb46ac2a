#!/usr/bin/python3
"""The encoding and syntax matrix of docs/limits.md, through the command line.

For every kind of input (fleet file, configuration file, plain list, a JSON, a
YAML and a HuJSON export), each variant of a clean document either reads the
same as the clean document (the same exit status and output, byte for byte;
"moved" where the layout changes: the same but for line:column positions) or
is an error at a position (exit 2, "FILE:LINE:COL: error: ...").

Each variant is written to its own directory under the same file name, so
outputs that name the file compare equal.

Usage: encodings_test.py CIDRCHECK REPO SCRATCH
"""
import re
import shutil
import subprocess
import sys
from pathlib import Path

CLI, REPO, SCRATCH = Path(sys.argv[1]).resolve(), Path(sys.argv[2]), Path(sys.argv[3])

FLEET = b"""version: 1
clusters:
  - name: a
    pods: [10.0.0.0/16]
  - name: b
    pods: [10.0.0.0/16]
connections:
  - [a, b]
"""
CONFIG = b"""version: 1
fail-on: warning
reserved:
  - cidr: 10.200.0.0/16
    name: lab
"""
LIST = b"10.0.0.0/8\n10.1.0.0/16  # a comment\n192.168.0.0/24\n"


def bom(text):
    return b"\xef\xbb\xbf" + text


def crlf(text):
    return text.replace(b"\n", b"\r\n")


def lone_cr(text):
    """The first line break a lone CR: a line break to YAML, not to editors."""
    return text.replace(b"\n", b"\r", 1)


def utf16(text):
    return text.decode().encode("utf-16")  # with its byte-order mark


def utf32(text):
    return text.decode().encode("utf-32")  # with its byte-order mark (FF FE 00 00, which starts like UTF-16's)


def insert_after(text, marker, extra):
    at = text.index(marker) + len(marker)
    return text[:at] + extra + text[at:]


# Each input: the file name, the command (FILE is the file), the clean text, and
# its variants: name -> (text, outcome), outcome "same" or a part of the error message.
INPUTS = {
    "fleet": ("fleet.yaml", ["check", "-q", "FILE"], FLEET, {
        "bom": (bom(FLEET), "same"),
        "crlf": (crlf(FLEET), "same"),
        "tab-separators": (FLEET.replace(b"pods: [", b"pods:\t["), "same"),
        "lone-cr": (lone_cr(FLEET), "ends a line for YAML but not for editors"),
        "next-line": (FLEET.replace(b"version: 1\n", b"version: 1\xc2\x85"), "ends a line for YAML but not for editors"),
        "utf-16": (utf16(FLEET), "UTF-16"),
        "utf-32": (utf32(FLEET), "is UTF-32"),
        "utf-32-big-endian": (FLEET.decode().encode("utf-32-be").join([b"\0\0\xfe\xff", b""]), "is UTF-32"),
        "tab-indentation": (FLEET.replace(b"    pods", b"\tpods"), "tab"),
        "non-utf8": (FLEET.replace(b"name: b", b"name: b\xff"), "invalid leading UTF-8 octet"),
        "duplicate-key": (FLEET.replace(b"    pods: [10.0.0.0/16]\n  - name: b",
                                        b"    pods: [10.0.0.0/16]\n    pods: [10.2.0.0/16]\n  - name: b"),
                          "duplicate key 'pods'"),
        "anchors-and-merge-keys": (b"version: 1\nx-pods: &pods {pods: [10.0.0.0/16]}\nclusters:\n"
                                   b"  - name: a\n    <<: *pods\n  - name: b\n    <<: *pods\n"
                                   b"connections:\n  - [a, b]\n", "moved"),
        "duplicate-merge-keys": (b"version: 1\nx-pods: &pods {pods: [10.0.0.0/16]}\nx-more: &more {nodes: 3}\n"
                                 b"clusters:\n  - name: a\n    <<: *pods\n    <<: *more\n  - name: b\n    <<: *pods\n"
                                 b"connections:\n  - [a, b]\n", "duplicate key '<<'"),
        "name-with-a-line-feed": (FLEET.replace(b"name: b", b'name: "b\\n::error::forged"'), "invalid name"),
        "name-with-an-escape": (FLEET.replace(b"name: b", b'name: "b\\e[31m"'), "control character"),
        "name-with-nul": (FLEET.replace(b"name: b", b'name: "b\\0"'), "control character"),
        "empty-name": (FLEET.replace(b"name: b", b'name: ""'), "a name cannot be empty"),
        "blank-name": (FLEET.replace(b"name: b", b'name: "   "'), "a name cannot be only blanks"),
        # Issue 28: names XML and YAML cannot hold, or that print as nothing.
        "name-with-a-noncharacter": (FLEET.replace(b"name: b", b'name: "b\\uFFFE"'), "Unicode noncharacter (U+FFFE"),
        "name-of-invisible-characters": (FLEET.replace(b"name: b", b'name: "\\u00A0\\u200B"'),
                                         "only blanks and zero-width characters"),
        # Issue 28, item 8: forms plan --format yaml must rewrite (PLANNED below plans each that reads).
        "range-as-a-block-scalar": (FLEET.replace(b"name: b\n    pods: [10.0.0.0/16]",
                                                  b"name: b\n    pods: |-\n      10.0.0.0/16"), "moved"),
        "range-as-a-folded-scalar": (FLEET.replace(b"name: b\n    pods: [10.0.0.0/16]",
                                                   b"name: b\n    pods:\n      - >-\n        10.0.0.0/16"), "moved"),
        "name-as-an-explicit-key": (FLEET.replace(b"  - name: b\n", b"  - ? name\n    : b\n"), "moved"),
        "nodes-past-64-bits": (FLEET.replace(b"name: b\n", b"name: b\n    nodes: 18446744073709551616\n"),
                               "(too large)"),
        "json": (b'{"version": 1, "clusters": [{"name": "a", "pods": ["10.0.0.0/16"]},'
                 b' {"name": "b", "pods": ["10.0.0.0/16"]}], "connections": [["a", "b"]]}\n', "moved"),
    }),
    "config": ("config.yaml", ["check", "-q", "--config", "FILE", "fleet.yaml"], CONFIG, {
        "bom": (bom(CONFIG), "same"),
        "crlf": (crlf(CONFIG), "same"),
        "utf-16": (utf16(CONFIG), "UTF-16"),
        "utf-32": (utf32(CONFIG), "is UTF-32"),
        "lone-cr": (lone_cr(CONFIG), "moved"),
        "tab-indentation": (CONFIG.replace(b"    name", b"\tname"), "tab"),
        "non-utf8": (CONFIG.replace(b"name: lab", b"name: lab\xff"), "invalid leading UTF-8 octet"),
        "duplicate-key": (CONFIG.replace(b"fail-on: warning", b"fail-on: warning\nfail-on: error"),
                          "duplicate key 'fail-on'"),
        "anchors-and-merge-keys": (b"version: 1\nfail-on: warning\nx-lab: &lab {cidr: 10.200.0.0/16}\n"
                                   b"reserved:\n  - <<: *lab\n    name: lab\n", "same"),
        "json": (b'{"version": 1, "fail-on": "warning", "reserved": [{"cidr": "10.200.0.0/16", "name": "lab"}]}\n',
                 "same"),
    }),
    "list": ("list.txt", ["set", "merge", "FILE"], LIST, {
        "bom": (bom(LIST), "same"),
        "crlf": (crlf(LIST), "same"),
        "lone-cr": (lone_cr(LIST), "invalid prefix"),
        "utf-16": (utf16(LIST), "invalid prefix"),
        "tabs": (LIST.replace(b"  #", b"\t#").replace(b"192", b"\t192"), "same"),
        "non-utf8-in-a-comment": (LIST.replace(b"a comment", b"a \xff comment"), "same"),
        "non-utf8": (LIST.replace(b"/24", b"/24\xff"), "invalid prefix"),
        "json": (b'["10.0.0.0/8", "10.1.0.0/16"]\n', "invalid prefix"),
    }),
}


def export_inputs():
    """The exports: the repository's fixtures, read in each variant."""
    fixtures = REPO / "tests" / "fixtures" / "import"
    vpcs = (fixtures / "aws-vpcs" / "vpcs.json").read_bytes()
    kops = (fixtures / "kops" / "minimal.yaml").read_bytes()
    policy = (fixtures / "tailscale" / "policy.hujson").read_bytes()
    INPUTS["aws-vpcs"] = ("vpcs.json", ["import", "aws-vpcs", "FILE"], vpcs, {
        "bom": (bom(vpcs), "same"),
        "crlf": (crlf(vpcs), "same"),
        "utf-16": (utf16(vpcs), "UTF-16"),
        "tab-indentation": (re.sub(rb"(?m)^((?:    )+)", lambda m: b"\t" * (len(m.group(1)) // 4), vpcs), "moved"),
        "non-utf8": (insert_after(vpcs, b'"VpcId": "', b"\xff"), "invalid leading UTF-8 octet"),
        "duplicate-key": (insert_after(vpcs, b'"OwnerId": "111122223333",', b' "OwnerId": "1",'),
                          "duplicate key 'OwnerId'"),
        "yaml": (yaml_of_json(vpcs), "moved"),
    })
    INPUTS["kops"] = ("cluster.yaml", ["import", "kops", "FILE"], kops, {
        "bom": (bom(kops), "same"),
        "crlf": (crlf(kops), "same"),
        "tab-indentation": (kops.replace(b"\n  networkCIDR", b"\n\tnetworkCIDR"), "tab"),
        "non-utf8": (kops.replace(b"cloudProvider: aws", b"cloudProvider: aws\xff"), "invalid leading UTF-8 octet"),
        "duplicate-key": (kops.replace(b"  networkCIDR: 172.20.0.0/16\n",
                                       b"  networkCIDR: 172.20.0.0/16\n  networkCIDR: 172.21.0.0/16\n"),
                          "duplicate key 'networkCIDR'"),
        "anchors": (kops.replace(b"  networkCIDR: 172.20.0.0/16\n", b"  networkCIDR: &net 172.20.0.0/16\n")
                    .replace(b"    - 0.0.0.0/0\n  topology", b"    - *net\n  topology"), "same"),
        "json": (json_of_yaml(kops), "moved"),
    })
    # NetBox's CSV export (netbox-csv): the fixture as LF text without its byte-order mark, then each variant.
    csv = (fixtures / "netbox" / "prefixes.csv").read_bytes().removeprefix(b"\xef\xbb\xbf").replace(b"\r\n", b"\n")
    INPUTS["netbox-csv"] = ("prefixes.csv", ["import", "netbox-csv", "FILE"], csv, {
        "bom": (bom(csv), "same"),
        "crlf": (crlf(csv), "same"),
        "lone-cr": (lone_cr(csv), "fields, the header"),  # not a line break: the rows around it join
        "tabs": (csv.replace(b",10.0.0.0/8,", b",\t10.0.0.0/8\t,", 1), "moved"),
        "quoted-prefix": (csv.replace(b",10.0.0.0/8,", b',"10.0.0.0/8",', 1), "moved"),
        "non-utf8": (csv.replace(b"RFC 1918 space", b"RFC 1918 \xff space"), "a byte that is not UTF-8"),
        "utf-16": (utf16(csv), "a byte that is not UTF-8"),
        "utf-32": (utf32(csv), "a byte that is not UTF-8"),
        "duplicate-column": (csv.replace(b",Comments,", b",Description,", 1), "names the column Description twice"),
        "duplicate-unread-column": (csv.replace(b",Comments,", b",Tags,", 1), "same"),  # a column cidrcheck does not read
        "json": ((fixtures / "netbox" / "prefixes.json").read_bytes(), "whose header names a Prefix column"),
    })
    INPUTS["tailscale"] = ("policy.hujson", ["import", "tailscale", "FILE"], policy, {
        "bom": (bom(policy), "same"),
        "crlf": (crlf(policy), "same"),
        "lone-cr": (lone_cr(policy), "moved"),
        "spaces-for-tabs": (policy.replace(b"\t", b"    "), "moved"),
        "non-utf8-in-a-comment": (policy.replace(b"the Berlin office", b"the Berlin \xff office"), "same"),
        "non-utf8": (policy.replace(b"group:sre", b"group:sre\xff", 1), "invalid leading UTF-8 octet"),
    })


def planned(directory, name, text):
    """Issue 25 and 28: `plan --format yaml` of a fleet file that reads never exits 3; the plan it
    writes reads back and checks clean (FLEET's one overlap has a plan), as JSON where the input is JSON.
    Returns a failure, or None."""
    status, out, err = run(directory, name, ["plan", "--format", "yaml", "FILE"])
    if status != 0:
        return f"plan --format yaml exits {status}: {err.decode(errors='replace')[:400]}"
    if text.lstrip().startswith(b"{"):
        import json
        try:
            json.loads(out)
        except ValueError as e:
            return f"plan --format yaml of JSON writes no JSON ({e}):\n{out.decode(errors='replace')[:400]}"
    (directory / "planned").mkdir()
    (directory / "planned" / name).write_bytes(out)
    status, _, err = run(directory / "planned", name, ["check", "-q", "FILE"])
    if status != 0:
        return f"the planned file checks with exit {status}: {err.decode(errors='replace')[:400]}"
    return None


def xml_and_yaml_writers():
    """Issue 28, items 10-12: text no name may hold (a suppression's reason, a description from an
    export's Name tag: DEL, C1 controls, U+FEFF, U+FFFE, U+FFFF; a name starting with '@' or '`')
    goes into well-formed XML (JUnit, Checkstyle, html, the SVG map) and into YAML that reads back
    (`import`, `plan --format yaml`). Returns the failures."""
    import xml.etree.ElementTree as ElementTree
    failures = []
    directory = SCRATCH / "writers"
    directory.mkdir(parents=True)
    odd = "del\x7f c1\x80\x9f bom\ufeff non\ufffe\uffff"
    fleet = (FLEET.decode().replace("name: a", 'name: "@a"').replace("[a, b]", '["@a", "`b"]')
             .replace("name: b", 'name: "`b"') +
             "suppressions:\n  - rule: overlap\n    entities: ['@a']\n    reason: " + json_string(odd) + "\n")
    (directory / "fleet.yaml").write_text(fleet, encoding="utf-8")
    for fmt in ("junit", "checkstyle", "html"):
        status, out, err = run(directory, "fleet.yaml", ["check", "--format", fmt, "FILE"])
        try:
            if fmt == "html":
                if "\ufffe".encode() in out or "\uffff".encode() in out:
                    raise ValueError("a noncharacter in the page")
            else:
                ElementTree.fromstring(out)
        except (ValueError, ElementTree.ParseError) as e:
            failures.append(f"writers/{fmt}: not well-formed ({e}): exit {status} {err.decode(errors='replace')[:200]}")
    status, out, err = run(directory, "fleet.yaml", ["map", "-o", "map.svg", "FILE"])
    try:
        ElementTree.parse(directory / "map.svg")
    except (OSError, ElementTree.ParseError) as e:
        failures.append(f"writers/map: not well-formed ({e}): exit {status} {err.decode(errors='replace')[:200]}")
    # An export whose Name tag holds what YAML does not allow raw, imported and read back.
    vpcs = json_string(odd)
    export = ('{"Vpcs": [{"VpcId": "vpc-1", "CidrBlock": "10.9.0.0/16", "Tags": [{"Key": "Name", "Value": '
              + vpcs + '}]}]}')
    (directory / "vpcs.json").write_text(export, encoding="utf-8")
    status, out, err = run(directory, "vpcs.json", ["import", "aws-vpcs", "FILE"])
    (directory / "imported.yaml").write_bytes(out)
    again = run(directory, "imported.yaml", ["check", "-q", "FILE"])
    if status != 0 or again[0] != 0:
        failures.append(f"writers/import: exit {status}, read back {again[0]}: {again[2].decode(errors='replace')[:300]}")
    # The overlay of a plan names owners '@a' and '`b'.
    status, out, err = run(directory, "fleet.yaml", ["plan", "--format", "yaml", "-o", "overlay.yaml", "FILE",
                                                     "aws-vpcs:vpcs.json"])
    if status != 0:
        failures.append(f"writers/overlay: plan exits {status}: {err.decode(errors='replace')[:300]}")
    return failures


def json_string(text):
    import json
    return json.dumps(text)


def yaml_of_json(text):
    """The document as block YAML (what `aws --output yaml` prints), by python3-yaml."""
    import json
    import yaml
    return yaml.safe_dump(json.loads(text), default_flow_style=False).encode()


def json_of_yaml(text):
    """Each document of the stream as JSON (what `kops get -o json` prints), by python3-yaml."""
    import json
    import yaml
    return "\n---\n".join(json.dumps(d, indent=2, default=str) for d in yaml.safe_load_all(text)).encode()


def unpositioned(result):
    status, out, err = result
    return status, re.sub(rb":\d+:\d+", b":L:C", out), re.sub(rb":\d+:\d+", b":L:C", err)


def run(directory, name, command):
    args = [str(CLI)] + [name if a == "FILE" else a for a in command]
    done = subprocess.run(args, cwd=directory, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return done.returncode, done.stdout, done.stderr


def main():
    export_inputs()
    if SCRATCH.exists():
        shutil.rmtree(SCRATCH)
    failures, cells = [], 0
    for kind, (name, command, clean, variants) in INPUTS.items():
        def prepare(variant, text):
            directory = SCRATCH / kind / variant
            directory.mkdir(parents=True)
            (directory / name).write_bytes(text)
            (directory / "fleet.yaml").write_bytes(FLEET) if name != "fleet.yaml" else None
            return directory

        want = run(prepare("clean", clean), name, command)
        if want[0] not in (0, 1):
            failures.append(f"{kind}: the clean document exits {want[0]}: {want[2].decode(errors='replace')}")
            continue
        for variant, (text, outcome) in variants.items():
            cells += 1
            directory = prepare(variant, text)
            got = run(directory, name, command)
            (directory / name).read_bytes() == text or failures.append(f"{kind}/{variant}: the input was modified")
            label = f"{kind}/{variant} (`{' '.join(command)}` in {directory})"
            if outcome in ("same", "moved") and kind == "fleet":
                problem = planned(directory, name, text)
                problem and failures.append(f"{label}: {problem}")
            if outcome == "same":
                if got != want:
                    failures.append(f"{label}: reads differently from the clean document:\n"
                                    f"  exit {got[0]} (clean {want[0]})\n  {got[2].decode(errors='replace')[:400]}")
            elif outcome == "moved":
                if unpositioned(got) != unpositioned(want):
                    failures.append(f"{label}: reads differently from the clean document (positions aside):\n"
                                    f"  exit {got[0]} (clean {want[0]})\n  {got[2].decode(errors='replace')[:400]}")
            else:
                message = got[2].decode(errors="replace")
                first = message.splitlines()[0] if message else ""
                if got[0] != 2 or not re.match(re.escape(name) + r":\d+:\d+: error: ", first) or outcome not in message:
                    failures.append(f"{label}: expected exit 2 and a positioned error about '{outcome}', "
                                    f"got exit {got[0]}: {message[:400]}")
    failures += xml_and_yaml_writers()
    for f in failures:
        print("encodings_test:", f, file=sys.stderr)
    print(f"encodings_test: {cells} cells, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
