#!/bin/sh
# Regenerates this folder's records with AbstractPlay's own code:
#   tests/data/abstractplay/make.sh /path/to/AbstractPlay/gameslib
# (a checkout of github.com/AbstractPlay/gameslib; this script ran against
# commit b8c31156). Needs Node >= 18 and npm with access to the registry.
# Bundles gen.ts with esbuild against the checkout (in a scratch folder,
# with only the packages the three games need) and runs it under Node.
# Nothing of gameslib is kept here: only gen.ts, this script and the
# records they write.
set -eu
gameslib=$(cd "${1:?usage: make.sh GAMESLIB_CHECKOUT}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y > /dev/null
npm install --no-audit --no-fund --silent esbuild i18next fnv-plus graphology \
    graphology-components graphology-shortest-path graphology-simple-path \
    json-stringify-deterministic lodash js-combinatorics@2 honeycomb-grid@4.1.1
sed "s#GAMESLIB#$gameslib#" "$here/gen.ts" > gen.ts
NODE_PATH="$work/node_modules" npx esbuild gen.ts --bundle --platform=node --log-level=error --outfile=gen.js
rm -rf "$here/single" "$here/meta-iqishiqi.json" "$here/ALL.json"
node gen.js "$here"
