#!/bin/sh
# `npm start`: builds the web app if needed, then runs the server on its embedded defaults
# (SQLite in ./data, the built-in development directory, http://localhost:8080). Migrations run on start.
set -eu
cd "$(dirname "$0")/.."
sh scripts/build-web.sh
exec node --experimental-strip-types --disable-warning=ExperimentalWarning apps/server/src/main.ts
