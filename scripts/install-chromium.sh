#!/usr/bin/env bash
# Installs Debian's chromium, driven headless by playwright-core in the web explorer's end-to-end tests
# (test/web), and a small CJK font so the Chinese UI text renders in screenshots.
# Idempotent: installs only what is missing. Run as root (CI runs as root).
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg-query -W -f='${Status}' fonts-wqy-microhei 2>/dev/null | grep -q 'install ok installed' || missing+=(fonts-wqy-microhei)

if [ ${#missing[@]} -eq 0 ]; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-chromium.sh: must run as root to apt-get install ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
echo "installed ${missing[*]}: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
