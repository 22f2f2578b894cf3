#!/usr/bin/env bash
# Installs Debian 12's Google Filament (1.9.25: libfilament-dev, and libfilament-tools for matc)
# for bench/peer_filament (bench/README.md, "peer_filament"), and Xvfb: Debian builds Filament's
# Linux GL platform on GLX, which needs an X display even for a headless swap chain. Idempotent;
# run as root. Not part of scripts/bootstrap.sh: nothing else in hilo3d needs Filament.
set -euo pipefail

pkgs=(libfilament-dev libfilament-tools xvfb xauth)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || { echo "install-filament: must run as root to install: ${missing[*]}" >&2; exit 1; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null \
    || { echo "install-filament: could not install: ${missing[*]}" >&2; exit 1; }
fi
for f in /usr/include/filament-1.9/filament/Engine.h /usr/bin/matc /usr/bin/xvfb-run; do
  [ -e "$f" ] || { echo "install-filament: $f missing after the install" >&2; exit 1; }
done
echo "install-filament: Filament $(dpkg-query -W -f='${Version}' libfilament-dev) installed"
