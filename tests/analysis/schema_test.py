#!/usr/bin/env python3
"""schemas.golden_json: every JSON report a golden CLI test expects validates
against the JSON Schema of docs/schemas/ it names in its "schema" field.

The golden tests (tests/cli/cases/NAME.cmd, NAME.stdout) whose command is
check, diff or plan with a JSON report on standard output must name a
schema; the schemas themselves must be valid Draft 2020-12 schemas whose $id
is the name the reports use. A report that leaves a required field out, adds
one the schema does not list, or changes a field's type fails here.

Usage: schema_test.py ROOT
"""

import json
import shlex
import sys
from pathlib import Path

import jsonschema  # Debian's python3-jsonschema

ROOT = Path(sys.argv[1])
SCHEMAS = ROOT / "docs" / "schemas"


def json_to_stdout(words: list[str]) -> bool:
    """Whether a command line writes a JSON report to standard output (`--format json`, `-f json`, `-fjson`)."""
    for k, word in enumerate(words):
        value = None
        if word in ("--format", "-f") and k + 1 < len(words):
            value = words[k + 1]
        elif word.startswith("--format="):
            value = word.split("=", 1)[1]
        elif word.startswith("-f") and len(word) > 2:
            value = word[2:]
        if value == "json":
            return True
    return False


def main() -> int:
    validators = {}
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        if not schema["$id"].endswith("/docs/schemas/" + path.name):
            print(f"{path.name}: $id {schema['$id']} does not name the file")
            return 1
        validators[schema["$id"]] = jsonschema.Draft202012Validator(schema)
    failures, checked = [], {name: 0 for name in validators}
    for cmd in sorted((ROOT / "tests" / "cli" / "cases").glob("*.cmd")):
        words = shlex.split(cmd.read_text())
        command = words[0] if words and not words[0].startswith("-") else "check"
        if command not in ("check", "diff", "plan") or not json_to_stdout(words):
            continue
        stdout = cmd.with_suffix(".stdout").read_text()
        if not stdout.strip():
            continue  # refused before any report (a usage error)
        report = json.loads(stdout)
        validator = validators.get(report.get("schema"))
        if validator is None:
            failures.append(f"{cmd.name}: names no schema of docs/schemas: {report.get('schema')!r}")
            continue
        checked[report["schema"]] += 1
        for error in validator.iter_errors(report):
            where = "/".join(str(p) for p in error.absolute_path)
            failures.append(f"{cmd.name}: {where}: {error.message[:300]}")
    for name, n in checked.items():
        print(f"{n} golden reports validate against {name.rsplit('/', 1)[1]}")
    for f in failures:
        print(f)
    if any(n < 3 for n in checked.values()):
        print("too few golden reports of a schema: the case list is broken")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
