#!/usr/bin/env bash
# packaging.nuget: what a C# user does with the Oompi package, offline: `dotnet new console`
# (the SDK's own template), a NuGet.config whose only source is the folder holding
# Oompi.<version>.nupkg, `dotnet add package Oompi` (restores from there), the template's
# Program.cs replaced by Consumer.cs, `dotnet build`, and a 2-rank job of the result. The
# consumer checks that its native library came out of the package (under the scratch directory,
# where NUGET_PACKAGES points: not the user's cache, where a stale Oompi may be).
# Usage: nuget.sh <folder with the .nupkg> <source-dir of Consumer.cs> <scratch-dir>
#                 <launcher and its flags...>
# Environment: DOTNET (the dotnet executable).
set -euo pipefail
feed=$1 src=$2 scratch=$3
shift 3
rm -rf "$scratch"
mkdir -p "$scratch"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 TERM=dumb
export NUGET_PACKAGES=$scratch/nuget-packages
flags=(--disable-build-servers -nodeReuse:false -p:UseSharedCompilation=false)
cd "$scratch"
"$DOTNET" new console -o app --no-restore
cat >app/NuGet.config <<XML
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="oompi" value="$feed" />
  </packageSources>
</configuration>
XML
cp "$src/Consumer.cs" app/Program.cs
cd app
"$DOTNET" add package Oompi
grep -o '<PackageReference Include="Oompi"[^>]*>' app.csproj
"$DOTNET" build -c Release -o out -v:q "${flags[@]}" >build.log || { cat build.log; exit 1; }
"$@" "$DOTNET" out/app.dll "$scratch"
echo "packaging.nuget: ok"
