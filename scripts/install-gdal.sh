#!/usr/bin/env bash
# Installs Debian's gdal-bin: ogrinfo and ogr2ogr are the OGC API - Features client of the GIS tests
# (test/ogc/gdal-client.test.ts), which skip without them.
# Idempotent: installs only when ogrinfo is missing. Run as root (CI runs as root).
set -euo pipefail

if command -v ogrinfo >/dev/null 2>&1 && command -v ogr2ogr >/dev/null 2>&1; then
  echo "gdal-bin already installed: $(ogrinfo --version)"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-gdal.sh: must run as root to apt-get install gdal-bin" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends gdal-bin >/dev/null
echo "installed gdal-bin: $(ogrinfo --version)"
