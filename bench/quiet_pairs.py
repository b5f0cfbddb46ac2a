#!/usr/bin/python3
"""Times `cidrcheck check` and `plan` end to end on fleets whose overlapping
pairs are mostly no finding (issue 28, items 3 and 7), for one binary or two
side by side (--baseline: an older build, to show the growth it had).

Shapes (N is the size):
  one-vpc     one VPC (10.64.0.0/10) and N clusters in it, each network the VPC's own block
              (kops in a shared VPC): N(N+1)/2 overlapping pairs, no finding
  twin-routes a tailnet approving 10.0.0.0/8 N times for one router, and N/10
              clusters inside it: N(N-1)/2 route pairs, no finding
  networks    N networks each with a route of 10.0.0.0/8 (routes of different
              networks are not compared)
  disjoint    N disjoint networks, nothing to fix: `plan` against `check`

Each run is the best wall time of --repeats, with a --timeout (a run past it
prints "> T s"). A flat "us per range" column means linear growth.

usage: quiet_pairs.py [--shape SHAPE] [--sizes N,N,...] [--command check|plan]
                      [--cidrcheck PATH] [--baseline PATH] [--repeats 3] [--timeout 120]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def one_vpc(n, out):
    out.write("version: 1\nnetworks:\n  - {name: vpc, type: vpc, cidrs: [10.64.0.0/10]}\nclusters:\n")
    for k in range(n):
        # Pods and services of their own, outside the VPC: IPv6 unique-local space has room for any N.
        out.write(f"  - {{name: c{k}, distribution: kops, network: 10.64.0.0/10, pods: 'fd10:{k >> 16:x}:{k & 0xffff:x}::/64', "
                  f"services: 'fd20:{k >> 16:x}:{k & 0xffff:x}::/112'}}\n")
    return 1 + 3 * n


def twin_routes(n, out):
    out.write("version: 1\nnetworks:\n  - name: tailnet\n    type: tailscale\n    routes:\n")
    for _ in range(n):
        out.write("      - {cidr: 10.0.0.0/8, advertised_by: 'tag:router'}\n")
    clusters = n // 10
    out.write("clusters:\n")
    for k in range(clusters):
        out.write(f"  - {{name: c{k}, distribution: kubeadm, network: 10.{k >> 8}.{k & 255}.0/24, pods: [], services: []}}\n")
    members = ", ".join(["tailnet"] + [f"c{k}" for k in range(clusters)])
    out.write(f"connections:\n  - {{between: [{members}], routes: [network]}}\n")
    return 2 + n + clusters


def networks(n, out):
    out.write("version: 1\nnetworks:\n")
    for k in range(n):
        own = f"fd30:{k >> 16:x}:{k & 0xffff:x}::/64"
        out.write(f"  - {{name: vpn{k}, type: vpn, cidrs: ['{own}'], routes: [10.0.0.0/8]}}\n")
    return 2 * n


def disjoint(n, out):
    out.write("version: 1\nnetworks:\n")
    for k in range(n):
        out.write(f"  - {{name: net{k}, type: office, cidrs: [10.{k >> 10}.{(k >> 2) & 255}.{(k & 3) << 6}/26]}}\n")
    return n


SHAPES = {"one-vpc": one_vpc, "twin-routes": twin_routes, "networks": networks, "disjoint": disjoint}


def best(cmd, repeats, timeout):
    """Returns the best wall time of cmd in seconds, or None past the timeout."""
    times = []
    for _ in range(repeats):
        start = time.monotonic()
        try:
            out = subprocess.run(cmd, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        if out.returncode not in (0, 1):
            sys.exit(f"quiet_pairs: {' '.join(cmd)} failed ({out.returncode}): {out.stderr.decode()[-500:]}")
        times.append(time.monotonic() - start)
    return min(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shape", choices=SHAPES, default="one-vpc")
    p.add_argument("--sizes", default="10000,40000,100000")
    p.add_argument("--command", choices=("check", "plan"), default="check")
    p.add_argument("--cidrcheck", default=str(BENCH.parent / "build" / "ci" / "cidrcheck"))
    p.add_argument("--baseline")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--timeout", type=float, default=120)
    a = p.parse_args()
    binaries = [("cidrcheck", a.cidrcheck)] + ([("baseline", a.baseline)] if a.baseline else [])
    for _, path in binaries:
        if not os.access(path, os.X_OK):
            sys.exit(f"quiet_pairs: no cidrcheck at {path}")
    header = f"{'shape':>12} {'N':>8} {'ranges':>8}"
    for name, _ in binaries:
        header += f" {name + ' s':>14} {'us/range':>9}"
    print(header)
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in a.sizes.split(",")):
            path = os.path.join(tmp, f"{a.shape}-{n}.yaml")
            with open(path, "w") as out:
                ranges = SHAPES[a.shape](n, out)
            line = f"{a.shape:>12} {n:>8} {ranges:>8}"
            for _, binary in binaries:
                seconds = best([binary, a.command, "--no-config", "--format", "json", path], a.repeats, a.timeout)
                if seconds is None:
                    line += f" {'> ' + format(a.timeout, 'g'):>14} {'':>9}"
                else:
                    line += f" {seconds:>14.2f} {seconds * 1e6 / ranges:>9.1f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
