#!/usr/bin/env bash
# Prints the bin directory of the Node release the images ship (.node-version): the machine's own
# when it is that release, else .data/node-<version>, fetched once from the npm registry
# (node-linux-<arch>, checked against the registry's integrity hash by npm pack).
# Used by .ci/run (the tests run on it) and by `npm run bench` (the figures are taken on it).
set -euo pipefail
cd "$(dirname "$0")/.."
want="$(cat .node-version)"
if [ "$(node -v 2>/dev/null || true)" = "v$want" ]; then dirname "$(command -v node)"; exit 0; fi
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "no Node $want package for $(uname -m)" >&2; exit 1 ;;
esac
dir="$PWD/.data/node-$want"
if [ ! -x "$dir/bin/node" ]; then
  echo "fetching Node $want (node-linux-$arch from the npm registry; this machine has $(node -v 2>/dev/null || echo none))" >&2
  mkdir -p "$dir"
  (cd "$dir" && npm pack --silent "node-linux-$arch@$want" >/dev/null && tar xzf "node-linux-$arch-$want.tgz" --strip-components=1 && rm "node-linux-$arch-$want.tgz")
fi
echo "$dir/bin"
