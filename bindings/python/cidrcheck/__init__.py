"""cidrcheck: CIDR overlaps, free space and capacity for fleets of Kubernetes clusters and networks.

The C++ engine with the feel of Python's ipaddress:

>>> import cidrcheck
>>> p = cidrcheck.Prefix("10.0.0.0/8")
>>> p.supernet_of("10.1.0.0/16"), p.num_addresses
(True, 16777216)
>>> used = cidrcheck.AddressSet(["10.0.0.0/9", "10.200.0.0/16"])
>>> cidrcheck.PrefixAllocator(cidrcheck.AddressSet(["10.0.0.0/8"]) - used).take(16)
Prefix('10.201.0.0/16')

Fleets (docs/fleet-format.md) load from files, text or dicts:

>>> fleet = cidrcheck.Fleet.load("fleet.yaml")                  # doctest: +SKIP
>>> report = fleet.check()                                      # doctest: +SKIP
>>> pandas.DataFrame(report.rows())                             # doctest: +SKIP
>>> plan = fleet.plan(pools={"pods": "100.64.0.0/10"})          # doctest: +SKIP
>>> pandas.DataFrame(plan.rows())                               # doctest: +SKIP

A run as the CLI makes it (its configuration, inputs and policy):

>>> report = cidrcheck.check()                                  # doctest: +SKIP
>>> report.fails                                                # doctest: +SKIP

See docs/python.md for the guide.
"""

from ._core import (
    Address,
    AddressRange,
    AddressSet,
    AddressSetBuilder,
    ParseError,
    Prefix,
    PrefixAllocator,
    __version__,
    collapse_addresses,
    diagnostic_codes,
    node_capacity,
    rules,
    summarize_address_range,
)
from .fleet import (
    Change,
    Config,
    ConfigLoadError,
    Finding,
    Fleet,
    FleetLoadError,
    Plan,
    Report,
    Step,
    Suppressed,
    check,
    plan,
)

__all__ = [
    "Address",
    "AddressRange",
    "AddressSet",
    "AddressSetBuilder",
    "Change",
    "Config",
    "ConfigLoadError",
    "Finding",
    "Fleet",
    "FleetLoadError",
    "ParseError",
    "Plan",
    "Prefix",
    "PrefixAllocator",
    "Report",
    "Step",
    "Suppressed",
    "__version__",
    "check",
    "collapse_addresses",
    "diagnostic_codes",
    "node_capacity",
    "plan",
    "rules",
    "summarize_address_range",
]
