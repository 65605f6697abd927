#!/usr/bin/env bash
# packaging.jar: oompi.jar alone, copied into an empty directory (no liboompi_java.so beside it,
# none installed, no java.library.path): Consumer.java compiled against it and run on 2 ranks
# must load the native library from inside the jar (extracted, verified, deleted once loaded),
# and leave no extracted file behind; with a liboompi_java.so beside the jar, that one is loaded
# instead. Then the bad input: the same jar with its recorded
# checksum altered must fail with NativeLoader's message, not load a library it cannot vouch for.
# Usage: jar.sh <oompi.jar> <source-dir of Consumer.java> <scratch-dir> <launcher and its flags...>
# Environment: JAVA JAVAC JAR (the JDK's tools).
set -euo pipefail
jar=$1 src=$2 scratch=$3
shift 3
rm -rf "$scratch"
mkdir -p "$scratch/app" "$scratch/tmp" "$scratch/bad"
cp "$jar" "$src/Consumer.java" "$scratch/app/"
unset CLASSPATH LD_LIBRARY_PATH
cd "$scratch/app"
"$JAVAC" -cp oompi.jar Consumer.java
# oompi.tmpdir: the extraction directory, watched here to be left empty.
"$@" "$JAVA" -Doompi.tmpdir="$scratch/tmp" -cp oompi.jar:. Consumer jar
left=$(ls -A "$scratch/tmp")
[[ -z $left ]] || { echo "extracted files left behind: $left"; exit 1; }

echo "== the jar with a liboompi_java.so beside it: that one wins over the jar's copy"
mkdir -p "$scratch/beside"
cp oompi.jar Consumer.class "$(dirname "$jar")/liboompi_java.so" "$scratch/beside/"
(cd "$scratch/beside" && "$@" "$JAVA" -Doompi.tmpdir="$scratch/tmp" -cp oompi.jar:. Consumer .)

echo "== a jar whose checksum does not match its library"
entry=$("$JAR" tf oompi.jar | grep '/liboompi_java\.so\.sha256$')
cp oompi.jar Consumer.class "$scratch/bad/"
mkdir -p "$scratch/bad/stage/$(dirname "$entry")"
echo "0000000000000000000000000000000000000000000000000000000000000000 1" \
  >"$scratch/bad/stage/$entry"
(cd "$scratch/bad" && "$JAR" uf oompi.jar -C stage "$entry")
cd "$scratch/bad"
if "$@" "$JAVA" -Doompi.tmpdir="$scratch/tmp" -cp oompi.jar:. Consumer jar >out.txt 2>&1; then
  cat out.txt; echo "a jar with a wrong checksum loaded its library"; exit 1
fi
grep -q "the jar recorded 0000" out.txt || { cat out.txt; echo "no checksum message"; exit 1; }
grep -m1 "the jar recorded" out.txt
left=$(ls -A "$scratch/tmp")
[[ -z $left ]] || { echo "extracted files left behind: $left"; exit 1; }
echo "packaging.jar: ok"
