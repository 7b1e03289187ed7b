# Sourced by scripts/test.sh (bash): starts a throwaway redis-server on 127.0.0.1 for the shared
# state tests (packages/runtime/src/state) and exports MCP_GEN_REDIS_URL, plus MCP_GEN_REDIS_SERVER
# (the binary) so tests can start their own to restart. Installs Debian's `redis-server` package
# when it is missing (as root). Append-only file on (fsync every write): a restarted server keeps
# what it had. The data lives in a temp dir, and the server is stopped and removed on exit.

mcp_gen_redis_bin() {
  command -v redis-server 2>/dev/null || { [ -x /usr/bin/redis-server ] && echo /usr/bin/redis-server; } || true
}

if [ -z "$(mcp_gen_redis_bin)" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "redis.sh: redis-server is not installed and this is not root: apt-get install -y redis-server" >&2
    return 1 2>/dev/null || exit 1
  fi
  apt-get update -qq
  # Only the binary is needed: the package's own service is never used by the tests.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null
fi

MCP_GEN_REDIS_SERVER="$(mcp_gen_redis_bin)"
MCP_GEN_REDIS_DIR="$(mktemp -d "${TMPDIR:-/tmp}/mcp-gen-redis.XXXXXX")"
MCP_GEN_REDIS_PORT="$(node -e 'const s=require("node:net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
"$MCP_GEN_REDIS_SERVER" --bind 127.0.0.1 --port "$MCP_GEN_REDIS_PORT" --dir "$MCP_GEN_REDIS_DIR" \
  --appendonly yes --appendfsync always --save "" --daemonize yes \
  --pidfile "$MCP_GEN_REDIS_DIR/redis.pid" --logfile "$MCP_GEN_REDIS_DIR/redis.log"
for _ in $(seq 1 50); do
  [ -s "$MCP_GEN_REDIS_DIR/redis.pid" ] && (exec 3<>"/dev/tcp/127.0.0.1/$MCP_GEN_REDIS_PORT") 2>/dev/null && break
  sleep 0.1
done

mcp_gen_redis_stop() {
  [ -s "$MCP_GEN_REDIS_DIR/redis.pid" ] && kill "$(cat "$MCP_GEN_REDIS_DIR/redis.pid")" 2>/dev/null || true
  rm -rf "$MCP_GEN_REDIS_DIR"
}
# Chained with the traps set before (postgres.sh sets one on EXIT too).
trap "mcp_gen_redis_stop; $(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")" EXIT

export MCP_GEN_REDIS_URL="redis://127.0.0.1:$MCP_GEN_REDIS_PORT"
export MCP_GEN_REDIS_SERVER
echo "Redis $("$MCP_GEN_REDIS_SERVER" --version | sed -E 's/.*v=([^ ]+).*/\1/') on 127.0.0.1:$MCP_GEN_REDIS_PORT (MCP_GEN_REDIS_URL, append-only)"
