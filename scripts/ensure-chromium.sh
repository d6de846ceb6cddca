#!/bin/sh
# The browser tests use Debian's Chromium (never a browser that a test tool downloads), and the
# Teams tab test makes a one-run certificate with Debian's openssl (teams-js needs https).
# Installs what is missing with apt-get when we are root; otherwise says how.
set -eu
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
missing=""
[ -x "$CHROMIUM" ] || missing="chromium"
command -v openssl >/dev/null 2>&1 || missing="$missing openssl"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "btalk: installing Debian's$missing for the browser tests" >&2
  apt-get update -qq >&2
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >&2
else
  echo "btalk: the browser tests need$missing: install it (sudo apt-get install$missing) or set CHROMIUM_PATH" >&2
  exit 1
fi
