#!/usr/bin/env bash
# Checks that hikyaku-embedded works in a project whose AWS SDK v2 brings Netty 4.1 (see pom.xml):
# the shaded jar, its promoted dependencies and the user's SDK classpath, in one JVM.
# Usage: embedded/src/it/sdk-netty41/run.sh  (after `mvn -pl embedded -am package -DskipTests`)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../../.." && pwd)"
OUT="$ROOT/embedded/target/it-sdk-netty41"
mkdir -p "$OUT"
JAR="$(ls "$ROOT"/embedded/target/hikyaku-embedded-*.jar | grep -v original | head -1)"
# shellcheck disable=SC2086
(cd "$ROOT" && mvn -B -q ${MVN_OPTS_EXTRA:-} -pl embedded dependency:build-classpath -Dmdep.includeScope=runtime \
    -Dmdep.excludeGroupIds=io.hikyaku,io.netty -Dmdep.outputFile="$OUT/embedded.cp")
# shellcheck disable=SC2086
(cd "$HERE" && mvn -B -q ${MVN_OPTS_EXTRA:-} dependency:build-classpath -Dmdep.outputFile="$OUT/user.cp")
grep -q "netty-codec-http-4\.1\." "$OUT/user.cp" || { echo "FAIL: the user's project did not resolve Netty 4.1" >&2; exit 1; }
CP="$JAR:$(cat "$OUT/embedded.cp"):$(cat "$OUT/user.cp")"
javac -d "$OUT/classes" -cp "$CP" "$HERE/Netty41Check.java"
java -cp "$OUT/classes:$CP" Netty41Check
