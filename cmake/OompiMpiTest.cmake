# oompi_add_mpi_test(<lang>.<area> COMMAND cmd [args...]
#                    [RANKS 1 2 4] [TIMEOUT seconds] [LABELS ...] [ENVIRONMENT VAR=value ...]
#                    [WORKING_DIRECTORY dir] [PEER cmd [args...]])
#
# Registers one CTest test per rank count, named <lang>.<area>.np<N>, that runs COMMAND under
# FindMPI's launcher. COMMAND may be anything (a C++ test program, `java ...`, `dotnet ...`,
# `python3 -m pytest ...`): every language's suite registers through this one helper. The
# verdict is the launcher's exit code, so a test program must make all ranks agree on it.
#
# PEER makes it an MPMD job: rank 0 runs the PEER command and the other N - 1 ranks run COMMAND
# (`mpiexec -n 1 peer : -n N-1 cmd`), e.g. a C++ rank exchanging objects with a Java rank. RANKS
# then defaults to 2.
include_guard(GLOBAL)

if(NOT MPIEXEC_EXECUTABLE)
  find_package(MPI REQUIRED COMPONENTS C)
endif()

# Open MPI refuses to start more ranks than cores (we test 4 ranks on 2 cores) and refuses to
# run as root; both are switched off only for Open MPI, which is the only launcher that needs it.
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version
                OUTPUT_VARIABLE _oompi_mpiexec_version ERROR_QUIET)
set(OOMPI_MPIEXEC_FLAGS "" CACHE STRING "Extra flags for the MPI launcher in tests")
if(_oompi_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(OOMPI_MPIEXEC_FLAGS_INTERNAL --oversubscribe CACHE INTERNAL "")
  set(OOMPI_LAUNCHER_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 CACHE INTERNAL "")
endif()
set(OOMPI_DEFAULT_RANKS 1 2 4 CACHE STRING "Rank counts every MPI test runs at")
set(OOMPI_TEST_TIMEOUT 120 CACHE STRING "Default per-test timeout in seconds")

function(oompi_add_mpi_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TIMEOUT;WORKING_DIRECTORY"
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
    set(test ${name}.np${np})
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
    add_test(NAME ${test} COMMAND ${MPIEXEC_EXECUTABLE} ${launch}
      WORKING_DIRECTORY ${arg_WORKING_DIRECTORY})
    set_tests_properties(${test} PROPERTIES
      TIMEOUT ${arg_TIMEOUT}
      PROCESSORS ${np}
      LABELS "${lang};mpi;np${np};${arg_LABELS}"
      ENVIRONMENT "${OOMPI_LAUNCHER_ENV};${arg_ENVIRONMENT}")
  endforeach()
endfunction()
