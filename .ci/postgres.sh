# Sourced by .ci/run (bash): starts a throwaway PostgreSQL on 127.0.0.1 for the ledger example's
# tests and exports LEDGER_PG_URL. Installs Debian's `postgresql` package when it is missing.
# The cluster lives in a temp dir, listens on a free port, and is stopped and removed on exit.
# Local use: `source .ci/postgres.sh` in your shell, then `npm test`.

ledger_pg_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

if [ -z "$(ledger_pg_bin)" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "postgres.sh: PostgreSQL is not installed and this is not root: apt-get install -y postgresql" >&2
    return 1 2>/dev/null || exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi

LEDGER_PG_BINDIR="$(ledger_pg_bin)"
LEDGER_PG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/ledger-pg.XXXXXX")"
LEDGER_PG_PORT="$(node -e 'const s=require("node:net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"

# initdb refuses to run as root: run the cluster as the `postgres` user the package creates.
if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$LEDGER_PG_DIR"
  ledger_pg_as() { (cd / && runuser -u postgres -- "$@"); }
else
  ledger_pg_as() { "$@"; }
fi

ledger_pg_as "$LEDGER_PG_BINDIR/initdb" -D "$LEDGER_PG_DIR/data" -U ledger -A trust -E UTF8 --no-sync >/dev/null
ledger_pg_as "$LEDGER_PG_BINDIR/pg_ctl" -D "$LEDGER_PG_DIR/data" -l "$LEDGER_PG_DIR/server.log" -w \
  -o "-h 127.0.0.1 -p $LEDGER_PG_PORT -k $LEDGER_PG_DIR -c fsync=off -c max_connections=200" start >/dev/null

ledger_pg_stop() {
  ledger_pg_as "$LEDGER_PG_BINDIR/pg_ctl" -D "$LEDGER_PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$LEDGER_PG_DIR"
}
# Chained with the traps set before (redis.sh sets one on EXIT too), in whichever order they are sourced.
trap "ledger_pg_stop; $(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")" EXIT

export LEDGER_PG_URL="postgres://ledger@127.0.0.1:$LEDGER_PG_PORT/postgres"
echo "PostgreSQL $("$LEDGER_PG_BINDIR/postgres" --version | awk '{print $3}') on 127.0.0.1:$LEDGER_PG_PORT (LEDGER_PG_URL)"
