"""The package surface: __all__, the type stubs against the module, docstrings for help()."""

import ast
import inspect
from pathlib import Path

import cidrcheck
from cidrcheck import _core

STUBS = Path(cidrcheck.__file__).with_name("_core.pyi")


def stub_names():
    """Returns {name: set of member names} for every class and function in _core.pyi ("" for module level)."""
    tree = ast.parse(STUBS.read_text())
    out = {"": set()}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
            out[""].add(node.name)
        elif isinstance(node, ast.FunctionDef):
            out[""].add(node.name)
        elif isinstance(node, ast.AnnAssign):
            out[""].add(node.target.id)
    return out


def public(names):
    return {n for n in names if not n.startswith("_") or n in ("__init__", "__version__")}


def test_every_name_in_all_exists():
    for name in cidrcheck.__all__:
        assert hasattr(cidrcheck, name), name


def test_the_stubs_describe_the_module():
    stubs = stub_names()
    runtime = {n for n in dir(_core) if not n.startswith("_") or n == "__version__"}
    assert public(stubs[""]) == runtime
    for cls, members in stubs.items():
        if not cls or issubclass(getattr(_core, cls), BaseException):  # an exception's attributes are its instances'
            continue
        have = {n for n in dir(getattr(_core, cls)) if not n.startswith("_")}
        assert public(members) - {"__init__"} == have, cls


def test_help_reads_well():
    for name in cidrcheck.__all__:
        value = getattr(cidrcheck, name)
        if callable(value):
            assert inspect.getdoc(value), f"{name} has no docstring"
    for cls in (cidrcheck.Prefix, cidrcheck.AddressSet, cidrcheck.PrefixAllocator, cidrcheck.Fleet):
        for member in dir(cls):
            if not member.startswith("_"):
                assert inspect.getdoc(getattr(cls, member)), f"{cls.__name__}.{member} has no docstring"
    text = cidrcheck.Prefix.overlaps.__doc__
    assert "Prefix | str | ipaddress.IPv4Network" in text  # argument types are named, not 'object'
