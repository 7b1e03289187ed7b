#!/bin/bash
# Node's compile cache A/B for the mcp-gen CLI (bench/README.md, "Start-up the platform offers").
# usage: bash bench/compile-cache-ab.sh <node binary> <rounds>, from the repository root, after
# npx tsx bench/corpus-distinct.ts 25; prints "<arm> <command> <wall> <user> <sys>" per run.
NODE=$1; R=$2; C=bench/corpus/distinct-25/mcp-gen.config.ts
INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
export NODE_COMPILE_CACHE=/tmp/ncc-warm
$NODE packages/codegen/bin/mcp-gen.js build --check --config $C >/dev/null 2>&1
echo "$INIT" | $NODE packages/codegen/bin/mcp-gen.js serve economics >/dev/null 2>&1
for i in $(seq $R); do
  for arm in off empty warm; do
    case $arm in off) export NODE_DISABLE_COMPILE_CACHE=1; export NODE_COMPILE_CACHE=/tmp/ncc-warm;; empty) unset NODE_DISABLE_COMPILE_CACHE; rm -rf /tmp/ncc-empty; export NODE_COMPILE_CACHE=/tmp/ncc-empty;; warm) unset NODE_DISABLE_COMPILE_CACHE; export NODE_COMPILE_CACHE=/tmp/ncc-warm;; esac
    /usr/bin/time -f "$arm build %e %U %S" $NODE packages/codegen/bin/mcp-gen.js build --check --config $C >/dev/null 2>/tmp/cc-err || true; tail -1 /tmp/cc-err
    [ $arm = empty ] && rm -rf /tmp/ncc-empty
    echo "$INIT" | /usr/bin/time -f "$arm serve %e %U %S" $NODE packages/codegen/bin/mcp-gen.js serve economics >/dev/null 2>/tmp/cc-err || true; tail -1 /tmp/cc-err
  done
done
