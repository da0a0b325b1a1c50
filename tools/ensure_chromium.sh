#!/usr/bin/env bash
# Browser tests and the benchmark drive Debian's Chromium (a test tool's own browser download
# cannot work without the internet). Install it once if missing; needs root, as on these machines.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  exit 0
fi
echo "Chromium fehlt – installiere Debians Paket chromium …"
if [ "$(id -u)" != 0 ]; then
  echo "Bitte als root ausführen oder: sudo apt-get install -y chromium" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
