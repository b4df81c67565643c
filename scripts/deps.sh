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

# git answers the gitignore matcher's differential tests
# (core/internal/gitignore: git check-ignore is the reference).
if ! command -v git >/dev/null 2>&1; then
	echo "deps: installing git from Debian"
	if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq git >/dev/null
fi

# tmux is the real terminal the interactive mode's tests drive
# (smith/tui_tmux_test.go): they type into it and read its screen.
if ! command -v tmux >/dev/null 2>&1; then
	echo "deps: installing tmux from Debian"
	if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq tmux >/dev/null
fi

# Debian bookworm's rustc 1.63.0 with the wasm32-wasi standard library
# builds the Rust system plugins (tools/pluginbuild, whose -check rebuild
# must be byte-identical, so the version is pinned) and their tests. A
# rustup toolchain in PATH is not used: pluginbuild looks at /usr/bin/rustc.
rust_pin=1.63.0+dfsg1-2
if ! /usr/bin/rustc --version 2>/dev/null | grep -qx 'rustc 1.63.0' ||
	! [ -d /usr/lib/rustlib/wasm32-wasi ]; then
	echo "deps: installing rustc $rust_pin and libstd-rust-dev-wasm32 from Debian"
	if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "rustc=$rust_pin" "libstd-rust-dev-wasm32=$rust_pin" >/dev/null
fi
# rustfmt of the same release checks the Rust sources' formatting
# (scripts/test.sh); /usr/bin/rustfmt, as for rustc.
if ! /usr/bin/rustfmt --version 2>/dev/null | grep -q '^rustfmt 1\.'; then
	echo "deps: installing rustfmt $rust_pin from Debian"
	if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "rustfmt=$rust_pin" >/dev/null
fi

# jco (npm @bytecodealliance/jco, pinned in tools/jco/package.json and its
# package-lock.json) componentizes the Go conformance guest and runs it in
# Node (core/internal/pluginabi/internal/conformance). Installed with npm ci
# when missing or at another version.
jco_pin=$(sed -n 's/.*"@bytecodealliance\/jco": "\([^"]*\)".*/\1/p' tools/jco/package.json)
jco_pkg=tools/jco/node_modules/@bytecodealliance/jco/package.json
if ! [ -x tools/jco/node_modules/.bin/jco ] || ! grep -q "\"version\": \"$jco_pin\"" "$jco_pkg" 2>/dev/null; then
	if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
		echo "deps: installing nodejs and npm from Debian"
		if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
		$sudo apt-get update -qq
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null
	fi
	echo "deps: installing jco $jco_pin (npm ci in tools/jco)"
	npm ci --prefix tools/jco --no-audit --no-fund --loglevel=error >/dev/null
fi

# The official MCP TypeScript SDK (npm @modelcontextprotocol/sdk, pinned in
# tools/mcpclient/package.json and its package-lock.json) is the second MCP
# client of `smith mcp`'s conformance test (smith/internal/mcp). Installed
# with npm ci when missing or at another version.
mcp_pin=$(sed -n 's/.*"@modelcontextprotocol\/sdk": "\([^"]*\)".*/\1/p' tools/mcpclient/package.json)
mcp_pkg=tools/mcpclient/node_modules/@modelcontextprotocol/sdk/package.json
if ! grep -q "\"version\": \"$mcp_pin\"" "$mcp_pkg" 2>/dev/null; then
	if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
		echo "deps: installing nodejs and npm from Debian"
		if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
		$sudo apt-get update -qq
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null
	fi
	echo "deps: installing the MCP TypeScript SDK $mcp_pin (npm ci in tools/mcpclient)"
	npm ci --prefix tools/mcpclient --no-audit --no-fund --loglevel=error >/dev/null
fi
