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

# packaging.jar.np2 (tests/packaging/jar.sh): oompi.jar alone in an empty directory runs a
# 2-rank job on the native library inside it; a jar with an altered checksum is refused.
# packaging.maven.np2 (tests/packaging/maven.sh): a Maven project resolves org.oompi:oompi from
# the installed share/maven-repo offline and runs on 2 ranks (skipped, 77, without Maven).
if(TARGET oompi_jar)
  set(_java_env ${OOMPI_LAUNCHER_ENV} JAVA=${Java_JAVA_EXECUTABLE} JAVAC=${Java_JAVAC_EXECUTABLE}
      JAR=${Java_JAR_EXECUTABLE})
  add_test(NAME ${OOMPI_TEST_PREFIX}packaging.jar.np2
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/jar.sh ${OOMPI_JAVA_DIR}/oompi.jar ${CMAKE_CURRENT_LIST_DIR}
            ${CMAKE_BINARY_DIR}/tests/packaging-jar
            ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${OOMPI_MPIEXEC_FLAGS_INTERNAL})
  add_test(NAME ${OOMPI_TEST_PREFIX}packaging.maven.np2
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/maven.sh ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_LIST_DIR}
            ${CMAKE_BINARY_DIR}/tests/packaging-maven
            ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${OOMPI_MPIEXEC_FLAGS_INTERNAL})
  set_tests_properties(${OOMPI_TEST_PREFIX}packaging.jar.np2 ${OOMPI_TEST_PREFIX}packaging.maven.np2
    PROPERTIES TIMEOUT 300 PROCESSORS 2 LABELS "packaging;java;mpi;np2" SKIP_RETURN_CODE 77
    ENVIRONMENT "${_java_env}")
endif()

# packaging.nuget.np2 (tests/packaging/nuget.sh): `dotnet new console`, a NuGet.config naming
# only the folder of this build's .nupkg, `dotnet add package Oompi`, build, a 2-rank job.
if(TARGET oompi_csharp_nupkg)
  add_test(NAME ${OOMPI_TEST_PREFIX}packaging.nuget.np2
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/nuget.sh ${OOMPI_NUPKG_DIR} ${CMAKE_CURRENT_LIST_DIR}
            ${CMAKE_BINARY_DIR}/tests/packaging-nuget
            ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${OOMPI_MPIEXEC_FLAGS_INTERNAL})
  set_tests_properties(${OOMPI_TEST_PREFIX}packaging.nuget.np2 PROPERTIES TIMEOUT 300
    PROCESSORS 2 LABELS "packaging;csharp;mpi;np2" ENVIRONMENT "${OOMPI_LAUNCHER_ENV};DOTNET=${OOMPI_DOTNET}")
endif()
