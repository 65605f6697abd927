# oompi_add_mpi_test(<lang>.<area> COMMAND cmd [args...]
#                    [RANKS 1 2 4] [TIMEOUT seconds] [LABELS ...] [ENVIRONMENT VAR=value ...]
#                    [WORKING_DIRECTORY dir] [PEER cmd [args...]] [RETRY_EXIT_CODE code])
#
# Registers one CTest test per rank count, named <lang>.<area>.np<N> (after OOMPI_TEST_PREFIX),
# that runs COMMAND under FindMPI's launcher. COMMAND may be anything (a C++ test program,
# `java ...`, `dotnet ...`, `python3 -m pytest ...`): every language's suite registers through
# this one helper. The
# verdict is the launcher's exit code, so a test program must make all ranks agree on it.
#
# PEER makes it an MPMD job: rank 0 runs the PEER command and the other N - 1 ranks run COMMAND
# (`mpiexec -n 1 peer : -n N-1 cmd`), e.g. a C++ rank exchanging objects with a Java rank. RANKS
# then defaults to 2.
#
# RETRY_EXIT_CODE runs the job again (3 attempts in all) while it exits with that code: a test
# uses it to report a known intermittent fault of the MPI library itself (it says which, on stderr).
include_guard(GLOBAL)

if(NOT MPIEXEC_EXECUTABLE)
  find_package(MPI REQUIRED COMPONENTS C)
endif()

# Open MPI refuses to start more ranks than cores (we test 4 ranks on 2 cores) and refuses to
# run as root; both are switched off only for Open MPI, which is the only launcher that needs it.
# MPICH's hydra needs neither.
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version
                OUTPUT_VARIABLE _oompi_mpiexec_version ERROR_QUIET)
set(OOMPI_MPIEXEC_FLAGS "" CACHE STRING "Extra flags for the MPI launcher in tests")
if(_oompi_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(OOMPI_MPI_VENDOR openmpi CACHE INTERNAL "")
  set(OOMPI_MPIEXEC_FLAGS_INTERNAL --oversubscribe CACHE INTERNAL "")
  set(OOMPI_LAUNCHER_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 CACHE INTERNAL "")
elseif(_oompi_mpiexec_version MATCHES "HYDRA")
  set(OOMPI_MPI_VENDOR mpich CACHE INTERNAL "")
  set(OOMPI_MPIEXEC_FLAGS_INTERNAL "" CACHE INTERNAL "")
  # MPICH over UCX (Debian's ch4:ucx) lets UCX install SIGSEGV/SIGBUS handlers over the ones the
  # JVM and the CLR rely on (null checks, safepoints): a JVM then dies at its next implicit null
  # check. UCX_ERROR_SIGNALS= (empty) keeps them, as docs/bindings.md tells users to do.
  set(OOMPI_LAUNCHER_ENV "UCX_ERROR_SIGNALS=" CACHE INTERNAL "")
else()
  set(OOMPI_MPI_VENDOR other CACHE INTERNAL "")
endif()
# A second build against another MPI (scripts/test-mpich.sh) names its tests mpich.<lang>.<area>.npN
# and labels every one of them `mpich`; empty (the default) leaves the names as they are.
set(OOMPI_TEST_PREFIX "" CACHE STRING "Prefix of every test name, e.g. mpich. (also a label)")
if(OOMPI_TEST_PREFIX AND NOT OOMPI_TEST_PREFIX MATCHES "^[a-z0-9]+\\.$")
  message(FATAL_ERROR "OOMPI_TEST_PREFIX must be a word and a dot, e.g. mpich.")
endif()
if(OOMPI_TEST_PREFIX)
  string(REGEX REPLACE "\\.$" "" _oompi_prefix_label "${OOMPI_TEST_PREFIX}")
  # Directory labels reach every test of the project, add_test()'s own ones too.
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY LABELS ${_oompi_prefix_label})
endif()
# oompi_links_other_mpi(<var> <library>): sets <var> to the MPI library that <library> was linked
# against when that is not this build's MPI, else to "". A distribution builds Boost.MPI and
# mpi4py against one MPI (Debian: Open MPI); loaded beside another, two MPIs share one process.
function(oompi_links_other_mpi out lib)
  set(${out} "" PARENT_SCOPE)
  list(GET MPI_C_LIBRARIES 0 mpi)
  execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${mpi} OUTPUT_VARIABLE mine ERROR_QUIET)
  execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${lib} OUTPUT_VARIABLE theirs ERROR_QUIET)
  string(REGEX MATCH "SONAME +([^\n]+)" mine "${mine}")
  set(mine ${CMAKE_MATCH_1})
  string(REGEX MATCHALL "NEEDED +libmpi[^\n]*" theirs "${theirs}")
  string(REGEX REPLACE "NEEDED +" "" theirs "${theirs}")
  if(mine AND theirs AND NOT mine IN_LIST theirs)
    set(${out} "${theirs}" PARENT_SCOPE)
  endif()
endfunction()

set(OOMPI_DEFAULT_RANKS 1 2 4 CACHE STRING "Rank counts every MPI test runs at")

# A language's wrapper of oompi_add_mpi_test (oompi_cpp_test, oompi_java_test, ...) parses the
# options it passes on with these keywords beside its own, and oompi_mpi_test_options() gives
# them back as arguments:
#   cmake_parse_arguments(PARSE_ARGV 1 arg "" "${OOMPI_MPI_TEST_ONE_VALUE}"
#                         "CLASS;${OOMPI_MPI_TEST_MULTI_VALUE}")
#   oompi_mpi_test_options(options arg)
#   oompi_add_mpi_test(java.${area} COMMAND ... ${options})
set(OOMPI_MPI_TEST_ONE_VALUE TIMEOUT WORKING_DIRECTORY RETRY_EXIT_CODE)
set(OOMPI_MPI_TEST_MULTI_VALUE RANKS LABELS ENVIRONMENT PEER)

# oompi_mpi_test_options(<out> <prefix>): <out> = the options of oompi_add_mpi_test that the
# calling function's cmake_parse_arguments(<prefix> ...) found, each with its keyword.
function(oompi_mpi_test_options out prefix)
  set(options)
  foreach(keyword IN LISTS OOMPI_MPI_TEST_ONE_VALUE OOMPI_MPI_TEST_MULTI_VALUE)
    if(DEFINED ${prefix}_${keyword})
      list(APPEND options ${keyword} ${${prefix}_${keyword}})
    endif()
  endforeach()
  set(${out} ${options} PARENT_SCOPE)
endfunction()
set(OOMPI_TEST_TIMEOUT 120 CACHE STRING "Default per-test timeout in seconds")

function(oompi_add_mpi_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TIMEOUT;WORKING_DIRECTORY;RETRY_EXIT_CODE"
                        "COMMAND;RANKS;LABELS;ENVIRONMENT;PEER")
  if(NOT arg_COMMAND)
    message(FATAL_ERROR "oompi_add_mpi_test(${name}): COMMAND is required")
  endif()
  if(NOT name MATCHES "^[a-z]+\\.[A-Za-z0-9_.-]+$")
    message(FATAL_ERROR "oompi_add_mpi_test(${name}): name must be <lang>.<area>")
  endif()
  if(NOT arg_RANKS AND arg_PEER)
    set(arg_RANKS 2)
  elseif(NOT arg_RANKS)
    set(arg_RANKS ${OOMPI_DEFAULT_RANKS})
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT ${OOMPI_TEST_TIMEOUT})
  endif()
  if(NOT arg_WORKING_DIRECTORY)
    set(arg_WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  string(REGEX MATCH "^[a-z]+" lang "${name}")
  foreach(np IN LISTS arg_RANKS)
    set(test ${OOMPI_TEST_PREFIX}${name}.np${np})
    set(flags ${OOMPI_MPIEXEC_FLAGS_INTERNAL} ${OOMPI_MPIEXEC_FLAGS} ${MPIEXEC_PREFLAGS})
    if(arg_PEER)
      if(np LESS 2)
        message(FATAL_ERROR "oompi_add_mpi_test(${name}): a PEER test needs 2 ranks or more")
      endif()
      math(EXPR rest "${np} - 1")
      set(launch ${MPIEXEC_NUMPROC_FLAG} 1 ${flags} ${arg_PEER} ${MPIEXEC_POSTFLAGS}
                 : ${MPIEXEC_NUMPROC_FLAG} ${rest} ${flags} ${arg_COMMAND} ${MPIEXEC_POSTFLAGS})
    else()
      set(launch ${MPIEXEC_NUMPROC_FLAG} ${np} ${flags} ${arg_COMMAND} ${MPIEXEC_POSTFLAGS})
    endif()
    set(retry)
    if(arg_RETRY_EXIT_CODE)
      set(retry ${PROJECT_SOURCE_DIR}/cmake/retry_on_exit.sh ${arg_RETRY_EXIT_CODE} 3)
    endif()
    add_test(NAME ${test} COMMAND ${retry} ${MPIEXEC_EXECUTABLE} ${launch}
      WORKING_DIRECTORY ${arg_WORKING_DIRECTORY})
    set_tests_properties(${test} PROPERTIES
      TIMEOUT ${arg_TIMEOUT}
      PROCESSORS ${np}
      LABELS "${lang};mpi;np${np};${arg_LABELS}"
      ENVIRONMENT "${OOMPI_LAUNCHER_ENV};${arg_ENVIRONMENT}")
  endforeach()
endfunction()
