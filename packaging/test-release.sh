#!/usr/bin/env bash
# Tests ./hikyaku release (packaging/release.sh) on a throw-away clone of this checkout's HEAD, tagged
# v0.0.0-citest: the release version replaces -SNAPSHOT, --version names the tagged commit, each platform jar
# carries only its platform's natives, SHA256SUMS verifies, this platform's jar serves; an untagged or dirty
# HEAD and a SNAPSHOT tag are refused. ~1 min (one server build).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { echo "test-release: $*" >&2; }
fail() { log "FAIL: $*"; exit 1; }
T="$(mktemp -d "${TMPDIR:-/tmp}/hikyaku-test-release.XXXXXX")"
PID=""
cleanup() { [[ -z "$PID" ]] || kill "$PID" 2>/dev/null || true; rm -rf "$T"; }
trap cleanup EXIT

git clone -q --no-local "$ROOT" "$T/src"
# the working tree's release scripts, so a change to them is tested before it is committed
cp "$ROOT/packaging/release.sh" "$T/src/packaging/release.sh"
cp "$ROOT/hikyaku" "$T/src/hikyaku"
cd "$T/src"
git -c user.name=ci -c user.email=ci@localhost commit -q -am "release scripts under test" --allow-empty

# refusals
out="$(./hikyaku release --out "$T/out" 2>&1)" && fail "an untagged HEAD was released"
grep -q "HEAD has no tag" <<<"$out" || fail "untagged HEAD: $out"
git tag v0.0.0-SNAPSHOT
out="$(./hikyaku release --tag v0.0.0-SNAPSHOT --out "$T/out" 2>&1)" && fail "a SNAPSHOT tag was released"
grep -q "has no SNAPSHOT" <<<"$out" || fail "SNAPSHOT tag: $out"
git tag -d v0.0.0-SNAPSHOT >/dev/null
git tag v0.0.0-citest
echo dirty >> README.md
out="$(./hikyaku release --out "$T/out" 2>&1)" && fail "a dirty checkout was released"
grep -q "uncommitted changes" <<<"$out" || fail "dirty checkout: $out"
git checkout -q README.md

COMMIT="$(git rev-parse --short=12 HEAD)"
./hikyaku release --out "$T/out" || fail "release failed"
cd "$T/out"
sha256sum --quiet -c SHA256SUMS || fail "SHA256SUMS does not verify"
[[ "$(wc -l < SHA256SUMS)" == 6 ]] || fail "expected 6 jars in SHA256SUMS: $(cat SHA256SUMS)"
for arch in x86_64 aarch64 ppc64le s390x riscv64; do
  natives="$(unzip -Z1 "hikyaku-0.0.0-citest-linux-$arch.jar" | grep -E '\.(so|jnilib|dll|dylib)$' | sort | paste -sd' ')"
  rocks="librocksdbjni-linux-$arch.so"; [[ "$arch" != x86_64 ]] || rocks=librocksdbjni-linux64.so
  [[ " $natives " == *" $rocks "* ]] || fail "linux-$arch jar natives: $natives"
  count="$(wc -w <<<"$natives")"
  case "$arch" in x86_64|aarch64) [[ "$count" == 2 ]] ;; *) [[ "$count" == 1 ]] ;; esac || fail "linux-$arch jar natives: $natives"
done
version="$(java -jar hikyaku-0.0.0-citest.jar --version)"
[[ "$version" == "hikyaku 0.0.0-citest (commit $COMMIT)" ]] || fail "--version: $version (expected commit $COMMIT)"

case "$(uname -m)" in x86_64) arch=x86_64 ;; aarch64) arch=aarch64 ;; *) arch="" ;; esac
if [[ -n "$arch" ]]; then
  java -jar "hikyaku-0.0.0-citest-linux-$arch.jar" serve --storage rocksdb --data-dir "$T/data" --port 0 > "$T/serve.log" 2>&1 &
  PID=$!
  url=""
  for _ in $(seq 1 300); do
    url="$(grep -o 'serving SQS at http://[0-9.:]*' "$T/serve.log" | head -1 | sed 's/serving SQS at //')" || true
    [[ -z "$url" ]] || break
    kill -0 "$PID" 2>/dev/null || fail "the linux-$arch jar did not start: $(cat "$T/serve.log")"
    sleep 0.1
  done
  [[ -n "$url" ]] || fail "no start line: $(cat "$T/serve.log")"
  health="$(curl -sf "$url/health")" || fail "$url/health"
  grep -q '"status":"ok"' <<<"$health" || fail "health: $health"
  grep -q '"version":"0.0.0-citest"' "$T/serve.log" <(curl -sf "$url/") || fail "the server does not report 0.0.0-citest"
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
fi
log "OK: 6 jars, --version names $COMMIT, per-platform natives, linux-${arch:-none} jar served RocksDB storage"
