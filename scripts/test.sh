#!/bin/sh
# `npm test`: lint and format check, typecheck, unit and API tests (SQLite and PostgreSQL), then the
# first screen size budget and the browser tests against a real server. Stops at the first failing step.
set -eu
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*"; }
step "lint and format (biome)"
npx biome check .
step "typecheck (tsc)"
npm run --silent typecheck
step "Debian nginx for the load-balancer tests"
sh scripts/ensure-nginx.sh
step "unit and API tests (vitest)"
npx vitest run
step "web build"
sh scripts/build-web.sh
step "Debian chromium for the browser tests"
sh scripts/ensure-chromium.sh
step "first screen size budget (bench/web-size.ts)"
node --experimental-strip-types --disable-warning=ExperimentalWarning bench/web-size.ts
step "browser tests (playwright, Debian chromium)"
npm run --silent test -w e2e
