# API reference: `cmake --build <build> --target docs` writes <build>/docs/{cpp,java,csharp,python}
#   cpp     Doxygen over include/oompi (docs/api/Doxyfile.in)
#   java    javadoc of oompi.jar's sources (SWIG-generated + swig/java/src), doclint on
#   csharp  Oompi.xml, the XML documentation file `dotnet build` writes beside Oompi.dll
#   python  Sphinx autodoc of the package oompi (docs/api/python)
# Any warning fails the target (Doxygen FAIL_ON_WARNINGS, javadoc -Werror, malformed C# doc
# comments are errors in Oompi.csproj, sphinx-build -W). A missing tool fails it with the
# package to install (Debian: doxygen, python3-sphinx), rather than leaving a part out silently.
set(OOMPI_DOCS_DIR ${CMAKE_BINARY_DIR}/docs)
find_program(OOMPI_DOXYGEN doxygen)
find_program(OOMPI_SPHINX_BUILD sphinx-build)
set(_docs_parts)

function(_oompi_docs_missing part what)
  add_custom_target(docs_${part}
    COMMAND ${CMAKE_COMMAND} -E echo "docs: ${what}"
    COMMAND ${CMAKE_COMMAND} -E false)
endfunction()

if(OOMPI_DOXYGEN)
  configure_file(${PROJECT_SOURCE_DIR}/docs/api/Doxyfile.in ${OOMPI_DOCS_DIR}/Doxyfile @ONLY)
  add_custom_target(docs_cpp
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${OOMPI_DOCS_DIR}/cpp
    COMMAND ${OOMPI_DOXYGEN} ${OOMPI_DOCS_DIR}/Doxyfile
    WORKING_DIRECTORY ${OOMPI_DOCS_DIR}
    COMMENT "C++ API reference (Doxygen): ${OOMPI_DOCS_DIR}/cpp/html/index.html")
else()
  _oompi_docs_missing(cpp "doxygen not found (apt-get install doxygen)")
endif()
list(APPEND _docs_parts docs_cpp)

if(TARGET oompi_jar)
  set(_javadoc ${Java_JAVADOC_EXECUTABLE})
  if(NOT _javadoc)
    get_filename_component(_javabin ${Java_JAVAC_EXECUTABLE} DIRECTORY)
    set(_javadoc ${_javabin}/javadoc)
  endif()
  file(GLOB _java_src CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/swig/java/src/org/oompi/*.java)
  add_custom_target(docs_java
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${OOMPI_DOCS_DIR}/java
    COMMAND ${_javadoc} -quiet -Werror -Xdoclint:all,-missing --release 17 -encoding UTF-8
            -doctitle "oompi Java API" -d ${OOMPI_DOCS_DIR}/java
            @${CMAKE_BINARY_DIR}/swig/java/generated_sources.txt
            ${_java_src}
    COMMENT "Java API reference (javadoc): ${OOMPI_DOCS_DIR}/java/index.html")
  add_dependencies(docs_java oompi_jar)
else()
  _oompi_docs_missing(java "the Java binding is not built (OOMPI_BUILD_JAVA off, or no JDK 17 / SWIG)")
endif()
list(APPEND _docs_parts docs_java)

if(TARGET oompi_csharp_assembly)
  add_custom_target(docs_csharp
    COMMAND ${CMAKE_COMMAND} -E make_directory ${OOMPI_DOCS_DIR}/csharp
    COMMAND ${CMAKE_COMMAND} -E copy ${OOMPI_CSHARP_DIR}/Oompi.xml ${OOMPI_CSHARP_DIR}/Oompi.dll
            ${OOMPI_DOCS_DIR}/csharp/
    COMMENT "C# API reference (XML documentation file): ${OOMPI_DOCS_DIR}/csharp/Oompi.xml")
  add_dependencies(docs_csharp oompi_csharp_assembly)
else()
  _oompi_docs_missing(csharp "the C# binding is not built (OOMPI_BUILD_CSHARP off, or no .NET SDK / SWIG)")
endif()
list(APPEND _docs_parts docs_csharp)

if(TARGET oompi_python AND OOMPI_SPHINX_BUILD)
  add_custom_target(docs_python
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${OOMPI_DOCS_DIR}/python
    COMMAND ${CMAKE_COMMAND} -E env OOMPI_PYTHON_DIR=${OOMPI_PYTHON_DIR} PYTHONDONTWRITEBYTECODE=1
            ${OOMPI_SPHINX_BUILD} -W --keep-going -q -b html
            -d ${OOMPI_DOCS_DIR}/python_doctrees ${PROJECT_SOURCE_DIR}/docs/api/python
            ${OOMPI_DOCS_DIR}/python
    COMMENT "Python API reference (Sphinx): ${OOMPI_DOCS_DIR}/python/index.html")
  add_dependencies(docs_python oompi_python)
elseif(TARGET oompi_python)
  _oompi_docs_missing(python "sphinx-build not found (apt-get install python3-sphinx)")
else()
  _oompi_docs_missing(python "the Python binding is not built (OOMPI_BUILD_PYTHON off, or no python3-dev / SWIG)")
endif()
list(APPEND _docs_parts docs_python)

add_custom_target(docs DEPENDS ${_docs_parts})

# A quick check that the reference builds without warnings (about 15 s), where every tool is
# there (once: not again for the MPICH build of scripts/test-mpich.sh, whose docs are the
# same); CI's machine gets doxygen and python3-sphinx only if installed by hand (setup.sh
# leaves them out: docs/bindings.md).
if(OOMPI_BUILD_TESTS AND NOT OOMPI_TEST_PREFIX AND OOMPI_DOXYGEN AND OOMPI_SPHINX_BUILD AND TARGET oompi_jar
   AND TARGET oompi_csharp_assembly AND TARGET oompi_python)
  add_test(NAME ${OOMPI_TEST_PREFIX}docs.build
           COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target docs)
  set_tests_properties(${OOMPI_TEST_PREFIX}docs.build PROPERTIES LABELS docs TIMEOUT 300)
endif()
