#!/bin/bash
# Runs the test and example programs of a checkout of mpidotnet/MPI.NET (the programs that
# shipped with MPI.NET) against oompi's namespace MPI (Oompi.dll), unchanged, at 2 and 4 ranks,
# each with a timeout. Fetches nothing: give it the checkout.
#
#   scripts/run-mpinet-tests.sh <MPI.NET checkout> [build dir (default build)] [program ...]
#
# A program is a directory of Tests/ or Examples/ holding <directory name>.cs; its other
# top-level .cs files are compiled with it (not Properties/), and TestCommons/*.cs (MPIDebug)
# when it uses MPI.TestCommons. All are built in one MSBuild run, in Debug (Debug.Assert active,
# as MPI.NET's own runs), each into <its directory>/bin/Debug/ of a copy of the tree, where it
# runs (Visual Studio's layout: SpawnTest starts ..\..\SpawnChild\bin\Debug\SpawnChild.exe).
# A program inside another's directory (SpawnTest/SpawnChild) is built, not run on its own.
# A run passes when every rank exits 0 and no assertion failed. MPIRUN overrides the launcher (e.g. "mpiexec.mpich" with a build of
# MPICH); NPS the rank counts ("2 4").
set -u
src=${1:?usage: $0 <MPI.NET checkout> [build dir] [program ...]}
src=$(cd "$src" && pwd)
build=${2:-build}
shift $(( $# >= 2 ? 2 : 1 ))
csdir=$(cd "$build/csharp" 2>/dev/null && pwd)
[ -n "$csdir" ] && [ -f "$csdir/Oompi.dll" ] || { echo "no $build/csharp/Oompi.dll: build target oompi_csharp_assembly first" >&2; exit 2; }
mpirun=${MPIRUN:-mpirun --oversubscribe}
nps=${NPS:-2 4}
work=$(mktemp -d /tmp/mpinet-tests.XXXXXX)
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1} OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 TERM=dumb

if [ $# -gt 0 ]; then names=("$@"); else
  mapfile -t names < <(find "$src/Tests" "$src/Examples" -name '*.cs' ! -path '*/Properties/*' 2>/dev/null |
                       while read -r f; do d=$(dirname "$f"); [ "$(basename "$d").cs" = "$(basename "$f")" ] && basename "$d"; done | sort -u)
fi
programs=(); declare -A outs
for name in "${names[@]}"; do
  dir=$(find "$src/Tests" "$src/Examples" -type d -name "$name" 2>/dev/null | head -1)
  [ -n "$dir" ] && [ -f "$dir/$name.cs" ] || { echo "no program $name in $src" >&2; continue; }
  rel=${dir#"$src"/}; out="$work/tree/$rel/bin/Debug"
  p="$work/$name"; mkdir -p "$p"
  commons=""
  grep -q 'MPI\.TestCommons' "$dir"/*.cs && commons="<Compile Include=\"$src/TestCommons/*.cs\" />"
  cat > "$p/$name.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net10.0</TargetFramework>
    <AllowUnsafeBlocks>true</AllowUnsafeBlocks>
    <Nullable>disable</Nullable>
    <ImplicitUsings>disable</ImplicitUsings>
    <EnableDefaultCompileItems>false</EnableDefaultCompileItems>
    <NoWarn>\$(NoWarn);CS0168;CS0219;CS0618;CS0649;CS0660;CS0661;CS8981;SYSLIB0050</NoWarn>
    <OutputPath>$out/</OutputPath>
    <AppendTargetFrameworkToOutputPath>false</AppendTargetFrameworkToOutputPath>
  </PropertyGroup>
  <ItemGroup>
    <Compile Include="$dir/*.cs" />
    $commons
    <Reference Include="Oompi"><HintPath>$csdir/Oompi.dll</HintPath></Reference>
    <None Include="$csdir/liboompi_csharp.so" CopyToOutputDirectory="PreserveNewest" />
  </ItemGroup>
</Project>
XML
  outs[$name]=$out
  [ -f "$(dirname "$dir")/$(basename "$(dirname "$dir")").cs" ] && continue  # a helper of the program above it
  programs+=("$name")
done
# One MSBuild run for all (a restore pass, then the builds: much cheaper than one dotnet per program).
cat > "$work/all.proj" <<'XML'
<Project>
  <ItemGroup><Program Include="*/*.csproj" /></ItemGroup>
  <Target Name="Build">
    <MSBuild Projects="@(Program)" Targets="Restore" Properties="Configuration=Debug;RestorePass=1" />
    <MSBuild Projects="@(Program)" Targets="Build" Properties="Configuration=Debug" ContinueOnError="true" />
  </Target>
</Project>
XML
(cd "$work" && timeout 1200 dotnet msbuild all.proj -nologo -v:m -nodeReuse:false -p:UseSharedCompilation=false > build.log 2>&1)

pass=0; fail=0; runs=0
for name in "${programs[@]}"; do
  dll="${outs[$name]}/$name.dll"
  if [ ! -f "$dll" ]; then
    echo "COMPILE-FAIL $name: $(grep -m1 "$name.*error" "$work/build.log" | sed 's/.*error/error/')"
    for np in $nps; do fail=$((fail + 1)); runs=$((runs + 1)); done; continue
  fi
  for np in $nps; do
    runs=$((runs + 1)); log="$work/$name/np$np.log"
    (cd "${outs[$name]}" && timeout 180 $mpirun -np "$np" dotnet "$dll" > "$log" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && ! grep -q -E 'Assertion failed|Assert\.Fail|Unhandled exception' "$log"; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL $name np$np (exit $rc): $(grep -m1 -E 'Exception|Assert|must be run|ERROR' "$log")"; fi
  done
done
echo "passed $pass of $runs runs ($fail failed; logs in $work)"
[ $fail -eq 0 ]
