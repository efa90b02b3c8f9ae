#!/usr/bin/env bash
# Installs through apt what a fresh Debian machine lacks for one job, and nothing more:
#
#   Scripts/setup-system.sh cli     the command line (Scripts/geonews): zlib's headers (the packs
#                                   are inflated with zlib) and the development links of libcurl
#                                   and libxml2 (geonews-news, the headlines, links the Swift
#                                   runtime statically, with Foundation's networking and XML)
#   Scripts/setup-system.sh serve   the server (Scripts/geonews serve): the above, SQLite's
#                                   headers (libsqlite3-dev, its state database) and Leaflet
#                                   (libjs-leaflet, served under /vendor/ to the web map)
#   Scripts/setup-system.sh data    the data build (Scripts/ensure-areas --rebuild): the command
#                                   line's, GEOS's C library and headers (libgeos-dev, found
#                                   through pkg-config) and python3 with venv for the data scripts
#   Scripts/setup-system.sh [test]  everything the tests use (Scripts/test, Scripts/package-deb):
#                                   all of the above, headless Chromium with its WebDriver and a
#                                   colour emoji font (the web map's browser tests; the markers'
#                                   flags), PostgreSQL 15's server binaries (postgresql-15, the
#                                   PostgreSQL store's tests; openssl makes their test CA) and nginx (nginx-light, in front of
#                                   two instances in the kill test)
#
# Safe to run again: it installs only what is missing. Needs root (or sudo) the first time.
set -euo pipefail
job="${1:-test}"
case "$job" in cli | serve | data | test) ;; *) echo "usage: Scripts/setup-system.sh [cli|serve|data|test]" >&2; exit 64 ;; esac

missing=()
# The command line: every job builds it.
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
pkg-config --exists libcurl 2>/dev/null || [ -f /usr/include/x86_64-linux-gnu/curl/curl.h ] || [ -f /usr/include/curl/curl.h ] \
  || missing+=(libcurl4-openssl-dev)
pkg-config --exists libxml-2.0 2>/dev/null || [ -f /usr/include/libxml2/libxml/parser.h ] || missing+=(libxml2-dev)
if [ "$job" = serve ] || [ "$job" = test ]; then
  pkg-config --exists sqlite3 2>/dev/null || [ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
  [ -f /usr/share/javascript/leaflet/leaflet.js ] || missing+=(libjs-leaflet)
fi
if [ "$job" = data ] || [ "$job" = test ]; then
  pkg-config --exists geos 2>/dev/null || missing+=(libgeos-dev pkg-config)
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  python3 -c 'import ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
fi
if [ "$job" = test ]; then
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
  [ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || missing+=(fonts-noto-color-emoji)
  [ -x /usr/lib/postgresql/15/bin/initdb ] || missing+=(postgresql-15)
  command -v openssl >/dev/null 2>&1 || missing+=(openssl)
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup: need root to install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "setup ($job): installing ${missing[*]}" >&2
$sudo apt-get update -qq
if [[ " ${missing[*]} " == *" postgresql-15 "* ]]; then
  # The tests start their own server in a temporary directory; no system-wide cluster (which
  # the package would otherwise create and try to start, without systemd too).
  $sudo mkdir -p /etc/postgresql-common/createcluster.d
  echo "create_main_cluster = false" | $sudo tee /etc/postgresql-common/createcluster.d/geonews.conf >/dev/null
fi
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
