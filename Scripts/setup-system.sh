#!/usr/bin/env bash
# Installs what GeoNews needs from Debian that a fresh machine may lack: GEOS's C library
# and headers (libgeos-dev, found through pkg-config), the development links of libcurl and
# libxml2 (Foundation's networking and XML parser, needed to link the Swift runtime
# statically for a fast cold start), SQLite's headers (libsqlite3-dev, for the state database of
# `geonews serve`) and python3 for the data scripts; for the web map, Leaflet (libjs-leaflet,
# served under /vendor/) and zlib's headers (zlib1g-dev, the base layer is served gzipped), and for its browser tests headless Chromium with its WebDriver, a
# colour emoji font (the markers' flags) and python3-venv (selenium from PyPI); PostgreSQL 15's
# server binaries (postgresql-15) for the tests of the PostgreSQL store (Tests/Postgres/start.sh)
# and nginx (nginx-light) in front of two instances for the kill test (Tests/Postgres/failover.sh).
# Safe to run again: it installs only what is missing. Needs root (or sudo) the first time.
set -euo pipefail

missing=()
pkg-config --exists geos 2>/dev/null || missing+=(libgeos-dev pkg-config)
pkg-config --exists libcurl 2>/dev/null || missing+=(libcurl4-openssl-dev)
pkg-config --exists libxml-2.0 2>/dev/null || missing+=(libxml2-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
command -v python3 >/dev/null 2>&1 || missing+=(python3 python3-venv)
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
[ -f /usr/share/javascript/leaflet/leaflet.js ] || missing+=(libjs-leaflet)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || missing+=(fonts-noto-color-emoji)
python3 -c 'import ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
[ -x /usr/lib/postgresql/15/bin/initdb ] || missing+=(postgresql-15)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup: need root to install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "setup: installing ${missing[*]}" >&2
$sudo apt-get update -qq
if [[ " ${missing[*]} " == *" postgresql-15 "* ]]; then
  # The tests start their own server in a temporary directory; no system-wide cluster (which
  # the package would otherwise create and try to start, without systemd too).
  $sudo mkdir -p /etc/postgresql-common/createcluster.d
  echo "create_main_cluster = false" | $sudo tee /etc/postgresql-common/createcluster.d/geonews.conf >/dev/null
fi
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
