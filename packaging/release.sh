#!/usr/bin/env bash
# Builds a release from a tag: ./hikyaku release [--out DIR] [--tag vX.Y.Z]
#
# The tag (default: the one on HEAD, which must be clean) is vX.Y.Z or vX.Y.Z-SUFFIX; its version replaces the
# project's -SNAPSHOT version in every pom of a fresh clone of the tagged commit (the source checkout is not
# touched), the server is built there, and DIR (default target/release) receives:
#   hikyaku-<version>.jar                every Linux platform's RocksDB library (~55 MB)
#   hikyaku-<version>-linux-<arch>.jar   one platform's RocksDB library and Netty natives only
#                                        (<arch>: x86_64, aarch64, ppc64le, s390x, riscv64)
#   SHA256SUMS
# `java -jar hikyaku-<version>.jar --version` prints "hikyaku <version> (commit <12 hex of the tag's commit>)".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/target/release"
TAG=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) OUT="$2"; shift 2 ;;
    --tag) TAG="$2"; shift 2 ;;
    *) echo "release: unknown argument $1 (usage: ./hikyaku release [--out DIR] [--tag vX.Y.Z])" >&2; exit 2 ;;
  esac
done
log() { echo "release: $*" >&2; }

cd "$ROOT"
if [[ -z "$TAG" ]]; then
  TAG="$(git describe --exact-match --tags HEAD 2>/dev/null)" \
    || { log "HEAD has no tag: tag the commit to release (git tag v0.2.0) or name one with --tag"; exit 1; }
  [[ -z "$(git status --porcelain --untracked-files=no)" ]] \
    || { log "the checkout has uncommitted changes: a release is built from the tagged commit only, commit or stash them"; exit 1; }
fi
[[ "$TAG" =~ ^v([0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?)$ ]] \
  || { log "tag $TAG is not vMAJOR.MINOR.PATCH[-SUFFIX]"; exit 1; }
VERSION="${BASH_REMATCH[1]}"
[[ "$VERSION" != *SNAPSHOT* ]] || { log "a release version has no SNAPSHOT: $VERSION"; exit 1; }
COMMIT="$(git rev-parse --verify --quiet "$TAG^{commit}")" || { log "no tag $TAG"; exit 1; }
SNAPSHOT="$(git show "$COMMIT:pom.xml" | sed -n '0,/<version>/s:.*<version>\([^<]*\)</version>.*:\1:p')"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/hikyaku-release.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
log "building $VERSION from $TAG (${COMMIT:0:12}) in $WORK"
git clone -q --no-local "$ROOT" "$WORK/src"
git -C "$WORK/src" checkout -q --detach "$COMMIT"
# Every module's own and parent version is the root's; nothing else in a pom spells it.
git -C "$WORK/src" ls-files -z '*pom.xml' | (cd "$WORK/src" && xargs -0 sed -i "s:<version>$SNAPSHOT</version>:<version>$VERSION</version>:g")
(cd "$WORK/src" && mvn -B -q -Dstyle.color=never ${MVN_OPTS_EXTRA:-} -DskipTests -Dhikyaku.commit="${COMMIT:0:12}" \
    -pl server -am package 2>&1 | sed -u 's/\x1b\[[0-9;]*[A-Za-z]//g' >&2)

JAR="$WORK/src/server/target/hikyaku.jar"
mkdir -p "$OUT"
rm -f "$OUT"/hikyaku-"$VERSION"*.jar "$OUT/SHA256SUMS"
cp "$JAR" "$OUT/hikyaku-$VERSION.jar"
NATIVES="$(unzip -Z1 "$JAR" | grep -E '^librocksdbjni-.*\.so$|^META-INF/native/.*\.(so|jnilib|dll|dylib)$')"
# arch: RocksDB's library name, Netty's architecture name (none: Netty falls back to NIO there)
for platform in x86_64:linux64:x86_64 aarch64:linux-aarch64:aarch_64 ppc64le:linux-ppc64le:- s390x:linux-s390x:- riscv64:linux-riscv64:-; do
  IFS=: read -r arch rocks netty <<<"$platform"
  keep="^librocksdbjni-$rocks\.so$"
  [[ "$netty" == - ]] || keep="$keep|^META-INF/native/.*_linux_$netty\.so$|^META-INF/native/.*native_epoll_$netty\.so$"
  target="$OUT/hikyaku-$VERSION-linux-$arch.jar"
  cp "$JAR" "$target"
  drop="$(grep -Ev "$keep" <<<"$NATIVES" || true)"
  # shellcheck disable=SC2086
  [[ -z "$drop" ]] || zip -q -d "$target" $drop >/dev/null
  left="$(unzip -Z1 "$target")"   # (not piped into grep -q: pipefail would see unzip's SIGPIPE)
  grep -qx "librocksdbjni-$rocks.so" <<<"$left" || { log "$target lacks librocksdbjni-$rocks.so"; exit 1; }
done
(cd "$OUT" && sha256sum hikyaku-"$VERSION"*.jar > SHA256SUMS)
ls -l "$OUT" >&2
log "OK: $VERSION in $OUT"
