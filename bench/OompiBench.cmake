# oompi_add_bench(<name> COMMAND cmd [args...]
#                 [RANKS n | SELF_LAUNCHED] [QUICK_ARGS args...] [DEPENDS targets...]
#                 [GROUP group] [TIMEOUT seconds] [NO_SMOKE_TEST])
#
# Registers a benchmark for bench/run.sh (and the `bench` target). COMMAND may be anything that
# prints result records as JSON lines on stdout (docs/bench.md): a C++ program, `java ...`,
# `dotnet ...`, `python3 ...`. Generator expressions such as $<TARGET_FILE:prog> are allowed.
#
#   RANKS n        run.sh launches COMMAND under the MPI launcher with n ranks (default 2).
#   SELF_LAUNCHED  COMMAND starts its own processes (e.g. mpirun under valgrind); run.sh gives it
#                  OOMPI_BENCH_MPIEXEC (launcher and flags, without -np) in the environment.
#   QUICK_ARGS     arguments added by `run.sh --quick` and by the smoke test.
#   DEPENDS        targets built before the benches run (added to `bench_programs`).
#   GROUP g        benches of one group are run alternately, one round per invocation
#                  (arguments --rounds=1 --first-round=r are appended), for systems that
#                  cannot share a process (e.g. a Java ping-pong beside the raw C one).
#   TIMEOUT        seconds for one invocation in run.sh (default 300).
#   NO_SMOKE_TEST  do not register the CTest smoke test bench.<name> (QUICK_ARGS, exit code only).
#
# Usable from any directory: include(${PROJECT_SOURCE_DIR}/bench/OompiBench.cmake).
include_guard(GLOBAL)

if(NOT TARGET bench_programs)
  add_custom_target(bench_programs COMMENT "Benchmark programs")
endif()
set(OOMPI_BENCH_MANIFEST_DIR ${CMAKE_BINARY_DIR}/bench/manifest CACHE INTERNAL "")
option(OOMPI_BENCH_SMOKE_TESTS "Register a quick CTest smoke run (bench.<name>) of each bench" ON)

function(oompi_add_bench name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "SELF_LAUNCHED;NO_SMOKE_TEST" "RANKS;GROUP;TIMEOUT"
                        "COMMAND;QUICK_ARGS;DEPENDS")
  if(NOT arg_COMMAND)
    message(FATAL_ERROR "oompi_add_bench(${name}): COMMAND is required")
  endif()
  if(NOT name MATCHES "^[A-Za-z0-9_]+$")
    message(FATAL_ERROR "oompi_add_bench(${name}): use letters, digits and _ only")
  endif()
  if(NOT arg_RANKS)
    set(arg_RANKS 2)
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 300)
  endif()
  set(launch mpi)
  if(arg_SELF_LAUNCHED)
    set(launch self)
  endif()

  # One line per field; one `arg=` line per argument, so arguments may contain spaces.
  set(content "name=${name}\nranks=${arg_RANKS}\nlaunch=${launch}\ngroup=${arg_GROUP}\n")
  string(APPEND content "timeout=${arg_TIMEOUT}\n")
  foreach(a IN LISTS arg_COMMAND)
    string(APPEND content "arg=${a}\n")
  endforeach()
  foreach(a IN LISTS arg_QUICK_ARGS)
    string(APPEND content "quick=${a}\n")
  endforeach()
  file(GENERATE OUTPUT ${OOMPI_BENCH_MANIFEST_DIR}/${name}.bench CONTENT "${content}")

  if(arg_DEPENDS)
    add_dependencies(bench_programs ${arg_DEPENDS})
  endif()

  if(NOT arg_NO_SMOKE_TEST AND COMMAND oompi_add_mpi_test AND OOMPI_BENCH_SMOKE_TESTS)
    if(arg_SELF_LAUNCHED)
      add_test(NAME ${OOMPI_TEST_PREFIX}bench.${name} COMMAND ${arg_COMMAND} ${arg_QUICK_ARGS})
      string(JOIN " " launcher ${MPIEXEC_EXECUTABLE} ${OOMPI_MPIEXEC_FLAGS_INTERNAL}
             ${OOMPI_MPIEXEC_FLAGS} ${MPIEXEC_PREFLAGS})
      set_tests_properties(${OOMPI_TEST_PREFIX}bench.${name} PROPERTIES TIMEOUT 120 LABELS "bench"
        ENVIRONMENT "${OOMPI_LAUNCHER_ENV};OOMPI_BENCH_MPIEXEC=${launcher}")
    else()
      oompi_add_mpi_test(bench.${name} COMMAND ${arg_COMMAND} ${arg_QUICK_ARGS}
                         RANKS ${arg_RANKS} TIMEOUT 120 LABELS bench)
    endif()
  endif()
endfunction()
