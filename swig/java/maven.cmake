# `cmake --install`: oompi.jar also in a Maven repository, Debian's way (share/maven-repo, as
# /usr/share/maven-repo): org/oompi/oompi/<version>/ holds the pom and oompi-<version>.jar, a
# relative symbolic link to the installed oompi.jar. NativeLoader follows the link, so a Maven
# build finds the installed liboompi_java.so as `java -cp share/java/oompi.jar` does.
# A Maven build resolves it with that directory as its local repository (or a copy of it merged
# into one, as tests/packaging/maven.sh does), offline: <groupId>org.oompi</groupId>
# <artifactId>oompi</artifactId>.
set(OOMPI_MAVEN_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/maven-repo CACHE PATH
    "The Maven repository oompi.jar and its pom are installed into")
set(_dir ${OOMPI_MAVEN_INSTALL_DIR}/org/oompi/oompi/${PROJECT_VERSION})
configure_file(${CMAKE_CURRENT_LIST_DIR}/oompi.pom.in
               ${CMAKE_CURRENT_BINARY_DIR}/oompi-${PROJECT_VERSION}.pom @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/oompi-${PROJECT_VERSION}.pom DESTINATION ${_dir}
        COMPONENT java)
# The link's target, relative to the repository directory, is worked out at install time
# (the prefix may be given only then: cmake --install --prefix).
install(CODE "
  set(_at \"${_dir}\")
  set(_jar \"${OOMPI_JAR_INSTALL_DIR}/oompi.jar\")
  foreach(_p _at _jar)
    if(NOT IS_ABSOLUTE \"\${\${_p}}\")
      set(\${_p} \"\${CMAKE_INSTALL_PREFIX}/\${\${_p}}\")
    endif()
  endforeach()
  file(RELATIVE_PATH _target \"\${_at}\" \"\${_jar}\")
  set(_link \"\$ENV{DESTDIR}\${_at}/oompi-${PROJECT_VERSION}.jar\")
  message(STATUS \"Installing: \${_link} -> \${_target}\")
  file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${_at}\")
  file(REMOVE \"\${_link}\")
  file(CREATE_LINK \"\${_target}\" \"\${_link}\" SYMBOLIC)
" COMPONENT java)
