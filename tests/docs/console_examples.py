#!/usr/bin/python3
"""Runs every ```console block of README.md and docs/**/*.md and compares what
each command prints with what the page says, so the docs cannot drift.

A block holds commands (lines starting with "$ ", continued by a trailing
backslash) each followed by its expected output: standard output and standard
error together, as a terminal shows them. A line "..." in the expected output
stands for any number of lines. `$?` in a command is the previous command's
exit status, so "$ echo $?" shows it.

Each page runs top to bottom in a scratch directory of its own, in which data/,
tests/ and docs/examples/ are the repository's (read only by convention) and
docs/images/ is empty: a page may write files there (`cidrcheck map ... -o docs/images/x.svg`),
and each must equal the committed file of that name. Every committed image must
be written by some page, but for screenshots (*-screenshot.png), which a browser
takes (tests/cli/scripts/html_browser_test.py) and which are not the same byte
for byte from one run to the next. The cidrcheck under test, and any extra directories
given, come first on PATH.

usage: console_examples.py REPO SCRATCH BIN_DIR... [--update]
  --update (or CIDRCHECK_UPDATE_DOCS=1 in the environment) rewrites the expected
  output of blocks without "..." and the images; review the diff.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

BLOCK = re.compile(r"^```console\n(.*?)^```", re.M | re.S)


def pages(repo):
    return [repo / "README.md"] + sorted((repo / "docs").rglob("*.md"))


def parse_block(text):
    """Returns [(shown, command, [expected lines])] for one block's text: the
    command as the page shows it ("$ a \\", "> b") and as bash runs it."""
    steps = []
    lines = text.splitlines()
    k = 0
    while k < len(lines):
        line = lines[k]
        if not line.startswith("$ "):
            if not steps:
                raise ValueError(f"output before the first command: {line!r}")
            steps[-1][2].append(line)
            k += 1
            continue
        shown, command = [line], line[2:]
        while command.endswith("\\") and k + 1 < len(lines):
            k += 1
            shown.append(lines[k])
            command = command[:-1] + lines[k].removeprefix("> ")
        steps.append(("\n".join(shown), command, []))
        k += 1
    return steps


def matches(expected, actual):
    """Reports whether the actual lines match the expected ones, "..." matching any run of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def trim(lines):
    lines = [l.rstrip() for l in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def prepare(scratch, repo):
    if scratch.exists():
        shutil.rmtree(scratch)
    (scratch / "docs" / "images").mkdir(parents=True)
    for name in ("data", "tests", "docs/examples"):
        (scratch / name).symlink_to(repo / name)


def run_page(page, repo, scratch, env, update):
    """Runs the page's blocks; returns (failures, images written, new page text or None)."""
    text = page.read_text()
    blocks = list(BLOCK.finditer(text))
    if not blocks:
        return [], [], None
    prepare(scratch, repo)
    failures, status = [], 0
    pieces, last = [], 0
    for block in blocks:
        try:
            steps = parse_block(block.group(1))
        except ValueError as e:
            failures.append(f"{page.relative_to(repo)}: {e}")
            continue
        rendered = []
        for shown, command, expected in steps:
            run = subprocess.run(["bash", "-c", f"(exit {status}); {command}"], cwd=scratch, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
            status = run.returncode
            actual = trim(run.stdout.splitlines())
            want = trim(expected)
            if not matches(want, actual):
                line = text.count("\n", 0, block.start()) + 1
                failures.append(f"{page.relative_to(repo)}:{line}: `{command}` printed:\n" +
                                "\n".join("    " + l for l in actual) + "\n  expected:\n" +
                                "\n".join("    " + l for l in want))
            keep = want if "..." in want or matches(want, actual) else actual
            rendered.append(shown + "\n" + "".join(l + "\n" for l in keep))
        pieces.append(text[last:block.start(1)] + "".join(rendered))
        last = block.end(1)
    pieces.append(text[last:])
    images = sorted(p.name for p in (scratch / "docs" / "images").iterdir())
    for name in images:
        written, committed = scratch / "docs" / "images" / name, repo / "docs" / "images" / name
        if update:
            committed.parent.mkdir(exist_ok=True)
            shutil.copyfile(written, committed)
        elif not committed.exists() or committed.read_bytes() != written.read_bytes():
            failures.append(f"{page.relative_to(repo)}: docs/images/{name} differs from what the page's commands write")
    new_text = "".join(pieces)
    return failures, images, (new_text if new_text != text else None)


def main():
    args = [a for a in sys.argv[1:] if a != "--update"]
    update = "--update" in sys.argv[1:] or os.environ.get("CIDRCHECK_UPDATE_DOCS") == "1"
    repo, scratch_root, bin_dirs = Path(args[0]).resolve(), Path(args[1]).resolve(), args[2:]
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(d).resolve()) for d in bin_dirs] + [os.environ["PATH"]]),
               LC_ALL="C.UTF-8", COLUMNS="100")
    env.pop("NO_COLOR", None)
    failures, written, commands = [], set(), 0
    for page in pages(repo):
        slug = str(page.relative_to(repo)).replace("/", "_").removesuffix(".md")
        page_failures, images, new_text = run_page(page, repo, scratch_root / slug, env, update)
        commands += sum(len(parse_block(b.group(1))) for b in BLOCK.finditer(page.read_text()))
        failures += page_failures
        written.update(images)
        if update and new_text is not None:
            page.write_text(new_text)
    committed = {p.name for p in (repo / "docs" / "images").glob("*")} if (repo / "docs" / "images").exists() else set()
    for name in sorted(n for n in committed - written if not n.endswith("-screenshot.png")):
        failures.append(f"docs/images/{name} is written by no page's commands")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"console_examples: {commands} commands, {len(written)} images, {len(failures)} failures")
    return 1 if failures and not update else 0


if __name__ == "__main__":
    sys.exit(main())
