#!/usr/bin/python3
"""Times `cidrcheck set merge|overlaps|alloc` against peer tools on the same inputs.

Generates the inputs with bench/gen_prefixes.py, checks on a small input that
every tool agrees (the quadratic peers included, alloc block by block), then
runs cidrcheck, the floor (bench/floor.cpp: the same count written as tightly as
possible, IPv4 merge and overlaps) and every applicable peer of bench/peers.py on
the full inputs, checks that all result lines agree, and prints one table row per
tool: the result line, the wall, user and system time, minor page faults and peak
RSS of its best run (by wall) out of --repeats, and its ratios to cidrcheck and
to the floor. The tools of a task run in turns, one run each per round, so that
a burst of load elsewhere hits them alike.

Exits 0 when every tool agrees, 1 on any disagreement, 2 when it cannot run.
The timing targets in the footer are reported, not enforced.
Run it with /usr/bin/python3: the peers need python3-netaddr and python3-radix
(a peer whose module is missing is skipped with a note).
"""
import argparse
import dataclasses
import importlib.util
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
SHARED_GEN = ROOT.parent / "shared" / "bench" / "gen_prefixes.py"
# What every correct tool reports on `shared/bench/gen_prefixes.py 1000000 42`.
SHARED_EXPECTED = {"overlaps": "pairs 6715421", "merge": "merged 4562"}

GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
QUADRATIC_LIMIT = 20_000  # largest input given to an O(n^2) peer
SLOW_RUN = 20.0  # seconds: a run slower than this is not repeated
CHECK_LINES = 2_000  # the small agreement check
CHECK_LENGTHS = {False: (16, 24, 30), True: (40, 64, 120)}  # alloc lengths checked block by block, v4 and v6
CHECK_BLOCKS = 100


@dataclasses.dataclass(frozen=True)
class Peer:
    name: str
    task: str
    needs: str = ""  # a Python module, or a program path starting with "/"
    quadratic: bool = False
    v4_only: bool = False


FLOOR = Peer("floor", "", v4_only=True)  # merge and overlaps; --floor names the binary
FLOOR_TASKS = ("overlaps", "merge")
FLOOR_TARGET = 1.5  # issue 29: cidrcheck within 1.5x of the floor

PEERS = [
    Peer("overlaps-naive", "overlaps", quadratic=True),
    Peer("overlaps-sweep", "overlaps"),
    Peer("overlaps-radix", "overlaps", needs="radix"),
    Peer("merge-ipaddress", "merge"),
    Peer("merge-netaddr", "merge", needs="netaddr"),
    Peer("merge-aggregate", "merge", needs="/usr/bin/aggregate", quadratic=True, v4_only=True),
    Peer("alloc-netaddr", "alloc", needs="netaddr"),
    Peer("alloc-netaddr-rescan", "alloc", needs="netaddr", quadratic=True),
]
TASKS = ("overlaps", "merge", "alloc")
QUICK_PEERS = ("overlaps-sweep", "merge-netaddr", "alloc-netaddr")


@dataclasses.dataclass
class Row:
    task: str
    tool: str
    result: str
    wall: float
    user: float
    sys: float
    faults: int  # minor page faults
    peak_mb: float

    @property
    def cpu(self):
        return self.user + self.sys


class Failure(Exception):
    """A tool that crashed or printed something other than one result line."""


@dataclasses.dataclass
class Run:
    out: str
    wall: float
    user: float
    sys: float
    faults: int
    peak_mb: float


def run_once(cmd):
    """Runs cmd; returns its Run: stdout, wall, user and system seconds, minor faults, peak RSS in MB.

    Linux counts a process's RSS before exec in its ru_maxrss, so a child forked
    from this Python reports at least this Python's RSS. GNU time forks from a
    process of 2 MB, so its %M is the child's own peak; os.wait4 is the fallback.
    The times and faults are os.wait4's: the child's and its children's (GNU
    time's own share is a millisecond and about a hundred faults).
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(mode="r") as peak_file:
        wrapped = [GNU_TIME, "-f", "%M", "-o", peak_file.name, *cmd] if GNU_TIME else cmd
        start = time.perf_counter()
        proc = subprocess.Popen(wrapped, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        # cidrcheck exits 1 for findings (overlapping pairs, a pool that ran out).
        if proc.returncode not in (0, 1):
            raise Failure(f"{' '.join(map(str, cmd))} exited {proc.returncode}: {err.read().decode().strip()}")
        peak_kb = int(peak_file.read().split()[-1]) if GNU_TIME else usage.ru_maxrss
        return Run(out.read().decode(), wall, usage.ru_utime, usage.ru_stime, usage.ru_minflt, peak_kb / 1024)


def measure_turns(task, tools, repeats):
    """Returns a Row per (tool, cmd) in tools: the best of `repeats` runs by wall.

    The tools run in turns, one run each per round; a tool whose run is slow
    (over SLOW_RUN) is not run again.
    """
    best = {}
    for _ in range(repeats):
        for tool, cmd in tools:
            if tool in best and best[tool].wall > SLOW_RUN:
                continue
            run = run_once(cmd)
            lines = run.out.splitlines()
            if len(lines) != 1:
                raise Failure(f"{tool} printed {len(lines)} lines, not one result line: {run.out[:200]!r}")
            if tool not in best or run.wall < best[tool].wall:
                best[tool] = Row(task, tool, lines[0], run.wall, run.user, run.sys, run.faults, run.peak_mb)
    return [best[tool] for tool, _ in tools]


def measure(task, tool, cmd, repeats):
    """Returns the Row of the best of `repeats` runs of one tool."""
    return measure_turns(task, [(tool, cmd)], repeats)[0]


class Bench:
    """The commands of one comparison: which tools run, and how."""

    def __init__(self, args):
        self.args = args
        self.notes = []
        self.disagreements = []

    def generate(self, n, seed, out, generator=BENCH / "gen_prefixes.py"):
        cmd = [sys.executable, str(generator), str(n), str(seed), str(out)]
        if self.args.v6 and generator == BENCH / "gen_prefixes.py":
            cmd.append("--v6")
        subprocess.run(cmd, check=True)
        return out

    def cidrcheck(self, task, path, **alloc):
        opts = self.alloc_options(**alloc) if task == "alloc" else ["--count"]
        return [str(self.args.cidrcheck), "set", task, *opts, str(path)]

    def floor(self, task, path):
        """Returns the floor's command for task, or None when it does not apply (and says why once)."""
        if task not in FLOOR_TASKS:
            return None
        why = None
        if self.args.v6:
            why = "it reads IPv4 only"
        elif not os.access(self.args.floor, os.X_OK):
            why = f"{self.args.floor} is not built (cmake --build build/ci --target cidrcheck_floor)"
        if why:
            note = f"skipped floor: {why}"
            if note not in self.notes:
                self.notes.append(note)
            return None
        return [str(self.args.floor), task, str(path)]

    def peer(self, peer, path, **alloc):
        cmd = [sys.executable, str(BENCH / "peers.py"), peer.name, str(path)]
        return cmd + (self.alloc_options(**alloc) if peer.task == "alloc" else [])

    def alloc_options(self, length=None, count=None, as_list=False):
        args = self.args
        length = args.length if length is None else length
        count = args.count if count is None else count
        opts = ["--within", args.within, "--length", str(length)]
        return opts + (["-n", str(count)] if as_list else ["--count", str(count)])

    def usable(self, peer, n, quiet=False):
        """Reports whether peer can run on n lines here; says why not unless quiet."""
        why = None
        if peer.needs.startswith("/") and not os.access(peer.needs, os.X_OK):
            why = f"{peer.needs} is not installed"
        elif peer.needs and not peer.needs.startswith("/") and importlib.util.find_spec(peer.needs) is None:
            why = f"Python module {peer.needs} is missing from {sys.executable}"
        elif peer.v4_only and self.args.v6:
            why = "it reads IPv4 only"
        elif peer.quadratic and n > QUADRATIC_LIMIT:
            why = f"it is quadratic and N = {n:,} > {QUADRATIC_LIMIT:,}"
        if why and not quiet:
            self.notes.append(f"skipped {peer.name}: {why}")
        return why is None

    def agree(self, what, rows):
        """Records a disagreement when the rows' results differ."""
        results = {r.result for r in rows}
        if len(results) > 1:
            detail = "; ".join(f"{r.tool}: {r.result}" for r in rows)
            self.disagreements.append(f"{what}: {detail}")


def check_small(bench, tmp):
    """Checks every tool, the quadratic peers included, on CHECK_LINES lines."""
    args = bench.args
    path = bench.generate(CHECK_LINES, args.seed, tmp / "check.txt")
    for task in args.tasks:
        peers = [p for p in PEERS if p.task == task and bench.usable(p, CHECK_LINES, quiet=True)]
        if task != "alloc":
            rows = [measure(task, "cidrcheck", bench.cidrcheck(task, path), 1)]
            if floor := bench.floor(task, path):
                rows.append(measure(task, "floor", floor, 1))
            rows += [measure(task, p.name, bench.peer(p, path), 1) for p in peers]
            bench.agree(f"check on {CHECK_LINES:,} lines, {task}", rows)
            print(f"check {task:8} on {CHECK_LINES:,} lines: {', '.join(sorted({r.result for r in rows}))} "
                  f"({len(rows)} tools)")
            continue
        # alloc, for a few lengths: cidrcheck's summary line and its blocks (-n)
        # against every peer's blocks (--list), one run of each.
        for length in CHECK_LENGTHS[args.v6]:
            opts = dict(length=length, count=CHECK_BLOCKS)
            summary = measure(task, "cidrcheck", bench.cidrcheck(task, path, **opts), 1).result
            blocks = run_once(bench.cidrcheck(task, path, as_list=True, **opts)).out
            for p in peers:
                theirs = run_once(bench.peer(p, path, **opts) + ["--list"]).out.splitlines()
                last = theirs[-1] if theirs else "None"
                if theirs != blocks.splitlines() or summary != f"alloc {len(theirs)} last {last}":
                    bench.disagreements.append(f"check alloc /{length} on {CHECK_LINES:,} lines: cidrcheck "
                                               f"({summary}) and {p.name} --list differ")
            print(f"check alloc /{length} on {CHECK_LINES:,} lines: {summary} "
                  f"({1 + len(peers)} tools, block by block)")


def time_all(bench, tmp):
    """Times cidrcheck and the chosen peers on the full inputs; returns the rows."""
    args = bench.args
    rows = []
    for task in args.tasks:
        n = args.alloc_n if task == "alloc" else args.n
        path = tmp / f"input-{n}.txt"
        if not path.exists():
            started = time.perf_counter()
            bench.generate(n, args.seed, path)
            print(f"generated {n:,} lines (seed {args.seed}) in {time.perf_counter() - started:.1f} s")
        tools = [("cidrcheck", bench.cidrcheck(task, path))]
        if floor := bench.floor(task, path):
            tools.append(("floor", floor))
        tools += [(peer.name, bench.peer(peer, path)) for peer in PEERS
                  if peer.task == task and peer.name in args.peers and bench.usable(peer, n)]
        task_rows = measure_turns(task, tools, args.repeats)
        bench.agree(f"{task} on {n:,} lines", task_rows)
        rows += task_rows
    return rows


def shared_crosscheck(bench, tmp):
    """Checks the counts every tool must give on the shared generator's 1M file."""
    if not SHARED_GEN.exists():
        print(f"shared cross-check skipped: ../shared is absent ({SHARED_GEN} not found)")
        return []
    path = bench.generate(1_000_000, 42, tmp / "shared-1M.txt", generator=SHARED_GEN)
    rows = []
    for task, want in ((t, SHARED_EXPECTED[t]) for t in bench.args.tasks if t in SHARED_EXPECTED):
        task_rows = [measure(task, "cidrcheck", bench.cidrcheck(task, path), 1)]
        if floor := bench.floor(task, path):
            task_rows.append(measure(task, "floor", floor, 1))
        for peer in PEERS:
            if peer.task == task and peer.name in bench.args.peers and bench.usable(peer, 1_000_000, quiet=True):
                task_rows.append(measure(task, peer.name, bench.peer(peer, path), 1))
        for r in task_rows:
            if r.result != want:
                bench.disagreements.append(f"shared cross-check, {task}: {r.tool} says {r.result}, expected {want}")
        rows += task_rows
    return rows


def print_machine(args):
    """Prints what a reader needs to compare figures across machines: CPU, load, page-fault cost."""
    model = "unknown CPU"
    try:
        model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                      if line.startswith("model name")), model)
    except OSError:
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {model}; load average {load}")
    fault_cost = args.floor.parent / "cidrcheck_fault_cost"
    if os.access(fault_cost, os.X_OK):
        out = subprocess.run([str(fault_cost)], capture_output=True, text=True, check=False).stdout.strip()
        print(f"page {out} (CPU time, 64 MB touched)")
    else:
        print(f"page-fault cost not measured: {fault_cost} is not built")


def print_table(title, rows):
    print(f"\n{title}")
    tool_width, width = max(len(r.tool) for r in rows), max(len(r.result) for r in rows)
    header = (f"{'task':9} {'tool':{tool_width}} {'result':{width}} {'wall s':>7} {'user s':>7} {'sys s':>6} "
              f"{'faults':>7} {'peak MB':>8} {'vs cidrcheck':>12} {'vs floor':>8} {'cpu vs floor':>12}")
    print(header)
    print("-" * len(header))
    base = {r.task: r for r in rows if r.tool == "cidrcheck"}
    floor = {r.task: r for r in rows if r.tool == "floor"}

    def ratio(r, to, field):
        ref = to.get(r.task)
        return f"{getattr(r, field) / getattr(ref, field):.2f}x" if ref and getattr(ref, field) else "-"

    for r in rows:
        print(f"{r.task:9} {r.tool:{tool_width}} {r.result:{width}} {r.wall:7.3f} {r.user:7.3f} {r.sys:6.3f} "
              f"{r.faults:7} {r.peak_mb:8.1f} {ratio(r, base, 'wall'):>12} {ratio(r, floor, 'wall'):>8} "
              f"{ratio(r, floor, 'cpu'):>12}")


def print_targets(args, rows):
    """Prints PASS/FAIL for the targets, which are stated for the default inputs only.

    The floor targets hold on any input: they are ratios measured in the same run.
    """
    mine = {r.task: r for r in rows if r.tool == "cidrcheck"}
    floor = {r.task: r for r in rows if r.tool == "floor"}
    default_n = args.n == 1_000_000 and not args.v6
    default_alloc = (args.alloc_n, args.count, args.length, args.within) == (100_000, 10_000, 24, "0.0.0.0/0")
    targets = [  # task, statement, whether this run's input is the stated one, wall and peak limits
        ("overlaps", "overlaps of 1,000,000 lines under 0.2 s and 150 MB", default_n, 0.2, 150.0),
        ("merge", "merge of 1,000,000 lines under 0.2 s and 150 MB", default_n, 0.2, 150.0),
        ("alloc", "alloc 10,000 /24s from 100,000 lines under 0.1 s", default_alloc, 0.1, None),
    ]
    print("\ntargets (cidrcheck):")
    for task, what, applies, wall, peak in targets:
        if task not in mine:
            continue
        if not applies:
            print(f"  n/a   {what} (not this run's input)")
            continue
        r = mine[task]
        ok = r.wall < wall and (peak is None or r.peak_mb < peak)
        print(f"  {'PASS' if ok else 'FAIL'}  {what}: {r.wall:.3f} s, {r.peak_mb:.1f} MB")
    for task in FLOOR_TASKS:
        if task in mine and task in floor:
            r, f = mine[task], floor[task]
            ok = r.wall <= FLOOR_TARGET * f.wall
            print(f"  {'PASS' if ok else 'FAIL'}  {task} within {FLOOR_TARGET}x of the floor: wall "
                  f"{r.wall / f.wall:.2f}x ({r.wall:.3f} s against {f.wall:.3f} s), CPU {r.cpu / f.cpu:.2f}x, "
                  f"faults {r.faults / f.faults:.2f}x")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cidrcheck", type=Path, default=ROOT / "build" / "ci" / "cidrcheck",
                    help="the cidrcheck binary (default: build/ci/cidrcheck)")
    ap.add_argument("--floor", type=Path, default=ROOT / "build" / "ci" / "bench" / "cidrcheck_floor",
                    help="the floor binary (default: build/ci/bench/cidrcheck_floor; skipped with a note if absent)")
    ap.add_argument("--n", type=int, help="lines for merge and overlaps (default 1,000,000; --quick 20,000)")
    ap.add_argument("--alloc-n", type=int, help="lines for alloc (default 100,000; --quick 20,000)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--v6", action="store_true", help="IPv6 inputs (alloc then defaults to ::/0 and /64)")
    ap.add_argument("--within", help="alloc pool (default 0.0.0.0/0)")
    ap.add_argument("--length", type=int, help="alloc block length (default 24)")
    ap.add_argument("--count", type=int, help="alloc blocks (default 10,000; --quick 1,000)")
    ap.add_argument("--tasks", default=",".join(TASKS), help=f"comma-separated subset of {','.join(TASKS)}")
    ap.add_argument("--peers", help="comma-separated peers to time (default: all that apply)")
    ap.add_argument("--repeats", type=int, default=3, help="runs per tool; the best counts (default 3)")
    ap.add_argument("--quick", action="store_true", help="small inputs and few peers: a smoke test for CI")
    ap.add_argument("--shared-crosscheck", action="store_true",
                    help="also check the known counts on ../shared/bench/gen_prefixes.py 1000000 42")
    args = ap.parse_args()

    args.n = args.n or (20_000 if args.quick else 1_000_000)
    args.alloc_n = args.alloc_n or (20_000 if args.quick else 100_000)
    args.count = args.count or (1_000 if args.quick else 10_000)
    args.within = args.within or ("::/0" if args.v6 else "0.0.0.0/0")
    args.length = args.length if args.length is not None else (64 if args.v6 else 24)
    args.tasks = [t for t in args.tasks.split(",") if t]
    if not args.tasks:
        ap.error("--tasks names no task")
    default_peers = QUICK_PEERS if args.quick else [p.name for p in PEERS]
    args.peers = args.peers.split(",") if args.peers else list(default_peers)
    for name, known in (("task", TASKS), ("peer", [p.name for p in PEERS])):
        for x in args.tasks if name == "task" else args.peers:
            if x not in known:
                ap.error(f"unknown {name} '{x}' (one of {', '.join(known)})")
    if not os.access(args.cidrcheck, os.X_OK):
        ap.error(f"{args.cidrcheck} is not an executable; build it (cmake --build --preset ci) or pass --cidrcheck")
    return args


def main():
    args = parse_args()
    bench = Bench(args)
    print(f"cidrcheck: {args.cidrcheck}; python: {sys.executable}; {os.cpu_count()} CPUs")
    print_machine(args)
    if not GNU_TIME:
        bench.notes.append("/usr/bin/time is missing: each peak MB includes compare.py's own RSS, "
                           f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB, inherited across exec")
    with tempfile.TemporaryDirectory(prefix="cidrcheck-bench-") as tmp:
        tmp = Path(tmp)
        try:
            check_small(bench, tmp)
            rows = time_all(bench, tmp)
            shared = shared_crosscheck(bench, tmp) if args.shared_crosscheck else []
        except (Failure, subprocess.CalledProcessError) as e:
            print(f"compare.py: error: {e}", file=sys.stderr)
            return 2
    inputs = [f"{args.n:,} lines" if t != "alloc" else
              f"alloc {args.count:,} /{args.length} from {args.within} minus {args.alloc_n:,} lines" for t in args.tasks]
    print_table(f"best of {args.repeats} runs, seed {args.seed}: {'; '.join(dict.fromkeys(inputs))}", rows)
    if shared:
        print_table("shared cross-check: ../shared/bench/gen_prefixes.py 1000000 42 (one run each)", shared)
    for note in bench.notes:
        print(f"note: {note}")
    print_targets(args, rows)
    if bench.disagreements:
        print("\nDISAGREEMENT:", *bench.disagreements, sep="\n  ")
        return 1
    print("\nall tools agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
