#!/usr/bin/python3
"""The GitHub side of the packages (package.github): the action's install step, run here as the
runner would run it, and the release workflow against what the tests build.

- action.yml's package step, with package-url naming the tarball package.cpack built (a file://
  URL), installs it and puts its bin/ on GITHUB_PATH; a URL that cannot be downloaded falls back
  to the source build with a warning, or fails with build-fallback: false; a URL that is neither
  .deb nor .tar.gz is an error; `version:` alone downloads the release asset of that name (no
  network here: the message names the URL it tried);
- .github/workflows/release.yml runs on version tags, builds with the package preset and the wheel
  command pip_install.py runs, installs the artifacts with clean-install.sh and uploads them;
- every release download that README.md, docs/ and action.yml show names one of the files built.

usage: github_test.py REPO SCRATCH PACKAGES VERSION   (PACKAGES: package.cpack's dist directory)
"""
import json
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml  # Debian's python3-yaml


def check(condition, message):
    if not condition:
        sys.exit(f"FAIL: {message}")


def package_step(repo):
    action = yaml.safe_load((repo / "action.yml").read_text())
    steps = [s for s in action["runs"]["steps"] if s.get("id") == "package"]
    check(len(steps) == 1, "action.yml has one step with id: package")
    later = [s for s in action["runs"]["steps"] if s.get("if", "").startswith("steps.package.outputs.installed")]
    check(len(later) == 2, "the build steps run only when the package step installed nothing")
    return steps[0]


def run_step(step, scratch, inputs):
    """Runs the step's script with bash as a runner does (-e, pipefail), its env's expressions replaced by
    inputs. Returns (exit status, output, GITHUB_OUTPUT's settings, GITHUB_PATH's lines)."""
    runner = scratch / "runner"
    shutil.rmtree(runner, ignore_errors=True)
    runner.mkdir(parents=True)
    (runner / "output").touch()
    (runner / "path").touch()
    # No network here: a proxy on a closed port makes every https download fail at once.
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"), "RUNNER_TEMP": str(runner),
           "GITHUB_OUTPUT": str(runner / "output"), "GITHUB_PATH": str(runner / "path"),
           "https_proxy": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9"}
    for name, value in step["env"].items():
        expression = re.fullmatch(r"\$\{\{ (\S+) \}\}", value)
        check(expression and expression[1] in inputs, f"the test knows what {value} is")
        env[name] = inputs[expression[1]]
    result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], env=env,
                            cwd=scratch, capture_output=True, text=True)
    settings = dict(line.split("=", 1) for line in (runner / "output").read_text().splitlines())
    return result.returncode, result.stdout + result.stderr, settings, (runner / "path").read_text().splitlines()


def test_action(repo, scratch, packages, version):
    step = package_step(repo)
    tarball = packages / f"cidrcheck-{version}-linux-{platform.machine()}.tar.gz"
    check(tarball.exists(), f"package.cpack made {tarball}")
    inputs = {"inputs.version": "", "inputs.build-fallback": "true", "github.action_repository": "cidrcheck/cidrcheck"}

    # the tarball installs and its executable is the one on the PATH of the next steps
    status, out, settings, path = run_step(step, scratch, inputs | {"inputs.package-url": tarball.as_uri()})
    check(status == 0 and settings.get("installed") == "true", f"the tarball installs:\n{out}")
    check(len(path) == 1, f"one directory goes on the PATH: {path}")
    printed = subprocess.run([str(Path(path[0]) / "cidrcheck"), "--version"], capture_output=True, text=True).stdout
    check(printed.startswith(f"cidrcheck {version} "), f"the installed cidrcheck printed {printed}")

    # a package that cannot be downloaded: a warning and the source build, or a failure when asked
    missing = (scratch / "nowhere" / tarball.name).as_uri()
    status, out, settings, path = run_step(step, scratch, inputs | {"inputs.package-url": missing})
    check(status == 0 and settings.get("installed") == "false" and not path, f"a missing package falls back:\n{out}")
    check(f"::warning::cidrcheck: could not download {missing}; building cidrcheck from source instead" in out, out)
    status, out, settings, _ = run_step(step, scratch, inputs | {"inputs.package-url": missing,
                                                                 "inputs.build-fallback": "false"})
    check(status == 1 and "installed" not in settings and f"::error::cidrcheck: could not download {missing}" in out,
          f"build-fallback: false fails:\n{out}")

    # not a package: an error whatever build-fallback says
    status, out, _, _ = run_step(step, scratch, inputs | {"inputs.package-url": "https://example.org/cidrcheck.zip"})
    check(status == 2 and "::error::package-url must name a .deb or a .tar.gz" in out, f"a .zip is refused:\n{out}")

    # version alone: the release's .deb, by the name cpack gives it (package.cpack checks those names)
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
    url = f"https://github.com/cidrcheck/cidrcheck/releases/download/v{version}/cidrcheck_{version}_{arch}.deb"
    status, out, _, _ = run_step(step, scratch, inputs | {"inputs.version": version, "inputs.package-url": "",
                                                          "inputs.build-fallback": "false"})
    check(url in out, f"version: {version} downloads {url}:\n{out}")


def test_release_workflow(repo):
    workflow = yaml.safe_load((repo / ".github/workflows/release.yml").read_text())
    trigger = workflow.get("on", workflow.get(True))   # YAML 1.1 reads a bare `on` as true
    check(trigger == {"push": {"tags": ["v*"]}}, f"the release runs on version tags: {trigger}")
    runs = [s.get("run", "") for job in workflow["jobs"].values() for s in job["steps"]]
    presets = json.loads((repo / "CMakePresets.json").read_text())
    check(any(p["name"] == "package" for p in presets["workflowPresets"]), "CMakePresets.json has the package workflow")
    check("cmake --workflow --preset package" in runs, "the release builds with the package preset")
    tested = (repo / "bindings/python/tests/pip_install.py").read_text()
    wheel = next((r for r in runs if "pip wheel" in r), "")
    check(wheel and all(f'"{word}"' in tested for word in wheel.split()[3:] if word.startswith("--")),
          f"the release's wheel command uses the options pip_install.py tests: {wheel}")
    check(any(r.startswith("bash tests/package/clean-install.sh ") for r in runs),
          "the release installs its packages with clean-install.sh")
    check((repo / "tests/package/clean-install.sh").exists(), "clean-install.sh exists")
    uploads = [s for job in workflow["jobs"].values() for s in job["steps"]
               if s.get("uses", "").startswith("actions/upload-artifact@")]
    check(len(uploads) == 1 and {"build/packages/*.deb", "build/packages/*.tar.gz", "build/packages/*.whl"} <=
          set(uploads[0]["with"]["path"].split()), "the release uploads the .deb files, the tarball and the wheel")
    check(any("gh release upload" in r for r in runs), "the packages are attached to the release")


def test_release_urls(repo, packages, version):
    """Every release download the docs and the action show names a file the packages are built as."""
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
    built = {p.name.replace(version, "{V}") for p in packages.iterdir() if p.suffix in (".deb", ".gz")}
    check(len(built) == 3, f"package.cpack made {sorted(built)}")
    built.add(f"cidrcheck-{{V}}-cp311-cp311-linux_x86_64.whl")   # pip_install.py checks the wheel's name
    shown = 0
    for page in [repo / "README.md", repo / "action.yml", *sorted((repo / "docs").rglob("*.md"))]:
        for url in re.findall(r"releases/download/v\S+?/[^\s\"'`),]+", page.read_text()):
            # the version as the page writes it: a variable, the word VERSION or this version
            version_spelled = r"\$\{?CIDRCHECK_VERSION\}?|VERSION|(?<![0-9.])" + re.escape(version) + r"(?![0-9.])"
            name = re.sub(version_spelled, "{V}", url.rsplit("/", 1)[1])
            name = name.replace("$arch", arch).replace("ARCH", arch)
            check(name in built, f"{page.name} downloads {url}, which is none of the packages {sorted(built)}")
            shown += 1
    check(shown >= 4, f"the README, docs/ci.md and the action show release downloads ({shown} found)")


def main():
    repo, scratch, packages = map(lambda a: Path(a).resolve(), sys.argv[1:4])
    version = sys.argv[4]
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    test_action(repo, scratch, packages, version)
    test_release_workflow(repo)
    test_release_urls(repo, packages, version)
    print("the action's install step and the release workflow: as the packages are built")


if __name__ == "__main__":
    main()
