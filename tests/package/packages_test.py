#!/usr/bin/python3
"""Builds the Debian packages and the tarball with cpack from a build tree, installs them
into fresh directories and uses them from there (package.cpack).

- the two .deb files carry Debian's metadata, and the executable's Depends are the packages
  that own the libraries it links on this machine (computed by dpkg-shlibdeps, not written);
- dpkg installs both into an empty root with its own database (--instdir, --admindir: no
  dependency resolution there; .ci/fresh-debian-check --packages does `apt-get install` on a
  clean Debian 12) and removes them without leaving a file;
- the packages hold between them exactly what `cmake --install` installs (PREFIX, from the
  package.find_package test), and the tarball the same files;
- the tarball holds the same files as the packages, byte for byte;
- from each, the executable prints its version and the date of the installed catalog and checks
  an installed example with its findings; a consumer project finds the CMake package in the
  packages' root (not /usr: the package is relocatable) and runs.

usage: packages_test.py CPACK BUILD_DIR SOURCE_DIR SCRATCH PREFIX VERSION CMAKE GENERATOR CXX
"""
import gzip
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

RUNTIME, DEVELOPMENT = "cidrcheck", "libcidrcheck-dev"


def run(*command, cwd=None, expect=(0,)):
    result = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True)
    if result.returncode not in expect:
        sys.exit(f"FAIL: {' '.join(map(str, command))} exited {result.returncode}\n{result.stdout}\n{result.stderr}")
    return result


def check(condition, message):
    if not condition:
        sys.exit(f"FAIL: {message}")


def files_under(root):
    """Returns every file and symbolic link below root, as paths relative to it."""
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() or p.is_symlink()}


def field(deb, name):
    return run("dpkg-deb", "--field", deb, name).stdout.strip()


def depends(deb):
    """Returns the package names of the Depends field (of alternatives, the first)."""
    names = set()
    for entry in filter(None, (e.strip() for e in field(deb, "Depends").split(","))):
        match = re.fullmatch(r"([a-z0-9][a-z0-9+.-]*)(?:\s*\(.+\))?(?:\s*\|.*)?", entry)
        check(match, f"{deb.name}: Depends entry '{entry}' is not a package with an optional version")
        names.add(match[1])
    return names


def linked_packages(executable):
    """Returns the packages on this machine that own the shared libraries the executable loads."""
    owners = set()
    for line in run("ldd", executable).stdout.splitlines():
        match = re.search(r"=> (/\S+)", line)
        if not match:
            continue  # the vDSO and the loader, which no package's library provides
        path = Path(match[1])
        # Debian 12 merges /lib into /usr/lib; dpkg knows the library by the path its package ships.
        candidates = [path, Path(os.path.realpath(path))] + ([Path("/usr") / path.relative_to("/")]
                                                             if not str(path).startswith("/usr/") else [])
        for candidate in candidates:
            found = subprocess.run(["dpkg-query", "--search", str(candidate)], capture_output=True, text=True)
            if found.returncode == 0:
                owners.add(found.stdout.split(":")[0])
                break
        else:
            sys.exit(f"FAIL: no package owns {path}, which {executable} loads")
    return owners


def packaged_files(dpkg, package, root):
    """Returns the files dpkg installed for package below root/usr, relative to it; none lies elsewhere."""
    files = set()
    for line in run(*dpkg, "--listfiles", package).stdout.splitlines():
        if (root / line.lstrip("/")).is_file():
            check(line.startswith("/usr/"), f"{package} installs {line}, outside /usr")
            files.add(line.removeprefix("/usr/"))
    return files


def check_debian_metadata(debs, version, arch):
    synopses = set()
    for deb in debs.values():
        check(field(deb, "Version") == version, f"{deb.name}: Version is {field(deb, 'Version')}, not {version}")
        check(field(deb, "Architecture") == arch, f"{deb.name}: Architecture is not {arch}")
        for name in ("Maintainer", "Section", "Priority", "Homepage", "Installed-Size"):
            check(field(deb, name), f"{deb.name} has no {name}")
        synopsis, _, long_description = field(deb, "Description").partition("\n")
        check(0 < len(synopsis) <= 80, f"{deb.name}: the synopsis is empty or longer than 80 characters: {synopsis}")
        check(long_description.strip(), f"{deb.name} has no long description")
        synopses.add(synopsis)
        check("md5sums" in run("dpkg-deb", "--info", deb).stdout, f"{deb.name} has no md5sums")
    check(len(synopses) == len(debs), "each package has its own synopsis")
    check(depends(debs[DEVELOPMENT]), f"{DEVELOPMENT} depends on nothing")


def check_runtime_depends(deb, executable):
    """The runtime package depends on exactly the packages whose libraries its executable loads."""
    wanted, loaded = depends(deb), linked_packages(executable)
    check(wanted == loaded, f"{deb.name}: Depends names {sorted(wanted)}; {executable} loads the libraries "
          f"of {sorted(loaded)}")


def check_installed_tree(prefix, examples, catalog, scratch, version):
    """The executable in prefix/bin runs, names the installed catalog's date and checks an example."""
    cli = prefix / "bin" / "cidrcheck"
    date = re.search(r"^date: (\S+)$", catalog.read_text(), re.M)
    check(date, f"{catalog} has no date")
    printed = run(cli, "--version", cwd=scratch).stdout.strip()
    check(printed == f"cidrcheck {version} (catalog of {date[1]})", f"{cli} --version printed '{printed}'")
    found = run(cli, "check", examples / "mesh-shared-services.yaml", cwd=scratch, expect=(1,)).stdout
    check("3 errors" in found, f"{cli} check of the installed example:\n{found}")
    page = gzip.decompress((prefix / "share/man/man1/cidrcheck.1.gz").read_bytes()).decode()
    check(page.startswith(".TH") or "\n.TH " in page, "the installed man page has no .TH")
    run("bash", "-n", prefix / "share/bash-completion/completions/cidrcheck")


def build_consumer(source, prefix, scratch, cmake, generator, cxx):
    build = scratch / "build"
    run(cmake, "-S", source, "-B", build, "-G", generator, f"-DCMAKE_CXX_COMPILER={cxx}",
        f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_BUILD_TYPE=Release")
    run(cmake, "--build", build)
    check(run(build / "consumer").stdout.startswith("cidrcheck "), "the consumer ran")


def main():
    cpack, build, source, scratch, installed = map(Path, sys.argv[1:6])
    version, cmake, generator, cxx = sys.argv[6:10]
    shutil.rmtree(scratch, ignore_errors=True)
    dist = scratch / "dist"
    run(cpack, "--config", build / "CPackConfig.cmake", "-B", dist)

    arch = run("dpkg", "--print-architecture").stdout.strip()
    debs = {name: dist / f"{name}_{version}_{arch}.deb" for name in (RUNTIME, DEVELOPMENT)}
    tarball = dist / f"cidrcheck-{version}-linux-{platform.machine()}.tar.gz"
    made = {p.name for p in dist.iterdir() if p.is_file()}
    check(made >= {p.name for p in [*debs.values(), tarball]}, f"cpack made {sorted(made)}")
    check_debian_metadata(debs, version, arch)

    # dpkg installs into an empty root of its own, then the files are used from there.
    root, admin = scratch / "root", scratch / "dpkg"
    for directory in ("info", "updates", "triggers"):
        (admin / directory).mkdir(parents=True)
    (admin / "status").touch()
    root.mkdir()
    dpkg = ["dpkg", "--force-not-root", "--force-depends", f"--admindir={admin}", f"--instdir={root}", "--log=/dev/null"]
    run(*dpkg, "--install", *debs.values())
    usr = root / "usr"
    check_runtime_depends(debs[RUNTIME], usr / "bin" / "cidrcheck")
    packaged = {name: packaged_files(dpkg, name, root) for name in (RUNTIME, DEVELOPMENT)}
    both = packaged[RUNTIME] | packaged[DEVELOPMENT]
    expected = files_under(installed)
    check(both == expected, "the packages hold what `cmake --install` installs (an install() without COMPONENT?); "
          f"only in the install: {sorted(expected - both)}, only in the packages: {sorted(both - expected)}")
    check({"bin/cidrcheck", "share/cidrcheck/catalog.yaml"} <= packaged[RUNTIME] and
          not any(f.startswith(("include/", "lib/")) for f in packaged[RUNTIME]),
          f"{RUNTIME} holds the executable and its data, no headers or libraries")
    check_installed_tree(usr, usr / "share/doc/cidrcheck/examples", usr / "share/cidrcheck/catalog.yaml",
                         scratch, version)
    build_consumer(source / "tests" / "package", usr, scratch / "consumer", cmake, generator, cxx)

    # The tarball, unpacked anywhere, holds the same files, byte for byte, and its executable runs from
    # there. (The consumer built against the .deb files' root, which is not /usr either, shows the CMake
    # package finds its files wherever it lies; the tarball's CMake files are the same.)
    (scratch / "tar").mkdir()
    run("tar", "-xzf", tarball, "-C", scratch / "tar")
    prefix = scratch / "tar" / tarball.name.removesuffix(".tar.gz")
    check(files_under(prefix) == expected, "the tarball holds what `cmake --install` installs; differing: "
          f"{sorted(files_under(prefix) ^ expected)}")
    differing = [f for f in sorted(expected) if (prefix / f).read_bytes() != (usr / f).read_bytes()]
    check(not differing, f"the tarball's files differ from the packages': {differing}")
    check_installed_tree(prefix, prefix / "share/doc/cidrcheck/examples", prefix / "share/cidrcheck/catalog.yaml",
                         scratch, version)

    run(*dpkg, "--purge", RUNTIME, DEVELOPMENT)
    check(not files_under(root), f"files left after dpkg --purge: {sorted(files_under(root))[:5]}")
    print(f"packages: {', '.join(sorted(made))} built, installed and used")


if __name__ == "__main__":
    main()
