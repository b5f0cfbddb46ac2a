#!/usr/bin/env bash
# Installs cidrcheck's packages on a clean Debian 12 as a user would, and uses them:
#   1. the wheel in a venv, with nothing installed but python3-venv;
#   2. cidrcheck_*.deb with apt, which installs what its Depends name and nothing else;
#      the executable, its man page and an installed example run;
#   3. libcidrcheck-dev_*.deb with a compiler and CMake; the consumer project (tests/package)
#      finds the CMake package in /usr and runs.
# .ci/fresh-debian-check --packages DIR runs it as root in a minimal debootstrap chroot, from
# a clone of the repository; it changes the system it runs on, so do not run it anywhere else.
#
# usage (from the repository's root): tests/package/clean-install.sh DIR   (the .deb files and the wheel)
set -euo pipefail
dir=$1
say() { echo "clean-install: $*"; }
apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"; }
exits() {  # exits STATUS COMMAND...: runs the command, fails unless it exits STATUS
  local want=$1 status=0
  shift
  "$@" || status=$?
  [ "$status" -eq "$want" ] || { say "'$*' exited $status, not $want"; exit 1; }
}
apt-get update -qq

say "the wheel, in a venv on nothing but python3-venv"
apt_install python3-venv
python3 -m venv /tmp/wheel
start=$SECONDS
/tmp/wheel/bin/pip install -q --no-index "$dir"/cidrcheck-*.whl
say "pip installed the wheel in $((SECONDS - start)) s"
/tmp/wheel/bin/python -c '
import cidrcheck, sys
fleet = cidrcheck.Fleet.load(sys.argv[1])
assert fleet.check().errors == 3, fleet.check().errors
print("clean-install: import cidrcheck", cidrcheck.__version__, "checks the example")
' data/examples/mesh-shared-services.yaml

say "the executable: apt-get install ./cidrcheck_*.deb"
start=$SECONDS
apt_install "$dir"/cidrcheck_*.deb
say "apt-get installed it and what it depends on in $((SECONDS - start)) s"
cidrcheck --version
exits 1 cidrcheck check --quiet /usr/share/doc/cidrcheck/examples/mesh-shared-services.yaml
zcat /usr/share/man/man1/cidrcheck.1.gz | grep -q '^\.TH' || { say "the man page has no .TH"; exit 1; }
bash -c 'source /usr/share/bash-completion/completions/cidrcheck && complete -p cidrcheck'

say "the library: apt-get install ./libcidrcheck-dev_*.deb, with cmake and g++"
apt_install "$dir"/libcidrcheck-dev_*.deb cmake g++ make
cmake -S tests/package -B /tmp/consumer -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build /tmp/consumer >/dev/null
/tmp/consumer/consumer
say "every package installed and works"
