#!/usr/bin/env bash
# scripts/gencheck.sh regenerates everything tools/witgen derives from the WIT
# (Go guest bindings, Go host bindings, the WorldSpec, the plugin reference;
# the generations are listed in tools/witgen/main.go, repoConfigs) and fails
# on any difference from the files in the tree, naming each one.
#   scripts/gencheck.sh          check (what scripts/test.sh runs)
#   scripts/gencheck.sh -write   regenerate in place
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = -write ]; then
	go run ./tools/witgen -repo
else
	go run ./tools/witgen -repo -check
fi

# The system plugin artifacts in smith/internal/sysplugins: tools/pluginbuild
# rebuilds them from plugins-src and fails on any byte difference (-write
# rebuilds them in place).
if [ "${1:-}" = -write ]; then
	go run ./tools/pluginbuild
else
	go run ./tools/pluginbuild -check
fi
