#!/usr/bin/python3
"""Issue 16, item 20: the README's tour and every cookbook page run `cidrcheck`
from the PATH, so each must say how it gets there before its first command.
Checks that the README's tour puts the directory the setup command builds
`cidrcheck` in on the PATH (a `<!-- path-setup -->` sh block before the tour's
first `$ cidrcheck`), and that every cookbook page links to it before its
first console block.
usage: path_setup_test.py REPO
"""
import re
import sys
from pathlib import Path


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def main():
    repo = Path(sys.argv[1])
    readme = (repo / "README.md").read_text(encoding="utf-8")
    setup = re.search(r"<!-- ci:setup-command -->\n```sh\n(.*?)\n```", readme, re.S)
    if not setup:
        fail("README.md has no ci:setup-command block")
    built = re.search(r"(\S+)/cidrcheck\b", setup.group(1))
    if not built:
        fail("the setup command runs no cidrcheck: " + setup.group(1))
    tour = readme.find("## A 30-second tour")
    if tour < 0:
        fail("README.md has no tour")
    first_command = readme.find("$ cidrcheck", tour)
    block = re.compile(r"<!-- path-setup -->\n```sh\n(.*?)\n```", re.S).search(readme, tour)
    if not block or block.start() > first_command:
        fail("the README's tour runs cidrcheck before saying how it gets on the PATH")
    if f'export PATH="$PWD/{built.group(1)}:$PATH"' not in block.group(1):
        fail(f"the tour's PATH line does not name {built.group(1)}, where the setup command builds cidrcheck")
    for page in sorted((repo / "docs" / "cookbook").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        console = text.find("```console")
        link = text.find("README.md#a-30-second-tour")
        if console >= 0 and (link < 0 or link > console):
            fail(f"{page.relative_to(repo)} runs cidrcheck before linking to the README's PATH setup")
    print("ok: the README's tour and every cookbook page say how cidrcheck gets on the PATH")


if __name__ == "__main__":
    main()
