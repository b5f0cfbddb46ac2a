# Every option defaults to whether cidrcheck is the top-level project, so that a
# consumer using add_subdirectory() or FetchContent gets only the libraries.
option(CIDRCHECK_BUILD_CLI "Build the cidrcheck executable" ON)
option(CIDRCHECK_BUILD_TESTS "Build the unit, CLI and package tests" ${PROJECT_IS_TOP_LEVEL})
option(CIDRCHECK_BUILD_BENCH "Build the Google Benchmark benches" OFF)
option(CIDRCHECK_BUILD_PYTHON "Build the pybind11 module" OFF)
option(CIDRCHECK_BUILD_FUZZ "Build the libFuzzer targets (needs clang; see the fuzz preset)" OFF)
option(CIDRCHECK_INSTALL "Generate install rules" ${PROJECT_IS_TOP_LEVEL})
option(CIDRCHECK_DEVELOPER_MODE "Warnings as errors and sanitizer hooks for the project's own code" OFF)
set(CIDRCHECK_SANITIZE "" CACHE STRING "Sanitizers for developer builds, e.g. address,undefined or thread")

include(GNUInstallDirs)
set(CIDRCHECK_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/cidrcheck"
    CACHE STRING "Where the CMake package files are installed, relative to the prefix")
