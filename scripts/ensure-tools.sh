#!/usr/bin/env bash
# Installs the project's npm tooling (Azurite, cosmosdb-server, playwright-core, @azure/data-tables for bench/node, DuckDB) into tools/node_modules from the lock
# file, once, and again whenever the lock file changes.
set -euo pipefail
tools="$(cd "$(dirname "$0")/../tools" && pwd)"
if [[ ! -x "$tools/node_modules/.bin/azurite-table" || "$tools/package-lock.json" -nt "$tools/node_modules/.package-lock.json" ]]; then
  echo "Installing Azurite into tools/node_modules (npm ci)..." >&2
  npm ci --prefix "$tools" --no-audit --no-fund --loglevel=error >&2
fi
