# Sourced: starts `mcp-gen serve conformance --http` on a free port (stopped on exit) and sets
# `url` to its endpoint. Needs the compiled packages (npm ci / npx tsc -b).
conformance_log="$(mktemp)"
node packages/codegen/bin/mcp-gen.js serve conformance --http --port 0 2>"$conformance_log" &
conformance_server=$!
trap 'kill "$conformance_server" 2>/dev/null || true; rm -f "$conformance_log"' EXIT

url=""
for _ in $(seq 1 300); do
  url="$(sed -n 's/^mcp-gen: serving conformance (.*) on \(http:[^ ]*\)$/\1/p' "$conformance_log")"
  [ -n "$url" ] && break
  kill -0 "$conformance_server" 2>/dev/null || { cat "$conformance_log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "mcp-gen serve did not start" >&2; cat "$conformance_log" >&2; exit 1; }
