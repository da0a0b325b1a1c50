#!/usr/bin/env bash
# tools/ensure_deb.sh FILE PACKAGE…: install Debian's PACKAGEs once if FILE (which they bring) is missing.
# For what the tests need from Debian rather than from a registry of their own: Chromium (a test tool's own
# browser download cannot work without the internet), the German word list. Needs root, as on these machines.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "Aufruf: tools/ensure_deb.sh DATEI PAKET…" >&2
  exit 2
fi
file=$1
shift
if [ -e "$file" ]; then
  exit 0
fi
echo "$file fehlt – installiere Debians Paket(e) $* …"
if [ "$(id -u)" != 0 ]; then
  echo "Bitte als root ausführen oder: sudo apt-get install -y $*" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "$@" >/dev/null
