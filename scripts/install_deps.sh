#!/usr/bin/env bash
# Installs dagml's build dependencies from Debian's archive when any is missing.
# Usage: scripts/install_deps.sh [extra Debian packages...]
set -euo pipefail
packages=(build-essential clang cmake ninja-build pkg-config libeigen3-dev libtbb-dev libfmt-dev
          libgtest-dev libgmock-dev libbenchmark-dev zlib1g-dev libcereal-dev ccache
          libcli11-dev nlohmann-json3-dev libpng-dev gnuplot-nox libopenmpi-dev openmpi-bin "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "Installing: ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
