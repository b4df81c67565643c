#!/usr/bin/env bash
# scripts/deps.sh installs what the test suite needs beyond Go, when it is
# missing: nothing is downloaded when everything is already present.
set -euo pipefail
cd "$(dirname "$0")/.."
