#!/bin/sh
# Runs the pnpm this repository pins (package.json's packageManager) as any user, without root and without a
# prompt, with that pnpm first on the PATH so that the scripts' own `pnpm` calls find it:
#
#   tools/pnpm.sh install --frozen-lockfile && tools/pnpm.sh test
#
# Where Node ships corepack (Node 24 and older), corepack links pnpm into a cache folder and fetches the pinned
# version, checked against its sha512, without asking; Node 25 ships no corepack, so npm installs the pinned version
# into that folder from the npm registry. The folder is $CURSOR_STREAM_PNPM_CACHE, else ~/.cache/cursor-stream/pnpm.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
version=$(node -p 'require(process.argv[1]).packageManager.replace(/^pnpm@/, "").replace(/\+.*$/, "")' \
  "$root/package.json")
cache="${CURSOR_STREAM_PNPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cursor-stream/pnpm}/$version"
export COREPACK_ENABLE_DOWNLOAD_PROMPT=0

if [ ! -x "$cache/bin/pnpm" ]; then
  mkdir -p "$cache/bin"
  if command -v corepack >/dev/null 2>&1; then
    corepack enable --install-directory "$cache/bin" pnpm
  else
    echo "pnpm.sh: no corepack in this Node: installing pnpm@$version from the npm registry into $cache" >&2
    npm install --prefix "$cache" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts \
      "pnpm@$version" >&2
    ln -sf ../node_modules/pnpm/bin/pnpm.cjs "$cache/bin/pnpm"
  fi
fi
PATH="$cache/bin:$PATH" exec pnpm "$@"
