#!/usr/bin/env python3
"""The compile firewall, measured: the CPU time (user + system, of the compiler
and everything it runs) one translation unit of a user of cidrcheck costs.

Each program is compiled to an object file REPEAT times with the project's
compiler and flags (-std=c++20 -O2, the installed headers' include path), and
the least CPU time is reported (the least is the one least disturbed by other
work on a shared machine; the median is printed beside it). The default
programs are the C++ guide's (docs/examples/cpp): fleet_check.cpp and
fleet_report.cpp use the run API (<cidrcheck/run.hpp>), which must not
instantiate Boost.ICL; free_blocks.cpp includes the header-only core
(<cidrcheck/cidrcheck.hpp>, ICL and all), for comparison. Issue 25's target: a file of the fleet, plan
and analysis API under 1 s of CPU.

Each line also says how the least time compares with --target (default 1 s,
the issue's bound), so a run under load still shows how far off the bound is:
compare ratios, not seconds, between runs on a busy machine. The first line
is the floor: a file that includes only <string>, <vector> and <optional>,
which every user of the API parses anyway; on an idle machine it costs about
0.45 s, so the floor's time says how much the load inflates the others.

usage: compile_time.py [--repeat N] [--include DIR]... [--cxx CXX] [--target S] [FILE.cpp...]
  e.g. bench/compile_time.py --include include --include build/ci/include
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples" / "cpp"


def cpu_seconds(command: list[str]) -> float:
    """Runs command and returns the CPU time it and its children used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"compile_time: {' '.join(command)} failed:\n{done.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def icl_instantiations(command: list[str]) -> int:
    """How many Boost.ICL symbols the object file defines: templates instantiated in this file."""
    with tempfile.TemporaryDirectory() as scratch:
        obj = os.path.join(scratch, "x.o")
        subprocess.run([*command[:-1], obj], check=True, capture_output=True)
        symbols = subprocess.run(["nm", "-C", "--defined-only", obj], capture_output=True, text=True).stdout
    return sum(1 for line in symbols.splitlines() if "boost::icl::" in line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path,
                        default=[EXAMPLES / "fleet_check.cpp", EXAMPLES / "fleet_report.cpp", EXAMPLES / "free_blocks.cpp"])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--include", action="append", type=Path,
                        default=None, help="include directories (default: include and build/ci/include)")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    parser.add_argument("--target", type=float, default=1.0, help="CPU seconds a file should stay under (default 1)")
    args = parser.parse_args()
    includes = args.include or [ROOT / "include", ROOT / "build" / "ci" / "include"]
    load = os.getloadavg()[0]
    print(f"{args.cxx} -std=c++20 -O2, {args.repeat} runs each; load average {load:.1f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as scratch:
        floor = Path(scratch) / "standard_floor.cpp"
        floor.write_text("#include <optional>\n#include <string>\n#include <vector>\n")
        floor_time = None
        for source in [floor, *args.files]:
            command = [args.cxx, "-std=c++20", "-O2", *[f"-I{d}" for d in includes], "-c", str(source), "-o",
                       os.path.join(scratch, "out.o")]
            times = [cpu_seconds(command) for _ in range(args.repeat)]
            floor_time = floor_time or min(times)
            print(f"{source.name:24} min {min(times):.2f} s  median {statistics.median(times):.2f} s CPU  "
                  f"{min(times) / args.target:.1f}x the {args.target:g} s target, {min(times) / floor_time:.1f}x the "
                  f"floor  Boost.ICL symbols defined: {icl_instantiations(command)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
