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

# vitest writes to a file while playwright prints as it goes (and to a file too); the vitest file is
# printed once both are done, then, when the browser tests failed, their report of the failures again,
# so that the end of the output, often all a CI log keeps, names whatever failed.
step "unit and API tests (vitest) beside the browser tests (playwright, Debian chromium)"
vitest_log=$(mktemp "${TMPDIR:-/tmp}/btalk-vitest.XXXXXX")
e2e_log=$(mktemp "${TMPDIR:-/tmp}/btalk-e2e.XXXXXX")
vitest_pid=
trap 'rm -f "$vitest_log" "$e2e_log" "$e2e_log.status"; [ -z "$vitest_pid" ] || kill "$vitest_pid" 2>/dev/null || true' EXIT
started=$(date +%s)
npx vitest run >"$vitest_log" 2>&1 &
vitest_pid=$!
set +e
{
  npm run --silent test -w e2e
  echo $? >"$e2e_log.status"
} 2>&1 | tee "$e2e_log"
e2e_status=$(cat "$e2e_log.status")
printf '\nbrowser tests: exit %s after %ss\n' "$e2e_status" "$(($(date +%s) - started))"
wait "$vitest_pid"
vitest_status=$?
set -e
step "unit and API tests (vitest): exit $vitest_status"
cat "$vitest_log"
if [ "$e2e_status" -ne 0 ]; then
  step "browser tests (playwright): exit $e2e_status; their report from the first failure on"
  # The list reporter's summary starts at the first numbered failure ("  1) tests/... ›"); a run that
  # failed before any test (the global set-up, say) has none, and its last lines tell instead.
  if grep -q '^  1) ' "$e2e_log"; then sed -n '/^  1) /,$p' "$e2e_log" | tail -n 400; else tail -n 80 "$e2e_log"; fi
fi
step "unit and API tests: exit $vitest_status; browser tests: exit $e2e_status"
[ "$e2e_status" -eq 0 ] && [ "$vitest_status" -eq 0 ]
