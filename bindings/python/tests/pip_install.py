#!/usr/bin/python3
"""Checks the Python package's two offline installs, with one compilation:

1. `pip wheel --no-build-isolation --no-deps --no-index -w dist .` builds a wheel (setup.py
   runs CMake: a Release build of _core), whose name, metadata and files are checked, and
   whose module loads no shared library but the C and C++ runtimes (libyaml is linked in);
   the wheel then installs with pip into a fresh venv (no --system-site-packages: it needs
   nothing else) and works from there;
2. the README's `pip install --no-build-isolation .` in a second fresh venv, from the same
   source tree: setuptools finds the CMake build of step 1 in build/ and only relinks.

The repository is copied first (without build/ and .git), so that the build directories
pip and setuptools make stay out of the worktree.

usage: pip_install.py ROOT SCRATCH VERSION
"""
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

SMOKE = """
import cidrcheck, pathlib, sys
assert pathlib.Path(cidrcheck.__file__).is_relative_to(sys.prefix), cidrcheck.__file__
assert cidrcheck.__version__ == sys.argv[2], cidrcheck.__version__
assert cidrcheck.Prefix("10.0.0.0/8").supernet_of("10.1.0.0/16")
assert cidrcheck.AddressSet(["::/0"]).num_addresses == 2**128
fleet = cidrcheck.Fleet.load(sys.argv[1])
assert fleet.check().errors == 3
assert fleet.to_svg().startswith("<?xml")
package = pathlib.Path(cidrcheck.__file__).parent
assert (package / "py.typed").exists() and (package / "_core.pyi").exists()
print("installed", cidrcheck.__version__, "at", package)
"""


# The shared libraries of the C and C++ runtimes (glibc's dynamic loader among them, named
# per architecture), which every system with the interpreter has.
RUNTIMES = re.compile(r"libstdc\+\+\.so\.6|libm\.so\.6|libgcc_s\.so\.1|libc\.so\.6|ld-linux[-.\w]*\.so\.\d")


def check(condition, message):
    if not condition:
        sys.exit(f"FAIL: {message}")


def check_wheel(wheel, version, source, scratch):
    """The wheel is named for this interpreter and platform, holds the package, stubs, metadata and
    one compiled module, and that module loads no shared library but the runtimes."""
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"                        # cp311
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")            # linux_x86_64
    check(wheel.name == f"cidrcheck-{version}-{tag}-{tag}-{platform}.whl", f"the wheel is named {wheel.name}")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(f"cidrcheck-{version}.dist-info/METADATA").decode()
        modules = [n for n in names if re.fullmatch(r"cidrcheck/_core\..*\.so", n)]
        check(len(modules) == 1, f"the wheel holds {modules}, not one compiled _core")
        module = scratch / "_core.so"
        module.write_bytes(archive.read(modules[0]))
    python_files = {f"cidrcheck/{p.name}" for p in (source / "bindings/python/cidrcheck").glob("*.py")}
    wanted = python_files | {"cidrcheck/py.typed", "cidrcheck/_core.pyi"}
    check(wanted <= names, f"the wheel lacks {sorted(wanted - names)}")
    check(f"\nVersion: {version}\n" in metadata and "\nProvides-Extra: plot\n" in metadata,
          f"the wheel's METADATA:\n{metadata}")
    dynamic = subprocess.run(["readelf", "--dynamic", str(module)], capture_output=True, text=True, check=True).stdout
    needed = set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic))
    others = sorted(n for n in needed if not RUNTIMES.fullmatch(n))
    check(needed and not others, f"the wheel's module needs {others} besides the runtimes")


def fresh_venv(path, *options):
    subprocess.run(["/usr/bin/python3", "-m", "venv", *options, str(path)], check=True)
    return path / "bin"


def main():
    root, scratch, version = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve(), sys.argv[3]
    shutil.rmtree(scratch, ignore_errors=True)
    source = scratch / "src"
    shutil.copytree(root, source, ignore=shutil.ignore_patterns("build", ".git", "__pycache__", "*.egg-info", ".venv*"))
    example = root / "data" / "examples" / "mesh-shared-services.yaml"

    # Debian's pip, setuptools and pybind11 build the wheel: nothing is downloaded.
    dist = scratch / "dist"
    subprocess.run(["/usr/bin/python3", "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
                    "-w", str(dist), "."], cwd=source, check=True)
    wheels = list(dist.glob("*.whl"))
    check(len(wheels) == 1, f"pip wheel made {wheels}")
    check_wheel(wheels[0], version, root, scratch)
    wheel_venv = fresh_venv(scratch / "wheel")
    subprocess.run([str(wheel_venv / "pip"), "install", "--no-index", str(wheels[0])], check=True)
    subprocess.run([str(wheel_venv / "python"), "-c", SMOKE, str(example), version], cwd=scratch, check=True)

    readme_venv = fresh_venv(scratch / "v", "--system-site-packages")
    subprocess.run([str(readme_venv / "pip"), "install", "--no-build-isolation", "--no-index", "."], cwd=source,
                   check=True)
    subprocess.run([str(readme_venv / "python"), "-c", SMOKE, str(example), version], cwd=scratch, check=True)


if __name__ == "__main__":
    main()
