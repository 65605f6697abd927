# packaging.install.np2 (tests/packaging/install.sh): `cmake --install` of this build into a
# scratch prefix, then a C++ (find_package, pkg-config), Java, C# and Python consumer built and
# run from the prefix alone, on 2 ranks. Included after the bindings, whose tools it needs; a
# language that is not built is left out.
set(_env ${OOMPI_LAUNCHER_ENV} MPI_C_COMPILER=${MPI_C_COMPILER} MPI_CXX_COMPILER=${MPI_CXX_COMPILER}
    CXX=${CMAKE_CXX_COMPILER})
if(TARGET oompi_jar)
  list(APPEND _env JAVA=${Java_JAVA_EXECUTABLE} JAVAC=${Java_JAVAC_EXECUTABLE})
endif()
if(TARGET oompi_csharp_nupkg)
  list(APPEND _env DOTNET=${OOMPI_DOTNET} DOTNET_TFM=${OOMPI_DOTNET_TFM})
endif()
if(TARGET oompi_python)
  list(APPEND _env PYTHON=${OOMPI_PYTHON_EXECUTABLE} PYTHON_SITE=${OOMPI_PYTHON_INSTALL_DIR})
endif()
add_test(NAME ${OOMPI_TEST_PREFIX}packaging.install.np2
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/install.sh ${CMAKE_BINARY_DIR}
          ${CMAKE_BINARY_DIR}/tests/packaging-install
          ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${OOMPI_MPIEXEC_FLAGS_INTERNAL})
set_tests_properties(${OOMPI_TEST_PREFIX}packaging.install.np2 PROPERTIES TIMEOUT 300
  PROCESSORS 2 LABELS "packaging;mpi;np2" ENVIRONMENT "${_env}")

# packaging.pip.np2 (tests/packaging/pip.sh): `pip install` of the source tree into a fresh
# venv, offline, reusing this build's Python module; then a 2-rank job from the venv.
if(TARGET oompi_python)
  add_test(NAME ${OOMPI_TEST_PREFIX}packaging.pip.np2
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/pip.sh ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}
            ${CMAKE_BINARY_DIR}/tests/packaging-pip ${OOMPI_PYTHON_EXECUTABLE}
            ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${OOMPI_MPIEXEC_FLAGS_INTERNAL})
  set_tests_properties(${OOMPI_TEST_PREFIX}packaging.pip.np2 PROPERTIES TIMEOUT 300
    PROCESSORS 2 LABELS "packaging;python;mpi;np2" ENVIRONMENT "${OOMPI_LAUNCHER_ENV}")
endif()
