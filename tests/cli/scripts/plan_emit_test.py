#!/usr/bin/python3
"""`cidrcheck plan --emit DIR [--force]`: the folder is written whole or not at
all, never over a folder that holds something unless --force, never over an
input or another output of the run, and never leaves a temporary folder.

usage: plan_emit_test.py CIDRCHECK REPO SCRATCH
"""

import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

FLEET = """clusters:
  - {name: a, distribution: kubeadm, kubernetes: "1.33", network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 10.96.0.0/16}
  - {name: b, distribution: kubeadm, kubernetes: "1.33", network: 10.3.0.0/16, pods: 10.4.0.0/16, services: 10.96.0.0/16}
connections:
  - {between: [a, b], routes: [services]}
"""

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def run(cli, *args, cwd):
    return subprocess.run([cli, *args], capture_output=True, text=True, cwd=cwd)


def leftovers(folder):
    return [p.name for p in folder.iterdir() if p.name.startswith(".cidrcheck-")]


def signals(cli, scratch):
    """SIGINT, SIGTERM and SIGHUP while the folder is written leave no temporary
    folder (as for a single file, cli.trust.writes): the signal is sent as soon as
    the .cidrcheck-* folder appears, and the run must end by that signal."""
    d = scratch / "signals"
    d.mkdir()
    # Many operations, hence many folders and files to write: each cluster's
    # service range collides with the office network.
    rows = "".join(f"  - {{name: c{k}, distribution: kubeadm, kubernetes: \"1.33\", network: 10.{k // 200}.{k % 200}.0/24, "
                   f"services: 172.16.0.0/16}}\n" for k in range(400))
    links = "".join(f"  - [c{k}, office]\n" for k in range(400))
    (d / "fleet.yaml").write_text("networks:\n  - {name: office, type: office, cidrs: [172.16.0.0/16]}\nclusters:\n" +
                                  rows + "connections:\n" + links)
    caught = 0
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        for attempt in range(20):
            shutil.rmtree(d / "out", ignore_errors=True)
            for p in d.glob(".cidrcheck-*"):
                shutil.rmtree(p)
            proc = subprocess.Popen([cli, "plan", "--emit", "out", "fleet.yaml"], cwd=d,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            seen = False
            while proc.poll() is None:
                if any(d.glob(".cidrcheck-*")):
                    proc.send_signal(number)
                    seen = True
                    break
                time.sleep(0.001)  # the machine is shared: poll, do not spin
            proc.wait(timeout=300)
            if seen and proc.returncode == -number:
                caught += 1
                check(leftovers(d) == [], f"{signal.Signals(number).name} left {leftovers(d)}")
                check(not (d / "out").exists() or any((d / "out").iterdir()),
                      f"{signal.Signals(number).name} left an empty out/")
                break
    if caught == 0:
        print("plan_emit_test: note: no signal arrived during a write; the signal cases were not exercised")
    else:
        print(f"signals: {caught} of 3 arrived during a write and left nothing")


def main():
    cli, scratch = sys.argv[1], Path(sys.argv[3])
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    (scratch / "fleet.yaml").write_text(FLEET)

    # A new folder, parents made; one folder per operation with runbook.md.
    r = run(cli, "plan", "--emit", "out/runbooks", "fleet.yaml", cwd=scratch)
    check(r.returncode == 0, f"new folder: exit {r.returncode}: {r.stderr}")
    books = sorted((scratch / "out/runbooks").glob("*/runbook.md"))
    check(len(books) == 1, f"one runbook expected, got {books}")
    mask = os.umask(0)
    os.umask(mask)
    mode = stat.S_IMODE((scratch / "out/runbooks").stat().st_mode)
    check(mode == 0o777 & ~mask, f"folder mode {oct(mode)}, not what mkdir gives under umask {oct(mask)}")
    check(leftovers(scratch / "out") == [], f"temporary folders left: {leftovers(scratch / 'out')}")

    # A folder that holds something: refused without --force, before anything is printed, and untouched.
    (scratch / "out/runbooks/mine.txt").write_text("keep me")
    r = run(cli, "plan", "--emit", "out/runbooks", "fleet.yaml", cwd=scratch)
    check(r.returncode == 2 and "--force" in r.stderr and r.stdout == "", f"non-empty without --force: {r.returncode} {r.stderr}")
    check((scratch / "out/runbooks/mine.txt").read_text() == "keep me", "non-empty folder changed without --force")

    # --force replaces it whole: the old content is gone, nothing is left beside it.
    r = run(cli, "plan", "--emit", "out/runbooks", "--force", "fleet.yaml", cwd=scratch)
    check(r.returncode == 0, f"--force: exit {r.returncode}: {r.stderr}")
    check(not (scratch / "out/runbooks/mine.txt").exists(), "--force kept a file of the old folder")
    check(len(list((scratch / "out/runbooks").glob("*/runbook.md"))) == 1, "--force wrote no runbook")
    check(leftovers(scratch / "out") == [], f"--force left {leftovers(scratch / 'out')}")

    # A folder named with a trailing slash is that folder.
    r = run(cli, "plan", "--emit", "slash/", "fleet.yaml", cwd=scratch)
    check(r.returncode == 0 and list((scratch / "slash").glob("*/runbook.md")), f"--emit slash/: {r.stderr}")

    # An empty folder is used as it is.
    (scratch / "empty").mkdir()
    r = run(cli, "plan", "--emit", "empty", "fleet.yaml", cwd=scratch)
    check(r.returncode == 0 and list((scratch / "empty").glob("*/runbook.md")), f"empty folder: {r.stderr}")

    # Inputs are never replaced, --force or not: a folder holding the fleet file, or the fleet's own folder.
    (scratch / "inputs").mkdir()
    (scratch / "inputs/fleet.yaml").write_text(FLEET)
    for target in ("inputs", "."):
        r = run(cli, "plan", "--emit", target, "--force", "inputs/fleet.yaml", cwd=scratch)
        check(r.returncode == 2 and "input" in r.stderr, f"--emit {target} over an input: {r.returncode} {r.stderr}")
    check((scratch / "inputs/fleet.yaml").read_text() == FLEET, "an input was modified")

    # Nor another output of the run.
    (scratch / "both").mkdir()
    r = run(cli, "plan", "--emit", "both", "--force", "-o", "both/plan.txt", "fleet.yaml", cwd=scratch)
    check(r.returncode == 2 and "output" in r.stderr, f"--emit over -o: {r.returncode} {r.stderr}")

    # A file where the folder should be, and --force alone, are usage errors.
    (scratch / "afile").write_text("x")
    r = run(cli, "plan", "--emit", "afile", "fleet.yaml", cwd=scratch)
    check(r.returncode == 2 and "not a folder" in r.stderr, f"--emit over a file: {r.returncode} {r.stderr}")
    r = run(cli, "plan", "--force", "fleet.yaml", cwd=scratch)
    check(r.returncode == 2 and "--emit" in r.stderr, f"--force alone: {r.returncode} {r.stderr}")

    # A parent that cannot be written: a message, exit 2, nothing left (skipped as root, who may write anywhere).
    if os.geteuid() != 0:
        (scratch / "locked").mkdir()
        os.chmod(scratch / "locked", 0o555)
        r = run(cli, "plan", "--emit", "locked/runbooks", "fleet.yaml", cwd=scratch)
        check(r.returncode == 2 and "cannot" in r.stderr, f"read-only parent: {r.returncode} {r.stderr}")
        os.chmod(scratch / "locked", 0o755)
        check(list((scratch / "locked").iterdir()) == [], "a read-only parent got files")
    else:
        print("skipped: the read-only parent case (running as root)")

    signals(cli, scratch)

    for f in failures:
        print("FAIL", f)
    print(f"plan --emit: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
