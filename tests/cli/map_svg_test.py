#!/usr/bin/python3
"""Checks `cidrcheck map` end to end: the SVG is well-formed XML with a bar,
tooltip and label for every range, renders (with rsvg-convert, when
installed), the file is replaced atomically (no
temporary file left, permissions kept), and a failed run leaves nothing behind.

usage: map_svg_test.py CIDRCHECK SCRATCH   (run from the repository root)
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

SVG = "{http://www.w3.org/2000/svg}"
FLEET = "data/examples/platform-fleet.yaml"


def fail(message):
    print(f"map_svg_test: {message}", file=sys.stderr)
    sys.exit(1)


def run(cli, *args):
    return subprocess.run([cli, "map", *args], capture_output=True, text=True)


def main():
    cli, scratch = sys.argv[1], Path(sys.argv[2])
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    out = scratch / "map.svg"

    done = run(cli, "-o", str(out), FLEET)
    if done.returncode != 0 or done.stdout or done.stderr:
        fail(f"map exited {done.returncode}: {done.stderr}")
    root = ET.parse(out).getroot()  # raises on malformed XML
    if root.tag != SVG + "svg" or float(root.get("width")) < 1000 or float(root.get("height")) < 500:
        fail(f"unexpected root {root.tag} {root.attrib}")
    tooltips = [t.text for t in root.iter(SVG + "title")]
    texts = [t.text for t in root.iter(SVG + "text")]
    ranges = json_ranges(cli)
    for owner, cidr in ranges:
        if not any(t.endswith(f"{cidr} of cluster {owner}") or f"{cidr} of cluster {owner} (" in t
                   or f"{cidr} of network {owner}" in t for t in tooltips):
            fail(f"no bar with a tooltip for {owner} {cidr}")
    for owner in {o for o, _ in ranges}:
        if owner not in texts:
            fail(f"no row label {owner}")
    if not any(t.startswith("Address map: 48 clusters, 4 networks, 148 ranges") for t in texts):
        fail("no title")
    fills = [r.get("fill") for r in root.iter(SVG + "rect")]
    for colour, what in (("#e15759", "overlap band"), ("#edc948", "latent overlap band"), ("#cfe8e6", "free space")):
        if colour not in fills:
            fail(f"no {what} ({colour})")

    # It renders: librsvg (.ci/install-deps) draws it to a PNG.
    if shutil.which("rsvg-convert"):
        png = scratch / "map.png"
        subprocess.run(["rsvg-convert", "-o", str(png), str(out)], check=True)
        if png.stat().st_size < 10_000:
            fail("rsvg-convert drew an empty picture")
        png.unlink()

    # Replacing the file keeps its mode and leaves no temporary file behind.
    os.chmod(out, 0o640)
    inode = out.stat().st_ino
    done = run(cli, "-o", str(out), "data/examples/mesh-shared-services.yaml")
    if done.returncode != 0:
        fail(f"second map exited {done.returncode}: {done.stderr}")
    if stat.S_IMODE(out.stat().st_mode) != 0o640 or out.stat().st_ino == inode:
        fail("the file was not replaced by a rename, or lost its mode")
    if sorted(p.name for p in scratch.iterdir()) != ["map.svg"]:
        fail(f"files left behind: {sorted(p.name for p in scratch.iterdir())}")

    # A failed run (bad input) leaves the old file alone; a failed write leaves no temporary file.
    before = out.read_bytes()
    done = run(cli, "-o", str(out), "tests/fixtures/fleets/bad-yaml.yaml")
    if done.returncode != 2 or out.read_bytes() != before:
        fail("bad input changed the output file")
    # A directory is refused, and nothing is left behind.
    target = scratch / "a-directory"
    target.mkdir()
    done = run(cli, "-o", str(target), FLEET)
    if done.returncode != 2 or "error: is a directory" not in done.stderr:
        fail(f"writing over a directory did not fail cleanly: {done.returncode} {done.stderr}")
    if sorted(p.name for p in scratch.iterdir()) != ["a-directory", "map.svg"] or any(target.iterdir()):
        fail(f"a failed write left files behind: {sorted(p.name for p in scratch.iterdir())}")
    print("map_svg_test: ok")


def json_ranges(cli):
    check = subprocess.run([cli, "check", "--format", "json", "--fail-on", "never", FLEET], capture_output=True, text=True)
    findings = json.loads(check.stdout)["findings"]
    # Every range that some finding names, plus a sample from the file: enough to cover all roles and owners.
    out = {(r["owner"], r["cidr"]) for f in findings for r in f["ranges"]}
    out |= {("eu-west-1", "10.16.0.0/17"), ("ap-south-13", "10.60.160.0/20"), ("office-nyc", "192.168.16.0/20")}
    return sorted(out)


if __name__ == "__main__":
    main()
