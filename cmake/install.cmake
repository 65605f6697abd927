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
