#!/usr/bin/env bash
# `npm test`: the whole suite. The ledger example's PostgreSQL tests need a real server, so this
# starts a throwaway one on 127.0.0.1 first (installing Debian's postgresql when missing, as root),
# unless LEDGER_PG_URL already points at one, and a throwaway redis-server the same way for the
# shared state tests (.ci/redis.sh) unless MCP_GEN_REDIS_URL is set; its browser test needs Debian's chromium, installed
# the same way when missing (.ci/chromium.sh); the consumer matrix needs Node 22 and npm's cache
# filled (below). Extra arguments go to `vitest run`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${LEDGER_PG_URL:-}" ]; then
  # shellcheck source=../.ci/postgres.sh
  source .ci/postgres.sh
fi
# The shared state tests (packages/runtime/test/state) run against Redis too: a throwaway
# redis-server with the append-only file on (Debian's, installed when missing).
if [ -z "${MCP_GEN_REDIS_URL:-}" ]; then
  # shellcheck source=../.ci/redis.sh
  source .ci/redis.sh
fi
# shellcheck source=../.ci/chromium.sh
source .ci/chromium.sh
# The ledger's replica test runs Debian's nginx in front of three servers (installed when missing).
# shellcheck source=../.ci/nginx.sh
source .ci/nginx.sh
# Child processes started by the tests run the compiled packages (dist/): bring them up to date.
npx tsc -b packages/schema packages/runtime packages/codegen
# The consumer matrix (packages/codegen/test/consumer) installs the packed packages offline into new
# projects: npm's cache must hold the registry metadata `npm install` asks for, which `npm ci` does
# not cache (fetched once, when missing).
node --import tsx packages/codegen/test/consumer/fill-npm-cache.ts
# Node 22 for the consumer matrix's type-stripping scenario and the MCP Inspector test, in
# node_modules/.cache/node22 (installed when missing).
# shellcheck source=../.ci/node22.sh
source .ci/node22.sh
npx vitest run "$@"
