# `cidrcheck import SOURCES -o f.yaml` then `cidrcheck check f.yaml` reports what
# `cidrcheck check SOURCES` reports (positions aside: they name the fleet file
# instead of the exports); -o writes what standard output would show, and a
# failed import leaves the file as it was. CLI, WORKDIR and SCRATCH are given with -D.
set(fixtures tests/fixtures/import)
set(sources
    aws-eks:${fixtures}/aws-eks/my-eks-cluster.json aws-vpcs:${fixtures}/aws-vpcs/vpcs.json
    gke:${fixtures}/gke/prod-us.json gcp-subnets:${fixtures}/gcp-subnets/subnets.json
    aks:${fixtures}/aks/patty-kube.json terraform:${fixtures}/terraform/terraform.tfstate
    kops:${fixtures}/kops/minimal.yaml kubeadm:${fixtures}/kubeadm/lab.yaml kubectl:${fixtures}/kubectl/lab.yaml
    tailscale:${fixtures}/tailscale/policy.hujson ${fixtures}/fleet.yaml)
file(REMOVE_RECURSE "${SCRATCH}")
file(MAKE_DIRECTORY "${SCRATCH}")
set(written "${SCRATCH}/fleet.yaml")

function(run out_var exit_var)
  execute_process(COMMAND "${CLI}" ${ARGN} WORKING_DIRECTORY "${WORKDIR}" OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE code)
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${exit_var} "${code}" PARENT_SCOPE)
endfunction()

# Findings without their positions, sorted: the same findings, whatever the files.
function(normalise text out_var)
  string(REGEX REPLACE "\n$" "" text "${text}")
  string(REPLACE ";" "\\;" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(result)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[^ ]+:[0-9]+:[0-9]+: " "" line "${line}")
    # The sources' warnings and notes about the input are not the written fleet's.
    string(REGEX REPLACE "; [0-9]+ input (warning|note)s?(, [0-9]+ input notes?)?$" "" line "${line}")
    string(REGEX REPLACE " \\([0-9]+ files?\\)$" "" line "${line}")
    list(APPEND result "${line}")
  endforeach()
  list(SORT result)
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

run(import_out import_exit import ${sources} -o "${written}")
if(NOT import_exit EQUAL 0 OR NOT EXISTS "${written}")
  message(FATAL_ERROR "import -o failed with exit ${import_exit}")
endif()
run(stdout_out stdout_exit import ${sources})
file(READ "${written}" file_text)
if(NOT file_text STREQUAL stdout_out)
  message(FATAL_ERROR "import -o wrote something else than import prints")
endif()

run(from_file file_exit check "${written}")
run(from_sources sources_exit check ${sources})
normalise("${from_file}" a)
normalise("${from_sources}" b)
if(NOT file_exit EQUAL sources_exit OR NOT a STREQUAL b)
  message(FATAL_ERROR "check of the written fleet (exit ${file_exit}):\n${from_file}\n"
                      "differs from check of the sources (exit ${sources_exit}):\n${from_sources}")
endif()
list(LENGTH a findings)
if(findings LESS 10)
  message(FATAL_ERROR "the round trip checks too little:\n${from_sources}")
endif()

# A failed import writes nothing: the file stays as it was, and no temporary file is left.
run(bad_out bad_exit import aws-vpcs ${fixtures}/aws-vpcs/truncated.json -o "${written}")
file(READ "${written}" after)
file(GLOB leftovers "${SCRATCH}/.fleet.yaml.*")
if(NOT bad_exit EQUAL 2 OR NOT after STREQUAL file_text OR leftovers)
  message(FATAL_ERROR "a failed import touched ${written} (exit ${bad_exit}, leftovers: ${leftovers})")
endif()
