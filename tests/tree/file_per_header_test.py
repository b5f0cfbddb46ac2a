#!/usr/bin/python3
"""Checks that every public header has a test file of its name.

For include/cidrcheck/**/NAME.hpp there must be a tests/**/NAME_test.cpp that
tests/CMakeLists.txt compiles (so a newcomer finds a header's tests by name,
as in abseil), unless EXCEPTIONS below names the header with the reason.

usage: file_per_header_test.py SOURCE_DIR    check the tree; exit 1 listing what is missing
       file_per_header_test.py --self-test   check the checker on small made-up trees
"""

import pathlib
import sys
import tempfile

# Headers without a test file of their own, each with the reason.
EXCEPTIONS = {
    "include/cidrcheck/cidrcheck.hpp": "umbrella header: includes the others and declares nothing",
    "include/cidrcheck/fwd.hpp": "forward declarations only; the headers that define the types have the tests",
    "include/cidrcheck/detail/icl_adapt.hpp": "Boost.ICL trait plumbing: its contract is address_set's and "
    "address_map's behaviour (address_set_test.cpp, address_map_test.cpp)",
    "include/cidrcheck/detail/parse_impl.hpp": "the constexpr parsers behind address::parse and prefix::parse; "
    "address_test.cpp and prefix_test.cpp test them, at compile time too",
}


def problems(root: pathlib.Path, exceptions: dict[str, str]) -> list[str]:
    """Returns one line per header without a registered test file, and per stale exception."""
    headers = sorted(p.relative_to(root).as_posix() for p in (root / "include" / "cidrcheck").rglob("*.hpp"))
    tests_dir = root / "tests"
    test_files: dict[str, list[str]] = {}
    for p in tests_dir.rglob("*_test.cpp"):
        test_files.setdefault(p.name[: -len("_test.cpp")], []).append(p.relative_to(tests_dir).as_posix())
    cmake = (tests_dir / "CMakeLists.txt").read_text(encoding="utf-8")
    out = []
    for header in headers:
        name = pathlib.PurePosixPath(header).stem
        found = sorted(test_files.get(name, []))
        registered = [t for t in found if t in cmake]
        if header in exceptions:
            if not exceptions[header].strip():
                out.append(f"{header}: its exception gives no reason")
            if registered:
                out.append(f"{header}: has {registered[0]}, so its exception is stale: remove it")
            continue
        if registered:
            continue
        if found:
            out.append(f"{header}: tests/{found[0]} is not compiled: list it in tests/CMakeLists.txt")
        else:
            out.append(f"{header}: no tests/**/{name}_test.cpp: add one, or an exception with its reason "
                       f"to EXCEPTIONS in {pathlib.Path(__file__).name}")
    for header in sorted(set(exceptions) - set(headers)):
        out.append(f"{header}: an exception for a header that does not exist: remove it")
    return out


def self_test() -> int:
    """Runs the checker on made-up trees: it must pass a complete one and fail each kind of gap."""
    def tree(d: pathlib.Path, headers, tests, cmake_lists):
        for h in headers:
            (d / h).parent.mkdir(parents=True, exist_ok=True)
            (d / h).write_text("#pragma once\n")
        for t in tests:
            (d / "tests" / t).parent.mkdir(parents=True, exist_ok=True)
            (d / "tests" / t).write_text("// test\n")
        (d / "tests").mkdir(exist_ok=True)
        (d / "tests" / "CMakeLists.txt").write_text("add_executable(t " + " ".join(cmake_lists) + ")\n")
        return d

    cases = [  # (what, headers, test files, files CMakeLists.txt lists, exceptions, expected problem count)
        ("every header tested", ["include/cidrcheck/a.hpp", "include/cidrcheck/io/b.hpp"],
         ["unit/a_test.cpp", "io/b_test.cpp"], ["unit/a_test.cpp", "io/b_test.cpp"], {}, 0),
        ("a header without a test", ["include/cidrcheck/a.hpp", "include/cidrcheck/io/b.hpp"],
         ["unit/a_test.cpp"], ["unit/a_test.cpp"], {}, 1),
        ("a test file nobody compiles", ["include/cidrcheck/a.hpp"], ["unit/a_test.cpp"], [], {}, 1),
        ("an exception with its reason", ["include/cidrcheck/a.hpp"], [], [],
         {"include/cidrcheck/a.hpp": "umbrella"}, 0),
        ("an exception without a reason", ["include/cidrcheck/a.hpp"], [], [], {"include/cidrcheck/a.hpp": " "}, 1),
        ("a stale exception", ["include/cidrcheck/a.hpp"], ["unit/a_test.cpp"], ["unit/a_test.cpp"],
         {"include/cidrcheck/a.hpp": "umbrella"}, 1),
        ("an exception for no header", ["include/cidrcheck/a.hpp"], ["unit/a_test.cpp"], ["unit/a_test.cpp"],
         {"include/cidrcheck/gone.hpp": "umbrella"}, 1),
    ]
    failed = 0
    for what, headers, tests, listed, exceptions, expected in cases:
        with tempfile.TemporaryDirectory() as d:
            got = problems(tree(pathlib.Path(d), headers, tests, listed), exceptions)
        if len(got) != expected:
            print(f"self-test '{what}': expected {expected} problem(s), got {got}")
            failed += 1
    return 1 if failed else 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    found = problems(pathlib.Path(sys.argv[1]), EXCEPTIONS)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
