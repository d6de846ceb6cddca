#!/bin/sh
# Realtime fan-out benchmark: see bench/realtime.ts. Raises the open-file limit for 5,000 sockets
# on each side, then runs with the project's Node.
set -eu
cd "$(dirname "$0")/.."
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
exec node --experimental-strip-types --disable-warning=ExperimentalWarning bench/realtime.ts "$@"
