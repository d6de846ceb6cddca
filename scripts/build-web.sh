#!/bin/sh
# Builds the web app when apps/web/dist is missing or older than any of its sources.
set -eu
cd "$(dirname "$0")/.."
stamp=apps/web/dist/index.html
if [ -f "$stamp" ] && [ -z "$(find apps/web/src apps/web/public apps/web/index.html apps/web/vite.config.ts packages/contracts/src package-lock.json -newer "$stamp" -print -quit 2>/dev/null)" ]; then
  exit 0
fi
echo "btalk: building the web app" >&2
npm run build --silent -w apps/web >&2
