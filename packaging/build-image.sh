#!/usr/bin/env bash
# Builds Hikyaku's OCI image without a Docker daemon or a registry, from Debian packages only:
#   1. a small Debian root file system (mmdebstrap --variant=essential, plus libstdc++6 and zlib1g
#      for RocksDB's JNI library), pruned to what runs (packaging/prune-rootfs.sh), with user hikyaku
#      (uid 10001) and /data owned by it;
#   2. a jlink'd Java runtime with only the modules the server needs, native libraries stripped;
#   3. the server jar without RocksDB's native libraries (it carries five architectures) or other
#      platforms' Netty libraries, and this architecture's RocksDB library, stripped, on java.library.path;
#   4. LocalStack's entry point (/usr/local/bin/docker-entrypoint.sh, packaging/localstack-entrypoint.sh), so
#      Testcontainers' LocalStackContainer starts the image with --localstack-parity;
#   5. buildah assembles both into one layer and commits in Docker format (only it carries HEALTHCHECK);
#      skopeo writes a docker-archive tagged hikyaku:<version> and hikyaku:latest.
# Usage: packaging/build-image.sh [--jar FILE] [--output FILE]   (default target/hikyaku-image.tar)
# Needs root, mmdebstrap, buildah, skopeo, a JDK 17 (jdeps, jlink) and a reachable Debian mirror
# (HIKYAKU_IMAGE_MIRROR, default the first Debian archive in this machine's apt sources). The root file system and the runtime are
# cached under ${XDG_CACHE_HOME:-~/.cache}/hikyaku/image, keyed by their inputs, so a rebuild only redoes
# the app layer.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/server/target/hikyaku.jar"
OUTPUT=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --jar) JAR="$2"; shift 2 ;;
    --output) OUTPUT="$2"; shift 2 ;;
    *) echo "build-image: unknown argument $1 (usage: [--jar FILE] [--output FILE])" >&2; exit 2 ;;
  esac
done

log() { echo "build-image: $*" >&2; }
for tool in mmdebstrap buildah skopeo jdeps jlink unzip zip sha256sum strip python3; do
  command -v "$tool" >/dev/null || { log "$tool is needed (apt-get install mmdebstrap buildah skopeo zip unzip binutils python3 openjdk-17-jdk-headless)"; exit 1; }
done
[[ "$(id -u)" = 0 ]] || { log "run as root (mmdebstrap and buildah need it here)"; exit 1; }
if [[ ! -f "$JAR" ]]; then
  log "building $JAR ..."
  (cd "$ROOT" && mvn -B -q -DskipTests -pl server -am package) >&2
fi

START=$(date +%s)
VERSION="$(unzip -p "$JAR" io/hikyaku/server/version.properties | sed -n 's/^version=//p')"
[[ -n "$VERSION" ]] || { log "no version in $JAR"; exit 1; }
ARCH="$(dpkg --print-architecture)"
case "$ARCH" in
  amd64) ROCKS_LIB=librocksdbjni-linux64.so NETTY_ARCH=x86_64 ;;
  arm64) ROCKS_LIB=librocksdbjni-linux-aarch64.so NETTY_ARCH=aarch_64 ;;
  *) log "no RocksDB library known for $ARCH"; exit 1 ;;
esac
SUITE=bookworm
# The Debian mirror: HIKYAKU_IMAGE_MIRROR, else the first Debian archive this machine's apt uses.
apt_mirror() {
  { sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null || true
    sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\).*/\2/p' /etc/apt/sources.list 2>/dev/null || true
  } | tr ' ' '\n' | { grep -E '/debian/?$' || true; } | sed -n 1p
}
MIRROR="${HIKYAKU_IMAGE_MIRROR:-$(apt_mirror)}"
[ -n "$MIRROR" ] || { log "no Debian mirror: set HIKYAKU_IMAGE_MIRROR"; exit 1; }
OUTPUT="${OUTPUT:-$ROOT/target/hikyaku-image.tar}"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/hikyaku/image"
mkdir -p "$CACHE" "$(dirname "$OUTPUT")"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/hikyaku-image.XXXXXX")"
BUILDAH=(buildah --root "$WORK/storage" --runroot "$WORK/run" --storage-driver overlay)
CTR=""
cleanup() {
  [[ -n "$CTR" ]] && "${BUILDAH[@]}" rm "$CTR" >/dev/null 2>&1 || true
  "${BUILDAH[@]}" rmi --all --force >/dev/null 2>&1 || true
  umount -R "$WORK/storage" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# --- 1. the Debian root file system (cached) ---
# Everything that shapes it goes into the cache key, including this function's own text.
rootfs_recipe() {
  cat <<EOF
suite=$SUITE arch=$ARCH mirror=$MIRROR variant=essential include=libstdc++6,zlib1g,usr-is-merged
user=hikyaku:10001 data=/data:0700 recipe=6
EOF
  cat "$ROOT/packaging/prune-rootfs.sh"
}
ROOTFS_KEY="$(rootfs_recipe | sha256sum | cut -c1-16)"
ROOTFS="$CACHE/rootfs-$ROOTFS_KEY.tar"
if [[ -f "$ROOTFS" ]]; then
  log "root file system: cached $ROOTFS"
else
  log "root file system: mmdebstrap $SUITE ($ARCH) ..."
  # Docs, man pages and translations are never installed; the man1 directory must exist anyway
  # for update-alternatives. The customize hooks add the user and /data, drop caches, logs and iconv
  # modules, and purge usrmerge with the full perl it pulls in (~50 MB; usr-is-merged stands in for it).
  # Debian's own python3 and tools (mmdebstrap runs python3 per package; a pyenv shim made that slow).
  PATH=/usr/sbin:/usr/bin:/sbin:/bin mmdebstrap --quiet --variant=essential --architectures="$ARCH" \
    --include=libstdc++6,zlib1g,usr-is-merged \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --setup-hook='mkdir -p "$1/usr/share/man/man1"' \
    --customize-hook='echo "hikyaku:x:10001:10001:Hikyaku:/data:/usr/bin/false" >> "$1/etc/passwd"' \
    --customize-hook='echo "hikyaku:x:10001:" >> "$1/etc/group"' \
    --customize-hook='echo "hikyaku:!:20000::::::" >> "$1/etc/shadow"' \
    --customize-hook='mkdir -p "$1/data" && chown 10001:10001 "$1/data" && chmod 0700 "$1/data"' \
    --customize-hook='rm -rf "$1"/var/cache/* "$1"/var/lib/apt/lists/* "$1"/var/log/* "$1"/usr/share/man/*' \
    --customize-hook='rm -rf "$1"/usr/lib/*-linux-gnu/gconv' \
    --customize-hook='chroot "$1" dpkg --purge usrmerge libfile-find-rule-perl libnumber-compare-perl libtext-glob-perl perl perl-modules-5.36 libperl5.36 libgdbm-compat4 libgdbm6 >/dev/null' \
    --customize-hook="\"$ROOT/packaging/prune-rootfs.sh\" \"\$1\"" \
    "$SUITE" "$WORK/rootfs.tar" "$MIRROR"
  mv "$WORK/rootfs.tar" "$ROOTFS.tmp" && mv "$ROOTFS.tmp" "$ROOTFS"
  # older recipes' root file systems are never used again
  find "$CACHE" -maxdepth 1 -name 'rootfs-*.tar' ! -name "rootfs-$ROOTFS_KEY.tar" -delete
fi

# --- 2. the jlink'd runtime (cached) ---
# jdeps finds what the classes use; jdk.crypto.ec (the ECDHE key exchange the TLS listener allows)
# and jdk.zipfs are loaded as services, so jdeps cannot see them. java.desktop (~10 MB: AWT, fonts) is left
# out: only java.beans is referred to, by SnakeYAML's bean introspection and Jackson's @ConstructorProperties
# support, both optional (Hikyaku reads YAML into maps, and Jackson checks for java.beans before using it).
MODULES="$(jdeps --ignore-missing-deps --print-module-deps --multi-release 17 -q "$JAR" | tr ',' '\n' | grep -vx java.desktop | paste -sd,),jdk.crypto.ec,jdk.zipfs"
JAVA_ID="$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')"
JRE_KEY="$(printf 'recipe=3 %s %s %s\n' "$MODULES" "$JAVA_ID" "$ARCH" | sha256sum | cut -c1-16)"
JRE="$CACHE/jre-$JRE_KEY"
if [[ -d "$JRE" ]]; then
  log "runtime: cached $JRE"
else
  log "runtime: jlink $MODULES ..."
  rm -rf "$JRE.tmp"
  # No CDS archive (--generate-cds-archive, 12 MB): it holds only JDK classes; the server's start is mostly its
  # own classes and RocksDB (docs/benchmarks.md, "Container image").
  jlink --add-modules "$MODULES" --strip-debug --no-header-files --no-man-pages --compress=2 --output "$JRE.tmp"
  # Debian's libjvm.so keeps its symbol tables (~3 MB); the dynamic symbols the JVM needs stay.
  find "$JRE.tmp" -name '*.so' -exec strip --strip-unneeded {} +
  # Debian's JDK links cacerts to /etc/ssl/certs/java/cacerts; keep a real file (push delivery to
  # https endpoints verifies certificates with it).
  if [[ -L "$JRE.tmp/lib/security/cacerts" ]]; then
    cp --remove-destination "$(readlink -f "$JRE.tmp/lib/security/cacerts")" "$JRE.tmp/lib/security/cacerts"
  fi
  mv "$JRE.tmp" "$JRE"
  find "$CACHE" -maxdepth 1 -name 'jre-*' ! -name "jre-$JRE_KEY" -exec rm -rf {} +
fi

# --- 3. the application directory ---
APP="$WORK/app"
mkdir -p "$APP"
cp -a "$JRE" "$APP/jre"
cp "$JAR" "$APP/hikyaku.jar"
# RocksDB's library for this architecture goes to /opt/hikyaku/lib, on java.library.path, where
# RocksDB's loader finds it first (System.loadLibrary("rocksdbjni-linux64")): nothing is extracted at a
# container's start, and the jar drops all five copies (~64 MB uncompressed).
mkdir -p "$APP/lib"
unzip -q -p "$APP/hikyaku.jar" "$ROCKS_LIB" > "$APP/lib/$ROCKS_LIB"
[[ -s "$APP/lib/$ROCKS_LIB" ]] || { log "$ROCKS_LIB not in $JAR"; exit 1; }
strip --strip-unneeded "$APP/lib/$ROCKS_LIB" # its symbol table (~2 MB); the JNI entry points are dynamic symbols
# Every RocksDB library, and Netty's (Ratis' copy) for macOS and other architectures, leave the jar.
# shellcheck disable=SC2046
zip -q -d "$APP/hikyaku.jar" $(unzip -Z1 "$APP/hikyaku.jar" \
  | grep -E '^librocksdbjni-.*\.(so|jnilib|dll)$|^META-INF/native/.*\.(jnilib|dll|dylib|so)$' \
  | grep -v -E "^META-INF/native/.*_${NETTY_ARCH}\.so$")
# The JVM's options, shared by the image's entry point and LocalStack's (java reads @file as arguments).
cat > "$APP/java.args" <<'ARGS'
-XX:+UseSerialGC -Xms16m -Xmx1g -Xmn12m -Xss512k -XX:MaxMetaspaceSize=96m -XX:ReservedCodeCacheSize=48m
-XX:MaxDirectMemorySize=128m -XX:+ExitOnOutOfMemoryError -Djava.library.path=/opt/hikyaku/lib
-jar /opt/hikyaku/hikyaku.jar
ARGS
mkdir -p "$APP/bin"
cp "$ROOT/packaging/healthcheck.sh" "$APP/bin/healthcheck.sh"
chmod 0755 "$APP/bin/"*.sh
chmod -R a+rX,go-w "$APP"

# --- 4. assemble, commit (Docker format), write the archive ---
log "assembling hikyaku:$VERSION ..."
CTR="$("${BUILDAH[@]}" from --format docker scratch)"
"${BUILDAH[@]}" add "$CTR" "$ROOTFS" / >/dev/null
"${BUILDAH[@]}" add "$CTR" "$APP" /opt/hikyaku >/dev/null
# LocalStackContainer replaces the entry point by a script that ends in this path.
"${BUILDAH[@]}" copy --chmod 0755 "$CTR" "$ROOT/packaging/localstack-entrypoint.sh" /usr/local/bin/docker-entrypoint.sh >/dev/null
# No HIKYAKU_PORT here: with HIKYAKU_LOCALSTACK_PARITY=true the default port is 4566, 9324 otherwise.
"${BUILDAH[@]}" config \
  --user 10001:10001 --workingdir /data \
  --env HIKYAKU_HOST=0.0.0.0 --env HIKYAKU_ALLOW_UNAUTHENTICATED=true \
  --env HIKYAKU_DATA_DIR=/data --env ROCKSDB_MUSL_LIBC=false \
  --env HOME=/data --env PATH=/opt/hikyaku/jre/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --volume /data --port 9324 --port 4566 \
  --entrypoint '["/opt/hikyaku/jre/bin/java","@/opt/hikyaku/java.args"]' \
  --cmd serve \
  --healthcheck "CMD bash /opt/hikyaku/bin/healthcheck.sh" \
  --healthcheck-interval 10s --healthcheck-timeout 3s --healthcheck-start-period 30s --healthcheck-retries 3 \
  --label org.opencontainers.image.title=hikyaku --label org.opencontainers.image.version="$VERSION" \
  --label org.opencontainers.image.description="Self-hostable server speaking the Amazon SQS API" \
  "$CTR"
"${BUILDAH[@]}" commit --quiet --format docker --rm "$CTR" "hikyaku:$VERSION" >/dev/null
CTR=""
rm -f "$OUTPUT"
skopeo copy --quiet "containers-storage:[overlay@$WORK/storage+$WORK/run]localhost/hikyaku:$VERSION" \
  "docker-archive:$OUTPUT:hikyaku:$VERSION" --additional-tag hikyaku:latest
log "wrote $OUTPUT ($(du -m "$OUTPUT" | cut -f1) MB, hikyaku:$VERSION and hikyaku:latest) in $(( $(date +%s) - START )) s"
