#!/usr/bin/env python3
"""tree.compile_firewall: the fleet, plan and analysis API includes no Boost.ICL
and none of the standard headers that made a user's file of it slow to compile.

A program that includes <cidrcheck/analysis.hpp>, <cidrcheck/records.hpp> or any
other header of the fleet model, the plan, the readers or the run API must not
parse Boost.ICL, let alone instantiate it: the set algebra is compiled once, in
the library. Each public header is preprocessed on its own and must pull in no
boost/icl header, except the core's set machinery below, each with its reason
(the core stays header-only for a program that wants the sets).

The same light headers (outside detail/, whose helpers they include where they
use them) must not pull in the standard headers of FORBIDDEN_STD, which cost a
user's file measurable time (bench/README.md, "The compile firewall"); those of
STILL_INCLUDED are reached today and wait to be taken out, and the test says
when one is gone so the list only shrinks.

The run API for a program that links cidrcheck, <cidrcheck/run.hpp>, is held
tighter: it may reach only the cidrcheck headers of RUN_API (the fleet model,
the catalog, the plan and its typed runbooks stay behind the library's
boundary, in analysis.hpp) and none of the standard headers of
RUN_API_FORBIDDEN_STD, each of which cost its users measurable time before it
was taken out. The CPU time a translation unit costs is measured by
bench/compile_time.py, not here.

Usage: compile_firewall_test.py ROOT BUILD_INCLUDE CXX
"""

import re
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


# Standard headers no light header may include, and why (bench/README.md has the measured cost).
FORBIDDEN_STD = {
    "chrono": "C++20's <chrono> brings <sstream>, the streams and the locales; a day is "
              "cidrcheck::calendar_date (fleet/suppression.hpp)",
    "algorithm": "C++20's ranges algorithms; write the loop, or define the helper in the library",
    "filesystem": "paths cost a user's file about 0.3 s; io/config_loader.hpp's find_config() and parse_config() "
                  "take and give std::string, the library makes the std::filesystem::path",
}

# Standard headers the light headers still reach, and where from: the next ones to take out.
STILL_INCLUDED = {
    "functional": "address.hpp, prefix.hpp, address_range.hpp (std::hash) and analysis.hpp (version_reader's "
                  "std::function)",
    "memory": "io/fleet_loader.hpp: the unique_ptr of fleet_reader's pimpl; fleet/finding.hpp: a finding's shared "
              "catalog block",
}

# The only cidrcheck headers <cidrcheck/run.hpp> may reach, and why each is needed.
RUN_API = {
    "cidrcheck/run.hpp": "the run API itself",
    "cidrcheck/fleet/calendar_date.hpp": "run_request::today",
    "cidrcheck/fleet/check_options.hpp": "run_request::checking",
    "cidrcheck/io/input_limits.hpp": "run_request::limits",
    "cidrcheck/io/diagnostic.hpp": "the diagnostics of a run and of a plan",
    "cidrcheck/io/source_location.hpp": "where a diagnostic points",
    "cidrcheck/severity.hpp": "a finding's level, fail_threshold",
}

# Standard headers <cidrcheck/run.hpp> must not reach, and where they came from before.
RUN_API_FORBIDDEN_STD = {
    "memory": "the results' handles are detail::shared_handle, counted in the library, not std::shared_ptr",
    "functional": "version_reader's std::function is in analysis.hpp; analyse_run() takes the reader apart",
    "unordered_set": "run_request::baseline is a vector; the library makes the set",
    "unordered_map": "the fleet model's tables stay in analysis.hpp",
    "variant": "the runbook steps' std::variant (fleet/runbook_step.hpp) stays in analysis.hpp",
    "map": "the catalog's tables stay in analysis.hpp",
}

_STD = re.compile(r'^# \d+ "[^"]*/c\+\+/[^/"]+/([a-z_]+)"')


def preprocessed_markers(*headers: str) -> list[str]:
    """Preprocesses the headers together and returns the line markers (which name every file included)."""
    source = "".join(f"#include <{h}>\n" for h in headers)
    done = subprocess.run([CXX, "-std=c++20", f"-I{ROOT / 'include'}", f"-I{BUILD_INCLUDE}", "-x", "c++", "-E", "-"],
                          input=source, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"compile_firewall: {', '.join(headers)} does not preprocess:\n{done.stderr[:2000]}")
    return [line for line in done.stdout.splitlines() if line.startswith("# ")]


_CIDRCHECK = re.compile(r'^# \d+ "[^"]*/include/(cidrcheck/[^"]+)"')


def cidrcheck_headers(*headers: str) -> set[str]:
    """The cidrcheck headers the given headers reach, themselves included."""
    return {m.group(1) for m in map(_CIDRCHECK.match, preprocessed_markers(*headers)) if m}


def included(*headers: str) -> tuple[bool, set[str]]:
    """Preprocesses the headers together: whether Boost.ICL is included, and which top-level standard headers."""
    markers = preprocessed_markers(*headers)
    std = {m.group(1) for m in map(_STD.match, markers) if m}
    return any("boost/icl/" in line for line in markers), std


def icl_included(*headers: str) -> bool:
    return included(*headers)[0]


def forbidden_std(*headers: str) -> set[str]:
    return included(*headers)[1] & set(FORBIDDEN_STD)


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
    api = [h for h in light if not h.startswith("cidrcheck/detail/")]
    _, reached = included(*api)
    for name in sorted(reached & set(FORBIDDEN_STD)):
        culprits = [h for h in api if name in forbidden_std(h)]
        failures += [f"{h} includes <{name}>: {FORBIDDEN_STD[name]}" for h in culprits]
    failures += [f"no light header includes <{name}> any more: take it off STILL_INCLUDED" for name in STILL_INCLUDED
                 if name not in reached]
    run_api = "cidrcheck/run.hpp"
    failures += [f"{run_api} reaches {h}: the run API must not parse it (RUN_API lists what it may reach)"
                 for h in sorted(cidrcheck_headers(run_api) - set(RUN_API))]
    failures += [f"{run_api} includes <{name}>: {why}" for name, why in RUN_API_FORBIDDEN_STD.items()
                 if name in included(run_api)[1]]
    failures += [f"{h} is on RUN_API but {run_api} no longer reaches it: take it off"
                 for h in sorted(set(RUN_API) - cidrcheck_headers(run_api))]
    print(f"compile_firewall: {len(light)} of {len(headers)} public headers include no Boost.ICL; "
          f"{len(api)} of them include none of <{'>, <'.join(FORBIDDEN_STD)}>; {run_api} reaches "
          f"{len(RUN_API)} cidrcheck headers and none of <{'>, <'.join(RUN_API_FORBIDDEN_STD)}>")
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
