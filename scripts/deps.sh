#!/usr/bin/env bash
# scripts/deps.sh installs what the test suite needs beyond Go, when it is
# missing: nothing is downloaded when everything is already present.
set -euo pipefail
cd "$(dirname "$0")/.."

# wabt's wat2wasm builds the hand-written WAT guests (wasmhost tests).
if ! command -v wat2wasm >/dev/null 2>&1; then
	echo "deps: installing wabt (wat2wasm) from Debian"
	if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq wabt >/dev/null
fi
