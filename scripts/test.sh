#!/usr/bin/env bash
# `npm test`: the whole suite. The ledger example's PostgreSQL tests need a real server, so this
# starts a throwaway one on 127.0.0.1 first (installing Debian's postgresql when missing, as root),
# unless LEDGER_PG_URL already points at one; its browser test needs Debian's chromium, installed
# the same way when missing (.ci/chromium.sh). Extra arguments go to `vitest run`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${LEDGER_PG_URL:-}" ]; then
  # shellcheck source=../.ci/postgres.sh
  source .ci/postgres.sh
fi
# shellcheck source=../.ci/chromium.sh
source .ci/chromium.sh
# Child processes started by the tests run the compiled packages (dist/): bring them up to date.
npx tsc -b packages/schema packages/runtime packages/codegen
npx vitest run "$@"
