#!/usr/bin/env bash
# Runs a command with another major version of Node first on the PATH, for the tests of code whose dependencies
# declare a newer Node than the machine's (the AI SDK harness wants Node 22):
#
#   tools/with-node.sh 22 pnpm exec vitest run packages/ai-sdk/test/harness
#
# The first time, that Node is installed from the npm registry (the `node-<os>-<arch>` package, which holds the
# binary and runs no install script) into a cache: $CURSOR_STREAM_NODE_CACHE, else ~/.cache/cursor-stream/node.
set -euo pipefail

if [ "$#" -lt 2 ]; then
  echo "usage: tools/with-node.sh MAJOR COMMAND [ARGUMENT...]" >&2
  exit 2
fi
major=$1
shift
case "$major" in
  '' | *[!0-9]*)
    echo "with-node: MAJOR is a Node major version such as 22, not '$major'" >&2
    exit 2
    ;;
esac
case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *)
    echo "with-node: the npm registry has no Node package for $(uname -s)" >&2
    exit 2
    ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *)
    echo "with-node: the npm registry has no Node package for $(uname -m)" >&2
    exit 2
    ;;
esac

package="node-$os-$arch"
cache="${CURSOR_STREAM_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cursor-stream/node}/$major-$os-$arch"
bin="$cache/node_modules/$package/bin"
if [ ! -x "$bin/node" ]; then
  echo "with-node: installing $package@$major into $cache" >&2
  mkdir -p "$cache"
  if ! npm install --prefix "$cache" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts \
    "$package@$major" >&2; then
    echo "with-node: npm could not install $package@$major (is the npm registry reachable?)" >&2
    exit 1
  fi
fi
installed=$("$bin/node" -p 'process.versions.node.split(".")[0]')
if [ "$installed" != "$major" ]; then
  echo "with-node: $bin/node is Node $installed, not Node $major; remove $cache to install it again" >&2
  exit 1
fi
echo "with-node: Node $("$bin/node" --version) runs: $*" >&2
PATH="$bin:$PATH" exec "$@"
