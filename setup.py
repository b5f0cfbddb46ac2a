"""Builds cidrcheck._core for pip by running CMake on this repository.

CMake is the one build definition: this only configures a Release build of the
_core target (no CLI, tests or install rules) with the Python that runs pip,
linking libyaml statically (cmake/wheel.cmake), builds it, and copies the module
where setuptools packs it. The metadata is in pyproject.toml, but for the
version: project(VERSION) of CMakeLists.txt, the one the C++ library, the
executable and the packages carry.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version():
    match = re.search(r"\bproject\([^)]*\bVERSION\s+([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())
    if not match:
        raise SystemExit("setup.py: no project(... VERSION x.y.z ...) in CMakeLists.txt")
    return match[1]


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = Path(self.build_temp).resolve() / "cmake"
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                        "-DCIDRCHECK_BUILD_PYTHON=ON", "-DCIDRCHECK_BUILD_CLI=OFF", "-DCIDRCHECK_BUILD_TESTS=OFF",
                        "-DCIDRCHECK_INSTALL=OFF", f"-DPython3_EXECUTABLE={sys.executable}",
                        f"-DCMAKE_PROJECT_INCLUDE={ROOT / 'cmake' / 'wheel.cmake'}"], check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build), "--target", "_core", "--parallel", jobs], check=True)
        built = next((build / "bindings" / "python" / "cidrcheck").glob("_core.*"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(version=project_version(), ext_modules=[Extension("cidrcheck._core", sources=[])], cmdclass={"build_ext": CMakeBuild})
