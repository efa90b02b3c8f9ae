#!/usr/bin/env bash
# The Debian package as an operator meets it: build it (Scripts/package-deb, lintian errors
# fail), install it with dpkg -i, resolve Paris with /usr/bin/geonews from outside the
# checkout, check the unit with systemd-analyze verify, run the unit's ExecStart line with the
# unit's environment as an unprivileged user and ask it /healthz, then dpkg -r.
# Needs root (dpkg). Prints "package: N passed, M failed" last.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
# shellcheck source=../../Tests/checks.sh
source "$root/Tests/checks.sh" package

deb="$(Scripts/package-deb | tail -n 1)"
check "Scripts/package-deb builds a package lintian finds no error in" test -f "$deb"
[ -f "$deb" ] || finish
dpkg -r geonews >/dev/null 2>&1 || true
check "dpkg -i installs it" dpkg -i "$deb"
# postinst drops the indexes from the page cache: a lookup's fault would map the cached pages
# around it, and a batch would hold most of both files resident.
leaves_indexes_uncached() {
  python3 Scripts/page_cache.py --below 1 /usr/share/geonews/Data/area-index.bin /usr/share/geonews/Data/land-index.bin \
    | sed 's/^/      /'
  return "${PIPESTATUS[0]}"
}
check "postinst leaves the area and land indexes out of the page cache" leaves_indexes_uncached

elsewhere="$(mktemp -d)"
chmod 0755 "$elsewhere"  # nobody runs the server below it
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null
  rm -rf "$elsewhere"
}
trap cleanup EXIT
resolves_paris() {
  local out
  out="$(cd "$elsewhere" && env -u GEONEWS_DATA -u GEONEWS_BUILD_DATA /usr/bin/geonews --lat 48.8566 --lon 2.3522 --no-headlines)" || return 1
  echo "$out" | sed 's/^/      /'
  grep -q '^Country    France (FR, FRA)' <<<"$out" && grep -q 'Europe/Paris' <<<"$out"
}
check "/usr/bin/geonews resolves Paris from /usr/share/geonews, outside the checkout" resolves_paris
finds_bavaria() {
  local out
  out="$(cd "$elsewhere" && env -u GEONEWS_DATA -u GEONEWS_BUILD_DATA /usr/bin/geonews regions --country de --search Bayern)" || return 1
  echo "      regions --country de --search Bayern: $out"
  [ "$out" = "DE-BY   DE.02        Bavaria" ]
}
check "/usr/bin/geonews regions finds Bavaria by its German name in the packaged regions.json" finds_bavaria
# GEOS is needed to build the data, never to answer: no installed binary may load it.
links_no_geos() {
  local bin found=0
  for bin in /usr/lib/geonews/geonews /usr/lib/geonews/geonews-news /usr/lib/geonews/geonews-serve; do
    if ldd "$bin" | grep -i geos || readelf -d "$bin" | grep NEEDED | grep -i geos; then
      echo "      $bin links GEOS"
      found=1
    fi
  done
  [ "$found" -eq 0 ]
}
check "no binary of the package links libgeos (ldd, readelf -d NEEDED)" links_no_geos
version="$(sed -nE 's/.*static let version = "([^"]+)".*/\1/p' Sources/GeoNewsVersion/GeoNewsRelease.swift)"
check "geonews-serve --version prints $version" test "$(/usr/bin/geonews-serve --version)" = "$version"
check "man geonews-serve is installed" test -f /usr/share/man/man1/geonews-serve.1.gz
check "bash completion is installed" test -s /usr/share/bash-completion/completions/geonews

unit=/lib/systemd/system/geonews-serve.service
verify_unit() {
  local out
  out="$(systemd-analyze verify "$unit" 2>&1)"
  [ -n "$out" ] && echo "$out" | sed 's/^/      /'
  ! grep -i 'geonews-serve.service' <<<"$out" | grep -qiv 'Failed to put bus name\|Failed to connect\|bus'
}
if command -v systemd-analyze >/dev/null; then
  check "systemd-analyze verify finds nothing wrong in the unit" verify_unit
fi

# The unit's ExecStart, its variables taken from its Environment= lines and
# /etc/default/geonews, and the state and cache folders as systemd makes them; run as nobody, as
# DynamicUser runs it as a user of no privilege.
serves_health() {
  local state="$elsewhere/state" line port answer
  install -d -o nobody -m 0700 "$state" "$elsewhere/cache"
  (
    set -a
    eval "$(sed -n 's/^Environment=//p' "$unit" | tr ' ' '\n')"
    # shellcheck disable=SC1091
    . /etc/default/geonews
    GEONEWS_PORT=0
    STATE_DIRECTORY="$state"
    GEONEWS_CACHE_DIR="$elsewhere/cache"  # systemd makes CacheDirectory= as it makes the state's
    set +a
    command="$(sed -n 's/^ExecStart=//p' "$unit")"
    command="$(eval "echo $command")"
    cd "$state" && exec setpriv --reuid=nobody --regid=nogroup --clear-groups -- $command
  ) > "$elsewhere/serve.out" 2> "$elsewhere/serve.err" &
  server_pid=$!
  for _ in $(seq 1 100); do
    line="$(grep -m1 'listening on' "$elsewhere/serve.out" 2>/dev/null)" && break
    sleep 0.1
  done
  port="$(sed -nE 's/.*:([0-9]+)$/\1/p' <<<"$line")"
  [ -n "$port" ] || { cat "$elsewhere/serve.err"; return 1; }
  answer="$(curl -s "http://127.0.0.1:$port/healthz")"
  echo "      /healthz: $answer"
  kill -TERM "$server_pid"
  wait "$server_pid"
  local status=$?
  server_pid=""
  grep -q "\"version\":\"$version\"" <<<"$answer" && [ "$status" -eq 0 ]
}
check "the unit's ExecStart serves /healthz as an unprivileged user and stops on SIGTERM" serves_health

check "dpkg -r removes it" dpkg -r geonews
check "nothing of it is left in /usr/bin" test ! -e /usr/bin/geonews
finish
