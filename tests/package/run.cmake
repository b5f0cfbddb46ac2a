# Installs the build in BUILD_DIR into a scratch prefix and checks the man page and
# completions are there; then builds and runs the consumer in SOURCE_DIR against it
# with find_package(cidrcheck), and builds the C++ guide's programs in EXAMPLES_DIR
# into SCRATCH/examples (the docs test runs them).
file(REMOVE_RECURSE "${SCRATCH}")
set(prefix "${SCRATCH}/prefix")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()

run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
# The CLI's companions: the manual page and the shell completions, non-empty and parseable by bash.
if(WITH_CLI)
  foreach(companion share/man/man1/cidrcheck.1.gz share/bash-completion/completions/cidrcheck
                    share/zsh/site-functions/_cidrcheck share/fish/vendor_completions.d/cidrcheck.fish)
    file(SIZE "${prefix}/${companion}" size)   # fails the test if the file is missing
    if(size EQUAL 0)
      message(FATAL_ERROR "installed ${companion} is empty")
    endif()
  endforeach()
  run(bash -n "${prefix}/share/bash-completion/completions/cidrcheck")
endif()
run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${SCRATCH}/build" -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}"
    "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_BUILD_TYPE=Release)
run("${CMAKE_COMMAND}" --build "${SCRATCH}/build")
run("${SCRATCH}/build/consumer")
run("${CMAKE_COMMAND}" -S "${EXAMPLES_DIR}" -B "${SCRATCH}/examples" -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}"
    "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_BUILD_TYPE=Release)
run("${CMAKE_COMMAND}" --build "${SCRATCH}/examples")
