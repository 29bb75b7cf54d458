#!/usr/bin/env bash
# Shrinks the image's Debian root file system (mmdebstrap --variant=essential) to what the server and the
# image's scripts run: glibc, libstdc++ and zlib (the JVM and RocksDB's JNI library), bash and dash (the
# HEALTHCHECK, LocalStack's entry point, Testcontainers' start script), coreutils, grep and sed. The rest of
# the essential set (dpkg and perl, util-linux, login and PAM, systemd's libraries, compressors, ...) is purged
# with dpkg itself, so /var/lib/dpkg/status still lists exactly the packages whose files the image carries.
# Usage (an mmdebstrap --customize-hook): packaging/prune-rootfs.sh ROOTFS
set -euo pipefail
ROOT="$1"
purge() { chroot "$ROOT" dpkg --purge --force-remove-essential --force-depends "$@" >/dev/null; }
# util-linux-extra's removal script needs util-linux, so it goes first.
purge util-linux-extra
purge util-linux login bsdutils libpam-modules libpam-modules-bin libpam-runtime libpam0g libsystemd0 libudev1 \
  libgcrypt20 libgpg-error0 liblz4-1 libzstd1 liblzma5 libbz2-1.0 libdb5.3 libaudit1 libaudit-common libcap-ng0 \
  libmount1 libblkid1 libsmartcols1 libuuid1 debconf libdebconfclient0 init-system-helpers sysvinit-utils hostname \
  mawk ncurses-bin debianutils usr-is-merged
# dpkg checks at its start that ldconfig, diff, tar, ... exist: these go in one last run.
purge perl-base libc-bin diffutils findutils tar gzip
# dpkg cannot purge itself: its files (and libmd0's, which only it used) are removed by its own lists
# (files and symbolic links to files; directories such as /lib, a link to usr/lib, stay).
for pkg in dpkg libmd0:"$(chroot "$ROOT" dpkg --print-architecture)"; do
  while read -r f; do
    [[ -d "$ROOT$f" ]] || rm -f "$ROOT$f"
  done < "$ROOT/var/lib/dpkg/info/$pkg.list"
  rm -f "$ROOT/var/lib/dpkg/info/$pkg".*
done
python3 - "$ROOT/var/lib/dpkg/status" <<'PY'
import re, sys
path = sys.argv[1]
stanzas = open(path).read().strip().split("\n\n")
kept = [s for s in stanzas if not re.match(r"Package: (dpkg|libmd0)\n", s)]
open(path, "w").write("\n\n".join(kept) + "\n")
PY
rm -rf "$ROOT"/var/lib/dpkg/*-old "$ROOT"/var/cache/* "$ROOT"/var/log/* "$ROOT"/etc/*-
