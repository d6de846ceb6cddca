#!/bin/sh
# `npm test`: lint and format check, typecheck, the web build and the first screen size budget, then
# the unit and API tests (SQLite and PostgreSQL) and the browser tests against a real server side by
# side (each alone would leave one of CI's two cores idle much of the time). Stops at the first failing
# step; the two suites both run to the end and the step fails if either failed.
set -eu
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*"; }
step "lint and format (biome)"
npx biome check .
step "typecheck (tsc)"
npm run --silent typecheck
step "Debian nginx for the load-balancer tests"
sh scripts/ensure-nginx.sh
step "web build"
sh scripts/build-web.sh
step "Debian chromium for the browser tests"
sh scripts/ensure-chromium.sh
step "first screen size budget (bench/web-size.ts)"
node --experimental-strip-types --disable-warning=ExperimentalWarning bench/web-size.ts

# vitest writes to a file while playwright prints as it goes; the file is printed once both are done.
step "unit and API tests (vitest) beside the browser tests (playwright, Debian chromium)"
vitest_log=$(mktemp "${TMPDIR:-/tmp}/btalk-vitest.XXXXXX")
vitest_pid=
trap 'rm -f "$vitest_log"; [ -z "$vitest_pid" ] || kill "$vitest_pid" 2>/dev/null || true' EXIT
started=$(date +%s)
npx vitest run >"$vitest_log" 2>&1 &
vitest_pid=$!
set +e
npm run --silent test -w e2e
e2e_status=$?
printf '\nbrowser tests: exit %s after %ss\n' "$e2e_status" "$(($(date +%s) - started))"
wait "$vitest_pid"
vitest_status=$?
set -e
step "unit and API tests (vitest): exit $vitest_status"
cat "$vitest_log"
[ "$e2e_status" -eq 0 ] && [ "$vitest_status" -eq 0 ]
