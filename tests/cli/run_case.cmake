# Runs one golden CLI case: CLI, CASE (the .cmd file) and WORKDIR are given with -D.
get_filename_component(dir "${CASE}" DIRECTORY)
get_filename_component(name "${CASE}" NAME_WE)
file(READ "${CASE}" command_line)
string(STRIP "${command_line}" command_line)
separate_arguments(args UNIX_COMMAND "${command_line}")

set(input_args)
if(EXISTS "${dir}/${name}.stdin")
  set(input_args INPUT_FILE "${dir}/${name}.stdin")
endif()
execute_process(
  COMMAND "${CLI}" ${args}
  WORKING_DIRECTORY "${WORKDIR}"
  ${input_args}
  OUTPUT_VARIABLE actual_stdout
  ERROR_VARIABLE actual_stderr
  RESULT_VARIABLE actual_exit)
# SARIF names the repository's root as a file URI (originalUriBaseIds): the
# working directory, which differs per checkout, is written {WORKDIR}.
string(REPLACE "\"file://${WORKDIR}/\"" "\"file://{WORKDIR}/\"" actual_stdout "${actual_stdout}")

if("$ENV{CIDRCHECK_UPDATE_GOLDEN}" STREQUAL "1")
  file(WRITE "${dir}/${name}.stdout" "${actual_stdout}")
  file(WRITE "${dir}/${name}.stderr" "${actual_stderr}")
  file(WRITE "${dir}/${name}.exit" "${actual_exit}\n")
  return()
endif()

set(failed FALSE)
foreach(stream stdout stderr)
  set(expected "")
  if(EXISTS "${dir}/${name}.${stream}")
    file(READ "${dir}/${name}.${stream}" expected)
  endif()
  if(NOT actual_${stream} STREQUAL expected)
    message("--- expected ${stream}:\n${expected}--- actual ${stream}:\n${actual_${stream}}---")
    set(failed TRUE)
  endif()
endforeach()
file(READ "${dir}/${name}.exit" expected_exit)
string(STRIP "${expected_exit}" expected_exit)
if(NOT actual_exit STREQUAL expected_exit)
  message("--- expected exit ${expected_exit}, got ${actual_exit}")
  set(failed TRUE)
endif()
if(failed)
  message(FATAL_ERROR "golden case ${name} failed: cidrcheck ${command_line}")
endif()
