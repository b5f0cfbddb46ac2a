"""Fleets: load one from files, text or plain dicts, check it, and ask it capacity questions.

Every result is plain data: lists of dicts with the same keys in every dict, so
``pandas.DataFrame(fleet.ranges())`` (or ``report.records()``, ``fleet.free_space()``,
...) makes a table without this package depending on pandas.
"""

from __future__ import annotations

import copy
import dataclasses
import html
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Optional, Union

from . import _core
from ._core import Address, AddressRange, AddressSet, Prefix, PrefixAllocator

PrefixLike = Union[Prefix, str, Any]
Record = dict[str, Any]

_LIMITS = ("max_file_bytes", "max_depth", "max_nodes", "max_owners", "max_ranges", "max_errors")


class _InputError(ValueError):
    """Input that could not be read; ``diagnostics`` lists every problem found."""

    _what = "the input"

    def __init__(self, diagnostics: list[Record]):
        self.diagnostics = diagnostics
        errors = [d for d in diagnostics if d["severity"] == "error"]
        shown = [_format_diagnostic(d) for d in errors[:5]]
        more = f"\n... and {len(errors) - 5} more errors" if len(errors) > 5 else ""
        super().__init__(f"{self._what} has {_plural(len(errors), 'error')}:\n" + "\n".join(shown) + more)


class FleetLoadError(_InputError):
    """A fleet could not be read. ``diagnostics`` lists every problem found, each a
    dict with ``severity``, ``code``, ``meaning`` (the code's entry in
    cidrcheck.diagnostic_codes()), ``message``, ``file``, ``line``, ``column``,
    ``notes`` and, for a fleet made from dicts, ``path`` (``clusters[0].pods[1]``).
    The message shows the errors the way the CLI prints them."""

    _what = "the fleet"


class ConfigLoadError(_InputError):
    """A .cidrcheck.yaml could not be read; ``diagnostics`` as for FleetLoadError."""

    _what = "the configuration"


def _html_table(caption: str, records: list[Record], columns: Sequence[str]) -> str:
    """An HTML table of records (Jupyter's rich display): a caption, a header, one row each; text escaped."""
    def cell(value: Any) -> str:
        return "" if value is None else html.escape(str(value))
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    rows = "".join("<tr>" + "".join(f"<td>{cell(r.get(c))}</td>" for c in columns) + "</tr>" for r in records)
    return (f"<table><caption style=\"text-align:left\">{html.escape(caption)}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _format_diagnostic(d: Record) -> str:
    where = d["file"] or "cidrcheck"
    if d.get("path"):
        where += f": {d['path']}"
    elif d["line"]:
        where += f":{d['line']}" + (f":{d['column']}" if d["column"] else "")
    return f"{where}: {d['severity']}: {d['message']}"


@dataclasses.dataclass(frozen=True)
class Finding:
    """One finding of the check: a rule broken by one range or a pair of ranges.

    ``ranges`` holds one or two range records (owner, owner_kind, role, cidr,
    origin, file, line, column, end_column), the one cheaper to move first;
    ``overlap`` the exact addresses two ranges share; ``routed_at`` and ``via``
    where an overlap meets and through which connections (described);
    ``block`` the well-known block of a catalog rule. ``record()`` is the
    finding as the CLI's JSON report writes it."""

    rule: str
    rule_id: str
    severity: str
    message: str
    hint: str
    ranges: tuple[Record, ...]
    overlap: Optional[AddressRange] = None
    routed_at: Optional[str] = None
    via: tuple[str, ...] = ()
    block: Optional[Record] = None
    file: str = ""
    """Where the finding points: its first range, or (expired-suppression,
    unused-suppression, which have no ranges) the suppression's rule."""
    line: int = 0
    column: int = 0
    fingerprint: Optional[str] = None
    """The finding's identity without positions, as the CLI's JSON report and
    --baseline use it (SHA-256 hex)."""
    _record: Record = dataclasses.field(default_factory=dict, repr=False, compare=False)

    __hash__ = None  # type: ignore[assignment]  # its ranges are dicts: data to read, not a key

    def record(self) -> Record:
        """Returns the finding's record: the object `cidrcheck check --format json`
        writes for it, key for key (docs/schemas/check-report-1.schema.json)."""
        return copy.deepcopy(self._record)

    def row(self) -> Record:
        """Returns the finding as one flat dict (the same keys for every finding), a table's row."""
        # The suppression rules' findings have no ranges: their columns are None.
        first = self.ranges[0] if self.ranges else {}
        other = self.ranges[1] if len(self.ranges) > 1 else {}
        overlap = None
        if self.overlap is not None:
            as_prefix = self.overlap.to_prefix()
            overlap = str(as_prefix if as_prefix is not None else self.overlap)
        return {
            "severity": self.severity,
            "rule": self.rule,
            "rule_id": self.rule_id,
            "owner": first.get("owner"),
            "role": first.get("role"),
            "cidr": first.get("cidr"),
            "other_owner": other.get("owner"),
            "other_role": other.get("role"),
            "other_cidr": other.get("cidr"),
            "overlap": overlap,
            "routed_at": self.routed_at,
            "via": "; ".join(self.via) or None,
            "block": self.block["cidr"] if self.block else None,
            "message": self.message,
            "hint": self.hint,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "fingerprint": self.fingerprint,
        }


@dataclasses.dataclass(frozen=True)
class Suppressed:
    """A finding that a suppression hides, with the suppression's reason, its
    expiry date ("YYYY-MM-DD" or None) and where it is written. ``record()`` is
    the entry of the JSON report's ``suppressed`` list."""

    finding: Finding
    reason: str
    expires: Optional[str]
    file: str
    line: int
    column: int
    _record: Record = dataclasses.field(default_factory=dict, repr=False, compare=False)

    def record(self) -> Record:
        """Returns the record: the finding's, with its ``suppression``."""
        return copy.deepcopy(self._record)


class Report(Sequence[Finding]):
    """The findings of one check, in the CLI's order (by position, then rule),
    judged as `cidrcheck check` judges them: rule settings of the configuration,
    suppressions (the configuration's and the fleet file's), its min-severity
    and fail-on (or the ones given), and a baseline.

    A sequence of the Findings a report shows; ``records()`` gives their
    records (the JSON report's ``findings``), ``rows()`` one flat dict each for
    a table, ``errors``/``warnings``/``notes`` count them, ``ok`` is True when
    there is no error, ``fails`` says whether CI fails (a finding at or above
    ``fail_on``, shown or not), and ``suppressed`` lists what suppressions hide."""

    def __init__(self, data: Record):
        connections = {c["index"]: c["description"] for c in data["connections"]}
        self._findings = [_finding(d, connections) for d in data["findings"]]
        self.suppressed: tuple[Suppressed, ...] = tuple(_suppressed(d, connections) for d in data["suppressed"])
        """The findings suppressions hide (not counted in errors, warnings or notes)."""
        self.connections: list[Record] = data["connections"]
        """The connections the findings go through, each once: the records ``via`` indexes."""
        self.fails: bool = data["fails"]
        """Whether CI fails: `cidrcheck check` exits 1 for the same findings and settings."""
        self.fail_on: str = data["fail_on"]
        """The severity at or above which a finding fails the run ("error", "warning", "note" or "never")."""
        self.min_severity: str = data["min_severity"]
        """The least severe finding shown ("error", "warning" or "note")."""
        self.baselined: int = data["baselined"]
        """Findings left out because the baseline has them."""
        self.below_minimum: int = data["below_minimum"]
        """Findings left out because they are less severe than min_severity."""
        self.fleet: Optional[Fleet] = None
        """The fleet cidrcheck.check() read (None for Fleet.check(): that fleet)."""

    def __len__(self) -> int:
        return len(self._findings)

    def __getitem__(self, index):  # type: ignore[override]
        return self._findings[index]

    def __iter__(self) -> Iterator[Finding]:
        return iter(self._findings)

    def _count(self, severity: str) -> int:
        return sum(1 for f in self._findings if f.severity == severity)

    @property
    def errors(self) -> int:
        return self._count("error")

    @property
    def warnings(self) -> int:
        return self._count("warning")

    @property
    def notes(self) -> int:
        return self._count("note")

    @property
    def ok(self) -> bool:
        """True when no finding shown is an error."""
        return self.errors == 0

    def records(self) -> list[Record]:
        """Returns each finding's record (Finding.record)."""
        return [f.record() for f in self._findings]

    def rows(self) -> list[Record]:
        """Returns one flat dict per finding (Finding.row), for a table."""
        return [f.row() for f in self._findings]

    def _repr_html_(self) -> str:
        """Jupyter shows a Report as a table of its findings."""
        return _html_table(repr(self), self.rows(),
                           ("severity", "rule_id", "rule", "owner", "role", "cidr", "other_owner", "other_role",
                            "other_cidr", "message", "file", "line"))

    def __repr__(self) -> str:
        counts = [(self.errors, "error"), (self.warnings, "warning"), (self.notes, "note")]
        hidden = f", {len(self.suppressed)} suppressed" if self.suppressed else ""
        return "Report(" + ", ".join(_plural(n, word) for n, word in counts) + hidden + ")"


def _finding(d: Record, connections: Mapping[int, str]) -> Finding:
    """A Finding from its record; ``via`` indexes the report's connections."""
    overlap = d["overlap"]
    return Finding(
        rule=d["rule"],
        rule_id=d["rule_id"],
        severity=d["severity"],
        message=d["message"],
        hint=d["hint"],
        ranges=tuple(d["ranges"]),
        overlap=AddressRange(overlap["first"], overlap["last"]) if overlap else None,
        routed_at=d["routed_at"],
        via=tuple(connections[k] for k in d["via"] or ()),
        block=d["block"],
        file=d["file"],
        line=d["line"],
        column=d["column"],
        fingerprint=d["fingerprint"],
        _record={k: v for k, v in d.items() if k != "suppression"},
    )


def _suppressed(d: Record, connections: Mapping[int, str]) -> Suppressed:
    s = d["suppression"]
    return Suppressed(_finding(d, connections), s["reason"], s["expires"], s["file"], s["line"], s["column"], d)


class Config:
    """A .cidrcheck.yaml (docs/configuration.md): rule settings, extra reserved
    ranges, suppressions, fail-on and min-severity, applied by Fleet.check(),
    plan() and the map as the CLI applies them. Its ``inputs`` are what
    cidrcheck.check() and cidrcheck.plan() read when given no source."""

    def __init__(self, model: _core.ConfigModel):
        """Wraps a loaded model; use the load() and find() constructors."""
        diagnostics = model.diagnostics()
        if not model.ok:
            raise ConfigLoadError(diagnostics)
        self._model = model
        self.diagnostics: list[Record] = diagnostics
        """The warnings found while reading (errors raise ConfigLoadError instead)."""

    @classmethod
    def load(cls, path: Union[str, os.PathLike]) -> Config:
        """Reads a configuration file; raises ConfigLoadError for a bad one."""
        return cls(_core.load_config(os.fsencode(path)))

    @classmethod
    def find(cls, start: Union[str, os.PathLike] = ".") -> Optional[Config]:
        """Returns the configuration a run in directory start reads, found as
        `cidrcheck check` finds it: the file CIDRCHECK_CONFIG names, else
        .cidrcheck.yaml there or in a parent, up to the repository root; None
        when there is none. A CIDRCHECK_CONFIG that names no file raises
        ConfigLoadError."""
        found, problems = _core.find_config(os.fsencode(start))
        if problems:
            raise ConfigLoadError(problems)
        return None if found is None else cls.load(found)

    @property
    def file(self) -> str:
        """The file it was read from."""
        return self._model.file

    @property
    def inputs(self) -> list[str]:
        """The fleet files and directories its ``inputs`` names, as `cidrcheck check`
        reads them when given no file: resolved against the configuration's
        directory. Fleet.load(*config.inputs) loads them (a directory stands for
        its *.yaml and *.yml files)."""
        return self._model.inputs

    def __repr__(self) -> str:
        return f"<Config from {self.file!r}>"


ConfigLike = Union[Config, str, os.PathLike, None]


def _config_model(config: ConfigLike) -> Optional[_core.ConfigModel]:
    if config is None:
        return None
    if not isinstance(config, Config):
        config = Config.load(config)
    return config._model


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of a live migration, with the facts it relies on: dicts of
    ``id``, ``fact``, ``source`` (the documentation that says so) and ``status``."""

    text: str
    relies_on: tuple[Record, ...]


def _steps(records: Sequence[Record]) -> tuple[Step, ...]:
    return tuple(Step(s["step"], tuple(s["relies_on"])) for s in records)


@dataclasses.dataclass(frozen=True)
class Change:
    """One range the plan moves, resizes or creates.

    ``old`` is None for a new range (one the fleet file requested, ``pods: /16``);
    ``origin`` says whether the old range was declared, a default, or is new;
    ``file``/``line``/``column`` point at the range (or the request);
    ``dns_old``/``dns_new`` are set when the cluster DNS address moves with the
    service range; ``transition_safe`` says the new range is free of every old
    one, so both can be routed during the move. ``operation`` indexes
    Plan.operations; ``steps`` are the steps that carry the change out: its
    operation's (a replacement cluster moves every range in one runbook), or
    its own for a change no operation makes; ``simulation`` is the migration
    simulator's verdict on those steps (a dict of passed, steps, skipped,
    failures; None when not simulated). ``source`` says where the new range
    came from when the plan has named pools ("pool eu-aws, adjacent to the
    cluster's network 10.64.0.0/16", "role pool pods (no named pool
    matches)", or for a range the plan derives what it follows: "the same
    place in its VPC main-vpc's new range 10.64.0.0/16"); None without named
    pools. ``record()`` is the change as
    `cidrcheck plan --format json` writes it."""

    owner: str
    owner_kind: str
    role: str
    old: Optional[Prefix]
    new: Prefix
    cost: int
    origin: str
    file: str
    line: int
    column: int
    transition_safe: bool
    reasons: tuple[str, ...]
    steps: tuple[Step, ...]
    dns_old: Optional[Address] = None
    dns_new: Optional[Address] = None
    operation: Optional[int] = None
    simulation: Optional[Record] = None
    source: Optional[str] = None
    _record: Record = dataclasses.field(default_factory=dict, repr=False, compare=False)

    def record(self) -> Record:
        """Returns the change's record (docs/schemas/plan-report-1.schema.json)."""
        return copy.deepcopy(self._record)

    def row(self) -> Record:
        """Returns the change as one flat dict (the same keys for every change), a table's row."""
        return {
            "owner": self.owner,
            "owner_kind": self.owner_kind,
            "role": self.role,
            "from": str(self.old) if self.old is not None else None,
            "to": str(self.new),
            "cost": self.cost,
            "origin": self.origin,
            "transition_safe": self.transition_safe,
            "dns_from": str(self.dns_old) if self.dns_old is not None else None,
            "dns_to": str(self.dns_new) if self.dns_new is not None else None,
            "steps": len(self.steps),
            "reason": self.reasons[0] if self.reasons else None,
            "file": self.file,
            "line": self.line,
            "column": self.column,
        }


class Plan:
    """The cheapest renumbering that leaves a fleet without errors, as `cidrcheck
    plan` proposes it (docs/planning.md).

    ``operations`` lists what an operator does (one per cluster change, or one
    per shared VPC), ``changes`` every range they move (Change); ``complete`` is True when no error is
    left and ``problems`` says what is left otherwise; ``optimal`` is True when
    the choice of ranges to move was proven cheapest; ``remaining`` is the
    Report of the fleet as planned; ``fleet`` is that fleet, to check, map or
    ask capacity questions of; to_yaml() is the fleet file with the plan
    applied, write_runbooks() the folders of `cidrcheck plan --emit`, and
    record() the plan as `cidrcheck plan --format json` writes it."""

    def __init__(self, model: _core.PlanModel):
        self._model = model
        self._record: Record = model.record()
        summary = self._record["summary"]
        self.operations: list[Record] = self._record["operations"]
        """The operations, first: records of kind, changes_what, owners, cost, counted (what the cost
        counted), changes (indexes into changes), steps (each a dict of step, commands, relies_on, needs, makes, files),
        maintenance (what the runbook costs in maintenance, with its steps; None when nothing is rolled, drained or restarted),
        merged_with (indexes of the other operations on the same cluster that share its runbook: one maintenance)
        and simulation: the migration simulator's verdict on the runbook (passed, steps, skipped, failures: each a
        dict of step, check, rule, fact, message; docs/planning.md)."""
        self.changes: list[Change] = [_change(c, self.operations) for c in self._record["changes"]]
        self.problems: list[Record] = self._record["problems"]
        """What the plan cannot fix: records of rule (None when a pool had no room), message, ranges, requests."""
        self.diagnostics: list[Record] = model.diagnostics()
        """Problems with the plan settings (a pin that matches nothing, an empty pool), as the
        record's diagnostics with each code's ``meaning`` (cidrcheck.diagnostic_codes())."""
        self.complete: bool = summary["complete"]
        self.optimal: bool = summary["optimal"]
        self.total_cost: int = summary["total_cost"]
        self.shared_apply_saving: int = summary["shared_apply_saving"]
        """What operations merged into one maintenance per cluster took off their costs (docs/planning.md)."""
        self.owners_changed: int = summary["owners_changed"]
        self.runbooks_failed: int = summary["runbooks_failed"]
        """How many runbooks (of operations, and of changes outside any) the migration simulator refused:
        their records' ``simulation`` names each failing step, check and rule; do not follow them as written."""
        self.remaining: Report = Report(model.remaining())
        self.fleet: Fleet = Fleet(model.fleet())
        self.source: Optional[Fleet] = None
        """The fleet cidrcheck.plan() read and planned (None for Fleet.plan(): that fleet)."""

    @property
    def ok(self) -> bool:
        """True when the plan leaves no errors and every runbook passes the simulation (what
        `cidrcheck plan` exits 0 for)."""
        return self.complete and self.runbooks_failed == 0

    def record(self) -> Record:
        """Returns the plan's record: the object `cidrcheck plan --format json`
        prints, key for key (docs/schemas/plan-report-1.schema.json)."""
        return copy.deepcopy(self._record)

    def records(self) -> list[Record]:
        """Returns each change's record (Change.record)."""
        return [c.record() for c in self.changes]

    def rows(self) -> list[Record]:
        """Returns one flat dict per change (Change.row), for a table."""
        return [c.row() for c in self.changes]

    def to_yaml(self, name: str = "<plan>") -> str:
        """Returns the planned fleet as `cidrcheck plan --format yaml` writes it,
        read back and checked: for a fleet read from one file or one text, that
        file with the plan applied (moved CIDRs replaced where they are written,
        comments and layout kept); for several sources or an import, an overlay
        of the changes (`renumber:`) to read after them, called `name`. Raises
        ValueError for a fleet made from several texts."""
        text = self._model.yaml(name)
        if text is None:
            raise ValueError("to_yaml() needs a fleet read from files or from one text; this one was read from "
                             + (", ".join(self.fleet.files) or "several texts"))
        return text

    def runbooks(self) -> list[tuple[str, str]]:
        """Returns the files of the runbook folders `cidrcheck plan --emit` writes:
        (path, text) pairs, paths relative to the folder."""
        return self._model.runbooks()

    def write_runbooks(self, directory: Union[str, os.PathLike], force: bool = False) -> None:
        """Writes the runbook folders to directory, as `cidrcheck plan --emit DIR`
        does: a folder per operation with runbook.md and the files its steps
        apply, written whole into a temporary folder beside directory, which then
        takes its place. directory must be missing or empty, unless force
        replaces what it holds."""
        _write_folder(os.fspath(directory), self.runbooks(), force)

    def _repr_html_(self) -> str:
        """Jupyter shows a Plan as a table of its changes, then what it cannot fix."""
        out = _html_table(repr(self), self.rows(),
                          ("owner", "role", "from", "to", "cost", "transition_safe", "steps", "reason"))
        if self.problems:
            out += _html_table("What the plan cannot fix", self.problems, ("rule", "message"))
        return out

    def __repr__(self) -> str:
        state = "complete" if self.complete else _plural(len(self.problems), "problem") + " left"
        if self.runbooks_failed:
            state += ", " + _plural(self.runbooks_failed, "runbook") + " failed the simulation"
        return (f"Plan({_plural(len(self.changes), 'change')} in {_plural(self.owners_changed, 'owner')}, "
                f"total cost {self.total_cost}, {state})")


def _change(d: Record, operations: Sequence[Record]) -> Change:
    own = _steps(d["steps"])
    operation = d["operation"]
    return Change(
        owner=d["owner"],
        owner_kind=d["owner_kind"],
        role=d["role"],
        old=None if d["from"] is None else Prefix(d["from"]),
        new=Prefix(d["to"]),
        cost=d["cost"],
        origin=d["origin"],
        file=d["file"],
        line=d["line"],
        column=d["column"],
        transition_safe=d["transition_safe"],
        reasons=tuple(d["reasons"]),
        # Reachable from every change: a change an operation makes is carried out by the operation's steps.
        steps=_steps(operations[operation]["steps"]) if operation is not None else own,
        dns_old=None if d["dns_from"] is None else Address(d["dns_from"]),
        dns_new=None if d["dns_to"] is None else Address(d["dns_to"]),
        operation=operation,
        simulation=operations[operation]["simulation"] if operation is not None else d["simulation"],
        source=d.get("source"),
        _record=d,
    )


def _write_folder(directory: str, files: Sequence[tuple[str, str]], force: bool) -> None:
    """Writes a folder whole: the files go into a temporary folder beside it, which then takes its place."""
    directory = os.path.abspath(directory)
    if os.path.lexists(directory) and not os.path.isdir(directory):
        raise ValueError(f"{directory} exists and is no folder")
    if os.path.isdir(directory) and os.listdir(directory) and not force:
        raise ValueError(f"{directory} is not empty (force=True replaces what it holds)")
    parent = os.path.dirname(directory)
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".cidrcheck-", dir=parent)
    try:
        for path, text in files:
            target = os.path.join(staging, path)
            if os.path.commonpath([staging, os.path.abspath(target)]) != staging:
                raise ValueError(f"a runbook file leaves its folder: {path!r}")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as out:
                out.write(text)
        old = None
        if os.path.isdir(directory):
            old = tempfile.mkdtemp(prefix=".cidrcheck-old-", dir=parent)
            os.rmdir(old)
            os.rename(directory, old)
        os.rename(staging, directory)
        staging = None
        if old is not None:
            shutil.rmtree(old)
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)


def _plan_arguments(pools, named_pools, avoid, pin, cost, headroom, connect, routes, fix_latent,
                    capacity_warning) -> dict[str, Any]:
    """The options of a plan as the C++ library takes them: words and text, validated there."""
    if isinstance(routes, str):
        routes = routes.split(",")
    if isinstance(pin, str):
        pin = [pin]
    if _is_one_prefix(avoid):
        avoid = [avoid]
    if any(isinstance(group, str) for group in connect):
        raise TypeError("connect takes groups of owner names: [['a', 'b'], ...]")
    return {
        "pools": _role_pairs("pools", pools, _is_one_prefix),
        "named_pools": [_named_pool(p) for p in named_pools],
        "avoid": list(avoid),
        "pins": list(pin),
        "costs": [(role, _number_text("cost", v, int)) for role, v in _role_pairs("cost", cost, lambda v: True)],
        "headroom": None if headroom is None else _number_text("headroom", headroom, (int, float)),
        "connect": [list(group) for group in connect],
        "routes": list(routes),
        "fix_latent": fix_latent,
        "capacity_warning": capacity_warning,
    }


def _named_pool(pool: Any) -> tuple[str, list[str], list[tuple[str, str]]]:
    """Splits {"name", "cidrs", "for"} (as the fleet file's `plan: pools:` writes a named pool) into
    (name, CIDRs, (key, value) pairs); a `role` list gives one pair per role."""
    if not isinstance(pool, Mapping):
        raise TypeError(f"named_pools: each pool is a mapping of name, cidrs and for, not {pool!r}")
    unknown = set(pool) - {"name", "cidrs", "for"}
    if unknown:
        raise ValueError(f"named_pools: unknown key {sorted(map(str, unknown))[0]!r} (name, cidrs, for)")
    if not isinstance(pool.get("name"), str):
        raise TypeError("named_pools: each pool needs a name (a string)")
    cidrs = pool.get("cidrs", [])
    if _is_one_prefix(cidrs):
        cidrs = [cidrs]
    selector = []
    for key, value in (pool.get("for") or {}).items():
        values = value if key == "role" and not isinstance(value, str) else [value]
        for v in values:
            if not isinstance(key, str) or not isinstance(v, str):
                raise TypeError(f"named_pools: pool {pool['name']!r} for: keys and values are strings, not {key!r}: {v!r}")
            selector.append((key, v))
    return pool["name"], [str(Prefix(c)) if not isinstance(c, str) else c for c in cidrs], selector


def _role_pairs(name: str, value: Any, single) -> list[tuple[str, Any]]:
    """Splits {role: value or [values]} (or one value or list for every role) into (role, value) pairs."""
    if value is None:
        return []
    if not isinstance(value, Mapping):
        value = {"all": value}
    out = []
    for role, items in value.items():
        if not isinstance(role, str):
            raise TypeError(f"{name}: roles are strings (network, pods, services, all), not {role!r}")
        if single(items):
            items = [items]
        out.extend((role, item) for item in items)
    return out


def _number_text(name: str, value: Any, kinds) -> str:
    """A number as text, for the C++ library, which checks every front end's values against one set of limits."""
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise TypeError(f"{name} must be a number, not {value!r}")
    return str(value)


def _is_one_prefix(value: Any) -> bool:
    return isinstance(value, (str, Prefix)) or type(value).__module__ == "ipaddress"


# What a YAML reader takes for a line break (NEL, LS, PS) or refuses raw (DEL,
# C1 controls, U+FFFE, U+FFFF), which json.dumps leaves raw: escaped as \uXXXX.
_RAW_REFUSED = re.compile("[\x7f-\x9f\u2028\u2029\ufffe\uffff]")


def _string(text: str) -> str:
    """text as a JSON string the fleet reader reads back as text, whatever it holds."""
    return _RAW_REFUSED.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False))


def _scalar(value: Any, path: str) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        return _string(value)
    if type(value).__module__ in ("ipaddress", "cidrcheck._core"):
        return json.dumps(str(value))
    raise TypeError(f"{path or 'the fleet'}: cannot put a {type(value).__name__} in a fleet")


def _json_lines(value: Any, path: str, key: str, comma: str, depth: int, out: list[tuple[str, str]]) -> None:
    """Appends value as JSON, one scalar a line, each line with the path it belongs to."""
    indent = "  " * depth
    if isinstance(value, Mapping):
        out.append((f"{indent}{key}{{", path))
        items = list(value.items())
        for n, (k, v) in enumerate(items):
            if not isinstance(k, str):
                raise TypeError(f"{path or 'the fleet'}: keys must be strings, not {k!r}")
            child = f"{path}.{k}" if path else k
            _json_lines(v, child, _string(k) + ": ", "," if n + 1 < len(items) else "", depth + 1, out)
        out.append((f"{indent}}}{comma}", path))
    elif isinstance(value, (list, tuple)):
        out.append((f"{indent}{key}[", path))
        for n, v in enumerate(value):
            _json_lines(v, f"{path}[{n}]", "", "," if n + 1 < len(value) else "", depth + 1, out)
        out.append((f"{indent}]{comma}", path))
    else:
        out.append((f"{indent}{key}{_scalar(value, path)}{comma}", path))


def _limits(options: dict[str, int]) -> _core.InputLimits:
    limits = _core.InputLimits()
    for name, value in options.items():
        if name not in _LIMITS:
            raise TypeError(f"unknown option {name!r}; the limits are {', '.join(_LIMITS)}")
        setattr(limits, name, value)
    return limits


class Fleet:
    """A fleet of clusters and networks with the connections between them.

    Make one with Fleet.load(path, ...), Fleet.from_text(yaml) or
    Fleet.from_dict(data); a fleet with errors raises FleetLoadError, and
    warnings (an unknown distribution, ...) are in ``diagnostics``. Keyword
    arguments max_file_bytes, max_depth, max_nodes, max_owners, max_ranges and
    max_errors set the limits of docs/limits.md.

    The fleet is read once into the C++ model; check() and the capacity
    questions run there, and every answer is plain data."""

    def __init__(self, model: _core.FleetModel, paths: Optional[list[str]] = None):
        """Wraps a loaded model; use the load(), from_text() and from_dict() constructors."""
        diagnostics = model.diagnostics()
        if paths is not None:
            for d in diagnostics:
                _add_path(d, paths)
        if not model.ok:
            raise FleetLoadError(diagnostics)
        self._model = model
        self.diagnostics: list[Record] = diagnostics
        """The warnings found while reading (errors raise FleetLoadError instead)."""

    @classmethod
    def load(cls, *paths: Union[str, os.PathLike], **limits: int) -> Fleet:
        """Reads fleet files (YAML or JSON) as one fleet; "-" reads standard input.
        A path "KIND:FILE" imports another tool's export (docs/import.md), as the
        CLI does: Fleet.load("fleet.yaml", "aws-vpcs:vpcs.json")."""
        if not paths:
            raise TypeError("Fleet.load() needs at least one path")
        return cls(_core.load_fleet([os.fsencode(p) for p in paths], [], _limits(limits)))

    @classmethod
    def from_text(cls, text: str, name: str = "<string>", **limits: int) -> Fleet:
        """Reads a fleet from YAML or JSON text; diagnostics name it `name`. Text that
        cannot be UTF-8 (a lone surrogate) raises UnicodeEncodeError, a ValueError."""
        return cls(_core.load_fleet([], [(text.encode(), name)], _limits(limits)))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], name: str = "<dict>", **limits: int) -> Fleet:
        """Reads a fleet from plain Python data in the shape of the fleet file:
        {"clusters": [{"name": ..., "pods": "10.0.0.0/16", ...}], ...}. Values may
        also be Prefix or ipaddress objects. Each diagnostic gets a ``path``
        (``clusters[0].pods``) saying where in the data the problem is."""
        lines: list[tuple[str, str]] = []
        _json_lines(data, "", "", "", 0, lines)
        text = "\n".join(text for text, _ in lines) + "\n"
        model = _core.load_fleet([], [(text.encode(), name)], _limits(limits))
        return cls(model, paths=[path for _, path in lines])

    # --- what the fleet holds -------------------------------------------------

    @property
    def files(self) -> list[str]:
        """The sources read, in order."""
        return self._model.files

    def owners(self) -> list[Record]:
        """Returns one record per cluster and network: name, kind, type, kubernetes,
        nodes, node_cidr_mask, cni, ipam, block_size, block_size_v6, ip_family,
        ranges (how many), movable, file, line, column.

        For a cluster, ``ipam`` is the IPAM mode it runs (its own, else its CNI's
        default; None when the catalog knows neither), ``block_size`` and
        ``block_size_v6`` the block one node takes from the pod ranges (its own,
        else its IPAM mode's, else node_cidr_mask), and ``ip_family`` "ipv4",
        "ipv6" or "dual" as it or its distribution says (None: not said). A
        network has None for all five."""
        return self._model.owners()

    def ranges(self) -> list[Record]:
        """Returns one record per range (defaults filled in): owner, owner_kind, role,
        cidr, version, prefixlen, num_addresses, origin (declared,
        distribution-default, network-type, cni-default), file, line, column."""
        return self._model.ranges()

    def connections(self) -> list[Record]:
        """Returns one record per connection: name, description, members, via, routes,
        translates, translated, file, line, column. ``translates`` is True for a
        translated connection (via nat, globalnet or 4via6), whose members are
        seen through ``translated``: their global ranges, {"owner", "cidr"} each."""
        return self._model.connections()

    def routes(self) -> list[Record]:
        """Returns one record per route a network carries toward another owner:
        network, cidr, to (the owner it leads to; None when not said), to_kind,
        advertiser (a subnet router, a VPN gateway; None when not said), from
        (where an import read it, such as "autoApprovers.routes"; None for a
        fleet file), file, line, column."""
        return self._model.routes()

    def __repr__(self) -> str:
        owners, ranges, connections = self._model.counts()
        files = ", ".join(repr(f) for f in self.files[:3]) + (", ..." if len(self.files) > 3 else "")
        return f"<Fleet of {_plural(owners, 'owner')}, {_plural(ranges, 'range')}, {_plural(connections, 'connection')} from {files}>"

    # --- the check ----------------------------------------------------------------

    def check(
        self,
        capacity_warning: float = 0.8,
        config: ConfigLike = None,
        fail_on: Optional[str] = None,
        min_severity: Optional[str] = None,
        baseline: Sequence[str] = (),
    ) -> Report:
        """Applies every rule (docs/rules.md) and returns the findings, as `cidrcheck check` does:
        the fleet file's suppressions apply, and with config (a Config or the path of a
        .cidrcheck.yaml) its rule settings, reserved ranges, suppressions, fail-on and
        min-severity too. fail_on ("error", "warning", "note" or "never") and min_severity
        ("error", "warning" or "note") win over the configuration's, as the flags do;
        baseline holds fingerprints to leave out (an earlier report's). capacity_warning
        is the share of node capacity in use that pod-capacity warns about."""
        return Report(self._model.check(capacity_warning, _config_model(config), fail_on, min_severity,
                                        list(baseline)))

    # --- planning ---------------------------------------------------------------

    def plan(
        self,
        pools: Any = None,
        named_pools: Sequence[Mapping[str, Any]] = (),
        avoid: Union[PrefixLike, Sequence[PrefixLike]] = (),
        pin: Union[str, Sequence[str]] = (),
        cost: Optional[Mapping[str, int]] = None,
        headroom: Optional[float] = None,
        connect: Sequence[Sequence[str]] = (),
        routes: Union[str, Sequence[str]] = "all",
        fix_latent: bool = False,
        config: ConfigLike = None,
        capacity_warning: float = 0.8,
    ) -> Plan:
        """Proposes the cheapest renumbering that leaves the fleet without errors, as
        `cidrcheck plan` does (docs/planning.md), with the same options:

        pools: where new ranges may come from: {"pods": "100.64.0.0/10", "services":
          ["10.64.0.0/12"], ...}, roles network, pods, services or all; a plain
          prefix or list is for every role. Replaces the fleet file's pools per role.
        named_pools: named pools as the fleet file's `plan: pools:` writes them:
          [{"name": "eu-aws", "cidrs": ["10.64.0.0/12"], "for": {"site": "eu",
          "cloud": "aws"}}, ...] (`for` keys are labels, "owner" a name pattern and
          "role" a role or list of roles). Given any, they replace the file's named pools.
        avoid: space no new range may use. pin: ranges that must not move
          ("owner", "owner/role", "*" matches any text).
        cost: base costs of operations, keyed as `--cost` takes them: a role
          ({"pods": 3}: its in-place kinds), an operation kind
          ({"replacement-cluster": 40}), either after "owner:NAME/" or
          "distribution:NAME/" ({"owner:prod-eu/services": 5}), or "owner:NAME"
          alone for every kind; the most specific key wins (docs/planning.md).
        headroom: size pod ranges for nodes x headroom (default 1.25).
        connect: groups of owner names to plan as if connected (what-if), carrying
          routes ("all", "pods,services" or a list of roles).
        fix_latent: also remove latent overlaps. config: as for check()."""
        data = _core.plan(self._model, **_plan_arguments(pools, named_pools, avoid, pin, cost, headroom, connect,
                                                         routes, fix_latent, capacity_warning),
                          config=_config_model(config))
        return Plan(data)

    # --- capacity ---------------------------------------------------------------

    def used_space(self) -> AddressSet:
        """Returns every address some range of the fleet covers."""
        return self._model.used_space()

    def default_pools(self) -> list[Prefix]:
        """Returns the pools capacity questions use when given none, the ones
        `cidrcheck capacity` reports: the private blocks (RFC 1918, RFC 6598, and
        fc00::/7 when the fleet declares an IPv6 range) that hold part of some range."""
        return self._model.default_pools()

    def _pools(self, pools: Optional[Union[PrefixLike, Sequence[PrefixLike]]]) -> list[Prefix]:
        if pools is None:
            return self.default_pools()
        if _is_one_prefix(pools):
            pools = [pools]
        return [Prefix(p) for p in pools]

    def pool_usage(self, pools=None, fit: Union[int, Sequence[int]] = (), free: bool = False) -> list[Record]:
        """Returns one record per pool, as `cidrcheck capacity --format json` writes it:
        pool, addresses, used, free, largest_free, free_blocks (how many prefixes the
        free space splits into), fits ({"/16": how many /16 blocks still fit, for each
        length of fit}) and with free=True free_list (those prefixes); and for tables
        version and used_percent."""
        lengths = [fit] if isinstance(fit, int) else list(fit)
        out = []
        summaries = self._model.pool_summaries(self._pools(pools), lengths)
        usage = self._model.pool_usage([p for p, *_ in summaries]) if free else [None] * len(summaries)
        for (pool, used, unused, largest, blocks, fits), space in zip(summaries, usage):
            record = {
                "pool": str(pool),
                "addresses": pool.num_addresses,
                "used": used,
                "free": unused,
                "largest_free": str(largest) if largest is not None else None,
                "free_blocks": blocks,
                "fits": {f"/{length}": n for length, n in zip(lengths, fits)},
                "version": pool.version,
                "used_percent": 100 * used / pool.num_addresses,
            }
            if free:
                record["free_list"] = [str(p) for p in space[2].prefixes()]
            out.append(record)
        return out

    def free_space(self, pools=None) -> list[Record]:
        """Returns one record per free block, the minimal prefixes of each pool's
        free space: pool, cidr, prefixlen, num_addresses, first, last."""
        out = []
        for pool, _, free in self._model.pool_usage(self._pools(pools)):
            for block in free.prefixes():
                out.append({
                    "pool": str(pool),
                    "cidr": str(block),
                    "prefixlen": block.prefixlen,
                    "num_addresses": block.num_addresses,
                    "first": str(block.network_address),
                    "last": str(block.broadcast_address),
                })
        return out

    def allocator(self, pools=None) -> PrefixAllocator:
        """Returns a PrefixAllocator over the free space of the pools (the pools
        minus every range of the fleet): take() plans new ranges by best fit."""
        free = AddressSet(self._pools(pools)) - self.used_space()
        return PrefixAllocator(free)

    def count_fitting(self, prefixlen: int, pools=None, version: Optional[int] = None) -> int:
        """Returns how many more /prefixlen blocks fit in the pools' free space."""
        return self.allocator(pools).count_fitting(prefixlen, version)

    def largest_free(self, pools=None, version: Optional[int] = None) -> Optional[Prefix]:
        """Returns the largest free block of the pools, or None."""
        return self.allocator(pools).largest(version)

    def node_capacity(self) -> list[Record]:
        """Returns one record per cluster with a pod range, as `cidrcheck capacity
        --format json` writes it, counted as the pod-capacity rule counts: cluster,
        pods (its pod CIDRs), node_mask, capacity (how many nodes the pod ranges can
        number), nodes (declared); and for tables version, used_percent and spare."""
        out = []
        for r in self._model.node_capacity():
            capacity, nodes = r["capacity"], r["nodes"]
            r["used_percent"] = 100 * nodes / capacity if nodes is not None and capacity else None
            r["spare"] = capacity - nodes if nodes is not None else None
            out.append(r)
        return out

    def utilisation(self, by: str = "role", pools=None) -> list[Record]:
        """Returns how much of each pool each role (by="role") or owner (by="owner")
        covers: pool, role or owner, addresses, percent (of the pool). Overlapping
        ranges of one group count once, so percents of a pool can exceed 100 only
        where groups overlap each other."""
        pools = self._pools(pools)
        sizes = {p: p.num_addresses for p in pools}
        return [
            {"pool": str(pool), by: group, "addresses": n, "percent": 100 * n / sizes[pool]}
            for pool, group, n in self._model.usage(pools, by)
        ]

    # --- the map --------------------------------------------------------------------

    def map_layout(self, pools=None, config: ConfigLike = None, **options: Any) -> Record:
        """Returns the fleet map's layout as plain data (see cidrcheck.plot)."""
        return _core.map_layout(self._model, **_map_options(self, pools, options), config=_config_model(config))

    def to_svg(self, pools=None, config: ConfigLike = None, **options: Any) -> str:
        """Returns the fleet map as SVG text, the same picture `cidrcheck map` writes.
        Options: width, row_height, font_size (pixels), scale_exponent, max_rows, title;
        config as for check() (suppressed overlaps are not drawn)."""
        return _core.map_svg(self._model, **_map_options(self, pools, options), config=_config_model(config))

    def _repr_svg_(self) -> str:
        """Jupyter shows a Fleet as its map (to_svg() with the defaults)."""
        return self.to_svg()

    def draw(self, ax=None, pools=None, config: ConfigLike = None, **options: Any):
        """Draws the fleet map with matplotlib and returns the figure: one row per
        owner with its ranges as bars coloured by role, overlaps as red (error) or
        yellow (latent) bands, free space of each pool in pale teal. Needs
        matplotlib. Options as for to_svg(); ax draws into existing axes."""
        from .plot import draw_layout

        return draw_layout(self.map_layout(pools, config, **options), ax=ax)


def _map_options(fleet: Fleet, pools, options: dict[str, Any]) -> dict[str, Any]:
    unknown = set(options) - set(_core.MAP_DEFAULTS) - {"title"}
    if unknown:
        raise TypeError(f"unknown map option {sorted(unknown)[0]!r}; the options are "
                        f"{', '.join(sorted(_core.MAP_DEFAULTS))}, title")
    merged = {**_core.MAP_DEFAULTS, "title": None, **options}
    merged["pools"] = [] if pools is None else fleet._pools(pools)
    return merged


def _add_path(d: Record, paths: list[str]) -> None:
    """Adds to a diagnostic of a fleet made from dicts the path of its line in the data."""
    if d["file"] and 0 < d["line"] <= len(paths):
        d["path"] = paths[d["line"] - 1] or "(the top level)"
    for note in d["notes"]:
        _add_path(note, paths)


RunConfig = Union[Config, str, os.PathLike, bool, None]


def _run_config(config: RunConfig) -> tuple[Optional[bytes], bool]:
    """(the file, no configuration) as a run takes them: None finds one as the CLI does, False reads none."""
    if config is None:
        return None, False
    if config is False:
        return None, True
    if config is True:
        raise TypeError("config is a Config, a path, None (find it as the CLI does) or False (none)")
    return os.fsencode(config.file if isinstance(config, Config) else config), False


def _run_failed(status: str, diagnostics: list[Record]) -> Exception:
    if status == "configuration-error":
        return ConfigLoadError(diagnostics)
    if status == "no-inputs":
        return ValueError("no fleet sources: name them, or list them under 'inputs' in .cidrcheck.yaml")
    return FleetLoadError(diagnostics)


def check(
    *sources: Union[str, os.PathLike],
    config: RunConfig = None,
    fail_on: Optional[str] = None,
    min_severity: Optional[str] = None,
    baseline: Sequence[str] = (),
    capacity_warning: float = 0.8,
    **limits: int,
) -> Report:
    """Runs `cidrcheck check` and returns its Report, the same findings the CLI
    reports in the working directory: the configuration the CLI reads (the file
    CIDRCHECK_CONFIG names, else the .cidrcheck.yaml found upward; config names
    one, config=False none), its inputs when no source is named, its rule
    settings, reserved ranges, suppressions, fail-on and min-severity (fail_on
    and min_severity win over them, as the flags do), and a baseline's
    fingerprints left out. ``report.fails`` says whether CI fails; ``report.fleet``
    is the fleet read. Raises ConfigLoadError, FleetLoadError, or ValueError when
    nothing names a fleet."""
    config_file, no_config = _run_config(config)
    status, diagnostics, _, model, data = _core.run_check(
        [os.fsencode(p) for p in sources], config_file, no_config, _limits(limits), capacity_warning, fail_on,
        min_severity, list(baseline))
    if model is None:
        raise _run_failed(status, diagnostics)
    report = Report(data)
    report.fleet = Fleet(model)
    return report


def plan(
    *sources: Union[str, os.PathLike],
    config: RunConfig = None,
    pools: Any = None,
    named_pools: Sequence[Mapping[str, Any]] = (),
    avoid: Union[PrefixLike, Sequence[PrefixLike]] = (),
    pin: Union[str, Sequence[str]] = (),
    cost: Optional[Mapping[str, int]] = None,
    headroom: Optional[float] = None,
    connect: Sequence[Sequence[str]] = (),
    routes: Union[str, Sequence[str]] = "all",
    fix_latent: bool = False,
    capacity_warning: float = 0.8,
    **limits: int,
) -> Plan:
    """Runs `cidrcheck plan` and returns its Plan: the configuration and inputs as
    check() reads them, the options of Fleet.plan(). ``plan.source`` is the fleet
    read. Raises as check() does, and ValueError for a bad option."""
    config_file, no_config = _run_config(config)
    status, diagnostics, model, data = _core.run_plan(
        [os.fsencode(p) for p in sources], config_file, no_config, _limits(limits),
        **_plan_arguments(pools, named_pools, avoid, pin, cost, headroom, connect, routes, fix_latent,
                          capacity_warning))
    if model is None:
        raise _run_failed(status, diagnostics)
    result = Plan(data)
    result.source = Fleet(model)
    return result
