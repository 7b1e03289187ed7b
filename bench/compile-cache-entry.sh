#!/bin/bash
# Node's compile cache A/B for a server entry (bench/README.md, "Start-up the platform offers"): the economics
# example served over stdio by bench/results/bundle/entry.ts (serveOverStdio, run through Node's type stripping
# on Node 22.18+) and the same entry bundled by esbuild into entry.mjs; arms off, empty cache, warm cache.
# usage: bash bench/compile-cache-entry.sh <node binary> <rounds>, from the repository root, after
#   mkdir -p bench/results/bundle && the entry of bench/README.md written there and bundled as shown there
NODE=$1; R=$2
INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
export NODE_COMPILE_CACHE=/tmp/ncc-warm-prod
echo "$INIT" | $NODE bench/results/bundle/entry.ts >/dev/null 2>&1
echo "$INIT" | $NODE bench/results/bundle/entry.mjs >/dev/null 2>&1
for i in $(seq $R); do
  for arm in off empty warm; do
    for f in entry.ts entry.mjs; do
      case $arm in off) unset NODE_COMPILE_CACHE;; empty) rm -rf /tmp/ncc-empty-prod; export NODE_COMPILE_CACHE=/tmp/ncc-empty-prod;; warm) export NODE_COMPILE_CACHE=/tmp/ncc-warm-prod;; esac
      echo "$INIT" | /usr/bin/time -f "$arm $f %e %U %S" $NODE bench/results/bundle/$f >/dev/null 2>/tmp/cc-err || true; tail -1 /tmp/cc-err
    done
  done
done
