#!/usr/bin/python3
"""Checks the README's offline install: in a fresh venv with --system-site-packages,
`pip install --no-build-isolation .` from the repository root builds and installs
the package, which then imports and works from anywhere.

The repository is copied first (without build/ and .git), so that the build
directories pip and setuptools make stay out of the worktree.

usage: pip_install.py ROOT SCRATCH
"""
import shutil
import subprocess
import sys
from pathlib import Path

SMOKE = """
import cidrcheck, pathlib, sys
assert pathlib.Path(cidrcheck.__file__).is_relative_to(sys.prefix), cidrcheck.__file__
assert cidrcheck.Prefix("10.0.0.0/8").supernet_of("10.1.0.0/16")
assert cidrcheck.AddressSet(["::/0"]).num_addresses == 2**128
fleet = cidrcheck.Fleet.load(sys.argv[1])
assert fleet.check().errors == 3
assert fleet.to_svg().startswith("<?xml")
package = pathlib.Path(cidrcheck.__file__).parent
assert (package / "py.typed").exists() and (package / "_core.pyi").exists()
print("installed", cidrcheck.__version__, "at", package)
"""


def main():
    root, scratch = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    shutil.rmtree(scratch, ignore_errors=True)
    source = scratch / "src"
    shutil.copytree(root, source, ignore=shutil.ignore_patterns("build", ".git", "__pycache__", "*.egg-info", ".venv*"))
    venv = scratch / "v"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index", "."], cwd=source,
                   check=True)
    example = root / "data" / "examples" / "mesh-shared-services.yaml"
    subprocess.run([str(venv / "bin" / "python"), "-c", SMOKE, str(example)], cwd=scratch, check=True)


if __name__ == "__main__":
    main()
