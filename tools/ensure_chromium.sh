#!/usr/bin/env bash
# Browser tests and the benchmark drive Debian's Chromium (a test tool's own browser download
# cannot work without the internet). Install it once if missing.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
exec "$(dirname "$0")/ensure_deb.sh" /usr/bin/chromium chromium fonts-dejavu-core
