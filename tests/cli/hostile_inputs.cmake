# Inputs too large or too odd to commit, generated here: each must give a clear
# message and exit code 2, never a crash or a hang. CLI and SCRATCH are given with -D.
file(REMOVE_RECURSE "${SCRATCH}")
file(MAKE_DIRECTORY "${SCRATCH}")

function(expect_trouble name expected_message)
  execute_process(COMMAND "${CLI}" ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc
                  TIMEOUT 60)
  if(NOT rc STREQUAL "2")
    message(FATAL_ERROR "${name}: expected exit 2, got '${rc}'\nstderr: ${err}")
  endif()
  string(FIND "${err}" "${expected_message}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${name}: stderr lacks '${expected_message}':\n${err}")
  endif()
  message(STATUS "${name}: ok")
endfunction()

# A 10 MB line.
string(REPEAT "0123456789" 1048576 ten_mb)
file(WRITE "${SCRATCH}/long-line.txt" "10.0.0.0/8\n${ten_mb}\n")
expect_trouble(long_line "long-line.txt:2:65537: error: line is longer than the max-line-bytes limit" set merge
               "${SCRATCH}/long-line.txt")

# Binary garbage: every byte value, many times over.
set(bytes "")
foreach(i RANGE 1 255)
  if(NOT i EQUAL 10 AND NOT i EQUAL 59 AND NOT i EQUAL 92)  # no newline; ';' and '\' confuse CMake lists
    string(ASCII ${i} c)
    string(APPEND bytes "${c}")
  endif()
endforeach()
string(REPEAT "${bytes}\n" 200 garbage)
file(WRITE "${SCRATCH}/garbage.bin" "${garbage}")
expect_trouble(binary_garbage "garbage.bin:1:1: error: invalid prefix" set overlaps "${SCRATCH}/garbage.bin")
expect_trouble(binary_garbage_capped "too many errors: stopping at the max-errors limit of 50" set overlaps "${SCRATCH}/garbage.bin")

# A file over the size limit (the limit lowered so the test stays small).
file(WRITE "${SCRATCH}/big.txt" "10.0.0.0/8\n10.1.0.0/16\n")
expect_trouble(file_limit "error: file is larger than the max-file-bytes limit of 8 bytes" set merge --max-file-bytes 8
               "${SCRATCH}/big.txt")

# A directory where a file is expected.
expect_trouble(directory "error: is a directory" set merge "${SCRATCH}")

# A 50 MB fleet file is over the default fleet limit (32 MiB): refused by name, not parsed.
string(REPEAT "# padding padding padding padding padding padding padding padding padding\n" 700000 padding)
file(WRITE "${SCRATCH}/huge.yaml" "version: 1\n${padding}")
expect_trouble(fleet_file_limit "huge.yaml: error: file is larger than the max-file-bytes limit of 33554432 bytes"
               check "${SCRATCH}/huge.yaml")

# YAML nested a hundred thousand levels deep: refused at the depth limit, no stack overflow.
string(REPEAT "[" 100000 open)
file(WRITE "${SCRATCH}/deep.yaml" "clusters: ${open}\n")
expect_trouble(fleet_depth_limit "error: nesting is deeper than the max-depth limit of 64 levels" check
               "${SCRATCH}/deep.yaml")
