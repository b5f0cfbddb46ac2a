#!/usr/bin/python3
"""Times the command line on issue 28's hostile inputs (bench/gen_hostile.py), at
doubling sizes, and prints wall time, CPU time, peak RSS and the CPU time per
unit of input: a flat last column is linear growth.

  tfplan    `import terraform-plan` of a subnet D module calls deep, 6 variables a
            level (item 1: b92d7c3 never finished 12 levels); unit: a level
  tfplan-many  `import terraform-plan` of N module instances, each subnet's vpc_id
            through var.v to one VPC; unit: an instance
  baseline  `check --baseline` of a report whose one finding holds N objects
            (item 6: b92d7c3 took 40 s for 400,000); unit: an object
  pins      `plan` of N clusters and N pins, exact, prefix* and *suffix (item 5:
            b92d7c3 matched every pin against every range); unit: a cluster
  junit     `check -f junit` of N networks with no finding (item 15: b92d7c3 held
            every test case, 432 MB for 40,000); unit: a network

usage: hostile_scaling.py [--case CASE] [--sizes N,N,...] [--repeats 3] [--cidrcheck PATH]
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent

CASES = {
    # case: (generator kind and its arguments for size N, command, default sizes)
    "tfplan": (lambda n: ["tfplan-nested", str(n), "6"], ["import", "terraform-plan", "{input}"], "4,8,16"),
    "tfplan-many": (lambda n: ["tfplan-many", str(n)], ["import", "terraform-plan", "{input}"], "5000,10000,20000"),
    "baseline": (lambda n: ["baseline", str(n)], ["check", "--baseline", "{input}", "{fleet}"], "500000,1000000,2000000"),
    "pins": (lambda n: ["pins", str(n)], ["plan", "{input}"], "10000,20000,40000"),
    "junit": (lambda n: ["junit", str(n)], ["check", "-f", "junit", "{input}"], "25000,50000,100000"),
}


def run(cmd):
    """Returns (wall seconds, CPU seconds, peak MB) of cmd, measured by GNU time; its output is dropped."""
    with tempfile.NamedTemporaryFile("r") as stats:
        out = subprocess.run(["/usr/bin/time", "-o", stats.name, "-f", "%e %U %S %M"] + cmd,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall, user, system, kb = stats.read().split()[-4:]
    if out.returncode not in (0, 1):
        sys.exit(f"hostile_scaling: {' '.join(cmd)} failed ({out.returncode}): {out.stderr[-2000:]}")
    return float(wall), float(user) + float(system), int(kb) / 1024


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--case", choices=sorted(CASES), action="append")
    p.add_argument("--cidrcheck", default=str(BENCH.parent / "build" / "ci" / "cidrcheck"))
    p.add_argument("--sizes")
    p.add_argument("--repeats", type=int, default=3)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        fleet = Path(scratch) / "fleet.yaml"
        fleet.write_text("version: 1\nclusters:\n  - {name: a, pods: 10.0.0.0/16}\n")
        for case in a.case or sorted(CASES):
            generate, command, sizes = CASES[case]
            print(f"{case}: cidrcheck {' '.join(command)}, best of {a.repeats}")
            print(f"{'N':>10} {'bytes':>11} {'wall s':>8} {'CPU s':>8} {'peak MB':>8} {'CPU us/unit':>12}")
            for n in [int(x) for x in (a.sizes or sizes).split(",")]:
                path = Path(scratch) / f"{case}-{n}"
                subprocess.run([sys.executable, str(BENCH / "gen_hostile.py"), *generate(n), str(path)], check=True)
                cmd = [a.cidrcheck] + [w.format(input=path, fleet=fleet) for w in command]
                runs = [run(cmd) for _ in range(a.repeats)]
                wall, cpu, mb = min(r[0] for r in runs), min(r[1] for r in runs), max(r[2] for r in runs)
                print(f"{n:>10} {os.path.getsize(path):>11} {wall:>8.2f} {cpu:>8.2f} {mb:>8.0f} "
                      f"{1e6 * cpu / n:>12.2f}")
                path.unlink()


if __name__ == "__main__":
    main()
