#!/bin/sh
# The browser tests use Debian's Chromium (never a browser that a test tool downloads).
# Installs it with apt-get when it is missing and we are root; otherwise says how.
set -eu
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "btalk: installing Debian's chromium for the browser tests" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
else
  echo "btalk: the browser tests need Chromium at $CHROMIUM: install it (sudo apt-get install chromium) or set CHROMIUM_PATH" >&2
  exit 1
fi
