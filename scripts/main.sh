#!/usr/bin/env bash
# scripts/main.sh: set up, build, and run lbfarm's main job on the
# embedded default: a local single-host PVM that lbmaster starts and
# halts by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec ./master/lbmaster "$@"
