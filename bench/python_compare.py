#!/usr/bin/python3
"""Times the Python package side by side with the CLI and with netaddr, in one run.

1. Checking a fleet (bench/gen_fleet.py, 10,000 clusters by default):
   - cli:             `cidrcheck check --format json FLEET > /dev/null`, wall time of the process;
   - python:          Fleet.load(FLEET).check() inside a running interpreter (a notebook's case);
   - python+records:  the same, then report.records() (the findings as a table's rows);
   - python process:  `python3 -c "import cidrcheck; Fleet.load(FLEET).check()"`, wall time
                      including the interpreter's start and the import.
   Target: python within 20% of cli.
2. Building an address set from N strings (bench/gen_prefixes.py, 1,000,000 by default),
   the list read into memory first:
   - cidrcheck:  AddressSet(lines);
   - netaddr:    netaddr.IPSet(lines) (python3-netaddr);
   - ipaddress:  collapse_addresses of ip_network(line) for each line (for scale).
   The results are checked to agree (address count and prefix count). Target: cidrcheck
   at least 20 times faster than netaddr.

Every measurement is the best of --repeats (runs are interleaved so that load on
the machine hits all tools alike); a run over 20 s is not repeated. Prints a
table with each time's ratio to the reference, and PASS/FAIL for the targets
(reported, not enforced: the exit code is 0 unless something fails to run or
the tools disagree).

usage: python_compare.py [--cidrcheck PATH] [--pythonpath DIR] [--clusters N] [--lines N]
                         [--repeats K] [--quick]
"""
import argparse
import gc
import ipaddress
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
SLOW = 20.0


def best_of(repeats, *runs):
    """Runs each zero-argument callable `repeats` times, interleaved; returns each one's best wall time."""
    best = [float("inf")] * len(runs)
    for _ in range(repeats):
        for k, run in enumerate(runs):
            if best[k] > SLOW and best[k] != float("inf"):
                continue
            gc.collect()
            start = time.perf_counter()
            run()
            best[k] = min(best[k], time.perf_counter() - start)
    return best


def table(title, rows, reference):
    print(f"\n{title}")
    print(f"  {'tool':<18} {'best s':>9} {'vs ' + reference:>14}")
    base = dict(rows)[reference]
    for tool, seconds in rows:
        print(f"  {tool:<18} {seconds:>9.3f} {seconds / base:>13.2f}x")


def check_fleet(args, tmp):
    import cidrcheck

    path = Path(tmp) / "fleet.yaml"
    n = args.clusters
    subprocess.run([sys.executable, str(BENCH / "gen_fleet.py"), str(path), "--clusters", str(n),
                    "--networks", str(n // 10), "--connections", str(2 * n), "--mesh", str(n // 2)], check=True)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [args.pythonpath, os.environ.get("PYTHONPATH")])))

    def cli():
        with open(os.devnull, "w") as null:
            code = subprocess.run([args.cidrcheck, "check", "--format", "json", str(path)], stdout=null).returncode
        if code not in (0, 1):
            sys.exit(f"python_compare: cidrcheck check failed ({code})")

    def python():
        cidrcheck.Fleet.load(path).check()

    def python_records():
        cidrcheck.Fleet.load(path).check().records()

    def python_process():
        subprocess.run([sys.executable, "-c", "import sys, cidrcheck; cidrcheck.Fleet.load(sys.argv[1]).check()",
                        str(path)], env=env, check=True)

    report = cidrcheck.Fleet.load(path).check()
    ranges = len(cidrcheck.Fleet.load(path).ranges())
    times = best_of(args.repeats, cli, python, python_records, python_process)
    rows = list(zip(["cli", "python", "python+records", "python process"], times))
    table(f"check a fleet of {n:,} clusters ({ranges:,} ranges, {len(report)} findings), best of {args.repeats}",
          rows, "cli")
    return times[1] / times[0]


def build_set(args, tmp):
    import cidrcheck

    path = Path(tmp) / "prefixes.txt"
    subprocess.run([sys.executable, str(BENCH / "gen_prefixes.py"), str(args.lines), "42", str(path)], check=True)
    lines = path.read_text().split()
    rows, results = [], {}

    def ours():
        results["cidrcheck"] = cidrcheck.AddressSet(lines)

    def ipaddress_collapse():
        results["ipaddress"] = list(ipaddress.collapse_addresses(ipaddress.ip_network(x) for x in lines))

    runs = [("cidrcheck", ours)]
    try:
        import netaddr

        def theirs():
            results["netaddr"] = netaddr.IPSet(lines)

        runs.append(("netaddr.IPSet", theirs))
    except ImportError:
        print("note: python3-netaddr is not installed; skipping netaddr.IPSet")
    if not args.quick:
        runs.append(("ipaddress", ipaddress_collapse))
    times = best_of(args.repeats, *(run for _, run in runs))
    rows = [(name, t) for (name, _), t in zip(runs, times)]
    table(f"build a set from {len(lines):,} strings, best of {args.repeats}", rows, "cidrcheck")
    ours_set = results["cidrcheck"]
    counts = {"cidrcheck": (ours_set.num_addresses, len(ours_set.prefixes()))}
    if "netaddr" in results:
        counts["netaddr"] = (results["netaddr"].size, len(results["netaddr"].iter_cidrs()))
    if "ipaddress" in results:
        counts["ipaddress"] = (sum(n.num_addresses for n in results["ipaddress"]), len(results["ipaddress"]))
    if len(set(counts.values())) != 1:
        sys.exit(f"python_compare: the sets disagree: {counts}")
    print(f"  all agree: {counts['cidrcheck'][0]:,} addresses in {counts['cidrcheck'][1]:,} prefixes")
    netaddr_time = dict(rows).get("netaddr.IPSet")
    return netaddr_time / dict(rows)["cidrcheck"] if netaddr_time else None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cidrcheck", default=str(ROOT / "build" / "ci" / "cidrcheck"))
    p.add_argument("--pythonpath", default=str(ROOT / "build" / "ci" / "bindings" / "python"),
                   help="where the cidrcheck package is (default: the ci build tree)")
    p.add_argument("--clusters", type=int, default=10_000)
    p.add_argument("--lines", type=int, default=1_000_000)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--quick", action="store_true", help="1,000 clusters, 20,000 lines, 2 repeats: a smoke test")
    args = p.parse_args()
    if args.quick:
        args.clusters, args.lines, args.repeats = 1_000, 20_000, 2
    sys.path.insert(0, args.pythonpath)
    import cidrcheck

    if not os.access(args.cidrcheck, os.X_OK):
        sys.exit(f"python_compare: no cidrcheck at {args.cidrcheck} (build it, or pass --cidrcheck)")
    print(f"cidrcheck {cidrcheck.__version__} from {Path(cidrcheck.__file__).parent}; python {sys.executable}; "
          f"{os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        check_ratio = check_fleet(args, tmp)
        set_ratio = build_set(args, tmp)
    if args.quick:
        return
    print("\ntargets:")
    print(f"  {'PASS' if check_ratio <= 1.2 else 'FAIL'}  checking from Python within 20% of the CLI: "
          f"{check_ratio:.2f}x the CLI's time")
    if set_ratio is not None:
        print(f"  {'PASS' if set_ratio >= 20 else 'FAIL'}  AddressSet at least 20x faster than netaddr.IPSet: "
              f"{set_ratio:.1f}x faster")


if __name__ == "__main__":
    main()
