# Sourced by scripts/test.sh (bash): the ledger example's replica test runs three `mcp-gen serve`
# processes behind Debian's nginx with examples/ledger/deploy/nginx.conf. Installs the `nginx`
# package when no nginx binary is found (as root), and exports LEDGER_NGINX, the binary's path,
# unless it is set already. The test fails (not skips) without it unless LEDGER_NGINX_SKIP=1.

ledger_nginx_bin() {
  command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true
}

if [ -z "${LEDGER_NGINX:-}" ] && [ "${LEDGER_NGINX_SKIP:-}" != "1" ]; then
  if [ -z "$(ledger_nginx_bin)" ]; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "nginx.sh: nginx is not installed and this is not root: apt-get install -y nginx" >&2
      echo "  (or LEDGER_NGINX=<path to nginx>, or LEDGER_NGINX_SKIP=1 to skip the replica test)" >&2
      return 1 2>/dev/null || exit 1
    fi
    apt-get update -qq
    # Only the binary is needed: the package's own service is never started by the tests
    # (policy-rc.d may still start it on install; the tests use their own config and ports).
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx >/dev/null
  fi
  LEDGER_NGINX="$(ledger_nginx_bin)"
  export LEDGER_NGINX
  echo "nginx $("$LEDGER_NGINX" -v 2>&1 | sed 's/.*nginx\///') at $LEDGER_NGINX (LEDGER_NGINX)"
fi
