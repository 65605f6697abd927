#!/usr/bin/env bash
# packaging.maven: `cmake --install` of this build into a scratch prefix, then a Maven project
# outside the tree (tests/packaging/pom.xml, Consumer.java) that depends on org.oompi:oompi,
# built offline (mvn -o) with a local repository made of Debian's /usr/share/maven-repo (its
# plugins) and the prefix's share/maven-repo (oompi); Maven resolves oompi there, compiles, and
# runs the consumer on 2 ranks through exec:exec with the class path it resolved. The consumer
# checks that the JNI library it loaded is the installed one (the Maven jar links to
# share/java/oompi.jar, whose installed library wins over the jar's own copy).
# Usage: maven.sh <build-dir> <source-dir of the consumer> <scratch-dir> <launcher and flags...>
# Environment: JAVA (the JDK's java). Exit 77 (skipped) without Maven or its plugins.
set -euo pipefail
build=$1 src=$2 scratch=$3
shift 3
skip() { echo "packaging.maven: SKIPPED: $*"; exit 77; }
command -v mvn >/dev/null || skip "no mvn (apt-get install maven; scripts/setup.sh does)"
debian_repo=/usr/share/maven-repo
for p in org/apache/maven/plugins/maven-compiler-plugin org/apache/maven/plugins/maven-resources-plugin \
         org/codehaus/mojo/exec-maven-plugin/3.1.0; do
  [[ -d $debian_repo/$p ]] || skip "no $debian_repo/$p (scripts/setup.sh installs the plugin packages)"
done
rm -rf "$scratch"
mkdir -p "$scratch/app/src/main/java"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" --component java >/dev/null
version=$(ls "$prefix/share/maven-repo/org/oompi/oompi")
ls -l "$prefix/share/maven-repo/org/oompi/oompi/$version"
# The local repository: links to Debian's, with the prefix's merged in (Maven 3.8 takes one).
cp -rs "$debian_repo/." "$scratch/m2/"
cp -rs "$prefix/share/maven-repo/." "$scratch/m2/"
sed "s/@OOMPI_VERSION@/$version/" "$src/pom.xml" >"$scratch/app/pom.xml"
cp "$src/Consumer.java" "$scratch/app/src/main/java/"
unset CLASSPATH LD_LIBRARY_PATH
export JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$JAVA")")")}
cd "$scratch/app"
launcher=$1
shift
mvn -o -B -q -Dmaven.repo.local="$scratch/m2" compile exec:exec \
  -Dexec.executable="$launcher" -Dexec.args="$* $JAVA -cp %classpath Consumer $prefix"
echo "packaging.maven: ok"
