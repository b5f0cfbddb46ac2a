# Developer mode: strict warnings (as errors) and optional sanitizers, applied
# only to the project's own targets through cidrcheck_apply_dev_flags(), which is
# a no-op unless CIDRCHECK_DEVELOPER_MODE is on.
set(CIDRCHECK_WARNINGS
    -Wall -Wextra -Wpedantic -Werror -Wshadow -Wconversion -Wnon-virtual-dtor
    -Wold-style-cast -Wcast-align -Woverloaded-virtual
    -Wformat=2 -Wimplicit-fallthrough -Wmissing-declarations
    # GCC 12 reports std::set's own red-black tree nodes as dangling pointers once
    # Boost.ICL's set algebra is inlined (a known false positive, GCC bug 106393).
    $<$<CXX_COMPILER_ID:GNU>:-Wno-dangling-pointer>)

function(cidrcheck_apply_dev_flags target)
  get_target_property(type ${target} TYPE)
  if(NOT CIDRCHECK_DEVELOPER_MODE OR type STREQUAL "INTERFACE_LIBRARY")
    return()
  endif()
  target_compile_options(${target} PRIVATE ${CIDRCHECK_WARNINGS})
  if(CIDRCHECK_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=${CIDRCHECK_SANITIZE} -fno-omit-frame-pointer
                                             -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=${CIDRCHECK_SANITIZE})
  endif()
endfunction()

# A compiler cache where one is installed (ccache), for developer builds only:
# CI builds one tree in several presets and in fresh clones, and an unchanged
# file should cost nothing the second time. Paths are hashed relative to the
# source tree (and the build directory not at all), so every clone of a commit
# shares the cache's entries. A launcher the user sets wins.
if(CIDRCHECK_DEVELOPER_MODE AND PROJECT_IS_TOP_LEVEL AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(CIDRCHECK_CCACHE ccache)
  if(CIDRCHECK_CCACHE)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1
                                    ${CIDRCHECK_CCACHE})
  endif()
endif()
