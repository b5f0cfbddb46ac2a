# Installs the libraries, headers, executable and a relocatable CMake package:
#   find_package(cidrcheck 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE cidrcheck::core)   # or cidrcheck::io, cidrcheck::cidrcheck
include(CMakePackageConfigHelpers)

set(cidrcheck_install_targets cidrcheck_core cidrcheck_fleet cidrcheck_io cidrcheck_cidrcheck)
if(TARGET cidrcheck_cli)
  list(APPEND cidrcheck_install_targets cidrcheck_cli)
endif()

install(
  TARGETS ${cidrcheck_install_targets}
  EXPORT cidrcheckTargets
  RUNTIME COMPONENT cidrcheck_runtime
  LIBRARY COMPONENT cidrcheck_runtime NAMELINK_COMPONENT cidrcheck_development
  ARCHIVE COMPONENT cidrcheck_development
  FILE_SET HEADERS COMPONENT cidrcheck_development)

configure_package_config_file(
  cmake/cidrcheckConfig.cmake.in "${PROJECT_BINARY_DIR}/cidrcheckConfig.cmake"
  INSTALL_DESTINATION "${CIDRCHECK_INSTALL_CMAKEDIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/cidrcheckConfigVersion.cmake"
                                 COMPATIBILITY SameMajorVersion)

install(FILES "${PROJECT_BINARY_DIR}/cidrcheckConfig.cmake" "${PROJECT_BINARY_DIR}/cidrcheckConfigVersion.cmake"
        DESTINATION "${CIDRCHECK_INSTALL_CMAKEDIR}" COMPONENT cidrcheck_development)
install(EXPORT cidrcheckTargets NAMESPACE cidrcheck:: DESTINATION "${CIDRCHECK_INSTALL_CMAKEDIR}"
        COMPONENT cidrcheck_development)

# The same target names from the build tree, for add_subdirectory/FetchContent users.
export(EXPORT cidrcheckTargets NAMESPACE cidrcheck:: FILE "${PROJECT_BINARY_DIR}/cidrcheckTargets.cmake")
