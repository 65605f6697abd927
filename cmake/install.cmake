# Install the headers and an exported oompi::oompi target, so that an outside project writes
#   find_package(oompi REQUIRED)
#   target_link_libraries(app PRIVATE oompi::oompi)
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/oompi DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS oompi EXPORT oompiTargets)
install(EXPORT oompiTargets NAMESPACE oompi:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/oompi)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/oompiConfig.cmake.in
  ${PROJECT_BINARY_DIR}/oompiConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/oompi)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/oompiConfigVersion.cmake
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/oompiConfig.cmake ${PROJECT_BINARY_DIR}/oompiConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/OompiMpiTest.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/oompi)

# A pkg-config file (<libdir>/pkgconfig/oompi.pc) for builds without CMake. It requires the
# MPI's own module when the MPI has one (Debian: ompi-c for Open MPI, mpich for MPICH; not
# mpi-c, which follows the system's default MPI rather than the one oompi was built with),
# else it carries MPI's include directories and libraries itself.
set(OOMPI_PC_REQUIRES "")
set(OOMPI_PC_MPI_CFLAGS "")
set(OOMPI_PC_MPI_LIBS "")
find_package(PkgConfig QUIET)
list(GET MPI_C_INCLUDE_DIRS 0 _oompi_mpi_include)
if(PKG_CONFIG_FOUND AND _oompi_mpi_include)
  foreach(m ompi-c mpich)
    pkg_check_modules(_oompi_pc_${m} QUIET ${m})
    if(_oompi_pc_${m}_FOUND AND _oompi_mpi_include IN_LIST _oompi_pc_${m}_INCLUDE_DIRS)
      set(OOMPI_PC_REQUIRES ${m})
      break()
    endif()
  endforeach()
endif()
if(NOT OOMPI_PC_REQUIRES)
  foreach(d IN LISTS MPI_C_INCLUDE_DIRS)
    string(APPEND OOMPI_PC_MPI_CFLAGS " -I${d}")
  endforeach()
  foreach(l IN LISTS MPI_C_LIBRARIES)
    string(APPEND OOMPI_PC_MPI_LIBS " ${l}")
  endforeach()
endif()
file(RELATIVE_PATH OOMPI_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
string(REGEX REPLACE "/$" "" OOMPI_PC_TO_PREFIX "${OOMPI_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/oompi.pc.in ${PROJECT_BINARY_DIR}/oompi.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/oompi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
