# What `cpack` builds from an installed build tree (docs/building.md#packages):
#   DEB  two Debian packages, one per install component, as Debian splits a tool from its library:
#          cidrcheck          cidrcheck_runtime: the executable, man page, completions, catalog, examples
#          libcidrcheck-dev   cidrcheck_development: headers, static libraries, the CMake package
#        The runtime package's Depends are computed by dpkg-shlibdeps from what the executable links
#        (dpkg-dev and file must be installed); the -dev package's are what cidrcheckConfig.cmake finds.
#   TGZ  one relocatable tarball of both (bin/, lib/, include/, share/), for any prefix.
# tests/package/packages_test.py builds both from the ci tree and installs them.
set(CPACK_GENERATOR DEB TGZ)
set(CPACK_PACKAGE_NAME cidrcheck)
set(CPACK_PACKAGE_VENDOR cidrcheck)
# Empty, not the project's description: CPackDeb puts a summary in front of each component's
# description, and each package has its own first line.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_PACKAGE_FILE_NAME "cidrcheck-${PROJECT_VERSION}-linux-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL cidrcheck_runtime cidrcheck_development)

# Debian requires a maintainer with an address; a packager overrides it with theirs.
set(CIDRCHECK_PACKAGE_MAINTAINER "cidrcheck maintainers <${PROJECT_HOMEPAGE_URL}/issues>"
    CACHE STRING "The Maintainer field of the Debian packages")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)   # NAME_VERSION_ARCH.deb, as Debian names them
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CIDRCHECK_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_CIDRCHECK_RUNTIME_PACKAGE_NAME cidrcheck)
set(CPACK_DEBIAN_CIDRCHECK_RUNTIME_PACKAGE_SECTION net)
set(CPACK_DEBIAN_CIDRCHECK_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_CIDRCHECK_RUNTIME_DESCRIPTION
    "CIDR overlap checker and renumbering planner for Kubernetes fleets
cidrcheck reads a fleet of Kubernetes clusters and networks (a fleet file or
the exports of aws, gcloud, az, kops, kubeadm, kubectl, Terraform and
Tailscale), reports the overlapping ranges that break routing, plans the
cheapest safe renumbering and writes its runbooks. Exit codes and report
formats (SARIF, JUnit, GitLab, checkstyle, Markdown, HTML) are made for CI.")

set(CPACK_DEBIAN_CIDRCHECK_DEVELOPMENT_PACKAGE_NAME libcidrcheck-dev)
set(CPACK_DEBIAN_CIDRCHECK_DEVELOPMENT_PACKAGE_SECTION libdevel)
# What a consumer's find_package(cidrcheck) looks for (cmake/cidrcheckConfig.cmake.in): Boost's
# headers and CMake package, and libyaml through pkg-config (the static cidrcheck_io links it).
set(CPACK_DEBIAN_CIDRCHECK_DEVELOPMENT_PACKAGE_DEPENDS
    "libboost-dev (>= ${cidrcheck_boost_version}), libyaml-dev, pkg-config")
set(CPACK_DEBIAN_CIDRCHECK_DEVELOPMENT_DESCRIPTION
    "C++20 library of cidrcheck (development files)
Header-only address, prefix, range, set and map types on Boost.ICL with a
best-fit allocator (cidrcheck::core), and the static libraries of the fleet
check, planner and readers (cidrcheck::cidrcheck), installed as the CMake
package cidrcheck: find_package(cidrcheck) and link cidrcheck::core.")

include(CPack)
