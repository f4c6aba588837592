#!/usr/bin/env bash
# scripts/setup.sh: the shared set-up of the README's two commands.
# Installs the Debian packages lbfarm needs (as root; otherwise prints
# the exact apt-get line and stops), then autoreconf, configure, make.
set -euo pipefail
cd "$(dirname "$0")/.."

# One list, one reason each: docs/DEPENDENCIES.md.
packages=(
  gcc make autoconf automake pkgconf   # toolchain and autotools
  pvm pvm-dev                          # PVM3 daemon, console, libpvm3
  libgsl-dev                           # eigenvalues, RNG, statistics
  libopenblas-dev                      # dgemm kernel of the matmul workload
  libcmocka-dev                        # unit-test framework
  gnuplot-nox                          # figures from CSV
  libglpk-dev glpk-utils               # independent LP solver for cross-checks
  iproute2                             # network namespaces for six hosts
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing Debian packages. Run this, then run me again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "setup: autoreconf, configure, make" >&2
autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
./configure -q
make -j"$(nproc)" >/dev/null || make
