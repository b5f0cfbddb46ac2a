#!/usr/bin/python3
"""Issue 16 ("Trust") through the command line: each group is one defect an
outside review found, and fails on the cidrcheck that had it.

  names      names and paths cannot forge CI annotations or terminal escapes
  entities   a '/' in a name cannot hide a new finding from diff
  markdown   names cannot bring links, images, emphasis, code or mentions into Markdown
  outputs    no file the run reads is an output; two outputs never share a file
  diff_rev   diff --rev reads KIND:FILE sources at the revision; outside files; no commit yet
  overlaps   set overlaps streams its pairs in bounded memory
  numbers    negative counts, baseline limits, 2^128 addresses
  writes     signals remove the temporary file; stdout errors are reported; link loops refused
  utf8       file names that are not UTF-8, in every report format
  misc       bare cidrcheck with a configuration, explain in lower case, capacity pools

Issue 28 (round 3), each group a class of defects; each fails on b92d7c3:
  streams    -, /dev/stdin, /dev/stdout, /dev/fd/N and stdout's own file are the streams they are (item 14)
  signals    every signal that ends the process removes the temporary file (item 24)
  emit       plan refuses --emit before writing -o; a mount point leaves nothing beside it (items 18, 19)
  fifo       a named pipe nobody writes to is an error, not a wait for ever (item 26)
  full       --help, version and reports to a full stdout say so with the right errno (item 26)
  bounds     set alloc's block count is bounded; fits /128 of ::/0 is 2^128 (item 26)
  junit      the JUnit report streams: 20,000 owners in bounded memory (item 15)

Usage: trust_test.py CIDRCHECK REPO SCRATCH GROUP
"""
import array
import fcntl
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import termios
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

CLI, REPO, SCRATCH, GROUP = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve(), Path(sys.argv[3]), sys.argv[4]
failures = []

OVERLAP = """version: 1
clusters:
  - name: a
    pods: 10.0.0.0/16
  - name: b
    pods: 10.0.0.0/16
connections:
  - [a, b]
"""


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def run(*args, cwd=None, stdin=None, timeout=120, **kwargs):
    """(exit status, stdout, stderr) of cidrcheck ARGS; status None if it ran past the timeout."""
    try:
        done = subprocess.run([str(CLI), *map(str, args)], cwd=cwd or SCRATCH, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout, stdin=stdin, **kwargs)
    except subprocess.TimeoutExpired:
        return None, b"", f"ran for more than {timeout} s".encode()
    return done.returncode, done.stdout, done.stderr


def text(b):
    return b.decode("utf-8", errors="replace")


def fresh(name):
    directory = SCRATCH / name
    directory.mkdir(parents=True)
    return directory


def test_names():
    # A file name with a line feed and an escape: every format keeps each line one line.
    d = fresh("names")
    (d / "x\n::error::forged\x1b[31m.yaml").write_text(OVERLAP)
    (d / "warn.yaml").write_text(OVERLAP.replace("name: a\n", "name: a\n    distribution: \"k3s\\n::stop-commands::t\\e[2J\"\n"))
    for fmt in ("text", "github", "markdown"):
        status, out, err = run("check", "--format", fmt, "x\n::error::forged\x1b[31m.yaml", cwd=d)
        check(status == 1, f"names/{fmt}: exit {status}: {text(err)}")
        for line in (out + err).split(b"\n"):
            check(b"\x1b" not in line, f"names/{fmt}: a raw ESC: {line!r}")
            check(not line.startswith(b"::") or line.startswith((b"::error file=", b"::warning file=", b"::notice ")),
                  f"names/{fmt}: a forged workflow command: {line!r}")
    # Warnings on stderr quote the distribution: escaped, one line.
    status, out, err = run("check", "--format", "github", "warn.yaml", cwd=d)
    check(b"unknown distribution 'k3s\\x0a::stop-commands::t\\x1b[2J'" in err, f"names/warning: {text(err)}")
    check(not any(line.startswith(b"::stop-commands") for line in err.split(b"\n")), f"names/warning: {text(err)}")


def test_entities():
    # Cluster a's pods overlap b; then network "a/pods" does: a new finding, which diff must report.
    d = fresh("entities")
    (d / "old.yaml").write_text(OVERLAP)
    (d / "new.yaml").write_text("version: 1\nnetworks:\n  - name: a/pods\n    cidrs: 10.0.0.0/16\nclusters:\n"
                                "  - name: b\n    pods: 10.0.0.0/16\nconnections:\n  - [a/pods, b]\n")
    status, out, err = run("diff", "--format", "json", "old.yaml", "new.yaml", cwd=d)
    report = json.loads(out)
    check(report["summary"]["findings"] == 1, f"entities: diff added {report['summary']['findings']}, not 1")
    # --baseline of the old fleet hides nothing of the new one.
    run("check", "--write-baseline", "old.json", "old.yaml", cwd=d)
    status, out, err = run("check", "--baseline", "old.json", "--format", "json", "new.yaml", cwd=d)
    summary = json.loads(out)["summary"]
    check(status == 1 and summary["errors"] == 1, f"entities: the baseline hides the new overlap: {summary}")


def test_markdown():
    d = fresh("markdown")
    names = ["[click](https://evil.example/x)", "![img](https://evil.example/i.png)", "*bold*", "_it_",
             "`code`", "@octocat", "~~gone~~", "<b>html</b>", "issue #12", "www.evil.example"]
    clusters = "".join(f"  - name: {json.dumps(n)}\n    pods: 10.0.0.0/16\n" for n in names)
    (d / "fleet.yaml").write_text("version: 1\nclusters:\n" + clusters + "connections:\n  - between: " +
                                  json.dumps(names) + "\n")
    status, out, err = run("check", "--format", "markdown", "fleet.yaml", cwd=d)
    check(status == 1, f"markdown: exit {status}: {text(err)}")
    page = out.decode()
    table = page[page.index("| Severity"):]
    for raw in ("](https://evil", "![", "*bold*", "_it_", "`code`", "@octocat", "~~gone~~", "<b>", "#12",
                "www.evil"):
        check(raw not in table, f"markdown: '{raw}' passes into the table")
    for escaped in ("\\[click\\]", "\\*bold\\*", "\\_it\\_", "\\`code\\`", "@\u200boctocat", "&lt;b>", "#\u200b12"):
        check(escaped in table, f"markdown: '{escaped}' missing from the table")
    # A file name with backticks stays one code span.
    (d / "a`b.yaml").write_text(OVERLAP)
    status, out, err = run("check", "--format", "markdown", "a`b.yaml", cwd=d)
    check("``a`b.yaml:" in out.decode(), f"markdown: the location's code span: {text(out)}")


def test_outputs():
    d = fresh("outputs")
    (d / "fleet.yaml").write_text(OVERLAP)
    (d / ".cidrcheck.yaml").write_text("version: 1\ninputs: [fleet.yaml]\n")
    run("check", "--write-baseline", "b.json", cwd=d)
    before = {p.name: p.read_bytes() for p in d.iterdir()}
    cases = [
        (["check", "--format", "json=.cidrcheck.yaml"], "is an input file"),
        (["map", "-o", ".cidrcheck.yaml"], "is an input file"),
        (["capacity", "-o", "./.cidrcheck.yaml"], "is an input file"),
        (["check", "--baseline", "b.json", "--format", "sarif=b.json"], "is an input file"),
        (["check", "--baseline", "b.json", "--write-baseline", "b.json", "--format", "json=b.json"],
         "two outputs go to b.json"),
        (["check", "--format", "json=x", "--format", "sarif=x"], "two outputs go to x"),
        (["check", "--format", "json=x", "--format", "sarif=./x"], "two outputs go to"),
        (["check", "--format", "json=x", "--write-baseline", "x"], "two outputs go to x"),
        (["diff", "--rev", "HEAD", "--format", "json=.cidrcheck.yaml"], "is an input file"),
    ]
    for args, message in cases:
        status, out, err = run(*args, cwd=d)
        check(status == 2 and message in text(err), f"outputs: `{' '.join(args)}` exited {status}: {text(err)}")
    after = {p.name: p.read_bytes() for p in d.iterdir()}
    check(before == after, f"outputs: files changed: {set(after) ^ set(before) or 'contents'}")


def git(*args, cwd):
    subprocess.run(["git", *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_diff_rev():
    d = fresh("diff-rev")
    git("init", "-q", "-b", "main", cwd=d)
    git("config", "user.email", "t@example.invalid", cwd=d)
    git("config", "user.name", "t", cwd=d)
    # Before the first commit, --rev HEAD (the pre-commit hook) compares with nothing.
    (d / "fleet.yaml").write_text(OVERLAP)
    status, out, err = run("diff", "--rev", "HEAD", "--format", "json", "fleet.yaml", cwd=d)
    check(status == 1 and json.loads(out or b"{}").get("summary", {}).get("errors") == 1,
          f"diff_rev: the first commit: exit {status}: {text(err)}")
    # An import beside a fleet file, named on the command line and in the configuration's inputs.
    (d / "exports").mkdir()
    shutil.copy(REPO / "tests/fixtures/import/aws-vpcs/vpcs.json", d / "exports/vpcs.json")
    (d / "fleet.yaml").write_text("version: 1\nclusters:\n  - name: k\n    pods: 10.0.0.0/16\n")
    (d / ".cidrcheck.yaml").write_text("version: 1\ninputs: [fleet.yaml, 'aws-vpcs:exports/vpcs.json']\n")
    git("add", "-A", cwd=d)
    git("commit", "-q", "-m", "fleet", cwd=d)
    for args in (["fleet.yaml", "aws-vpcs:exports/vpcs.json"], []):
        status, out, err = run("diff", "--rev", "HEAD", "--format", "json", *args, cwd=d)
        report = json.loads(out or b"{}")
        check(status == 0 and report.get("summary", {}).get("findings") == 0,
              f"diff_rev: nothing changed, {args or 'inputs'}: exit {status}: {text(err)} {report.get('summary')}")
    # One change adds one finding, however many the import holds.
    (d / "fleet.yaml").write_text("version: 1\nclusters:\n  - name: k\n    pods: 10.0.0.0/16\n"
                                  "  - name: m\n    pods: 10.0.0.0/16\nconnections:\n  - [k, m]\n")
    status, out, err = run("diff", "--rev", "HEAD", "--format", "json", cwd=d)
    old_new = json.loads(out or b"{}").get("summary", {})
    status2, out2, err2 = run("check", "--format", "json", cwd=d)
    now = json.loads(out2)["summary"]["findings"]
    check(status == 1 and 0 < old_new.get("findings", -1) < now,
          f"diff_rev: one change: exit {status}, {old_new.get('findings')} added of {now}: {text(err)}")
    # A file outside the repository: cidrcheck says so.
    outside = SCRATCH / "outside.yaml"
    outside.write_text(OVERLAP)
    status, out, err = run("diff", "--rev", "HEAD", str(outside), cwd=d)
    check(status == 2 and "is outside the git repository" in text(err), f"diff_rev: outside: {status} {text(err)}")


def test_overlaps():
    # 20,000 identical lines are 200 million pairs: kept in memory, 1.6 GB; streamed, a few MB.
    d = fresh("overlaps")
    (d / "same.txt").write_text("10.0.0.0/8\n" * 20000)
    limit = 512 << 20
    # AddressSanitizer reserves terabytes of address space for its shadow, so an
    # address-space cap cannot hold it: it bounds the resident memory itself.
    sanitized = b"__asan_init" in CLI.read_bytes()
    env = dict(os.environ)
    if sanitized:
        env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS", ""), f"hard_rss_limit_mb={limit >> 20}"]))

    def cap():
        if not sanitized:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    proc = subprocess.Popen([str(CLI), "set", "overlaps", "same.txt"], cwd=d, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=cap, env=env)
    lines = [proc.stdout.readline() for _ in range(3)]
    proc.stdout.close()
    proc.wait(timeout=120)
    err = proc.stderr.read()
    check(lines[0] == b"same.txt:1: 10.0.0.0/8 overlaps same.txt:2: 10.0.0.0/8\n" and
          lines[2] == b"same.txt:1: 10.0.0.0/8 overlaps same.txt:4: 10.0.0.0/8\n",
          f"overlaps: under {limit >> 20} MB the first pairs are {lines}: {text(err)}")
    # The order and the pairs are those of the small golden cases; the count agrees.
    status, out, err = run("set", "overlaps", "--count", "same.txt", cwd=d)
    check(out == b"pairs 199990000\n", f"overlaps: count {out}")


def test_numbers():
    d = fresh("numbers")
    (d / "fleet.yaml").write_text(OVERLAP)
    for args in (["set", "alloc", "--pool", "10.0.0.0/8", "--length", "24", "--count=-1"],
                 ["set", "alloc", "--pool", "10.0.0.0/8", "--length", "24", "-n", "-5"],
                 ["check", "--max-findings=-1", "fleet.yaml"],
                 ["check", "--max-depth=-3", "fleet.yaml"]):
        status, out, err = run(*args, cwd=d, stdin=subprocess.DEVNULL)
        check(status == 2 and (b"0 or more" in err or b"unrecognised option" in err),
              f"numbers: `{' '.join(args)}` exited {status}: {text(err)[:300]}")
    # The baseline obeys --max-depth and --max-nodes.
    (d / "deep.json").write_text("[" * 200000 + "]" * 200000)
    status, out, err = run("check", "--baseline", "deep.json", "fleet.yaml", cwd=d)
    check(status == 2 and b"max-depth limit of 64" in err, f"numbers: deep baseline: {status} {text(err)[:300]}")
    (d / "wide.json").write_text(json.dumps({"findings": [{"fingerprint": str(k)} for k in range(1000)]}))
    status, out, err = run("check", "--baseline", "wide.json", "--max-nodes", "100", "fleet.yaml", cwd=d)
    check(status == 2 and b"max-nodes limit of 100" in err, f"numbers: wide baseline: {status} {text(err)[:300]}")
    status, out, err = run("check", "--baseline", "wide.json", "fleet.yaml", cwd=d)
    check(status == 1, f"numbers: a baseline within the limits: {status} {text(err)[:300]}")
    # The baseline reader (a SAX reader since issue 28) reads what the DOM did: the last of a
    # repeated key wins; nested values are skipped; a finding without a string fingerprint is named.
    run("check", "--write-baseline", "full.json", "fleet.yaml", cwd=d)
    real = json.loads((d / "full.json").read_text())["findings"]
    cases = [
        ({"findings": "x", "more": [real], "findings ": 1} | {"findings": real}, 0),
        ('{"findings": [], "findings": ' + json.dumps(real) + "}", 0),
        ('{"findings": ' + json.dumps(real) + ', "findings": []}', 1),
        ({"findings": [dict(x, fingerprint=[x["fingerprint"]]) for x in real]}, "finding 1 has no fingerprint"),
        ({"findings": [real[0], 3]}, "finding 2 has no fingerprint"),
        ({"findings": [dict(real[0], extra={"fingerprint": "nested"})] + real[1:]}, 0),
        ([real], "has no \"findings\" list"),
        ({"findings": {"a": real}}, "has no \"findings\" list"),
        ('{"findings": [', "not a JSON report"),
    ]
    for document, want in cases:
        (d / "b.json").write_text(document if isinstance(document, str) else json.dumps(document))
        status, out, err = run("check", "--baseline", "b.json", "fleet.yaml", cwd=d)
        if isinstance(want, int):
            check(status == want, f"numbers: baseline {str(document)[:80]}: exit {status}, not {want}: {text(err)[:200]}")
        else:
            check(status == 2 and want.encode() in err, f"numbers: baseline {str(document)[:80]}: {status} {text(err)[:200]}")
    # All of IPv6 is 2^128 addresses, not 2^128 - 1.
    status, out, err = run("capacity", "--format", "json", "--pool", "::/0", "fleet.yaml", cwd=d)
    pool = json.loads(out)["pools"][0]
    check(pool["addresses"] == 2**128 and pool["free"] == 2**128 and pool["used"] == 0, f"numbers: ::/0 {pool}")
    status, out, err = run("capacity", "--pool", "::/0", "fleet.yaml", cwd=d)
    check(str(2**128).encode() in out, f"numbers: ::/0 text: {text(out)}")


def test_writes():
    d = fresh("writes")
    # A fleet whose JSON report takes a while to write: many overlapping networks.
    (d / "OVERLAP.yaml").write_text(OVERLAP)
    rows = "".join(f"  - name: n{k}\n    cidrs: 10.{k // 250}.{k % 250}.0/24\n" for k in range(3000))
    (d / "fleet.yaml").write_text("version: 1\nnetworks:\n  - name: all\n    cidrs: 10.0.0.0/8\n" + rows +
                                  "connections:\n  - between: [all, n0]\n")
    caught = 0
    for signal_number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        for attempt in range(40):
            for p in d.glob(".cidrcheck-*"):
                p.unlink()
            proc = subprocess.Popen([str(CLI), "check", "--max-findings", "100000000", "--format",
                                     "json=out.json", "--format", "sarif=out.sarif", "--format", "junit=out.xml",
                                     "fleet.yaml"], cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            seen = False
            while proc.poll() is None:
                if any(d.glob(".cidrcheck-*")):
                    proc.send_signal(signal_number)
                    seen = True
                    break
            proc.wait(timeout=60)
            if seen and proc.returncode == -signal_number:
                caught += 1
                left = list(d.glob(".cidrcheck-*"))
                check(not left, f"writes: {signal.Signals(signal_number).name} left {left}")
                break
    if caught == 0:
        print("trust_test: note: no signal arrived during a write; the signal cases were not exercised")
    # The directory is synced after the rename (strace, where installed, shows it).
    strace = shutil.which("strace")
    if strace:
        subprocess.run([strace, "-f", "-o", "trace.log", "-e", "trace=rename,renameat,renameat2,openat,fsync",
                        str(CLI), "check", "--format", "json=synced.json", "OVERLAP.yaml"], cwd=d,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        calls = (d / "trace.log").read_text().splitlines()
        renamed = next((k for k, c in enumerate(calls) if "synced.json" in c and "rename" in c), None)
        opened = [c for c in calls[renamed or 0:] if "O_DIRECTORY" in c and '"."' in c]
        fd = opened[0].rsplit("=", 1)[1].strip() if opened else None
        check(renamed is not None and fd is not None and any(f"fsync({fd})" in c for c in calls[renamed:]),
              "writes: no fsync of the directory after the rename:\n" + "\n".join(calls[-12:]))
    else:
        print("trust_test: note: strace is not installed; the directory fsync was not observed")
    # A failing standard output says so.
    with open("/dev/full", "wb") as full:
        done = subprocess.run([str(CLI), "check", "fleet.yaml"], cwd=d, stdout=full, stderr=subprocess.PIPE)
    check(done.returncode == 2 and b"cannot write to standard output" in done.stderr,
          f"writes: /dev/full: {done.returncode} {text(done.stderr)}")
    # A link loop as the output is an error, and stays a link.
    os.symlink("loop", d / "loop")
    status, out, err = run("check", "--format", "json=loop", "fleet.yaml", cwd=d)
    check(status == 2 and (d / "loop").is_symlink(), f"writes: link loop: {status} {text(err)}")


def test_utf8():
    d = fresh("utf8")
    name = b"fleet-\xff.yaml"
    with open(os.path.join(bytes(d), name), "w") as f:
        f.write(OVERLAP)
    shown = "fleet-\ufffd.yaml"
    for fmt in ("json", "sarif", "gitlab", "junit", "markdown", "text", "github"):
        done = subprocess.run([bytes(CLI), b"check", b"--format", fmt.encode(), name], cwd=d, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
        if not check(done.returncode == 1, f"utf8/{fmt}: exit {done.returncode}: {text(done.stderr)}"):
            continue
        try:
            out = done.stdout.decode("utf-8")  # strict: every writer writes UTF-8
        except UnicodeDecodeError as e:
            failures.append(f"utf8/{fmt}: not UTF-8: {e}")
            continue
        if fmt in ("json", "sarif", "gitlab"):
            json.loads(out)
        elif fmt == "junit":
            ElementTree.fromstring(done.stdout)
        # SARIF locations are URIs, where the byte is percent-encoded (RFC 3986), exactly.
        want = "fleet-%FF.yaml" if fmt == "sarif" else shown
        check(want in out, f"utf8/{fmt}: the name is not shown as {want!r}")


def test_misc():
    d = fresh("misc")
    (d / "fleet.yaml").write_text(OVERLAP)
    (d / ".cidrcheck.yaml").write_text("version: 1\ninputs: [fleet.yaml]\n")
    bare = subprocess.run([str(CLI)], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    checked = run("check", cwd=d)
    check((bare.returncode, bare.stdout) == checked[:2], f"misc: bare cidrcheck: {bare.returncode} {text(bare.stderr)}")
    (d / ".cidrcheck.yaml").unlink()
    bare = subprocess.run([str(CLI)], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(bare.returncode == 2 and b"missing command" in bare.stderr, f"misc: bare, no config: {text(bare.stderr)}")
    lower, upper = run("explain", "cidr101"), run("explain", "CIDR101")
    check(lower[0] == 0 and lower == upper, f"misc: explain cidr101: {lower[0]} {text(lower[2])}")
    # No IPv6 declared, no IPv6 pool in the report, though kind's and Tailscale's defaults bring IPv6 ranges.
    (d / "v4.yaml").write_text("version: 1\nclusters:\n  - name: k\n    distribution: kind\n"
                               "networks:\n  - name: ts\n    type: tailscale\n")
    status, out, err = run("capacity", "v4.yaml", cwd=d)
    check(status == 0 and b"10.0.0.0/8" in out and b"fc00::/7" not in out,
          f"misc: capacity of an IPv4 fleet: {status} {text(out)} {text(err)}")
    (d / "v6.yaml").write_text("version: 1\nclusters:\n  - name: k\n    pods: fd01::/48\n")
    status, out, err = run("capacity", "v6.yaml", cwd=d)
    check(b"fc00::/7" in out, f"misc: capacity of an IPv6 fleet: {status} {text(out)} {text(err)}")


def memory_capped(limit):
    """(preexec_fn, env) that hold a child to `limit` bytes: its address space,
    or under AddressSanitizer (which reserves terabytes of address space for
    its shadow) its resident memory. There the quarantine is off: freed memory
    AddressSanitizer holds back (256 MB by default) is not the program's, and
    held a streamed JUnit report of 52 MB at 520 MB."""
    sanitized = b"__asan_init" in CLI.read_bytes()
    env = dict(os.environ)
    if sanitized:
        options = [env.get("ASAN_OPTIONS", ""), "quarantine_size_mb=0", f"hard_rss_limit_mb={limit >> 20}"]
        env["ASAN_OPTIONS"] = ":".join(filter(None, options))

    def cap():
        if not sanitized:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return cap, env


def test_streams():
    d = fresh("streams")
    fleet = d / "fleet.yaml"
    fleet.write_text(OVERLAP)
    original = fleet.read_bytes()

    def shell(command):
        fleet.write_bytes(original)
        done = subprocess.run(["bash", "-c", command], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=120, env={**os.environ, "CLI": str(CLI)})
        return done.returncode, done.stdout, done.stderr

    # Standard input, under any name, is never written: it is the fleet here.
    for command in ('"$CLI" check - -f json=/dev/stdin < fleet.yaml',
                    '"$CLI" check - -f json=/dev/fd/0 < fleet.yaml',
                    '"$CLI" check - -f json=fleet.yaml < fleet.yaml',
                    '"$CLI" plan -o /dev/stdin fleet.yaml < fleet.yaml',
                    '"$CLI" check fleet.yaml --write-baseline /proc/self/fd/0 < fleet.yaml'):
        status, out, err = shell(command)
        check(status == 2 and b"standard input" in err and fleet.read_bytes() == original,
              f"streams: `{command}` exited {status}: {text(err)[:300]}")
        check(not list(d.glob(".cidrcheck-*")), f"streams: `{command}` left a temporary file")
    # Two reports to standard output, under any names: refused before anything is written.
    for command in ('"$CLI" check fleet.yaml -f json=/dev/stdout -f text > out.txt',
                    '"$CLI" check fleet.yaml -f json=- -f sarif=-',
                    '"$CLI" check fleet.yaml -f json=/dev/fd/1 -f sarif=/dev/stdout',
                    '"$CLI" check fleet.yaml -f json=out.txt -f text > out.txt',
                    '"$CLI" check fleet.yaml --write-baseline - -f text',
                    '"$CLI" check fleet.yaml --write-baseline /dev/stdout'):
        status, out, err = shell(command)
        check(status == 2 and b"standard output" in err and out == b"",
              f"streams: `{command}` exited {status}, wrote {len(out)} bytes: {text(err)[:300]}")
    # One report to standard output by another name is that report, in the file standard output goes to.
    status, out, err = shell('"$CLI" check fleet.yaml -f json=/dev/stdout > out.json; echo $? > status')
    check((d / "status").read_text().strip() == "1" and json.loads((d / "out.json").read_text())["findings"],
          f"streams: -f json=/dev/stdout > out.json: {text(err)[:300]}")
    # A stream other than standard output is written where it stands, never renamed over: the
    # file stays the one the shell opened (same inode), and the shell's own writes to it stay.
    for fd, redirect in ((2, "2>"), (3, "3>")):
        target = d / f"fd{fd}.txt"
        target.write_text("")
        inode = target.stat().st_ino
        status, out, err = shell(f'"$CLI" check fleet.yaml -f text -f json=/dev/fd/{fd} {redirect} {target.name}')
        check(status == 1 and target.stat().st_ino == inode and json.loads(target.read_text())["findings"],
              f"streams: -f json=/dev/fd/{fd}: {status} {text(err)[:300]}")


def test_signals():
    # A report being written is a temporary file until its rename: every signal that ends the
    # process removes it first. The run is stopped (SIGSTOP) while the temporary file exists,
    # sent the signal, and continued: the signal arrives while the file is being written.
    d = fresh("signals")
    rows = "".join(f"  - name: n{k}\n    cidrs: 10.{k // 250}.{k % 250}.0/24\n" for k in range(3000))
    (d / "fleet.yaml").write_text("version: 1\nnetworks:\n" + rows)
    numbers = [signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGABRT, signal.SIGUSR1, signal.SIGUSR2,
               signal.SIGPIPE, signal.SIGALRM, signal.SIGTERM, signal.SIGXCPU, signal.SIGVTALRM, signal.SIGPROF,
               signal.SIGIO, signal.SIGPWR, signal.SIGRTMIN, signal.SIGRTMAX]
    for number in numbers:
        name = signal.Signals(number).name
        caught = False
        for attempt in range(5):
            for p in d.glob(".cidrcheck-*"):
                p.unlink()
            proc = subprocess.Popen([str(CLI), "check", "--format", "junit=out.xml", "fleet.yaml"], cwd=d,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while proc.poll() is None and not any(d.glob(".cidrcheck-*")):
                time.sleep(0.001)
            if proc.poll() is None:
                proc.send_signal(signal.SIGSTOP)
                if any(d.glob(".cidrcheck-*")):
                    proc.send_signal(number)
                    caught = True
                proc.send_signal(signal.SIGCONT)
            proc.wait(timeout=60)
            if caught:
                break
        if not check(caught, f"signals: {name}: the run never wrote long enough to be stopped"):
            continue
        check(proc.returncode == -number, f"signals: {name}: the run ended with {proc.returncode}, not -{number}")
        left = list(d.glob(".cidrcheck-*"))
        check(not left, f"signals: {name} left {left}")


def test_emit():
    d = fresh("emit")
    shutil.copy(REPO / "data/examples/mesh-shared-services.yaml", d / "fleet.yaml")
    out = d / "out"
    out.mkdir()
    (out / "keep.txt").write_text("old\n")
    # -o inside the --emit folder: refused before anything is written, -o included.
    status, _, err = run("plan", "fleet.yaml", "-o", "out/plan.txt", "--emit", "out", "--force", cwd=d)
    check(status == 2 and b"holds an output of this run" in err, f"emit: -o inside --emit: {status} {text(err)}")
    check(sorted(p.name for p in out.iterdir()) == ["keep.txt"], f"emit: -o was written: {list(out.iterdir())}")
    status, _, err = run("plan", "fleet.yaml", "-o", "out", "--emit", "out", "--force", cwd=d)
    check(status == 2 and b"holds an output of this run" in err, f"emit: -o is --emit: {status} {text(err)}")
    # A mount point cannot be replaced: refused, nothing left beside it (in a mount namespace of
    # our own, where root may mount; skipped where that is not allowed). A bind mount of the same
    # file system passes the first check and fails at the rename: nothing left either.
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        print(f"trust_test: note: unshare -m is not allowed here ({text(probe.stderr).strip()}); the mount point "
              "cases were not run")
        return
    for kind, mount in (("tmpfs", "mount -t tmpfs none out"), ("bind mount", "mkdir -p src && mount --bind src out")):
        script = f'{mount} && touch out/x && "$CLI" plan fleet.yaml --emit out --force >/dev/null; echo "status=$?"'
        done = subprocess.run(["unshare", "-m", "bash", "-c", script], cwd=d, capture_output=True,
                              env={**os.environ, "CLI": str(CLI)}, timeout=120)
        left = [p.name for p in d.iterdir() if p.name.startswith(".cidrcheck")]
        check(b"status=2" in done.stdout and b"mount point" in done.stderr,
              f"emit: {kind}: {text(done.stdout)[-200:]} {text(done.stderr)[-300:]}")
        check(not left, f"emit: {kind}: left {left} beside it")


def test_fifo():
    d = fresh("fifo")
    (d / "fleet.yaml").write_text(OVERLAP)
    os.mkfifo(d / "pipe.yaml")
    # Nobody writes to it: an error at once, not a wait for ever (timeout: the old wait).
    for args in (["check", "pipe.yaml"], ["check", "--config", "pipe.yaml", "fleet.yaml"],
                 ["import", "kubectl", "pipe.yaml"]):
        status, out, err = run(*args, cwd=d, timeout=20)
        check(status == 2 and b"named pipe (FIFO) that no program writes to" in err,
              f"fifo: `{' '.join(args)}` exited {status}: {text(err)[:300]}")
    # A program that has it open for writing before cidrcheck starts is read, to the end it writes
    # (here the test itself: it closes its end once FIONREAD shows cidrcheck took every byte).
    writer = os.open(d / "pipe.yaml", os.O_RDWR)  # O_RDWR: open without waiting for a reader
    os.write(writer, OVERLAP.encode())
    proc = subprocess.Popen([str(CLI), "check", "pipe.yaml"], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    waiting = array.array("i", [1])
    while waiting[0] > 0 and proc.poll() is None:
        fcntl.ioctl(writer, termios.FIONREAD, waiting)
        time.sleep(0.001)
    os.close(writer)
    out, err = proc.communicate(timeout=120)
    check(proc.returncode == 1 and b"overlap" in out, f"fifo: with a writer: {proc.returncode} {text(err)[:300]}")
    # So is a pipe of the shell (<(...)).
    done = subprocess.run(["bash", "-c", '"$CLI" check <(cat fleet.yaml)'], cwd=d, capture_output=True,
                          env={**os.environ, "CLI": str(CLI)}, timeout=120)
    check(done.returncode == 1, f"fifo: <(...): {done.returncode} {text(done.stderr)[:300]}")


def test_full():
    d = fresh("full")
    (d / "fleet.yaml").write_text(OVERLAP)
    for args in (["--help"], ["version"], ["--version"], ["check", "--help"], ["rules"], ["man"],
                 ["check", "fleet.yaml"], ["check", "-f", "json", "fleet.yaml"], ["plan", "fleet.yaml"]):
        with open("/dev/full", "wb") as full:
            done = subprocess.run([str(CLI), *args], cwd=d, stdout=full, stderr=subprocess.PIPE, timeout=120)
        check(done.returncode == 2 and b"cannot write to standard output: No space left on device" in done.stderr,
              f"full: `{' '.join(args)}` > /dev/full: {done.returncode} {text(done.stderr)[:300]}")
        check(done.stderr.count(b"cannot write to standard output") <= 1, f"full: `{' '.join(args)}` said it twice")


def test_bounds():
    d = fresh("bounds")
    (d / "empty.txt").write_text("10.0.0.0/8\n")  # nothing of IPv6 used
    for args in (["set", "alloc", "--within", "::/0", "--length", "128", "--count", "18446744073709551615", "empty.txt"],
                 ["set", "alloc", "--within", "::/0", "--length", "128", "-n", "10000001", "empty.txt"]):
        status, out, err = run(*args, cwd=d, timeout=20)  # unbounded, b92d7c3 ran until killed
        check(status == 2 and b"max-blocks limit of 10000000" in err and b"--max-blocks raises it" in err,
              f"bounds: `{' '.join(args)}` exited {status}: {text(err)[:300]}")
    status, out, err = run("set", "alloc", "--within", "::/0", "--length", "128", "--count", "20", "--max-blocks", "20",
                           "empty.txt", cwd=d)
    check(status == 0 and out == b"alloc 20 last ::13/128\n", f"bounds: --max-blocks raised: {status} {out}")
    # Every /128 of ::/0 fits: 2^128 of them, in text and JSON.
    (d / "fleet.yaml").write_text(OVERLAP)
    status, out, err = run("capacity", "--format", "json", "--pool", "::/0", "--fit", "128,127,0", "fleet.yaml", cwd=d)
    fits = json.loads(out)["pools"][0]["fits"]
    check(fits == {"/128": 2**128, "/127": 2**127, "/0": 1}, f"bounds: fits of ::/0: {fits}")
    status, out, err = run("capacity", "--pool", "::/0", "--fit", "128", "fleet.yaml", cwd=d)
    check(out.count(str(2**128).encode()) == 3, f"bounds: fits /128 in text: {text(out)}")


def test_junit():
    # 20,000 networks with no finding are 440,000 passing test cases: streamed, in a few tens of MB;
    # b92d7c3 built them all first (432 MB for 40,000 networks).
    d = fresh("junit")
    rows = "".join(f"  - name: n{k}\n    cidrs: 10.{k // 250}.{k % 250}.0/24\n" for k in range(20000))
    (d / "fleet.yaml").write_text("version: 1\nnetworks:\n" + rows)
    limit = 160 << 20
    cap, env = memory_capped(limit)
    sanitized = "hard_rss_limit_mb" in env.get("ASAN_OPTIONS", "")
    if sanitized:  # AddressSanitizer's own memory: three times as much
        cap, env = memory_capped(3 * limit)
    done = subprocess.run([str(CLI), "check", "-f", "junit", "fleet.yaml"], cwd=d, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, preexec_fn=cap, env=env, timeout=300)
    check(done.returncode == 0, f"junit: under {limit >> 20} MB: exit {done.returncode} {text(done.stderr)[-300:]}")
    head = done.stdout[:400]
    check(f'tests="{20000 * 22}" failures="0"'.encode() in head and done.stdout.count(b"<testcase ") == 20000 * 22 and
          done.stdout.endswith(b"</testsuites>\n"), f"junit: {text(head)}")


def main():
    global SCRATCH
    if (SCRATCH / GROUP).exists():
        shutil.rmtree(SCRATCH / GROUP)
    SCRATCH = SCRATCH / GROUP
    SCRATCH.mkdir(parents=True)
    globals()["test_" + GROUP]()
    for f in failures:
        print("trust_test:", f, file=sys.stderr)
    print(f"trust_test ({GROUP}): {'ok' if not failures else str(len(failures)) + ' failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
