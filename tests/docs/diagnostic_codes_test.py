#!/usr/bin/python3
"""Issue 17: diagnostic codes live in one registry
(include/cidrcheck/io/diagnostic_code.hpp). Three checks keep it so:

1. The registry: every constant of namespace diag is in the table once, spelled
   as its name with hyphens, and every table entry names a constant.
2. The docs: the table under "### Diagnostic codes" in docs/cli.md lists exactly
   the registered codes, each with the registry's meaning.
3. The emitters: no source in lib/, cli/ or bindings/python/src/ writes a code as
   a string literal where a diagnostic is made (a brace initialiser after the
   severity, or the code argument of error(), warning(), report(), error_at(),
   or a comparison with .code); each diag:: name used is registered.

The self-test first runs check 3 on a snippet with literal codes, which must be
found, so the test cannot pass by matching nothing.
usage: diagnostic_codes_test.py REPO
"""
import re
import sys
from pathlib import Path

LITERAL = r'"([a-z][a-z0-9]*(?:-[a-z0-9]+)*)"'
EMITTERS = [
    re.compile(r"severity::(?:error|warning|note),\s*" + LITERAL),
    re.compile(r'\b(?:error|warning)\(\s*[^,()"]+(?:\([^()]*\))?,\s*' + LITERAL),
    re.compile(r'\breport\(\s*severity::\w+,\s*[^,()"]+(?:\([^()]*\))?,\s*' + LITERAL),
    re.compile(r'\berror_at\([^"]*?,\s*' + LITERAL),
    re.compile(r"\bcode\s*[=!]=\s*" + LITERAL),
]


def literal_codes(text):
    """Returns (line, code) for each code written as a literal at an emitter."""
    found = []
    for pattern in EMITTERS:
        for m in pattern.finditer(text):
            found.append((text.count("\n", 0, m.start(1)) + 1, m.group(1)))
    return found


def registry(header):
    text = header.read_text()
    constants = dict(re.findall(r'inline constexpr char (\w+)\[\] = "([^"]+)";', text))
    table = re.findall(r'diagnostic_code_info\{diag::(\w+), "((?:[^"\\]|\\.)*)"\}', text)
    return constants, [(name, meaning.replace('\\"', '"')) for name, meaning in table]


def docs_table(page):
    lines = page.read_text().splitlines()
    start = lines.index("### Diagnostic codes")
    rows = {}
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        m = re.match(r"^\| `([a-z-]+)` \| (.*) \|$", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


def main(repo):
    repo = Path(repo)
    errors = []

    snippet = 'r.error(node, "missing-key", "x");\nout.push_back({severity::warning,\n "route-skipped", m});\nif (d.code == "unreadable") {}\n'
    if [c for _, c in literal_codes(snippet)] != ["route-skipped", "missing-key", "unreadable"]:
        errors.append(f"self-test: the scan finds {literal_codes(snippet)} in the snippet")

    constants, table = registry(repo / "include/cidrcheck/io/diagnostic_code.hpp")
    if len(constants) < 30:
        errors.append(f"registry: only {len(constants)} constants found; the parse is broken")
    for name, code in constants.items():
        if code != name.replace("_", "-"):
            errors.append(f"registry: diag::{name} spells '{code}'")
    names = [name for name, _ in table]
    if sorted(names) != sorted(constants):
        errors.append(f"registry: table and constants differ: {sorted(set(names) ^ set(constants))}")
    if len(names) != len(set(names)):
        errors.append("registry: a code is in the table twice")
    meanings = {constants.get(name, name): meaning for name, meaning in table}

    documented = docs_table(repo / "docs/cli.md")
    for code in sorted(set(meanings) - set(documented)):
        errors.append(f"docs/cli.md: registered code '{code}' is not in the table")
    for code in sorted(set(documented) - set(meanings)):
        errors.append(f"docs/cli.md: '{code}' is documented but not registered")
    for code in sorted(set(meanings) & set(documented)):
        if documented[code] != meanings[code]:
            errors.append(f"docs/cli.md: '{code}' means '{documented[code]}' there, '{meanings[code]}' in the registry")

    for folder in ("lib", "cli", "bindings/python/src"):
        for path in sorted((repo / folder).rglob("*")):
            if path.suffix not in (".cpp", ".hpp"):
                continue
            text = path.read_text()
            for line, code in literal_codes(text):
                errors.append(f"{path.relative_to(repo)}:{line}: code '{code}' written as a literal; use diag::")
            for name in re.findall(r"\bdiag::(\w+)", text):
                if name not in constants:
                    errors.append(f"{path.relative_to(repo)}: diag::{name} is not registered")

    for e in errors:
        print(e)
    print(f"{len(constants)} codes registered, {len(documented)} documented, {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
