#!/usr/bin/env python3
"""tree.compile_firewall: the fleet, plan and analysis API includes no Boost.ICL.

A program that includes <cidrcheck/analysis.hpp>, <cidrcheck/records.hpp> or any
other header of the fleet model, the plan, the readers or the run API must not
parse Boost.ICL, let alone instantiate it: the set algebra is compiled once, in
the library. Each public header is preprocessed on its own and must pull in no
boost/icl header, except the core's set machinery below, each with its reason
(the core stays header-only for a program that wants the sets). The CPU time a
translation unit costs is measured by bench/compile_time.py, not here.

Usage: compile_firewall_test.py ROOT BUILD_INCLUDE CXX
"""

import subprocess
import sys
from pathlib import Path

ROOT, BUILD_INCLUDE, CXX = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]

# The headers that may include Boost.ICL, and why.
ALLOWED = {
    "cidrcheck/address_set.hpp": "the set: ICL interval_sets, header-only",
    "cidrcheck/address_map.hpp": "the aggregate-on-overlap map: an ICL interval_map, header-only",
    "cidrcheck/algorithms.hpp": "set algorithms over address_set",
    "cidrcheck/prefix_allocator.hpp": "built from an address_set",
    "cidrcheck/cidrcheck.hpp": "the core's umbrella: every value and set type",
    "cidrcheck/iostream.hpp": "prints address_sets too",
    "cidrcheck/detail/icl_adapt.hpp": "the ICL traits themselves",
    "cidrcheck/fleet/capacity.hpp": "pool_space holds the used and free space of a pool as address_sets",
}


def icl_included(*headers: str) -> bool:
    source = "".join(f"#include <{h}>\n" for h in headers)
    done = subprocess.run([CXX, "-std=c++20", f"-I{ROOT / 'include'}", f"-I{BUILD_INCLUDE}", "-x", "c++", "-E", "-"],
                          input=source, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"compile_firewall: {', '.join(headers)} does not preprocess:\n{done.stderr[:2000]}")
    return any(line.startswith("# ") and "boost/icl/" in line for line in done.stdout.splitlines())


def main() -> int:
    headers = sorted(str(p.relative_to(ROOT / "include")) for p in (ROOT / "include" / "cidrcheck").rglob("*.hpp"))
    failures = []
    light = [h for h in headers if h not in ALLOWED]
    # All the light headers in one file (one run); only when that fails, each alone, to name the culprit.
    if icl_included(*light):
        failures += [f"{h} includes Boost.ICL: a user of the fleet, plan and analysis API would parse it"
                     for h in light if icl_included(h)]
    failures += [f"{h} no longer includes Boost.ICL: take it off the list" for h in ALLOWED
                 if h in headers and not icl_included(h)]
    stale = set(ALLOWED) - set(headers)
    failures += [f"{h} is on the list but is no header" for h in sorted(stale)]
    print(f"compile_firewall: {len(light)} of {len(headers)} public headers include no Boost.ICL")
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
