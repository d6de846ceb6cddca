#!/bin/sh
# The load-balancer tests (apps/server/src/cluster/) run Debian's nginx in front of BTalk instances,
# with the site configuration shipped in deploy/nginx/. Installs nginx-light with apt-get when it is
# missing and we are root; otherwise says how (the tests then skip, or fail under CI=true).
set -eu
NGINX=${NGINX_PATH:-/usr/sbin/nginx}
[ -x "$NGINX" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "btalk: installing Debian's nginx-light for the load-balancer tests" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >&2
else
  echo "btalk: the load-balancer tests need nginx at $NGINX: install it (sudo apt-get install nginx-light) or set NGINX_PATH" >&2
  if [ "${CI:-}" = true ]; then exit 1; fi
fi
