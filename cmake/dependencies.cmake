# Every dependency comes from the system (Debian 12 packages); nothing is downloaded.
# YAML is read with libyaml (found in lib/ through pkg-config) rather than yaml-cpp:
# cidrcheck's tree keeps positions, duplicate keys and limits, and is built faster
# than yaml-cpp's, tree against tree: 1.5 to 4.7 times on a 10,000-cluster fleet
# across runs on a shared machine (docs/architecture.md has the runs and the command;
# bench/yaml_bench.cpp measures it). yaml-cpp is used by that benchmark only
# (bench/CMakeLists.txt finds it if installed).
# The oldest Boost cidrcheck builds with (Debian 12's); the CMake package and the -dev package
# (cmake/cidrcheckConfig.cmake.in, cmake/packaging.cmake) ask consumers for the same.
set(cidrcheck_boost_version 1.74)
find_package(Boost ${cidrcheck_boost_version} CONFIG REQUIRED COMPONENTS program_options)
find_package(nlohmann_json 3.11 CONFIG REQUIRED)
find_package(fmt 9 CONFIG REQUIRED)
if(CIDRCHECK_BUILD_TESTS)
  find_package(GTest 1.12 CONFIG REQUIRED)
endif()
if(CIDRCHECK_BUILD_BENCH)
  find_package(benchmark 1.7 CONFIG REQUIRED)
endif()
