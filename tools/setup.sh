#!/usr/bin/env bash
# Prepares a fresh Debian/Ubuntu machine with Node 20: installs the system packages the local
# stack and its tests run (only those missing; apt-get update only then), then the npm dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
[ -x /usr/lib/postgresql/15/bin/postgres ] && [ -x /usr/lib/postgresql/15/bin/initdb ] || missing+=(postgresql-15)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
# The lab page's browser test drives Debian's Chromium through playwright-core (no browser download).
[ -x /usr/bin/chromium ] || missing+=(chromium)

if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: nginx, docker-compose, postgresql-15, redis-server and chromium are present"
fi

npm ci --no-audit --no-fund
