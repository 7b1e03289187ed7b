# Sourced by scripts/test.sh (bash): the ledger example's browser test drives Debian's Chromium with
# playwright-core, and fails (not skips) when it is missing, so this installs Debian's `chromium`
# package when /usr/bin/chromium is missing (as root), unless LEDGER_CHROMIUM points at another build
# or LEDGER_BROWSER_SKIP=1 opts out locally.

if [ -z "${LEDGER_CHROMIUM:-}" ] && [ "${LEDGER_BROWSER_SKIP:-}" != "1" ] && [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "chromium.sh: Chromium is not installed and this is not root: apt-get install -y chromium" >&2
    echo "  (or LEDGER_CHROMIUM=<path to chromium>, or LEDGER_BROWSER_SKIP=1 to skip the browser test)" >&2
    return 1 2>/dev/null || exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
