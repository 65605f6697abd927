#!/usr/bin/env bash
# packaging.install: installs the build (`cmake --install`, what it built already) into a scratch
# prefix, then builds and runs from that prefix alone, under the MPI launcher, a consumer in each
# language: C++ by find_package(oompi) and by pkg-config, Java with only the installed oompi.jar
# on the class path, C# with only the installed .nupkg as package source (offline), Python with
# PYTHONPATH at the installed package. Each consumer checks an MPI result and that the oompi it
# loaded lies under the prefix. The consumers' sources are copied out of the source tree first.
# Usage: install.sh <build-dir> <scratch-dir> <launcher and its flags...>
# Environment (set by the test): MPI_C_COMPILER MPI_CXX_COMPILER CXX (C++: FindMPI's hints and
# the compiler), JAVA JAVAC (empty: no Java), DOTNET DOTNET_TFM (empty: no C#), PYTHON
# PYTHON_SITE (empty: no Python; the site directory relative to the prefix).
set -euo pipefail
build=$1 scratch=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
prefix=$scratch/prefix
rm -rf "$scratch"
mkdir -p "$scratch/src"
cp "$here/CMakeLists.txt" "$here/consumer.cpp" "$here/Consumer.java" "$here/Consumer.cs" \
   "$here/consumer.py" "$scratch/src/"
cmake --install "$build" --prefix "$prefix" >/dev/null
unset CLASSPATH PYTHONPATH CMAKE_PREFIX_PATH PKG_CONFIG_PATH
cd "$scratch"

echo "== C++, find_package(oompi)"
mpi=(-DMPI_C_COMPILER="$MPI_C_COMPILER" -DMPI_CXX_COMPILER="$MPI_CXX_COMPILER")
cmake -S src -B cpp -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$CXX" "${mpi[@]}" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >/dev/null
grep -qx "oompi_DIR:PATH=$prefix/lib/cmake/oompi" cpp/CMakeCache.txt \
  || { grep oompi_DIR cpp/CMakeCache.txt; echo "oompi found outside the prefix"; exit 1; }
cmake --build cpp >/dev/null
"$@" cpp/consumer

echo "== C++, pkg-config oompi"
flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs oompi)
echo "pkg-config --cflags --libs oompi: $flags"
# Plain compiler, no MPI wrapper: the flags must carry MPI's.
"$CXX" -std=c++17 -O1 src/consumer.cpp $flags -o consumer-pc
"$@" ./consumer-pc

if [ -n "${JAVA:-}" ]; then
  echo "== Java, -cp oompi.jar"
  jar=$prefix/share/java/oompi.jar
  "$JAVAC" -d java -cp "$jar" src/Consumer.java
  "$@" "$JAVA" -cp "$jar:java" Consumer "$prefix"
fi

if [ -n "${DOTNET:-}" ]; then
  echo "== C#, PackageReference Oompi from the installed nupkg"
  mkdir -p csharp
  cat > csharp/Consumer.csproj <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>$DOTNET_TFM</TargetFramework>
    <EnableDefaultCompileItems>false</EnableDefaultCompileItems>
  </PropertyGroup>
  <ItemGroup>
    <Compile Include="../src/Consumer.cs" />
    <PackageReference Include="Oompi" Version="*" />
  </ItemGroup>
</Project>
XML
  cat > csharp/NuGet.config <<XML
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="oompi" value="$prefix/share/oompi/nuget" />
  </packageSources>
</configuration>
XML
  export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 TERM=dumb
  export NUGET_PACKAGES=$scratch/nuget-packages  # not the user's cache: a stale Oompi may be there
  dotnet_flags=(--nologo -v:q --disable-build-servers -nodeReuse:false -p:UseSharedCompilation=false)
  "$DOTNET" restore csharp/Consumer.csproj --configfile csharp/NuGet.config "${dotnet_flags[@]}"
  "$DOTNET" build csharp/Consumer.csproj --no-restore -c Release -o csharp/out "${dotnet_flags[@]}" \
    >/dev/null
  "$@" "$DOTNET" csharp/out/Consumer.dll "$scratch"
fi

if [ -n "${PYTHON:-}" ]; then
  echo "== Python, PYTHONPATH=<prefix>/$PYTHON_SITE"
  PYTHONPATH="$prefix/$PYTHON_SITE" PYTHONDONTWRITEBYTECODE=1 "$@" "$PYTHON" src/consumer.py "$prefix"
fi
