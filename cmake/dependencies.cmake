# Every dependency comes from the system (Debian 12 packages); nothing is downloaded.
# YAML is read with libyaml (found in lib/ through pkg-config) rather than yaml-cpp:
# cidrcheck's tree of a 10,000-cluster fleet is built about 4.3 times faster than
# yaml-cpp's (0.12 s against 0.52 s CPU; bench/yaml_bench.cpp measures it, tree against
# tree), and it keeps positions, duplicate keys and limits. yaml-cpp is used by that
# benchmark only (bench/CMakeLists.txt finds it if installed).
find_package(Boost 1.74 CONFIG REQUIRED COMPONENTS program_options)
find_package(nlohmann_json 3.11 CONFIG REQUIRED)
find_package(fmt 9 CONFIG REQUIRED)
if(CIDRCHECK_BUILD_TESTS)
  find_package(GTest 1.12 CONFIG REQUIRED)
endif()
if(CIDRCHECK_BUILD_BENCH)
  find_package(benchmark 1.7 CONFIG REQUIRED)
endif()
