#!/usr/bin/python3
"""Times `cidrcheck check` end to end (read, check, JSON report) on generated fleets.

Generates fleets of N clusters with bench/gen_fleet.py (N/10 networks, 2N pair
connections, a mesh of N/2 clusters, 1% of clusters reusing another's pod
range), runs `cidrcheck check --format json` on each, best of --repeats runs,
and prints wall time, peak RSS and the time per thousand ranges: a flat last
column means the cost grows linearly. The issue's target (10,000 clusters,
1,000 networks, 20,000 connections under 1 s and 500 MB) is reported as PASS/FAIL.

usage: check_scaling.py [--cidrcheck PATH] [--sizes 10000,20000,40000] [--repeats 3]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def run(cmd):
    """Returns (stdout, wall seconds, peak MB) of cmd, measured by GNU time."""
    with tempfile.NamedTemporaryFile("r") as stats:
        out = subprocess.run(["/usr/bin/time", "-o", stats.name, "-f", "%e %M"] + cmd,
                             capture_output=True, text=True)
        wall, kb = stats.read().split()[-2:]
    if out.returncode not in (0, 1):
        sys.exit(f"check_scaling: {' '.join(cmd)} failed ({out.returncode}): {out.stderr}")
    return out.stdout, float(wall), int(kb) / 1024


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cidrcheck", default=str(BENCH.parent / "build" / "ci" / "cidrcheck"))
    p.add_argument("--sizes", default="10000,20000,40000")
    p.add_argument("--repeats", type=int, default=3)
    a = p.parse_args()
    if not os.access(a.cidrcheck, os.X_OK):
        sys.exit(f"check_scaling: no cidrcheck at {a.cidrcheck} (build it, or pass --cidrcheck)")
    print(f"{'clusters':>9} {'ranges':>8} {'conns':>7} {'findings':>9} {'wall s':>7} {'peak MB':>8} {'ms/1k ranges':>13}")
    target = None
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in a.sizes.split(",")):
            path = os.path.join(tmp, f"fleet-{n}.yaml")
            subprocess.run([sys.executable, str(BENCH / "gen_fleet.py"), path, "--clusters", str(n),
                            "--networks", str(n // 10), "--connections", str(2 * n), "--mesh", str(n // 2)], check=True)
            best = None
            for _ in range(a.repeats):
                out, wall, mb = run([a.cidrcheck, "check", "--format", "json", path])
                if best is None or wall < best[0]:
                    best = (wall, mb)
            summary = json.loads(out)["summary"]
            wall, mb = best
            print(f"{n:>9} {summary['ranges']:>8} {summary['connections']:>7} {summary['findings']:>9} "
                  f"{wall:>7.3f} {mb:>8.1f} {1000 * wall / summary['ranges'] * 1000:>13.2f}")
            if n == 10_000:
                target = (wall, mb)
    if target:
        ok = target[0] < 1.0 and target[1] < 500
        print(f"{'PASS' if ok else 'FAIL'}  10,000 clusters under 1 s and 500 MB: {target[0]:.3f} s, {target[1]:.1f} MB")
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
